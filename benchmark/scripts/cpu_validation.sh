#!/usr/bin/env bash
# The --validate benchmark of issue 13 on a CPU: runs the tiny GPT-NeoX config (or CONFIG=path,
# e.g. tests/benchmark/data/tiny-mamba/config.json) RUNS times (default 10) with the issue's
# command, timing blocks of BLOCK micro-steps (default 1) of the step's 4 so that the step is
# extrapolated (x4) and the validation tests that (with the default block of 8 a sample is the
# whole step, and the check compares it with itself), and prints, per run, the machine's 1-minute load before it, the extrapolated mean step and
# the validation error, then the median and the worst error over the runs. Run from the
# repository root:
#   benchmark/scripts/cpu_validation.sh [path/to/gpuplan-bench] [RUNS] [extra run arguments...]
# docs/benchmark.md quotes its output. A timing benchmark, not a test: it asserts nothing.
set -euo pipefail

bench=${1:-build/dev/benchmark/gpuplan-bench} # the dev preset, as in docs/benchmark.md
runs=${2:-10}
shift $(($# > 2 ? 2 : $#))
config=${CONFIG:-tests/benchmark/data/tiny-neox/config.json}
# fp32 as in the figures docs/benchmark.md quotes: a custom config now defaults to half
# precision (fp16 here), which the CPU runs in fp32 anyway (LibTorch's fp16 autocast is
# CUDA-only), with a note; saying fp32 keeps the runs' recipe as it was.
args=(run --config "$config" --device cpu --micro-batch 4 --batch-size 16 --seq-len 128
  --precision fp32 --validate 3 --block-micro-steps "${BLOCK:-1}" --format json "$@")

echo "# $bench ${args[*]}"
echo "# $(date -u +%FT%TZ), $(nproc) cores, $(uname -m)"
printf '%-4s %-6s %-30s %10s %9s %9s\n' run load1 configuration "step s" "error" "signed"
errors=()
for i in $(seq 1 "$runs"); do
  load=$(cut -d' ' -f1 /proc/loadavg)
  json=$("$bench" "${args[@]}" 2>/dev/null)
  while IFS=$'\t' read -r name step error signed; do
    printf '%-4s %-6s %-30s %10s %9s %9s\n' "$i" "$load" "$name" "$step" "$error" "$signed"
    errors+=("$name"$'\t'"$error")
  done < <(python3 -c '
import json, sys
r = json.load(sys.stdin)
for c in r["configurations"]:
    if c.get("feasible") and c.get("validation_error") is not None:
        # The means, as validation_error compares them (since 2026-11-28; the medians before).
        step, full = c["step_seconds"]["mean"], c["validated_step_seconds"]
        # Signed: above 0 the extrapolation is slower than the full steps, below 0 faster.
        print("\t".join([c["name"].replace(" offload=off", ""), "%.4f" % step,
            "%.2f%%" % (100 * c["validation_error"]), "%+.2f%%" % (100 * (step - full) / full)]))
' <<< "$json")
done
printf '%s\n' "${errors[@]}" | tr -d '%' | python3 -c '
import collections, statistics, sys
by = collections.defaultdict(list)
for line in sys.stdin:
    if line.strip():
        name, error = line.rstrip("\n").split("\t")[:2]
        by[name].append(float(error))
every = [e for es in by.values() for e in es]
for name, es in list(by.items()) + [("all configurations", every)]:
    print("# %-30s %2d runs: median error %6.2f%%, worst %6.2f%%, within 5%%: %d"
          % (name, len(es), statistics.median(es), max(es), sum(e <= 5 for e in es)))
'
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
