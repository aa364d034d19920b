#!/usr/bin/env bash
# README command 2: build (if needed) and run the whole test suite.
# The API tests select this build's library with OCL_ICD_VENDORS (CTest
# sets it), so an installed Weft or other platforms do not interfere.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh
cd "${WEFT_BUILD_DIR:-build}"
ctest --output-on-failure -j "${WEFT_JOBS:-2}" --timeout 600
cd - > /dev/null
# Then a bounded run of each fuzz harness (docs/robustness.md): a minute
# each from the seed corpora, with a fixed seed. WEFT_FUZZ_SECONDS=0 skips it.
if [ "${WEFT_FUZZ_SECONDS:-60}" != 0 ]; then
  WEFT_FUZZ_SEED=${WEFT_FUZZ_SEED:-1} ./scripts/fuzz.sh "opencl_c spirv api" "${WEFT_FUZZ_SECONDS:-60}"
fi
