#!/usr/bin/env bash
# Builds gpuplan and runs every test: the C++ sources against .clang-format, then the `dev`
# preset (everything, warnings are errors), then under AddressSanitizer + UndefinedBehavior
# Sanitizer in two halves that are also the two reduced builds users make:
#   asan-bench: GPUPLAN_BUILD_APP=OFF       (core, pricing, gpuplan-bench: a GPU server)
#   asan-app:   GPUPLAN_BUILD_BENCHMARK=OFF (core, pricing, the Qt app: no LibTorch)
# so each option is proven to configure, build and test, at no more cost than one full
# sanitizer build. The tests of core and pricing, which both halves build, run once, in
# asan-app (GPUPLAN_TEST_SHARED_LAYERS=OFF in asan-bench). README.md's test command and .ci/run call this after
# packaging/debian-deps.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

started=$(date +%s)
echo "=== format: clang-format --dry-run on every C++ and CUDA source"
git ls-files '*.cpp' '*.h' '*.cu' '*.cuh' | xargs clang-format --dry-run -Werror

# Seconds since the time given (date +%s), for the phase times printed at the end: CI's time
# is the budget that decides what a new test may cost, so the log says where it went.
elapsed() { echo $(( $(date +%s) - $1 )); }
jobs=$(nproc)
times=()
for preset in dev asan-bench asan-app; do
  echo "=== ${preset}: configure, build, test"
  phase=$(date +%s)
  cmake --preset "${preset}"
  cmake --build --preset "${preset}" -j "${jobs}"
  built=$(elapsed "${phase}")
  phase=$(date +%s)
  ctest --preset "${preset}" -j "${jobs}"
  times+=("${preset}: build ${built} s, tests $(elapsed "${phase}") s")
done
printf '=== %s\n' "${times[@]}"
echo "=== all passed in $(( $(elapsed "${started}") / 60 )) min"
