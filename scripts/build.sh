#!/usr/bin/env bash
# Configures and builds Weft in ${WEFT_BUILD_DIR:-build} (two jobs by default).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${WEFT_BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE:-RelWithDebInfo} "$@"
cmake --build "$BUILD_DIR" -j "${WEFT_JOBS:-2}"
