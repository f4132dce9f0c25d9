#!/usr/bin/env bash
# Builds clift and the C demo, then runs the demo through the system ICD
# loader with clift registered for this process only (OCL_ICD_VENDORS).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
cargo build --release -p clift-icd
out="$root/target/release"
gcc -O2 -Wall -o "$out/clift-demo" conformance/c/demo.c -lOpenCL -lm
icd="$out/clift.icd"
echo "$out/libclift.so" > "$icd"
OCL_ICD_VENDORS="$icd" "$out/clift-demo"
