"""Median time of GPU work, as every comparison script here takes it: CUDA events around each
run, after discarded warm-up runs."""
import torch


def median_ms(work, warmup, repeats):
    """Runs work() warmup times untimed, then repeats times between CUDA events; the median ms."""
    for _ in range(warmup):
        work()
    times = []
    for _ in range(repeats):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        work()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    times.sort()
    return times[len(times) // 2]
