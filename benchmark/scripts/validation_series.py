#!/usr/bin/env python3
"""Issue 13's validation bound as a series: reads the results files of repeated runs
(gpu_measure.sh's `series` phase, one file per run) and prints each run's validation error, then
per model and configuration the median and the worst over the runs and how many are within the
GPU bound of 3%. A timing benchmark's summary, not a test: it asserts nothing."""
import collections
import statistics
import sys

import yaml

from summarize_results import mean  # the mean step, as the planner prices it (this folder)

BOUND = 0.03  # docs/benchmark.md, Validation: <= 3% for every model on a GPU


def main(paths):
    errors = collections.defaultdict(list)
    print(f"{'file':<40} {'configuration':<42} {'step s':>9} {'error':>8}")
    for path in paths:
        with open(path) as f:
            doc = yaml.safe_load(f)
        for c in doc["configurations"]:
            err = c.get("validation_error")
            if err is None:
                continue
            key = (doc["model"]["id"], c["name"])
            errors[key].append(err)
            print(f"{path.rsplit('/', 1)[-1]:<40} {c['name']:<42} "
                  f"{mean(c['step_seconds']):9.3f} {100 * err:7.2f}%")
    for (model, name), es in errors.items():
        print(f"# {model} {name}: {len(es)} runs, median error {100 * statistics.median(es):.2f}%, "
              f"worst {100 * max(es):.2f}%, within {100 * BOUND:g}%: {sum(e <= BOUND for e in es)}")
    if not errors:
        print("# no validated configuration in these files")


if __name__ == "__main__":
    main(sys.argv[1:])
