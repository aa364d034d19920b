#!/usr/bin/env bash
# Installs Weft's build and test dependencies from Debian 12 packages.
# Idempotent: packages already present are left as they are. Run as root.
set -euo pipefail

PACKAGES=(
  build-essential cmake
  llvm-15-dev libclang-15-dev clang-15 libllvmspirvlib-15-dev llvm-spirv-15 spirv-tools
  libtbb-dev libsleef-dev
  opencl-headers opencl-clhpp-headers ocl-icd-opencl-dev clinfo
  libgtest-dev googletest
  python3-pyopencl python3-numpy
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  echo "all dependencies are installed"
fi
