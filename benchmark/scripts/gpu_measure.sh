#!/usr/bin/env bash
# Builds gpuplan-bench against the LibTorch inside this machine's pip PyTorch and measures on
# its GPU. Run from the repository root:
#   benchmark/scripts/gpu_measure.sh [verify] [smoke] [nccl] [scan] [rotary] [softmax] [depthwise] [attention] [speed]
#       [ablation] [breakdown] [series] [compare] [mamba] [naive] [160m] [160m-graph] [410m] [1b] [2.8b]
#       [vision]
# yaml-cpp comes from Debian .debs in .device-debs/ when the machine has no yaml-cpp of its own
# (apt-get download libyaml-cpp0.7 libyaml-cpp-dev). Results YAML, progress jsonl and logs are
# written to a work folder and packed into $OUT/measurements.tar.gz after every phase, so a
# phase cut off by its time limit (PHASE_TIMEOUT seconds, default 540) still leaves what it
# measured. DEADLINE=SECONDS (from the script's start) fits the whole script into a lease: each
# run's limit is cut to what is left, and a run with under 30 s left is skipped and says so.
# The binary is copied to $OUT so that a later call can reuse it
# (GPUPLAN_BENCH=path/to/gpuplan-bench skips the build). A short table is printed last.
set -euo pipefail

OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
work=${WORK:-/tmp/gpuplan-gpu}
results=$work/measurements
mkdir -p "$results"
build=build/gpu
phase_timeout=${PHASE_TIMEOUT:-540}
script_start=$(date +%s)
deadline=${DEADLINE:-0}
phases=("$@")
[ ${#phases[@]} -gt 0 ] || phases=(verify smoke 160m)

prefix=/tmp/gpuplan-deps
if compgen -G ".device-debs/*.deb" > /dev/null; then
  for deb in .device-debs/*.deb; do dpkg -x "$deb" "$prefix"; done
  export LD_LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
# CMake looks for nvcc on the PATH; CUDA images keep it in /usr/local/cuda/bin.
[ -x /usr/local/cuda/bin/nvcc ] && export PATH=/usr/local/cuda/bin:$PATH

{
  echo "== $(date -u +%FT%TZ) $(hostname)"
  nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,power.limit --format=csv || true
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)' || true
} 2>&1 | tee "$results/machine.txt"

pack() { tar -C "$work" -czf "$OUT/measurements.tar.gz" measurements; }

if [ -n "${GPUPLAN_BENCH:-}" ]; then
  bench=$GPUPLAN_BENCH
  echo "using the prebuilt $bench" | tee -a "$results/build.log"
else
echo "== build" >&2
start=$(date +%s)
torch_prefix=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')
if ! cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DGPUPLAN_BUILD_APP=OFF -DGPUPLAN_BUILD_TESTS=OFF -DGPUPLAN_UNITY_BENCH=OFF \
      -DCMAKE_PREFIX_PATH="$torch_prefix;$prefix/usr" -DCMAKE_CUDA_ARCHITECTURES=90 \
      > "$results/build.log" 2>&1 \
   || ! cmake --build "$build" -j "$(nproc)" --target gpuplan-bench >> "$results/build.log" 2>&1; then
  tail -n 60 "$results/build.log"
  pack
  exit 1
fi
# The kernel benchmarks apart: one that fails to build costs its own phase (scan, rotary), not
# the measurements, nor the other benchmarks (ninja -k 0 builds every target it can).
if command -v nvcc > /dev/null \
   && ! cmake --build "$build" -j "$(nproc)" --target gpuplan-scan-bench gpuplan-rotary-bench gpuplan-softmax-bench \
          gpuplan-depthwise-bench gpuplan-attention-bench -- -k 0 \
        > "$results/build-kernel-benches.log" 2>&1; then
  echo "the kernel benchmarks did not build (build-kernel-benches.log):" >&2
  grep -m 10 -E "error|Error" "$results/build-kernel-benches.log" >&2 || true
fi
echo "built in $(( $(date +%s) - start )) s" | tee -a "$results/build.log"
bench=$build/benchmark/gpuplan-bench
fi

$bench devices | tee "$results/devices.txt"
$bench devices --format json > "$results/devices.json"

# limit_for SECONDS: SECONDS, or less where DEADLINE leaves less (0: no time left).
limit_for() {
  local want=$1
  if [ "$deadline" -gt 0 ]; then
    local left=$(( deadline - ($(date +%s) - script_start) - 10 ))
    if [ "$left" -lt 30 ]; then want=0; elif [ "$left" -lt "$want" ]; then want=$left; fi
  fi
  echo "$want"
}

# limited NAME LIMIT LOG COMMAND...: COMMAND with LIMIT seconds, cut to what DEADLINE leaves (and
# skipped, saying so, under 30 s), its output in LOG with its exit status and time appended; the
# log's end is shown and everything so far packed. COMMAND may be one of the functions below,
# which read $limit and $t0.
limited() {
  local name=$1 log=$3 limit
  limit=$(limit_for "$2"); shift 3
  if [ "$limit" -eq 0 ]; then
    echo "== $name: skipped, the deadline leaves no time" | tee -a "$results/skipped.txt" >&2
    return 0
  fi
  echo "== $name (limit $limit s): $*" >&2
  local t0 rc=0
  t0=$(date +%s)
  "$@" > "$log" 2>&1 || rc=$?
  echo "   exit $rc after $(( $(date +%s) - t0 )) s" | tee -a "$log" >&2
  tail -n 25 "$log" >&2
  pack
}

with_limit() { timeout --signal=TERM --kill-after=10 "$limit" "$@"; }

# bench_run NAME ARGS...: gpuplan-bench run with its results file, its progress stream as the app
# reads it, and each event with the second it arrived (NAME.times): where a run is cut off, that
# says which phase took the time. Its own output (stderr) is the log.
bench_run() {
  local name=$1; shift
  with_limit "$bench" run "$@" --out "$results/$name.yaml" --progress jsonl \
    | tee "$results/$name.jsonl" \
    | while IFS= read -r event; do echo "$(( $(date +%s) - t0 )) $event"; done > "$results/$name.times"
  return "${PIPESTATUS[0]}"
}

# run NAME ARGS...: one measurement, limited to RUN_LIMIT seconds (default PHASE_TIMEOUT).
run() {
  local name=$1; shift
  limited "$name" "${RUN_LIMIT:-$phase_timeout}" "$results/$name.log" bench_run "$name" "$@"
}

# step NAME LIMIT COMMAND...: a script or check, its output in NAME.txt.
step() {
  local name=$1 limit=$2; shift 2
  limited "$name" "$limit" "$results/$name.txt" with_limit "$@"
}

# The free-lunch default alone (no checkpointing, no offload): the configuration the speed
# targets of issue 13 are for.
fastest=(--methods free-lunch --activation-checkpointing off --offload off)

for phase in "${phases[@]}"; do
  case $phase in
    verify) step verify 120 python3 benchmark/scripts/reference_parameters.py "$bench" ;;
    smoke)
      # fp32, as the tiny runs of 2026-11-26 that docs/benchmark.md quotes (a custom config now
      # defaults to half precision); 4 micro-steps of 16 timed one at a time, so that the
      # validation checks an extrapolation (x4), not a step against itself
      run smoke-tiny-neox --config tests/benchmark/data/tiny-neox/config.json --batch-size 64 \
        --micro-batch 16 --block-micro-steps 1 \
        --seq-len 129 --steps 1000 --precision fp32 --methods all --validate 3 ;;
    nccl)  # the NCCL path at world size 1 (NCCL refuses two ranks on one GPU): the probe, and
           # every parallelism of the tiny model through it, 4 micro-steps of 16 timed one at a
           # time as in smoke (with the searched 64 of 64 a sample was the whole step, and the
           # validation measured noise: 1.3-4.4% on the H200 of 2026-12-04)
      step comm-probe 60 "$bench" comm-probe --nproc-per-node 1 --device cuda
      RUN_LIMIT=90 run nccl-tiny-neox --config tests/benchmark/data/tiny-neox/config.json \
        --batch-size 64 --micro-batch 16 --block-micro-steps 1 --seq-len 129 --steps 1000 \
        --precision fp32 "${fastest[@]}" --nproc-per-node 1 --parallelism all --validate 3 ;;
    scan)  # the selective-scan kernel against the fp64 reference (fresh random inputs at each
           # shape and precision), then one Mamba-2.8B block timed against mamba_ssm or the roofline
      scan_bench=$build/benchmark/gpuplan-scan-bench # built with gpuplan-bench where nvcc is
      step scan-check 90 bash -c "for p in bf16 fp16 fp32; do $scan_bench --check --precision \$p || exit 1; done;
        $scan_bench --check --batch 3 --seq-len 1000 && $scan_bench --check --batch 2 --seq-len 129 --precision fp16"
      step mamba-block 90 python3 benchmark/scripts/compare_mamba_ssm.py "$scan_bench" ;;
    rotary)  # the rotary query-key-value kernels against the fp64 reference, then timed against
             # LibTorch ops at each Pythia's free-lunch micro-batch of 2026-11-26
      rotary_bench=$build/benchmark/gpuplan-rotary-bench
      [ -x "$rotary_bench" ] || { echo "== rotary: skipped, $rotary_bench was not built" >&2; continue; }
      step rotary-check 60 bash -c "for p in bf16 fp16 fp32; do $rotary_bench --check --micro-batch 4 --precision \$p || exit 1; done"
      step rotary-speed 60 bash -c "$rotary_bench --model pythia-160m --micro-batch 64 &&
        $rotary_bench --model pythia-410m --micro-batch 32 && $rotary_bench --model pythia-1b --micro-batch 16" ;;
    softmax)  # the LM head's softmax-cross-entropy kernel against the fp64 function, then timed
              # against LibTorch ops on one chunk of logits, in the Pythias' precisions
      softmax_bench=$build/benchmark/gpuplan-softmax-bench
      [ -x "$softmax_bench" ] || { echo "== softmax: skipped, $softmax_bench was not built" >&2; continue; }
      step softmax-check 60 bash -c "for p in fp16 bf16 fp32; do $softmax_bench --check --precision \$p || exit 1; done"
      step softmax-speed 60 bash -c "$softmax_bench --precision fp16 && $softmax_bench --precision bf16" ;;
    depthwise)  # ConvNeXt's depthwise convolution kernels against fp64 at every ConvNeXt-XL stage,
                # then timed against cuDNN (channels-last) and LibTorch's NCHW kernel there
      depthwise_bench=$build/benchmark/gpuplan-depthwise-bench
      [ -x "$depthwise_bench" ] || { echo "== depthwise: skipped, $depthwise_bench was not built" >&2; continue; }
      step depthwise-check 60 "$depthwise_bench" --check --micro-batch 8
      step depthwise-speed 90 "$depthwise_bench" --micro-batch 128 ;;
    attention)  # ViT-L's attention: our TF32 kernels against fp64, then timed against the
                # spelled-out products and LibTorch's fused kernel at the free lunch's micro-batches
      attention_bench=$build/benchmark/gpuplan-attention-bench
      [ -x "$attention_bench" ] || { echo "== attention: skipped, $attention_bench was not built" >&2; continue; }
      step attention-check 60 bash -c "$attention_bench --check --micro-batch 4 && $attention_bench --check --micro-batch 2 --positions 130"
      step attention-speed 90 bash -c "$attention_bench --micro-batch 256 && $attention_bench --micro-batch 128" ;;
    ablation)  # what the newest free-lunch parts are worth, on the same build: Pythia-160M
               # whole and without each part, all at micro-batch 32, where the unchunked head's
               # full-vocabulary logits (13 GB in fp32) still fit
      for without in "" fused-rotary chunked-lm-head kept-casts; do
        RUN_LIMIT=60 run "ablation-160m${without:+-without-$without}" --model pythia-160m \
          "${fastest[@]}" --micro-batch 32 ${without:+--free-lunch-without $without}
      done ;;
    speed)  # issue 13's speed targets: each model's fastest free-lunch configuration
      RUN_LIMIT=70 run pythia-160m-free-lunch --model pythia-160m "${fastest[@]}" --validate 2
      RUN_LIMIT=100 run pythia-410m-free-lunch --model pythia-410m "${fastest[@]}" --validate 1
      RUN_LIMIT=110 run pythia-1b-free-lunch --model pythia-1b "${fastest[@]}" --validate 1
      RUN_LIMIT=60 run vit-large-22k --model vit-large-22k "${fastest[@]}" --validate 1
      # ConvNeXt: cut off at 80 s on 2026-11-26, still in its timed samples (22 s steps)
      RUN_LIMIT=200 run convnext-xlarge-22k --model convnext-xlarge-22k "${fastest[@]}" --validate 1 ;;
    breakdown)  # where each speed target's step goes (run --time-breakdown on): the speed
                # phase's micro-batches of 2026-11-26, fixed, one timed sample, no validation;
                # apart from speed so that a profiler failing on this machine costs only this
      for target in pythia-160m:64 pythia-410m:32 pythia-1b:16 vit-large-22k:128 \
                    convnext-xlarge-22k:128; do
        RUN_LIMIT=60 run "breakdown-${target%%:*}" --model "${target%%:*}" "${fastest[@]}" \
          --micro-batch "${target##*:}" --steps-measured 1 --min-time 0 --time-breakdown on
      done ;;
    series)  # issue 13's validation bound as a series: SERIES_RUNS (default 10) fresh runs of each
             # SERIES entry, model:micro-batch[:block] (default the H200's micro-batches of
             # 2026-12-04: the speed phase's, and ConvNeXt-XL's fixed 128, where its search fits
             # 256; an H100 fits 64, 32, 16, 128 and 128), the micro-batch fixed so that
             # no run searches, blocks of 4 where the default of 8 is the whole step (Pythia-160M
             # at 128 x 8), one validation step; SERIES_EXTRA: more run arguments (a CPU smoke
             # test: --device cpu --batch-size 4 --seq-len 32); SERIES_LIMIT: seconds a run
             # (default 120). Then each one's median and worst.
      for entry in ${SERIES:-pythia-160m:128:4 pythia-410m:64 vit-large-22k:256 pythia-1b:32 \
                               convnext-xlarge-22k:128}; do
        IFS=: read -r model micro block <<< "$entry"
        # An earlier call's series of this model, left in the warm work folder, is not this one's.
        rm -f "$results/series-$model-"*
        for i in $(seq 1 "${SERIES_RUNS:-10}"); do
          # shellcheck disable=SC2086 # SERIES_EXTRA is a list of arguments
          RUN_LIMIT=${SERIES_LIMIT:-120} run "series-$model-$i" --model "$model" "${fastest[@]}" \
            --micro-batch "$micro" ${block:+--block-micro-steps "$block"} --validate 1 \
            ${SERIES_EXTRA:-}
        done
      done
      shopt -s nullglob
      series_files=("$results"/series-*.yaml)
      shopt -u nullglob
      # As a step: a summary that fails costs its own output, not the phases after it.
      [ ${#series_files[@]} -eq 0 ] \
        || step series 30 python3 benchmark/scripts/validation_series.py "${series_files[@]}" ;;
    compare)  # forward+backward against transformers, and the fused-attention backends
      step compare-transformers-h100 90 python3 benchmark/scripts/compare_transformers_gpu.py "$bench"
      step sdpa-backends 45 python3 benchmark/scripts/sdpa_backends.py ;;
    mamba)
      RUN_LIMIT=30 run smoke-tiny-mamba --config tests/benchmark/data/tiny-mamba/config.json \
        --batch-size 64 --micro-batch 16 --block-micro-steps 1 --seq-len 129 --steps 1000 \
        --precision fp32 --methods free-lunch --validate 3
      # checkpointing on: without it one sample's activations (about 25 GB) and the 50 GB of
      # weights, gradients and Adam state leave no room on an 80 GB card; the micro-batch is
      # fixed at 8 (about 2 s a micro-step) so that the run fits a short lease.
      RUN_LIMIT=150 run mamba-2.8b --model mamba-2.8b --methods free-lunch \
        --activation-checkpointing on --offload off --micro-batch 8 --steps-measured 2 \
        --validate 1 ;;
    naive)  # the paper's naive baseline (the recipe's precision, explicit attention, eager)
      RUN_LIMIT=120 run pythia-160m-naive --model pythia-160m --methods naive --validate 1
      RUN_LIMIT=180 run pythia-410m-naive --model pythia-410m --methods naive --validate 1 ;;
    160m) run pythia-160m --model pythia-160m --methods all --validate 2 ;;
    160m-graph) run pythia-160m-free-lunch --model pythia-160m "${fastest[@]}" --validate 2 ;;
    410m) run pythia-410m --model pythia-410m --methods all --validate 1 ;;
    1b) run pythia-1b --model pythia-1b --methods free-lunch --activation-checkpointing both \
          --offload off --validate 1 ;;
    2.8b) run pythia-2.8b --model pythia-2.8b --methods free-lunch --activation-checkpointing on \
          --offload both ;;
    vision)
      run vit-large-22k --model vit-large-22k --methods free-lunch --validate 1
      run convnext-xlarge-22k --model convnext-xlarge-22k --methods free-lunch --validate 1 ;;
    *) echo "unknown phase $phase" >&2; exit 2 ;;
  esac
done

pack
# Every results file but the series' (one line each per run; series.txt has their summary).
summaries=()
for f in "$results"/*.yaml; do
  [ -e "$f" ] && [[ $(basename "$f") != series-* ]] && summaries+=("$f")
done
[ ${#summaries[@]} -eq 0 ] || python3 benchmark/scripts/summarize_results.py "${summaries[@]}"
