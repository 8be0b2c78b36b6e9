#!/usr/bin/env bash
# Builds gpuplan-bench against the LibTorch inside this machine's pip PyTorch and measures on
# its GPU. Run from the repository root:
#   benchmark/scripts/gpu_measure.sh [verify] [smoke] [160m] [160m-graph] [410m] [1b] [2.8b] [vision]
#       [mamba]
# yaml-cpp comes from Debian .debs in .device-debs/ when the machine has no yaml-cpp of its own
# (apt-get download libyaml-cpp0.7 libyaml-cpp-dev). Results YAML, progress jsonl and logs are
# written to a work folder and packed into $OUT/measurements.tar.gz after every phase, so a
# phase cut off by its time limit (PHASE_TIMEOUT seconds, default 540) still leaves what it
# measured; the binary is copied to $OUT so that a later call can reuse it
# (GPUPLAN_BENCH=path/to/gpuplan-bench skips the build). A short table is printed last.
set -euo pipefail

OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
work=${WORK:-/tmp/gpuplan-gpu}
results=$work/measurements
mkdir -p "$results"
build=build/gpu
phase_timeout=${PHASE_TIMEOUT:-540}
phases=("$@")
[ ${#phases[@]} -gt 0 ] || phases=(verify smoke 160m)

prefix=/tmp/gpuplan-deps
if compgen -G ".device-debs/*.deb" > /dev/null; then
  for deb in .device-debs/*.deb; do dpkg -x "$deb" "$prefix"; done
  export LD_LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
torch_prefix=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')

{
  echo "== $(date -u +%FT%TZ) $(hostname)"
  nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,power.limit --format=csv || true
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'
} 2>&1 | tee "$results/machine.txt"

pack() { tar -C "$work" -czf "$OUT/measurements.tar.gz" measurements; }

if [ -n "${GPUPLAN_BENCH:-}" ]; then
  bench=$GPUPLAN_BENCH
  echo "using the prebuilt $bench" | tee -a "$results/build.log"
else
echo "== build" >&2
start=$(date +%s)
if ! cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DGPUPLAN_BUILD_APP=OFF -DGPUPLAN_BUILD_TESTS=OFF \
      -DCMAKE_PREFIX_PATH="$torch_prefix;$prefix/usr" -DCMAKE_CUDA_ARCHITECTURES=90 \
      > "$results/build.log" 2>&1 \
   || ! cmake --build "$build" -j "$(nproc)" --target gpuplan-bench >> "$results/build.log" 2>&1; then
  tail -n 60 "$results/build.log"
  pack
  exit 1
fi
echo "built in $(( $(date +%s) - start )) s" | tee -a "$results/build.log"
bench=$build/benchmark/gpuplan-bench
cp "$bench" "$OUT/gpuplan-bench"
fi

$bench devices | tee "$results/devices.txt"
$bench devices --format json > "$results/devices.json"

# run NAME ARGS...: one measurement with its results file, progress stream and log.
run() {
  local name=$1; shift
  echo "== $name: gpuplan-bench run $*" >&2
  local t0=$(date +%s)
  set +e
  timeout --signal=TERM --kill-after=10 "$phase_timeout" $bench run "$@" --out "$results/$name.yaml" --progress jsonl \
    > "$results/$name.jsonl" 2> "$results/$name.log"
  local rc=$?
  set -e
  echo "   exit $rc after $(( $(date +%s) - t0 )) s" | tee -a "$results/$name.log" >&2
  tail -n 20 "$results/$name.log" >&2
  pack
}

for phase in "${phases[@]}"; do
  case $phase in
    verify) python3 benchmark/scripts/reference_parameters.py "$bench" 2>&1 | tee "$results/verify.txt" || true ;;
    smoke)
      run smoke-tiny-neox --config tests/benchmark/data/tiny-neox/config.json --batch-size 64 \
        --seq-len 129 --steps 1000 --methods all --validate 3 ;;
    160m) run pythia-160m --model pythia-160m --methods all --validate 2 ;;
    160m-graph)  # the free-lunch default alone, to see the CUDA graph's effect
      run pythia-160m-free-lunch --model pythia-160m --methods free-lunch \
        --activation-checkpointing off --offload off --validate 2 ;;
    410m) run pythia-410m --model pythia-410m --methods all --validate 1 ;;
    1b) run pythia-1b --model pythia-1b --methods free-lunch --activation-checkpointing both \
          --offload off --validate 1 ;;
    2.8b) run pythia-2.8b --model pythia-2.8b --methods free-lunch --activation-checkpointing on \
          --offload both ;;
    vision)
      run vit-large-22k --model vit-large-22k --methods free-lunch --validate 1
      run convnext-xlarge-22k --model convnext-xlarge-22k --methods free-lunch --validate 1 ;;
    mamba)  # the selective-scan kernel checked against the reference and timed against
            # mamba_ssm (or the roofline), then the model with it (free lunch: the kernel)
      cmake --build "$build" -j "$(nproc)" --target gpuplan-scan-bench >> "$results/build.log" 2>&1
      python3 benchmark/scripts/compare_mamba_ssm.py "$build/benchmark/gpuplan-scan-bench" 2>&1 \
        | tee "$results/mamba-block.txt" || true
      pack
      run smoke-tiny-mamba --config tests/benchmark/data/tiny-mamba/config.json --batch-size 64 \
        --seq-len 129 --steps 1000 --methods free-lunch --validate 3
      run mamba-2.8b --model mamba-2.8b --methods free-lunch --activation-checkpointing both \
        --offload off --validate 1 ;;
    *) echo "unknown phase $phase" >&2; exit 2 ;;
  esac
done

pack
python3 benchmark/scripts/summarize_results.py "$results"/*.yaml
