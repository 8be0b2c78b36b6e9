#pragma once

// The options every planning command shares (plan, chart, report): the model, the estimate
// source, budget and deadline, GPUs, and one option per assumption of the assumption table, with
// its bounds from there.

#include "core/evaluate.h"

#include <QCommandLineParser>
#include <QString>

#include <memory>
#include <optional>

namespace gpuplan::cli {

void addScenarioOptions(QCommandLineParser& parser);

// The scenario the options describe over `catalog` (assumptions start from its defaults);
// nullopt with *error set on a bad or missing value.
std::optional<Scenario> scenarioFromOptions(
    const QCommandLineParser& parser, std::shared_ptr<const Catalog> catalog, QString* error);

// --machine COUNTxGPU_ID as an index into results.options; empty text: the report's default
// machine (the recommended one, else the cheapest per experiment).
std::optional<std::size_t> machineOption(
    const Results& results, const QString& text, QString* error);

} // namespace gpuplan::cli
