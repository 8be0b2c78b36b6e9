#!/bin/bash
# A stand-in for gpuplan-bench in tst_benchmark_view, copied next to the test's files.
#   devices: prints the device list FAKE_DEVICES names (gpu, cpu), or misbehaves (garbage,
#            crash, fail, hang).
#   run:     behaves as FAKE_RUN says (see the case below), writing the results files from
#            FAKE_DATA to --out atomically after each configuration, as gpuplan-bench does.
# Every call appends its arguments to FAKE_ARGS_FILE when that is set.
[ -n "$FAKE_ARGS_FILE" ] && echo "$*" >> "$FAKE_ARGS_FILE"
if [ "$1" = devices ]; then
  case "$FAKE_DEVICES" in
    gpu) cat "$FAKE_DATA/devices-gpu.json" ;;
    cpu) cat "$FAKE_DATA/devices-cpu.json" ;;
    garbage) echo "libc10_cuda.so: cannot open shared object file" ;;
    crash) kill -SEGV $$ ;;
    fail) echo "error: LibTorch could not initialise" >&2; exit 2 ;;
    hang) exec sleep 60 ;;
  esac
  exit 0
fi

out=""
while [ $# -gt 0 ]; do
  if [ "$1" = "--out" ]; then out="$2"; shift; fi
  shift
done
configuration="free-lunch ckpt=off offload=off"
progress() {
  echo "{\"phase\": \"$1\", \"configuration\": \"$configuration\", \"micro_batch_size\": ${4:-4}, \"percent\": $2, \"message\": \"$3\"}"
}
results() { cp "$FAKE_DATA/$1" "$out.tmp" && mv "$out.tmp" "$out"; }

case "$FAKE_RUN" in
  ok)
    progress start 0; progress search 20 "trying micro-batch 4"; progress measure 40
    results results-partial.yaml; progress configuration_done 50
    progress measure 90; results results-complete.yaml; progress done 100 ;;
  crash) progress measure 40; results results-partial.yaml; kill -SEGV $$ ;;
  killed) progress measure 40; results results-partial.yaml; kill -KILL $$ ;;
  abort) progress measure 40; results results-partial.yaml; kill -ABRT $$ ;;
  out-of-memory)
    progress measure 40; results results-partial.yaml
    progress error 40 "CPU out of memory: micro-batch 1 does not fit under the memory limit"
    exit 3 ;;
  hang) progress build 5; results results-partial.yaml; exec sleep 60 ;;
  garbage)
    echo "Loading model..."; printf '\001\377 binary\n'; echo '{"phase": '; echo '[1, 2]'
    progress measure 50; results results-complete.yaml ;;
  bad-results) progress measure 50; echo "not: [a results file" > "$out" ;;
  no-results) progress measure 50 ;;
  stubborn)
    trap '' TERM; progress measure 30; results results-partial.yaml
    while true; do sleep 0.05; done ;;
  slow) progress measure 10; sleep 0.3; progress measure 20; exec sleep 60 ;;
esac
