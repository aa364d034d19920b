#!/usr/bin/env bash
# README command 2: build (if needed) and run the whole test suite.
# The API tests select this build's library with OCL_ICD_VENDORS (CTest
# sets it), so an installed Weft or other platforms do not interfere.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh
cd "${WEFT_BUILD_DIR:-build}"
ctest --output-on-failure -j "${WEFT_JOBS:-2}" --timeout 600
