#!/usr/bin/env python3
"""Forward+backward of fused attention (scaled_dot_product_attention) at the attention shapes of
the models gpuplan-bench times, once with PyTorch's own pick of backend and once with each
backend forced (flash, memory-efficient, cuDNN, math), on this machine's GPU, and for fp32 shapes
the math backend once more with TF32 products allowed (as gpuplan-bench's free lunch runs them;
PyTorch's default is full fp32). It shows whether the default pick, which gpuplan-bench's
LibTorch makes the same way, leaves speed behind: the evidence for gpuplan-bench's own choice
between the fused kernel and the spelled-out products (issue 13, attention_choice.h). CUDA
events, warm-up discarded, median of the repeats; fresh random inputs (never zeros).

Usage (on a GPU machine with torch): sdpa_backends.py [--repeats 10] [--warmup 3]"""
import argparse

import torch
from torch.nn.attention import SDPBackend, sdpa_kernel
from torch.nn.functional import scaled_dot_product_attention

from cuda_timing import median_ms

# model: (micro-batch, heads, positions, head size, causal, dtype), the recipe's precision and
# the micro-batches of benchmark/measurements/h100 (2026-11-23).
SHAPES = {
    "pythia-160m": (32, 12, 2048, 64, True, torch.float16),
    "pythia-410m": (16, 16, 2048, 64, True, torch.float16),
    "pythia-1b": (8, 8, 2048, 256, True, torch.bfloat16),
    "vit-large-22k": (128, 16, 197, 64, False, torch.float32),
}
BACKENDS = {
    "flash": SDPBackend.FLASH_ATTENTION,
    "efficient": SDPBackend.EFFICIENT_ATTENTION,
    "cudnn": SDPBackend.CUDNN_ATTENTION,
    "math": SDPBackend.MATH,
}


def timed(shape, backend, args, tf32=False):
    batch, heads, positions, head_size, causal, dtype = shape
    if tf32 and dtype != torch.float32:
        return f"{'n/a':>9}"
    q, k, v = (torch.randn(batch, heads, positions, head_size, device="cuda", dtype=dtype,
                           requires_grad=True) for _ in range(3))
    grad = torch.randn(batch, heads, positions, head_size, device="cuda", dtype=dtype)

    def work():
        scaled_dot_product_attention(q, k, v, is_causal=causal).backward(grad)

    torch.backends.cuda.matmul.allow_tf32 = tf32
    try:
        if backend is None:
            return f"{median_ms(work, args.warmup, args.repeats):9.3f}"
        with sdpa_kernel([backend]):
            return f"{median_ms(work, args.warmup, args.repeats):9.3f}"
    except (RuntimeError, torch.OutOfMemoryError) as error:
        return f"{'n/a':>9}" if "No available kernel" in str(error) else f"{'failed':>9}"
    finally:
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.cuda.empty_cache()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=3)
    args = parser.parse_args()
    print(f"torch {torch.__version__}, {torch.cuda.get_device_name()}: SDPA forward+backward, "
          f"median ms of {args.repeats}")
    print(f"{'model':<16}{'default':>9}" + "".join(f"{name:>10}" for name in BACKENDS)
          + f"{'math-tf32':>10}")
    for model, shape in SHAPES.items():
        row = [timed(shape, None, args)] + [timed(shape, b, args) for b in BACKENDS.values()]
        row.append(timed(shape, SDPBackend.MATH, args, tf32=True))
        print(f"{model:<16}" + " ".join(row))


if __name__ == "__main__":
    main()
