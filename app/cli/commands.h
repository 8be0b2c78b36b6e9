#pragma once

#include <QStringList>

#ifdef GPUPLAN_CLI_HAS_RENDER
#include "core/evaluate.h"

#include <QCommandLineParser>

#include <memory>
#include <optional>
#endif

// Each subcommand of gpuplan-cli: takes its own arguments (without the subcommand name) and
// returns the process exit code (see cli_support.h).
namespace gpuplan::cli {

int runPlan(const QStringList& arguments);
int runBreakeven(const QStringList& arguments);
int runList(const QStringList& arguments);
#ifdef GPUPLAN_CLI_HAS_RENDER
int runChart(const QStringList& arguments);
int runReport(const QStringList& arguments);

// Shared by chart and report (chart_command.cpp): the scenario options, the evaluated plan, and
// --machine COUNTxGPU_ID.
struct Planned {
    Scenario scenario;
    Results results;
};
void addScenarioOptions(QCommandLineParser& parser);
std::optional<Planned> planFromOptions(
    const QCommandLineParser& parser, std::shared_ptr<const Catalog> catalog, QString* error);
std::optional<std::size_t> machineOption(
    const Results& results, const QString& text, QString* error);
#endif

} // namespace gpuplan::cli
