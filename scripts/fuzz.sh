#!/usr/bin/env bash
# Builds Weft's fuzz harnesses with clang-15 (libFuzzer, AddressSanitizer)
# in ${WEFT_FUZZ_BUILD_DIR:-build-fuzz} and runs each for
# ${WEFT_FUZZ_SECONDS:-60} seconds, starting from its seed corpus in
# fuzz/corpus/ (new inputs go to the build directory, never the checkout).
# Any crash, hang (an input running over ${WEFT_FUZZ_TIMEOUT:-300} s) or
# sanitizer report fails the run and leaves the input that caused it in the
# build directory (docs/robustness.md). WEFT_FUZZ_SEED fixes libFuzzer's
# seed (0, the default, picks one).
#
#   scripts/fuzz.sh                 all three, 60 s each (the test suite's run)
#   scripts/fuzz.sh api 3600        one harness (opencl_c, spirv, api) for an hour
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${WEFT_FUZZ_BUILD_DIR:-build-fuzz}
HARNESSES=${1:-"opencl_c spirv api"}
SECONDS_EACH=${2:-${WEFT_FUZZ_SECONDS:-60}}

CC=clang-15 CXX=clang++-15 cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DWEFT_FUZZ=ON -DWEFT_SANITIZE=address -DWEFT_BUILD_TESTS=OFF > /dev/null
TARGETS=(weft)
for H in $HARNESSES; do TARGETS+=("weft_fuzz_$H"); done
cmake --build "$BUILD" -j "${WEFT_JOBS:-2}" --target "${TARGETS[@]}"

export OCL_ICD_VENDORS="$PWD/$BUILD/vendors"
# LLVM's crash recovery handles the faults of a crashing compile itself.
export ASAN_OPTIONS="${ASAN_OPTIONS:-allow_user_segv_handler=1:detect_leaks=0}"
for H in $HARNESSES; do
  WORK="$BUILD/fuzz/corpus-$H"
  SEEDS="$BUILD/fuzz/seeds-$H"
  rm -rf "$SEEDS"
  mkdir -p "$WORK" "$SEEDS" "$BUILD/fuzz/artifacts-$H"
  cp fuzz/corpus/"$H"/* "$SEEDS"/
  if [ "$H" = opencl_c ]; then
    # The API tests' OpenCL C too, each behind the options byte of -cl-std=CL3.0.
    for F in tests/api/spirv/*.cl; do
      { echo 1; cat "$F"; } > "$SEEDS/tests_$(basename "$F")"
    done
  fi
  echo "== weft_fuzz_$H: ${SECONDS_EACH}s"
  LOG="$BUILD/fuzz/log-$H.txt"
  if ! "$BUILD/fuzz/weft_fuzz_$H" "$WORK" "$SEEDS" -max_total_time="$SECONDS_EACH" \
    -timeout="${WEFT_FUZZ_TIMEOUT:-300}" -seed="${WEFT_FUZZ_SEED:-0}" -rss_limit_mb=8192 \
    -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$BUILD/fuzz/artifacts-$H/" > "$LOG" 2>&1; then
    # The report's head (what failed, and where), then its end (the input).
    grep -m 1 -A 40 -E '^==[0-9]+==(ERROR|WARNING: .*Sanitizer)|^==[0-9]+== ERROR: libFuzzer' "$LOG" || true
    echo "..."
    tail -n 25 "$LOG"
    echo "weft_fuzz_$H failed; its whole output is in $LOG" >&2
    exit 1
  fi
  tail -n 25 "$LOG"
done
