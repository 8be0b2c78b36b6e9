#pragma once

// The options every planning command shares (plan, chart, report): the model, the estimate
// source, budget and deadline, GPUs, the sponsor's rules, and one option per assumption of the
// assumption table, with its bounds from there.

#include "core/evaluate.h"

#include <QCommandLineParser>
#include <QString>

#include <memory>
#include <optional>
#include <string>

namespace gpuplan::cli {

void addScenarioOptions(QCommandLineParser& parser);

// --sponsor (default: Catalog::defaultSponsorId, us-federal where the tables have it), which
// every planning command and breakeven share.
void addSponsorOption(QCommandLineParser& parser);
// --sponsor over the catalog's sponsors: its id; empty (F&A on cloud spend only) where the
// catalog has none and --sponsor is not given; nullopt with *error set for an unknown id.
std::optional<std::string> sponsorOption(
    const QCommandLineParser& parser, const Catalog& catalog, QString* error);

// The scenario the options describe over `catalog` (assumptions start from its defaults);
// nullopt with *error set on a bad or missing value.
std::optional<Scenario> scenarioFromOptions(
    const QCommandLineParser& parser, std::shared_ptr<const Catalog> catalog, QString* error);

// --machine COUNTxGPU_ID as an index into results.options; empty text: the report's default
// machine (the recommended one, else the cheapest per experiment).
std::optional<std::size_t> machineOption(
    const Results& results, const QString& text, QString* error);

} // namespace gpuplan::cli
