#pragma once

// The scenario file the desktop planner has open: reading and writing it (atomically), the
// recent-files list and the scenario to reopen at start, and the mapping between a file's view
// state (ids and counts, stable across price edits) and the indices of one evaluation's
// Results. QtCore only, so it is tested without widgets; MainWindow wires it to its views.

#include "pricing/scenario/scenario_file.h"

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace gpuplan::document {

// The view state a scenario file keeps, as indices into one Results.
struct ViewSelection {
    std::optional<bool> logAxes;
    std::optional<bool> monthsAxis;
    std::optional<std::size_t> machine; // into Results::options
    std::optional<std::vector<std::size_t>> offers; // into Results::cloud; unset: the defaults
    std::optional<BudgetTarget> budget; // the Budget tab's machine or way to rent
};

// From the views' indices to what the file keeps (ids and counts).
ScenarioView captureView(const Results& results, const ViewSelection& selection);
// Back: a machine or offer the results no longer have is left out.
ViewSelection resolveView(const ScenarioView& view, const Results& results);

class ScenarioDocument : public QObject {
    Q_OBJECT

public:
    static constexpr int kMaxRecentFiles = 8;

    explicit ScenarioDocument(QObject* parent = nullptr);

    QString path() const { return m_path; } // empty: untitled
    // "plan.gpuplan.yaml", or "Untitled scenario".
    QString displayName() const;

    struct Opened {
        Scenario scenario; // catalog left null
        ScenarioView view;
        std::optional<ScenarioGrant> grant; // the Budget tab's grant; absent in older files
        std::optional<std::string> priceSet; // the shipped price set it was planned with
        QString warnings; // issues that did not stop the read, file:line:column each
        QByteArray digest; // of the bytes read, for changedOnDisk() once adopted
    };
    // Reads `path` against the catalog's defaults; the model must be one the catalog knows.
    // Changes nothing: the window may still decline to open it (unsaved price edits of another
    // price set), and only then calls adopt(). On failure *error says why (file:line:column
    // where there is one).
    std::optional<Opened> read(const QString& path, const Catalog& catalog, QString* error) const;
    // The file read is now the one open: its path (absolute, so that it reopens from any working
    // folder) and the most recent file; `digest` is Opened::digest.
    void adopt(const QString& path, const QByteArray& digest);
    // Writes atomically (a failed write leaves the old file); becomes the path and most recent.
    bool save(const QString& path, const Scenario& scenario, const ScenarioView& view,
        const std::optional<ScenarioGrant>& grant, QString* error);
    void clear(); // a new, untitled scenario
    // Whether the open file now holds other bytes than were read or saved here: another program,
    // or another window of the planner, wrote it since. Save would overwrite that work, so the
    // window asks first. A file gone or unreadable is not "changed": saving writes it anew, or
    // fails with its own message.
    bool changedOnDisk() const;

    QStringList recentFiles() const; // absolute paths, newest first
    // The scenario open at the last quit, if it still exists; recorded by rememberAsLast().
    QString lastScenario() const;
    void rememberAsLast() const;

signals:
    void pathChanged();
    void recentFilesChanged();

private:
    void setPath(const QString& path);
    void addRecent(const QString& path);

    QString m_path;
    QByteArray m_digest; // of the file as read or saved here; empty: untitled
};

} // namespace gpuplan::document
