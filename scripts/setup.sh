#!/usr/bin/env bash
# README command 1: install the dependencies, build, install Weft (library
# plus /etc/OpenCL/vendors/weft.icd), and run the demo through the system
# ICD loader. Run as root on Debian 12.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh
cmake --install "${WEFT_BUILD_DIR:-build}"
ldconfig
echo "--- clinfo (platforms) ---"
clinfo --list
echo "--- demo ---"
"${WEFT_BUILD_DIR:-build}/examples/demo/weft_demo"
