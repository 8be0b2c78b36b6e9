// gpuplan: the desktop planner. Opens the scenario given on the command line (the desktop entry
// passes one), else the last one used.

#include "app/gui/allocator_tuning.h"
#include "app/gui/main_window.h"
#include "app/gui/user_files.h"

#include <QApplication>
#include <QFileInfo>
#include <QIcon>
#include <QMessageBox>

int main(int argc, char** argv)
{
    gpuplan::gui::keepFreedMemoryForReplots();
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("gpuplan"));
    QApplication::setApplicationDisplayName(QStringLiteral("GPU Budget Planner"));
    QApplication::setOrganizationDomain(QStringLiteral("gpuplan.org"));
    QApplication::setApplicationVersion(QStringLiteral(GPUPLAN_VERSION));
    QGuiApplication::setDesktopFileName(QStringLiteral("org.gpuplan.planner"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/org.gpuplan.planner.svg")));

    const gpuplan::CatalogLoad load = gpuplan::gui::loadUserCatalog();
    gpuplan::gui::MainWindow window(load.catalog);
    if (!load.ok())
        QMessageBox::warning(&window, QObject::tr("Some data files have errors"),
            QObject::tr("These entries were left out:\n\n%1")
                .arg(gpuplan::gui::issueText(load.issues)));

    const QStringList arguments = QApplication::arguments();
    const QString scenario = arguments.size() > 1 ? arguments.at(1) : QString();
    QString error;
    const bool opened = scenario.isEmpty() ? window.restoreLastScenario(&error)
        : QFileInfo::exists(scenario)      ? window.openScenario(scenario, &error)
                                           : false;
    if (!opened && !error.isEmpty())
        QMessageBox::warning(&window, QObject::tr("Cannot open scenario"), error);
    window.show();
    return QApplication::exec();
}
