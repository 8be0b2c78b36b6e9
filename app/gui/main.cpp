// gpuplan: the desktop planner. Opens the scenario given on the command line (the desktop entry
// passes one), else the last one used.

#include "app/common/number_convention.h"
#include "app/gui/allocator_tuning.h"
#include "app/gui/main_window.h"
#include "app/gui/user_files.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QMessageBox>

#include <cstdio>
#include <optional>

namespace {

const char* const kUsage
    = "Usage: gpuplan [FILE.gpuplan.yaml]\n"
      "GPU Budget Planner: which GPUs to buy for a training project, or what renting the same\n"
      "work costs. Opens FILE (a scenario), else the last scenario used.\n\n"
      "  -h, --help     this text\n"
      "  --version      the version\n\n"
      "Qt's own options (-platform, -style, ...) apply. The command-line planner is gpuplan-cli;\n"
      "the guide is docs/gui.md (installed in /usr/share/doc/gpuplan).\n";

// --help and --version answer before QApplication: they need no display.
std::optional<int> answerInfoOption(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (arg == "-h" || arg == "--help") {
            std::fputs(kUsage, stdout);
            return 0;
        }
        if (arg == "--version" || arg == "-v") {
            std::printf("gpuplan %s\n", GPUPLAN_VERSION);
            return 0;
        }
    }
    return std::nullopt;
}

} // namespace

int main(int argc, char** argv)
{
    if (const auto answered = answerInfoOption(argc, argv))
        return *answered;
    gpuplan::gui::keepFreedMemoryForReplots();
    QApplication app(argc, argv);
    gpuplan::views::useOneNumberConvention();
    // What is left after Qt took its own options: at most one scenario file.
    const QStringList arguments = QApplication::arguments();
    for (const QString& arg : arguments.mid(1))
        if (arg.startsWith(QLatin1Char('-')) || arguments.size() > 2) {
            std::fprintf(stderr, "gpuplan: %s\n%s",
                qPrintable(arg.startsWith(QLatin1Char('-'))
                        ? QStringLiteral("unknown option '%1'").arg(arg)
                        : QStringLiteral("one scenario file at most, not %1")
                              .arg(arguments.size() - 1)),
                kUsage);
            return 2;
        }
    QApplication::setApplicationName(QStringLiteral("gpuplan"));
    QApplication::setApplicationDisplayName(QStringLiteral("GPU Budget Planner"));
    QApplication::setOrganizationDomain(QStringLiteral("gpuplan.org"));
    QApplication::setApplicationVersion(QStringLiteral(GPUPLAN_VERSION));
    QGuiApplication::setDesktopFileName(QStringLiteral("org.gpuplan.planner"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/org.gpuplan.planner.svg")));

    const gpuplan::CatalogLoad load = gpuplan::gui::loadUserCatalog();
    gpuplan::gui::MainWindow window(load.catalog);
    if (!load.ok()) {
        // The list can run to hundreds of lines (a broken import): the box shows the first few
        // and the whole list under "Show Details...", so its buttons stay on the screen.
        const QStringList issues
            = gpuplan::gui::issueText(load.issues).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        constexpr qsizetype kShown = 8;
        QMessageBox box(QMessageBox::Warning, QObject::tr("Some data files have errors"),
            QObject::tr("What these errors name was left out; the planner runs on the rest. "
                        "Correct the files (each error names its file, line and column) and "
                        "start gpuplan again."),
            QMessageBox::Ok, &window);
        QString shown = issues.mid(0, kShown).join(QLatin1Char('\n'));
        if (issues.size() > kShown)
            shown += QObject::tr("\n\u2026 and %1 more (Show Details)").arg(issues.size() - kShown);
        box.setInformativeText(shown);
        if (issues.size() > kShown)
            box.setDetailedText(issues.join(QLatin1Char('\n')));
        box.exec();
    }

    const QString scenario = arguments.size() > 1 ? arguments.at(1) : QString();
    QString error;
    bool opened = false;
    if (scenario.isEmpty())
        opened = window.restoreLastScenario(&error);
    else if (QFileInfo::exists(scenario))
        opened = window.openScenario(scenario, &error);
    else // a moved file, or a desktop entry pointing at one: say so, do not start untitled
        error = QObject::tr("%1: no such file; an untitled scenario is open instead.")
                    .arg(QDir::toNativeSeparators(QFileInfo(scenario).absoluteFilePath()));
    if (!opened && !error.isEmpty())
        QMessageBox::warning(&window, QObject::tr("Cannot open scenario"), error);
    window.show();
    return QApplication::exec();
}
