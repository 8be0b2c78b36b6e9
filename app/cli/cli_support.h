#pragma once

#include "core/catalog.h"
#include "core/limits.h"

#include <QCommandLineParser>
#include <QString>

#include <memory>
#include <optional>

namespace gpuplan::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitUsage = 2; // bad usage or bad input; the message is on stderr

enum class OutputFormat { Table, Json, Csv };

// Prints "gpuplan-cli <command>: error: <message>" to stderr and returns kExitUsage.
int fail(const QString& command, const QString& message);

// Whether a command plans from measurements: one that does not (breakeven, import-prices)
// neither offers --results nor reads the results files in the user data dir, so that a broken
// results file cannot stop it.
enum class ResultFiles { Read, Ignored };

// --price-set SET, --prices FILE (repeatable), --results FILE (repeatable, where results are
// read), --no-user-data.
void addDataOptions(QCommandLineParser& parser, ResultFiles results = ResultFiles::Read);
void addFormatOption(QCommandLineParser& parser);

// Whether a command takes arguments besides its options (declared with
// addPositionalArgument): where it takes none, a stray one is refused, as a value meant for an
// option ("--budget 40 000") had been dropped unsaid by the commands that did not check.
enum class Positionals { None, Declared };

// Parses `arguments`; on --help prints help and sets *exitCode to 0; on an error prints it and
// sets *exitCode to kExitUsage. Returns whether the command should go on.
bool parse(QCommandLineParser& parser, const QStringList& arguments, const QString& command,
    int* exitCode, Positionals positionals = Positionals::None);

std::optional<OutputFormat> formatOption(const QCommandLineParser& parser, QString* error);

// A finite number within [min, max] from an option; nullopt with *error set when it is not,
// nullopt with *error empty when the option is absent.
std::optional<double> numberOption(
    const QCommandLineParser& parser, const QString& name, double min, double max, QString* error);
// The same within a field's bounds (core/limits.h), "positive" included: a 0 its files and the
// Assumptions panel refuse was taken from the command line.
std::optional<double> numberOption(
    const QCommandLineParser& parser, const QString& name, const Bounds& bounds, QString* error);

// The shipped tables, then the user data dir (unless --no-user-data), then each --prices file,
// plus measured results. Warnings go to stderr; any error makes it return nullptr after
// printing every issue with file:line:column.
std::shared_ptr<const Catalog> loadCatalog(const QCommandLineParser& parser, const QString& command,
    ResultFiles results = ResultFiles::Read);

} // namespace gpuplan::cli
