#pragma once

#include "core/benchmark_protocol.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace gpuplan::benchrun {

// One line of `gpuplan-bench --progress jsonl`:
// {"phase": "measure", "configuration": "...", "micro_batch_size": 8, "percent": 42.5,
//  "message": "..."}
struct ProgressLine {
    ProgressPhase phase = ProgressPhase::Start;
    QString configuration;
    std::optional<qint64> microBatchSize;
    double percent = 0.0;
    QString message;
};

// nullopt for anything that is not such an object, or names a phase core/benchmark_protocol.h
// does not know (the worker may print garbage: the caller logs it and carries on).
std::optional<ProgressLine> parseProgressLine(const QByteArray& line);

} // namespace gpuplan::benchrun
