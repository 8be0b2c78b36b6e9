#!/usr/bin/env bash
# Builds gpuplan and runs every test twice: the `dev` preset (warnings are errors) and the
# `asan` preset (AddressSanitizer + UndefinedBehaviorSanitizer). README.md's test command
# and .ci/run call this after packaging/debian-deps.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

jobs=$(nproc)
for preset in dev asan; do
  echo "=== ${preset}: configure, build, test"
  cmake --preset "${preset}"
  cmake --build --preset "${preset}" -j "${jobs}"
  ctest --preset "${preset}" -j "${jobs}"
done
