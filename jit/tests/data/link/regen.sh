#!/bin/sh
# Regenerates the linker tests' object modules from the OpenCL C sources
# (clang-15 and llvm-spirv-15; CI reads the checked-in .spv files).
set -e
cd "$(dirname "$0")"
for f in *.cl; do
  b=${f%.cl}
  clang-15 -cl-std=CL2.0 -target spir64 -O2 -emit-llvm -c "$f" -o "$b.bc"
  llvm-spirv-15 --spirv-max-version=1.0 "$b.bc" -o "$b.spv"
  rm -f "$b.bc"
  if command -v spirv-dis >/dev/null; then spirv-dis "$b.spv" -o "$b.spvasm"; fi
done
