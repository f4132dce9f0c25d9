#!/bin/sh
# Regenerates every generated file of the SPIR-V corpus. The tests read only
# the checked-in results; run this after editing cl/*.cl, invalid/*.spvasm,
# tricky/*.spvasm or invalid/make.py, and check in what changes.
#
#   ./regen.sh
#
# Needs (Debian 12): apt-get install -y clang-15 llvm-spirv-15 spirv-tools python3
#
# 1. cl/<name>.cl -> spv/O0/<name>.spv and spv/O2/<name>.spv, each with its
#    spirv-dis text beside it (<name>.spvasm), with exactly
#      clang-15 -cl-std=CL2.0 -target spir64 -O<n> -emit-llvm -c f.cl -o f.bc
#      llvm-spirv-15 --spirv-max-version=1.0 f.bc -o f.spv
# 2. spirv-val --target-env opencl2.2 on each: a rejection is reported (and
#    listed in spv/spirv-val.txt), not fatal. clang-15 -O2 + llvm-spirv-15
#    emit modules spirv-val rejects (a loop exit laid out before the loop body
#    that dominates it, an OpVariable after the first instruction of a block,
#    an OpSelect with a scalar condition and vector operands, an OpPhi naming
#    one predecessor twice); they are what applications hand to OpenCL, and
#    clift must build them.
# 3. invalid/make.py: assembles invalid/*.spvasm and tricky/*.spvasm (computing
#    each `; expect-word:`), writes invalid/header/*.bin and the derived tricky
#    modules (byte-swapped, version-patched copies of corpus modules).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
CLANG=${CLANG:-clang-15}
LLVM_SPIRV=${LLVM_SPIRV:-llvm-spirv-15}
for tool in "$CLANG" "$LLVM_SPIRV" spirv-as spirv-dis spirv-val python3; do
    command -v "$tool" >/dev/null || {
        echo "regen.sh: $tool is missing (apt-get install -y clang-15 llvm-spirv-15 spirv-tools python3)" >&2
        exit 1
    }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
report="$here/spv/spirv-val.txt"
mkdir -p "$here/spv"
{
    echo "# Corpus modules spirv-val --target-env opencl2.2 rejects (written by regen.sh)."
    echo "# Not errors of the corpus: clang-15 + llvm-spirv-15 emit them; clift must build them."
} >"$report"
fail=0
nwarn=0
for O in 0 2; do
    d="$here/spv/O$O"
    mkdir -p "$d"
    rm -f "$d"/*.spv "$d"/*.spvasm
    for src in "$here"/cl/*.cl; do
        name=$(basename "$src" .cl)
        # Compile from inside cl/ with a relative name, so nothing machine-specific lands in the module.
        if ! (cd "$here/cl" && "$CLANG" -cl-std=CL2.0 -target spir64 -O"$O" -emit-llvm -c "$name.cl" -o "$tmp/$name.bc" &&
            "$LLVM_SPIRV" --spirv-max-version=1.0 "$tmp/$name.bc" -o "$d/$name.spv"); then
            echo "FAIL $name -O$O" >&2
            fail=1
            continue
        fi
        spirv-dis "$d/$name.spv" -o "$d/$name.spvasm"
        if ! spirv-val --target-env opencl2.2 "$d/$name.spv" 2>"$tmp/val.txt" >/dev/null; then
            first=$(grep -m1 . "$tmp/val.txt" || true)
            echo "WARN spirv-val O$O/$name.spv: $first" >&2
            echo "O$O/$name.spv: $first" >>"$report"
            nwarn=$((nwarn + 1))
        fi
        echo "ok   O$O/$name.spv ($(wc -c <"$d/$name.spv") bytes)"
    done
done
[ $nwarn = 0 ] || echo "$nwarn corpus module(s) rejected by spirv-val (kept; listed in spv/spirv-val.txt)" >&2
python3 "$here/invalid/make.py" || fail=1
exit $fail
