// gpuplan-cli: the planner without a GUI (plan, breakeven, list, chart, report) and the
// import of public cloud catalogs (import-prices), from the shipped and user price tables.

#include "app/cli/cli_support.h"
#include "app/cli/commands.h"
#include "app/common/number_convention.h"

#include <QCoreApplication>
#include <QTextStream>

#include <QApplication>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace {

struct Subcommand {
    const char* name;
    const char* summary;
    int (*run)(const QStringList&);
};

constexpr std::array kSubcommands {
    Subcommand { "plan", "options to buy and rent for one model, with costs and a recommendation",
        gpuplan::cli::runPlan },
    Subcommand { "breakeven", "runs after which buying a machine beats renting",
        gpuplan::cli::runBreakeven },
    Subcommand { "list", "the GPUs, chassis, systems, cloud offers, models or sponsors",
        gpuplan::cli::runList },
    Subcommand { "sensitivity",
        "which assumption moves the break-even and per-experiment cost most",
        gpuplan::cli::runSensitivity },
    Subcommand { "chart", "render a chart to PNG, SVG or PDF", gpuplan::cli::runChart },
    Subcommand { "report", "render the proposal report to PDF", gpuplan::cli::runReport },
    Subcommand { "budget", "a grant budget by year, and its budget justification (.odt, .md, .txt)",
        gpuplan::cli::runBudget },
    Subcommand { "import-prices", "a public cloud catalog (SkyPilot, gpuhunt CSV) as cloud offers",
        gpuplan::cli::runImportPrices },
};

int usage(QTextStream& out)
{
    out << "Usage: gpuplan-cli <command> [options]\n\nCommands:\n";
    for (const auto& c : kSubcommands)
        out << "  " << QString::fromLatin1(c.name).leftJustified(14) << c.summary << '\n';
    out << "\nRun 'gpuplan-cli <command> --help' for a command's options.\n";
    return gpuplan::cli::kExitOk;
}

// chart and report draw with Qt Widgets, which need a QApplication; headless by default.
std::unique_ptr<QCoreApplication> makeApplication(int& argc, char** argv)
{
    const QByteArray command = argc > 1 ? QByteArray(argv[1]) : QByteArray();
    if (command == "chart" || command == "report" || command == "budget") {
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        return std::make_unique<QApplication>(argc, argv);
    }
    return std::make_unique<QCoreApplication>(argc, argv);
}

// Output cut short (a full disk, a closed pipe, a file-size limit) is a failure, not a result:
// a script must not take half a JSON document for the whole. `command`: the subcommand, or
// empty for gpuplan-cli's own --help and --version.
int checkedOutput(const QString& command, int exitCode)
{
    if (std::fflush(stdout) == 0 && !std::ferror(stdout))
        return exitCode;
    const int why = errno;
    std::fprintf(stderr, "gpuplan-cli%s%s: error: cannot write the output: %s\n",
        command.isEmpty() ? "" : " ", qPrintable(command),
        why != 0 ? std::strerror(why) : "a write failed");
    return exitCode == gpuplan::cli::kExitOk ? gpuplan::cli::kExitUsage : exitCode;
}

} // namespace

int main(int argc, char** argv)
{
    const auto app = makeApplication(argc, argv);
    gpuplan::views::useOneNumberConvention();
    QCoreApplication::setApplicationName(QStringLiteral("gpuplan"));
    QCoreApplication::setOrganizationDomain(QStringLiteral("gpuplan.org"));
    QCoreApplication::setApplicationVersion(QStringLiteral(GPUPLAN_VERSION));

    QStringList arguments = QCoreApplication::arguments();
    const QString command = arguments.value(1);
    if (command == QLatin1String("--help") || command == QLatin1String("-h")) {
        QTextStream out(stdout);
        const int exitCode = usage(out);
        out.flush();
        return checkedOutput({}, exitCode);
    }
    if (command == QLatin1String("--version")) {
        QTextStream(stdout) << "gpuplan-cli " << QCoreApplication::applicationVersion() << '\n';
        return checkedOutput({}, gpuplan::cli::kExitOk);
    }
    for (const auto& c : kSubcommands) {
        if (command == QLatin1String(c.name)) {
            arguments.removeAt(1); // the rest parses like a program of its own
            return checkedOutput(QLatin1String(c.name), c.run(arguments));
        }
    }
    QTextStream err(stderr);
    err << "gpuplan-cli: "
        << (command.isEmpty() ? QStringLiteral("no command given")
                              : "unknown command '" + command + "'")
        << "\n\n";
    usage(err);
    return gpuplan::cli::kExitUsage;
}
