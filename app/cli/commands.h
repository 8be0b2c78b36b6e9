#pragma once

#include <QStringList>

#include "core/evaluate.h"

#include <QCommandLineParser>

#include <memory>
#include <optional>

// Each subcommand of gpuplan-cli: takes its own arguments (without the subcommand name) and
// returns the process exit code (see cli_support.h).
namespace gpuplan::cli {

int runPlan(const QStringList& arguments);
int runBreakeven(const QStringList& arguments);
int runList(const QStringList& arguments);
int runChart(const QStringList& arguments);
int runReport(const QStringList& arguments);
int runBudget(const QStringList& arguments);
int runImportPrices(const QStringList& arguments);
int runSensitivity(const QStringList& arguments);

// Shared by chart and report (chart_command.cpp): the scenario from the options, evaluated.
struct Planned {
    Scenario scenario;
    Results results;
};
std::optional<Planned> planFromOptions(
    const QCommandLineParser& parser, std::shared_ptr<const Catalog> catalog, QString* error);

// --offer ID as an index into results.cloud: that offer renting the same GPUs as option
// `optionIndex` at an on-demand or spot rate; nullopt with *error set otherwise.
std::optional<std::size_t> offerOption(
    const Results& results, std::size_t optionIndex, const QString& id, QString* error);

} // namespace gpuplan::cli
