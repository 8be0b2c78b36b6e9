#!/usr/bin/env python3
"""Counts the parameters of the reference implementations (Hugging Face transformers, timm) of
the models gpuplan-bench builds, on the meta device (nothing allocated), and compares them with
`gpuplan-bench describe`. Needs torch, transformers (with MambaForCausalLM: 4.39 or later) and
timm (as on the GPU machines).
Usage: reference_parameters.py PATH/TO/gpuplan-bench"""
import json
import subprocess
import sys

import torch

PYTHIA = {  # hidden, layers, heads, vocabulary (EleutherAI model cards' config.json)
    "pythia-160m": (768, 12, 12, 50304),
    "pythia-410m": (1024, 24, 16, 50304),
    "pythia-1b": (2048, 16, 8, 50304),
    "pythia-2.8b": (2560, 32, 32, 50304),
    "pythia-6.9b": (4096, 32, 32, 50432),
}


def count(model):
    return sum(p.numel() for p in model.parameters())  # tied parameters once


def reference_counts():
    from transformers import (GPTNeoXConfig, GPTNeoXForCausalLM, MambaConfig,
                              MambaForCausalLM, RobertaConfig, RobertaForMaskedLM)
    import timm
    counts = {}
    with torch.device("meta"):
        for model_id, (hidden, layers, heads, vocab) in PYTHIA.items():
            config = GPTNeoXConfig(hidden_size=hidden, num_hidden_layers=layers,
                                   num_attention_heads=heads, intermediate_size=4 * hidden,
                                   vocab_size=vocab, rotary_pct=0.25, use_parallel_residual=True,
                                   tie_word_embeddings=False)
            counts[model_id] = ("transformers GPTNeoXForCausalLM", count(GPTNeoXForCausalLM(config)))
        config = RobertaConfig(vocab_size=50265, hidden_size=1024, num_hidden_layers=24,
                               num_attention_heads=16, intermediate_size=4096,
                               max_position_embeddings=514, type_vocab_size=1)
        counts["roberta-large"] = ("transformers RobertaForMaskedLM", count(RobertaForMaskedLM(config)))
        counts["vit-large-22k"] = ("timm vit_large_patch16_224, 21843 classes",
                                   count(timm.create_model("vit_large_patch16_224", num_classes=21843)))
        counts["convnext-xlarge-22k"] = ("timm convnext_xlarge, 21841 classes",
                                         count(timm.create_model("convnext_xlarge", num_classes=21841)))
        # state-spaces/mamba-2.8b-hf's config.json; the head is tied to the embeddings.
        config = MambaConfig(vocab_size=50280, hidden_size=2560, num_hidden_layers=64,
                             state_size=16, expand=2, conv_kernel=4, time_step_rank="auto",
                             use_bias=False, use_conv_bias=True, tie_word_embeddings=True)
        counts["mamba-2.8b"] = ("transformers MambaForCausalLM (mamba-2.8b-hf)",
                                count(MambaForCausalLM(config)))
    return counts


def main(bench):
    failures = 0
    for model_id, (reference, expected) in reference_counts().items():
        described = json.loads(subprocess.check_output(
            [bench, "describe", "--model", model_id, "--format", "json"]))
        ok = described["parameters"] == expected
        failures += not ok
        print(f"{model_id:<22} gpuplan-bench {described['parameters']:>14,}  {reference}: "
              f"{expected:>14,}  {'ok' if ok else 'MISMATCH'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
