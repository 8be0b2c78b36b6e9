// gpuplan-screenshots OUTDIR: the planner's views as PNG files for docs/screenshots, taken from a
// real window (run under Xvfb: xvfb-run -s "-screen 0 1600x1000x24" gpuplan-screenshots DIR).
// Uses only the shipped tables, so the pictures show the defaults: run it with a HOME that holds
// no gpuplan files (HOME=/tmp/pi-home); the price tables view shows that HOME's data path, so a
// home-like path reads better in the docs than a temporary folder's.

#include "app/common/number_convention.h"
#include "app/common/user_data.h"
#include "app/gui/assumptions_panel.h"
#include "app/gui/budget_view.h"
#include "app/gui/buy_vs_rent_view.h"
#include "app/gui/main_window.h"
#include "app/gui/planner_session.h"
#include "app/gui/planner_view.h"
#include "app/gui/price_book.h"
#include "app/gui/price_columns.h"
#include "app/gui/price_tables_view.h"
#include "app/gui/user_files.h"

#include <QApplication>
#include <QDir>
#include <QLineEdit>
#include <QTabWidget>
#include <QTableView>
#include <QTextStream>
#include <QThread>
#include <QUndoStack>

#include <cstdio>
#include <string_view>

namespace {

void settle()
{
    for (int i = 0; i < 10; ++i) {
        QApplication::processEvents();
        QThread::msleep(30);
    }
}

bool shoot(QWidget* window, const QString& path)
{
    settle();
    const bool ok = window->grab().save(path);
    QTextStream(stdout) << (ok ? "wrote " : "FAILED ") << path << '\n';
    return ok;
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    gpuplan::views::useOneNumberConvention(); // as the app does
    QApplication::setApplicationName(QStringLiteral("gpuplan-screenshots"));
    const QString usage = QStringLiteral(
        "usage: gpuplan-screenshots OUTDIR [WIDTHxHEIGHT]\n"
        "Renders every view of the planner into OUTDIR as PNG files, the window at 1600x1000\n"
        "or the size given (e.g. 1280x720, a small laptop screen).\n");
    const QString first = argc >= 2 ? QString::fromLocal8Bit(argv[1]) : QString();
    if (first == QLatin1String("--help") || first == QLatin1String("-h")) {
        QTextStream(stdout) << usage;
        return 0;
    }
    QSize size(1600, 1000);
    if (argc >= 3) {
        const QStringList parts = QString::fromLocal8Bit(argv[2]).split(QLatin1Char('x'));
        bool wide = false;
        bool high = false;
        if (parts.size() == 2)
            size = QSize(parts[0].toInt(&wide), parts[1].toInt(&high));
        if (!wide || !high || size.width() < 320 || size.height() < 240) {
            QTextStream(stderr) << "gpuplan-screenshots: the size must be WIDTHxHEIGHT, at least "
                                   "320x240, not '"
                                << QString::fromLocal8Bit(argv[2]) << "'\n"
                                << usage;
            return 2;
        }
    }
    if (argc < 2 || argc > 3 || first.startsWith(QLatin1Char('-'))) {
        QTextStream(stderr) << usage;
        return 2;
    }
    const QDir out(QString::fromLocal8Bit(argv[1]));
    QDir().mkpath(out.path());
    if (!gpuplan::views::userPriceFiles(gpuplan::gui::currentPriceSet()).isEmpty()
        || !gpuplan::views::userResultFiles().isEmpty()) {
        QTextStream(stderr)
            << "gpuplan-screenshots: " << gpuplan::views::userDataDir()
            << " holds user files (the screenshots show the shipped data); run with "
               "an empty user data dir: a fresh HOME (HOME=/tmp/pi-home), or "
               "GPUPLAN_DATA_DIR unset or pointing to an empty folder\n";
        return 2;
    }

    gpuplan::gui::MainWindow window(gpuplan::gui::loadUserCatalog().catalog);
    window.resize(size);
    window.show();
    auto* session = window.session();
    session->setBudget(40000.0); // the paper's worked example
    session->setDeadline(60.0);
    settle();
    // Select the recommendation, as a user checking it would.
    if (const auto& r = session->results(); r.recommended)
        window.plannerView()->selectOption(*r.recommended);

    bool ok = true;
    window.tabs()->setCurrentWidget(window.plannerView());
    ok &= shoot(&window, out.filePath(QStringLiteral("planner.png")));
    window.tabs()->setCurrentWidget(window.buyVsRentView());
    ok &= shoot(&window, out.filePath(QStringLiteral("buy-vs-rent.png")));
    // A grant budget for the recommended machine, with ten runs spread 3/4/3 and F&A at 50%.
    auto assumptions = session->scenario().assumptions;
    assumptions.indirectRate = 0.5;
    assumptions.plannedRuns = 10; // as typing 3,4,3 into the Budget view makes them
    auto* panel = window.findChild<gpuplan::gui::AssumptionsPanel*>();
    if (panel)
        panel->setAssumptions(assumptions);
    session->setAssumptions(assumptions);
    window.tabs()->setCurrentWidget(window.budgetView());
    if (auto* runs = window.budgetView()->findChild<QLineEdit*>(QStringLiteral("runsPerYear")))
        runs->setText(QStringLiteral("3,4,3"));
    settle();
    ok &= shoot(&window, out.filePath(QStringLiteral("budget.png")));
    // The Planner at the same F&A: its costs weighed by the sponsor's rules, and it says which.
    window.tabs()->setCurrentWidget(window.plannerView());
    ok &= shoot(&window, out.filePath(QStringLiteral("planner-indirect.png")));
    assumptions.indirectRate = 0.0;
    assumptions.plannedRuns = 1;
    if (panel)
        panel->setAssumptions(assumptions);
    session->setAssumptions(assumptions);

    // A price edit in progress: the modified marker and the undo history. Each cell by its
    // header, and each edit checked: by number, the date went into the Kind column (refused, and
    // the picture showed an undated price with no source).
    auto* book = window.priceBook();
    const auto editGpuCell = [&](std::size_t row, const char* header, const QString& value) {
        const auto columns = gpuplan::gui::priceColumns(gpuplan::gui::PriceTable::Gpus);
        for (std::size_t c = 0; c < columns.size(); ++c)
            if (std::string_view(columns[c].header) == header) {
                const QString error = book->edit(gpuplan::gui::PriceTable::Gpus,
                    static_cast<int>(row), static_cast<int>(c), value);
                if (error.isEmpty())
                    return true;
                std::fprintf(stderr, "gpuplan-screenshots: %s: %s\n", header, qPrintable(error));
                return false;
            }
        std::fprintf(stderr, "gpuplan-screenshots: no column %s\n", header);
        return false;
    };
    for (std::size_t i = 0; i < book->catalog().gpus.size(); ++i)
        if (book->catalog().gpus[i].id == "h100-80gb-sxm") {
            ok &= editGpuCell(i, "Price (USD)", QStringLiteral("25000"));
            ok &= editGpuCell(i, "Kind", QStringLiteral("quote"));
            ok &= editGpuCell(i, "Date", QStringLiteral("2026-11"));
            ok &= editGpuCell(i, "Source", QStringLiteral("Example: a vendor quote you received"));
        }
    window.tabs()->setCurrentWidget(window.priceTablesView());
    ok &= shoot(&window, out.filePath(QStringLiteral("price-tables.png")));
    window.tabs()->setCurrentWidget(window.plannerView());
    ok &= shoot(&window, out.filePath(QStringLiteral("planner-edited-h100-price.png")));
    book->undoStack()->clear();
    return ok ? 0 : 1;
}
