#pragma once

#include "core/catalog.h"

#include <QString>
#include <QStringList>

namespace gpuplan::benchview {

// A gpuplan-bench results file read back with the planner's own reader
// (pricing/measured_results.h), so the view shows exactly what the planner will use.
struct ResultSummary {
    bool readable = false; // the reader accepted the file; the fields below are then set
    MeasuredResult best; // the best configuration (the fastest one of a partial file)
    Workload workload; // the model and recipe it was measured with
    double stepSeconds = 0.0; // one optimizer step of the recipe, from the training days
    QStringList warnings; // e.g. "results file is partial (the run did not finish) ..."
    QString error; // why the file cannot be used, when not readable
    // Set by the Benchmark view for its own runs (a file from elsewhere leaves them alone): the
    // validation steps asked for, and whether the run ended before finishing. They tell "not
    // checked" (validation was off) from "not measured" (the run stopped before it validated).
    int validationStepsAsked = 0;
    bool runStoppedEarly = false;

    // Several lines for the view: best configuration, step time, training days, implied
    // utilisation and validation error, each said plainly when it is missing.
    QString text() const;
    QString validationText() const; // the validation error, or why there is none
};

ResultSummary summarizeResultsFile(const QString& path, const Catalog& catalog);

} // namespace gpuplan::benchview
