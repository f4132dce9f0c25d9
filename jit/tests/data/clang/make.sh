#!/bin/sh
# Rebuilds the clang-produced test modules (clang-15, llvm-spirv-15 and
# spirv-tools from Debian), the way clbench's make-spv.sh does, keeping the
# kernel_arg_type OpStrings.
set -eu
cd "$(dirname "$0")"
for src in *.cl; do
    name=$(basename "$src" .cl)
    for O in 0 2; do
        clang-15 -cl-std=CL2.0 -target spir64 -O$O -cl-kernel-arg-info -emit-llvm -c "$src" -o "/tmp/$name.bc"
        llvm-spirv-15 --spirv-max-version=1.0 --preserve-ocl-kernel-arg-type-metadata-through-string "/tmp/$name.bc" -o "${name}_O$O.spv"
        spirv-dis "${name}_O$O.spv" -o "${name}_O$O.spvasm"
    done
done
