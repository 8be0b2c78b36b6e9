#pragma once

#include "app/benchrun/progress_line.h"

#include <QString>

#include <chrono>

namespace gpuplan::benchview {

// "Searching the largest micro-batch: free-lunch ckpt=off, micro-batch 32"
QString describeProgress(const benchrun::ProgressLine& progress);
QString phaseText(ProgressPhase phase); // "Searching the largest micro-batch"

// "0:07", "12:30", "1:02:03"
QString formatDuration(std::chrono::milliseconds duration);

} // namespace gpuplan::benchview
