#!/bin/sh
# Copies the seed modules of the `codegen` target into a corpus directory
# (default /tmp/clift-fuzz/codegen): the conformance kernels and corpus,
# conformance/spirv, clbench's modules, seeds/ and tests/data/codegen/builtins.spv
# (the other modules there reproduce fixed bugs: slow to compile by design).
# The corpus stays out of git.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$here/../..
out=${1:-/tmp/clift-fuzz/codegen}
mkdir -p "$out"
for f in "$root"/conformance/kernels/spv/*/*.spv "$root"/conformance/corpus/spv/*/*.spv \
    "$root"/conformance/spirv/*.spv "$root"/../shared/clbench/spv/*/*.spv "$here"/seeds/*.spv \
    "$root"/jit/tests/data/codegen/builtins.spv; do
    [ -f "$f" ] || continue
    d=$(basename "$(dirname "$f")")
    cp "$f" "$out/$d-$(basename "$f")"
done
echo "$(ls "$out" | wc -l) seeds in $out"
