#!/usr/bin/env python3
"""Micro-step time of gpuplan-bench's free-lunch pythia-160m against Hugging Face transformers'
GPTNeoXForCausalLM of the same shape on the same GPU: same micro-batch, same sample length,
fp16 autocast, TF32, fused attention (SDPA), eager, fp32 master weights. Each side is timed
with CUDA events after warm-up; the median of the timed forward+backward passes is compared.

Usage (on a GPU machine with torch and transformers):
  compare_transformers_gpu.py PATH/TO/gpuplan-bench [--micro-batch 32] [--steps 7]
"""
import argparse
import json
import statistics
import subprocess

import torch
from transformers import GPTNeoXConfig, GPTNeoXForCausalLM


def transformers_micro_step(micro_batch, tokens, steps):
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.backends.cudnn.allow_tf32 = True
    config = GPTNeoXConfig(hidden_size=768, num_hidden_layers=12, num_attention_heads=12,
                           intermediate_size=3072, vocab_size=50304, rotary_pct=0.25,
                           use_parallel_residual=True, tie_word_embeddings=False,
                           max_position_embeddings=tokens, attn_implementation="sdpa")
    model = GPTNeoXForCausalLM(config).cuda().train()
    ids = torch.randint(0, config.vocab_size, (micro_batch, tokens), device="cuda")

    def step():
        with torch.autocast("cuda", dtype=torch.float16):
            loss = model(input_ids=ids, labels=ids).loss
        (loss * 1024.0).backward()

    for _ in range(3):
        step()
    torch.cuda.synchronize()
    times = []
    for _ in range(steps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        step()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / 1000.0)
    return statistics.median(times), min(times), max(times)


def bench_micro_step(bench, micro_batch, steps):
    out = subprocess.run([bench, "run", "--model", "pythia-160m", "--device", "cuda",
                          "--methods", "free-lunch", "--activation-checkpointing", "off",
                          "--offload", "off", "--micro-batch", str(micro_batch),
                          "--steps-measured", str(steps), "--format", "json"],
                         check=True, capture_output=True, text=True).stdout
    configuration = json.loads(out)["configurations"][0]
    fb = configuration["forward_backward_seconds"]
    return fb["median"], fb["min"], fb["max"], configuration.get("notes", [])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bench")
    parser.add_argument("--micro-batch", type=int, default=32)
    parser.add_argument("--steps", type=int, default=7)
    args = parser.parse_args()
    print(f"torch {torch.__version__}, {torch.cuda.get_device_name()}, pythia-160m, "
          f"micro-batch {args.micro_batch}, 2049 tokens, fp16 autocast, TF32, SDPA")
    ours = bench_micro_step(args.bench, args.micro_batch, args.steps)
    torch.cuda.empty_cache()
    theirs = transformers_micro_step(args.micro_batch, 2049, args.steps)
    print(f"gpuplan-bench  forward+backward median {ours[0]:.4f} s (min {ours[1]:.4f}, "
          f"max {ours[2]:.4f}) {'; '.join(ours[3])}")
    print(f"transformers   forward+backward median {theirs[0]:.4f} s (min {theirs[1]:.4f}, "
          f"max {theirs[2]:.4f})")
    print(f"ratio gpuplan-bench / transformers: {ours[0] / theirs[0]:.2f}")


if __name__ == "__main__":
    main()
