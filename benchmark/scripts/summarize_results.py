#!/usr/bin/env python3
"""Prints one line per configuration of gpuplan-bench results files (the README tables), and
under it, where the run took one (--time-breakdown on), the share of each kind of work."""
import sys

import yaml


def mean(spread):
    """The mean step (or days), which the planner prices and utilisation and validation use;
    files before 2026-11-28 have only the median."""
    return spread.get("mean", spread["median"])


def main(paths):
    docs = []
    for path in paths:
        with open(path) as f:
            docs.append(yaml.safe_load(f))
    # As wide as the longest name: an ablation's names carry the parts it withheld.
    width = max([40] + [len(c["name"]) for d in docs for c in d["configurations"]])
    print(f"{'model':<22} {'configuration':<{width}} {'mbs':>4} {'accum':>5} {'step s':>9} "
          f"{'days':>8} {'util':>6} {'peak GiB':>8} {'trials':>6} {'val err':>7}")
    for doc in docs:
        model = doc["model"]["id"]
        if not doc.get("complete"):
            model += " (partial)"
        for c in doc["configurations"]:
            util = c.get("implied_utilization")
            err = c.get("validation_error")
            print(f"{model:<22} {c['name']:<{width}} {c['micro_batch_size']:>4} "
                  f"{c['grad_accumulation_steps']:>5} {mean(c['step_seconds']):>9.3f} "
                  f"{mean(c['training_days']):>8.2f} "
                  f"{'-' if util is None else f'{util:.3f}':>6} "
                  f"{c['peak_memory_bytes'] / 2**30:>8.1f} {c['trial_steps']:>6} "
                  f"{'-' if err is None else f'{err:.4f}':>7}")
            breakdown = c.get("time_breakdown")
            if breakdown:
                kinds = ", ".join(f"{k['kind']} {100 * k['share']:.1f}%"
                                  for k in breakdown["kinds"])
                ceiling = breakdown.get("compute_only_utilization")
                print(f"{'':<22}   {breakdown['profiled_seconds']:.3f} s profiled: {kinds}"
                      + ("" if ceiling is None else f"; compute alone {100 * ceiling:.1f}%"))
        print(f"{'':<22} best: {doc['best']}")


if __name__ == "__main__":
    main(sys.argv[1:])
