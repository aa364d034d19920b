#!/usr/bin/env bash
# README command 2: build (if needed) and run the whole test suite.
# The API tests select this build's library with OCL_ICD_VENDORS (CTest
# sets it), so an installed Weft or other platforms do not interfere.
set -euo pipefail
cd "$(dirname "$0")/.."
# Where this run is: the CPU and the highest x86-64 level it runs (glibc's
# reading), so that a red run says on what machine it was red. The compiler
# tests cover the other levels (the ISA matrix, docs/building.md).
level=$(/lib64/ld-linux-x86-64.so.2 --help 2>/dev/null |
  sed -n 's/^ *\(x86-64-v[0-9]\) (supported, searched)$/\1/p' | head -n 1)
echo "host: $(grep -m 1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), ${level:-below x86-64-v2}${WEFT_CPU:+, kernels compiled for WEFT_CPU=$WEFT_CPU}"
./scripts/build.sh
cd "${WEFT_BUILD_DIR:-build}"
ctest --output-on-failure -j "${WEFT_JOBS:-2}" --timeout 600
cd - > /dev/null
# Then a bounded run of each fuzz harness (docs/robustness.md): a minute
# each from the seed corpora, with a fixed seed. WEFT_FUZZ_SECONDS=0 skips it.
if [ "${WEFT_FUZZ_SECONDS:-60}" != 0 ]; then
  WEFT_FUZZ_SEED=${WEFT_FUZZ_SEED:-1} ./scripts/fuzz.sh "opencl_c spirv api" "${WEFT_FUZZ_SECONDS:-60}"
fi
