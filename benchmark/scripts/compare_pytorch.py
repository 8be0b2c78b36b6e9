#!/usr/bin/python3
"""Micro-step time of gpuplan-bench against the same GPT-NeoX in PyTorch (Python), same torch
version (Debian's python3-torch and libtorch-dev are both 1.13), same device (CPU), same
configuration, same method ("naive": fp32, explicit attention, eager).

Usage: /usr/bin/python3 benchmark/scripts/compare_pytorch.py [PATH/TO/gpuplan-bench]
Prints, per configuration, the median forward+backward seconds of each and their ratio
(gpuplan-bench / PyTorch; the target is <= 0.9).
"""
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

import torch
import torch.nn.functional as F

STEPS = 7  # timed micro-steps after one discarded warm-up, as --steps-measured

CONFIGS = [  # name, hidden, layers, heads, vocabulary, sample tokens, micro-batch
    ("tiny", 64, 2, 4, 512, 65, 8),
    ("small", 256, 4, 4, 4096, 129, 8),
    ("medium", 512, 6, 8, 8192, 257, 4),
]


class Layer(torch.nn.Module):
    """One GPT-NeoX layer as Hugging Face's GPTNeoXLayer (parallel residual, partial rotary)."""

    def __init__(self, hidden, heads, rotary_dims):
        super().__init__()
        self.heads, self.head_dim, self.rotary_dims = heads, hidden // heads, rotary_dims
        self.input_layernorm = torch.nn.LayerNorm(hidden)
        self.post_attention_layernorm = torch.nn.LayerNorm(hidden)
        self.query_key_value = torch.nn.Linear(hidden, 3 * hidden)
        self.dense = torch.nn.Linear(hidden, hidden)
        self.up = torch.nn.Linear(hidden, 4 * hidden)
        self.down = torch.nn.Linear(4 * hidden, hidden)

    def rotate(self, x, cos, sin):
        r = x[..., :self.rotary_dims]
        half = self.rotary_dims // 2
        turned = torch.cat([-r[..., half:], r[..., :half]], dim=-1)
        return torch.cat([r * cos + turned * sin, x[..., self.rotary_dims:]], dim=-1)

    def attention(self, x, cos, sin):
        b, s, h = x.shape
        qkv = self.query_key_value(x).view(b, s, self.heads, 3 * self.head_dim).permute(0, 2, 1, 3)
        d = self.head_dim
        q, k, v = self.rotate(qkv[..., :d], cos, sin), self.rotate(qkv[..., d:2 * d], cos, sin), qkv[..., 2 * d:]
        scores = q @ k.transpose(-2, -1) / math.sqrt(d)
        future = torch.ones(s, s, dtype=torch.bool).triu(1)
        out = torch.softmax(scores.masked_fill(future, float("-inf")), -1) @ v
        return self.dense(out.permute(0, 2, 1, 3).reshape(b, s, h))

    def forward(self, x, cos, sin):
        return x + self.attention(self.input_layernorm(x), cos, sin) + \
            self.down(F.gelu(self.up(self.post_attention_layernorm(x))))


class GptNeox(torch.nn.Module):
    def __init__(self, hidden, layers, heads, vocab):
        super().__init__()
        self.rotary_dims = int(hidden // heads * 0.25)
        self.embed_in = torch.nn.Embedding(vocab, hidden)
        self.layers = torch.nn.ModuleList(Layer(hidden, heads, self.rotary_dims) for _ in range(layers))
        self.final_layer_norm = torch.nn.LayerNorm(hidden)
        self.embed_out = torch.nn.Linear(hidden, vocab, bias=False)

    def forward(self, inputs, targets):
        positions = inputs.shape[1]
        inv_freq = 1.0 / 10000 ** (torch.arange(0, self.rotary_dims, 2).float() / self.rotary_dims)
        angles = torch.outer(torch.arange(positions).float(), inv_freq)
        both = torch.cat([angles, angles], -1)
        cos, sin = both.cos(), both.sin()
        x = self.embed_in(inputs)
        for layer in self.layers:
            x = layer(x, cos, sin)
        logits = self.embed_out(self.final_layer_norm(x))
        return F.cross_entropy(logits.reshape(-1, logits.shape[-1]).float(), targets.reshape(-1))


def pytorch_micro_step(hidden, layers, heads, vocab, tokens, micro_batch):
    model = GptNeox(hidden, layers, heads, vocab)
    sample = torch.randint(vocab, (micro_batch, tokens))
    inputs, targets = sample[:, :-1].contiguous(), sample[:, 1:].contiguous()
    model(inputs, targets).backward()  # warm-up, discarded
    times = []
    for _ in range(STEPS):
        start = time.perf_counter()
        model(inputs, targets).backward()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench_micro_step(bench, hidden, layers, heads, vocab, tokens, micro_batch):
    config = {"model_type": "gpt_neox", "hidden_size": hidden, "num_hidden_layers": layers,
              "num_attention_heads": heads, "intermediate_size": 4 * hidden, "vocab_size": vocab,
              "max_position_embeddings": tokens, "rotary_pct": 0.25}
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "config.json")
        with open(path, "w") as f:
            json.dump(config, f)
        out = subprocess.check_output(
            [bench, "run", "--config", path, "--device", "cpu", "--methods", "naive",
             "--batch-size", str(micro_batch), "--micro-batch", str(micro_batch),
             "--seq-len", str(tokens), "--steps-measured", str(STEPS), "--format", "json"],
            stderr=subprocess.DEVNULL)
    return json.loads(out)["configurations"][0]["forward_backward_seconds"]["median"]


def main():
    bench = sys.argv[1] if len(sys.argv) > 1 else "build/dev/benchmark/gpuplan-bench"
    torch.manual_seed(0)
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads; "
          f"median of {STEPS} forward+backward micro-steps, fp32, explicit attention")
    print(f"{'config':<8} {'hidden x layers':>15} {'tokens x batch':>14} {'PyTorch s':>10} "
          f"{'gpuplan-bench s':>15} {'ratio':>6}")
    for name, hidden, layers, heads, vocab, tokens, micro_batch in CONFIGS:
        python = pytorch_micro_step(hidden, layers, heads, vocab, tokens, micro_batch)
        cpp = bench_micro_step(bench, hidden, layers, heads, vocab, tokens, micro_batch)
        print(f"{name:<8} {f'{hidden} x {layers}':>15} {f'{tokens - 1} x {micro_batch}':>14} "
              f"{python:>10.4f} {cpp:>15.4f} {cpp / python:>6.2f}")


if __name__ == "__main__":
    main()
