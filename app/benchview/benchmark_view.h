#pragma once

#include "app/benchrun/benchmark_runner.h"
#include "app/benchview/device_query.h"
#include "app/benchview/run_request.h"
#include "core/catalog.h"

#include <QDateTime>
#include <QTemporaryDir>
#include <QTimer>
#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace gpuplan::benchview {

// The Benchmark view: measures training time on this machine's GPU (or, to see how it works,
// its CPU) by running gpuplan-bench as a child process, so a crash, an out-of-memory kill or a
// hang of the worker never takes the planner down. Finished and partial results are saved into
// the user results dir, where the planner reads them as its `measured` source.
//
// Public API (all the main window needs):
//   BenchmarkView(catalog)   `catalog` is the planner's; results are read back against it
//   isRunning()              true while a measurement runs: ask before closing the window
//   stopAndKeepResults(t)    on quit: cancel, wait for the worker, save what it measured
//   importResults(path)      checks a results file from elsewhere and saves it like a run's
//   measurementsSaved(path)  a results file landed in the user results dir: reload the planner
// The devices are listed (in the background) the first time the view is shown. Tests reach the
// controls by objectName.
class BenchmarkView : public QWidget {
    Q_OBJECT

public:
    explicit BenchmarkView(std::shared_ptr<const Catalog> catalog, QWidget* parent = nullptr);
    ~BenchmarkView() override;

    bool isRunning() const { return m_runner.isActive(); }
    // Before quitting: cancels a running measurement and waits (turning the event loop, at most
    // `timeout`) until the worker has ended and what it measured is saved in the user results
    // dir like a normal finish. False if the worker was still running at the timeout.
    bool stopAndKeepResults(std::chrono::milliseconds timeout);
    // False, with the reason shown in the view, when the file is not a usable results file.
    bool importResults(const QString& path);

signals:
    void measurementsSaved(const QString& path);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void buildLayout();
    void fillModels();
    void refreshDevices();
    void showDevices(const DeviceList& list);
    void showDeviceFailure(const QString& why);
    void chooseConfigFile();
    void chooseImportFile();
    void onDeviceChanged();
    void updateProcessChoices();
    void startRun();
    void onProgress(const benchrun::ProgressLine& progress);
    void onRunFinished(benchrun::BenchmarkRunner::State state, const QString& outcome);
    void updateTimeLabel();
    void showMeasuredSoFar();
    void updateControls();
    void selectModel(const QString& id);
    RunRequest currentRequest() const;
    QString saveRunResults(benchrun::BenchmarkRunner::State state, const QString& outcome);

    std::shared_ptr<const Catalog> m_catalog;
    QTemporaryDir m_workDir; // the worker's results files, before they are checked and saved
    QString m_benchProgram;
    bool m_devicesRequested = false;
    bool m_devicesListedBefore = false;
    int m_runCount = 0;
    RunRequest m_lastRequest;
    QDateTime m_resultsSeenAt; // when the running worker's results file was last shown

    QLabel* m_banner = nullptr;
    QComboBox* m_model = nullptr;
    QPushButton* m_chooseConfig = nullptr;
    QComboBox* m_methods = nullptr;
    QComboBox* m_device = nullptr;
    QPushButton* m_refreshDevices = nullptr;
    QCheckBox* m_reducedRecipe = nullptr;
    QSpinBox* m_validationSteps = nullptr;
    QLabel* m_processesLabel = nullptr;
    QSpinBox* m_processes = nullptr;
    QComboBox* m_parallelism = nullptr;
    int m_gpusHere = 0;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_import = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_phase = nullptr;
    QLabel* m_time = nullptr;
    QLabel* m_outcome = nullptr;
    QLabel* m_summary = nullptr;
    QPlainTextEdit* m_log = nullptr;

    // Destroyed before the widgets and before m_workDir: a running worker is killed and reaped
    // while its results folder still exists.
    QTimer m_clock;
    DeviceQuery m_deviceQuery;
    benchrun::BenchmarkRunner m_runner;
};

} // namespace gpuplan::benchview
