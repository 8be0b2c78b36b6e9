#pragma once

#include <QDateTime>
#include <QString>
#include <QStringList>

namespace gpuplan::benchview {

// What the user asked to measure, as the view's controls hold it.
struct RunRequest {
    QString modelId; // a shipped model id; empty when configFile is set
    QString configFile; // a Hugging Face config.json for the user's own model
    QString methods = QStringLiteral("free-lunch"); // naive | free-lunch | all (full search)
    QString device = QStringLiteral("cpu"); // "cpu" or "cuda:N"
    // A quick CPU trial: the shipped recipe's global batch and sequence length are far too big
    // for a CPU, so this measures a reduced recipe that finishes in minutes. Its results get a
    // model id of their own in the planner, so they never pass for the shipped experiment.
    bool reducedRecipe = false;
    int validationSteps = 0; // --validate N: real optimizer steps to check the extrapolation
    // A multi-process run: this many GPUs of this machine (rank r on GPU r, whichever GPU the
    // device box shows), or CPU processes; 1 = the single-process path.
    int processes = 1;
    QString parallelism = QStringLiteral("ddp"); // ddp | zero1 | zero2 | zero3 | all
};

// CPU processes the view offers: a trial of the multi-process code, not a measurement.
inline constexpr int kMaxCpuProcesses = 8;

// The reduced recipe of a CPU trial run.
inline constexpr int kTrialGlobalBatch = 8;
inline constexpr int kTrialSequenceLength = 128;

// `gpuplan-bench run ...` without --progress and --out (BenchmarkRunner adds those).
QStringList benchRunArguments(const RunRequest& request);

// "<model>-<device>-<UTC time>.yaml", e.g. "pythia-160m-cpu-20261122T230512Z.yaml" or
// "pythia-1b-2xh100-80gb-sxm-...": what was measured, where and when, in characters that are
// safe in any file system.
QString resultsFileName(const QString& model, const QString& device, const QDateTime& when);

} // namespace gpuplan::benchview
