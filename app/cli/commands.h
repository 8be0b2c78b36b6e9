#pragma once

#include <QStringList>

// Each subcommand of gpuplan-cli: takes its own arguments (without the subcommand name) and
// returns the process exit code (see cli_support.h).
namespace gpuplan::cli {

int runPlan(const QStringList& arguments);
int runBreakeven(const QStringList& arguments);
int runList(const QStringList& arguments);
#ifdef GPUPLAN_CLI_HAS_RENDER
int runChart(const QStringList& arguments);
int runReport(const QStringList& arguments);
#endif

} // namespace gpuplan::cli
