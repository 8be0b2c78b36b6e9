#!/usr/bin/env bash
# Builds the libFuzzer targets with Debian's clang (ASan + UBSan, GPUPLAN_BUILD_FUZZERS=ON, in
# build/fuzz) and runs each for RUNS executions (default 1,000,000), one at a time, seeded from
# the golden folders. Prints, per target, the executions, exec/s, corpus growth and the result.
# A crash, a leak or a hang stops that target and leaves the input under build/fuzz/artifacts/;
# make it a golden regression case in the matching tests/ folder (docs/fuzzing.md).
#
#   fuzz/run-fuzzers.sh                      # all targets, 1,000,000 runs each
#   RUNS=20000 fuzz/run-fuzzers.sh scenario  # one target, a quick look
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${RUNS:-1000000}
build=${BUILD:-build/fuzz}
timeout_s=${TIMEOUT:-10} # per input: a legal input takes milliseconds
max_len=${MAX_LEN:-16384} # bytes: far above the seeds, small enough to stay fast
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(catalog_import price_table scenario measured_results)

cmake -S . -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DGPUPLAN_BUILD_FUZZERS=ON -DGPUPLAN_BUILD_APP=OFF -DGPUPLAN_BUILD_BENCHMARK=OFF \
  -DGPUPLAN_BUILD_TESTS=OFF -DGPUPLAN_WARNINGS_AS_ERRORS=ON > "$build.configure.log"
cmake --build "$build" -j "$(nproc)" --target "${targets[@]/#/fuzz_}"

# Seeds: every golden input of the loader's own tests.
seed() {
  local target=$1 corpus=$2
  case "$target" in
    catalog_import) for f in tests/catalog_import/data/*/input.csv; do
                      cp "$f" "$corpus/$(basename "$(dirname "$f")").csv"; done ;;
    price_table)    for f in tests/pricing/data/*/input.yaml tests/catalog_import/data/*/expected.yaml; do
                      cp "$f" "$corpus/$(basename "$(dirname "$f")").yaml"; done
                    cp pricing/data/*.yaml "$corpus/" ;;
    scenario)       cp fuzz/seeds/scenario/*.yaml "$corpus/" ;;
    measured_results) for f in tests/measured/data/*/input.yaml; do
                      cp "$f" "$corpus/$(basename "$(dirname "$f")").yaml"; done
                    cp tests/measured/data/valid.yaml "$corpus/"
                    # Every GPU's results, named by folder too: the runs repeat file names.
                    for f in benchmark/measurements/*/*.yaml; do
                      cp "$f" "$corpus/$(basename "$(dirname "$f")")-$(basename "$f")"; done ;;
  esac
}
dictionary() {
  case "$1" in catalog_import) echo fuzz/dictionaries/csv.dict ;; *) echo fuzz/dictionaries/yaml.dict ;; esac
}

status=0
summary=""
for target in "${targets[@]}"; do
  corpus="$build/corpus/$target" artifacts="$build/artifacts/$target" log="$build/$target.log"
  mkdir -p "$corpus" "$artifacts"
  seed "$target" "$corpus"
  seeds=$(ls "$corpus" | wc -l)
  echo "=== fuzz_$target: $runs runs from $seeds inputs (log: $log)"
  started=$(date +%s)
  set +e
  "$build/fuzz/fuzz_$target" "$corpus" -runs="$runs" -timeout="$timeout_s" -max_len="$max_len" \
    -rss_limit_mb=2048 -dict="$(dictionary "$target")" -artifact_prefix="$artifacts/" \
    -print_final_stats=1 > "$log" 2>&1
  rc=$?
  set -e
  seconds=$(( $(date +%s) - started ))
  executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  added=$(sed -n 's/^stat::new_units_added: *//p' "$log" | tail -1)
  coverage=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
  if [ "$rc" -eq 0 ]; then
    result="no crash, leak or hang"
  else
    result="FAILED (exit $rc): $(grep -m1 -E 'ERROR: |SUMMARY: |Test unit written' "$log" || echo see log)"
    status=1
  fi
  line="fuzz_$target: ${executed:-?} runs in ${seconds}s, ${speed:-?} exec/s, ${coverage:-cov: ?}, ${added:-?} new inputs; $result"
  echo "$line"
  summary+="$line"$'\n'
done
echo "=== summary"
printf '%s' "$summary"
exit $status
