#!/bin/sh
# Regenerates the SPIR-V of the execution corpus: every cl/<name>.cl becomes
# spv/O0/<name>.spv and spv/O2/<name>.spv (with spirv-dis text beside each),
# with exactly
#   clang-15 -cl-std=CL2.0 -target spir64 -O<n> -emit-llvm -c f.cl -o f.bc
#   llvm-spirv-15 --spirv-max-version=1.0 f.bc -o f.spv
# The tests read only the checked-in .spv files; run this after editing a
# .cl file and check in what changes. `./regen.sh name...` regenerates only
# the named files. A .cl file may add clang flags with a line
#   // regen.sh flags: <flags>
# (printf.cl compiles without cl_khr_fp64, so its float arguments stay
# float). Headers (cl/*.h) are only #included by .cl files (the
# compiler runs inside cl/); they make no module of their own.
#
# Needs (Debian 12): apt-get install -y clang-15 llvm-spirv-15 spirv-tools
set -eu
here=$(cd "$(dirname "$0")" && pwd)
CLANG=${CLANG:-clang-15}
LLVM_SPIRV=${LLVM_SPIRV:-llvm-spirv-15}
for tool in "$CLANG" "$LLVM_SPIRV" spirv-dis; do
    command -v "$tool" >/dev/null || {
        echo "regen.sh: $tool is missing (apt-get install -y clang-15 llvm-spirv-15 spirv-tools)" >&2
        exit 1
    }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ $# -gt 0 ]; then names="$*"; else names=$(cd "$here/cl" && ls *.cl | sed 's/\.cl$//'); fi
fail=0
for O in 0 2; do
    d="$here/spv/O$O"
    mkdir -p "$d"
    for name in $names; do
        name=$(basename "$name" .cl)
        flags=$(sed -n 's|^// regen.sh flags: ||p' "$here/cl/$name.cl" | head -n 1)
        # Compile from inside cl/ with a relative name, so nothing machine-specific lands in the module.
        # shellcheck disable=SC2086 # $flags is a list of words
        if ! (cd "$here/cl" && "$CLANG" -cl-std=CL2.0 -target spir64 $flags -O"$O" -emit-llvm -c "$name.cl" -o "$tmp/$name.bc" &&
            "$LLVM_SPIRV" --spirv-max-version=1.0 "$tmp/$name.bc" -o "$d/$name.spv"); then
            echo "FAIL $name -O$O" >&2
            fail=1
            continue
        fi
        spirv-dis "$d/$name.spv" -o "$d/$name.spvasm"
        echo "ok   O$O/$name.spv ($(wc -c <"$d/$name.spv") bytes)"
    done
done
exit $fail
