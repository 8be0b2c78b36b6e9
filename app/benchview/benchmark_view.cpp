#include "app/benchview/benchmark_view.h"

#include "app/benchview/bench_locator.h"
#include "app/benchview/progress_text.h"
#include "app/benchview/result_summary.h"
#include "app/benchview/results_store.h"
#include "app/common/format.h"
#include "pricing/catalog_loader.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QShowEvent>
#include <QSpinBox>
#include <QVBoxLayout>

namespace gpuplan::benchview {

using benchrun::BenchmarkRunner;

namespace {
// The model a CPU trial run starts from: the smallest shipped language model.
constexpr auto kTrialModel = "pythia-160m";
// Role of the model list's items that hold a config.json path rather than a shipped id.
constexpr int kConfigFileRole = Qt::UserRole + 1;
// A cancelled worker gets this long to write what it measured before it is killed, so that
// Cancel always ends the run within a second.
constexpr std::chrono::milliseconds kCancelGrace { 600 };
constexpr std::chrono::milliseconds kClockTick { 500 };
// The log keeps the newest lines; a long search prints thousands.
constexpr int kMaxLogLines = 5000;
constexpr int kDefaultValidationSteps = 2;
constexpr int kMaxValidationSteps = 50;
// Failures stand out from the other outcomes; dark enough to read on light and grey panels.
const auto kFailureStyle = QStringLiteral("color: #b00020;");

QLabel* wrappingLabel(const QString& objectName)
{
    auto* label = new QLabel;
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}
} // namespace

BenchmarkView::BenchmarkView(std::shared_ptr<const Catalog> catalog, QWidget* parent)
    : QWidget(parent)
    , m_catalog(std::move(catalog))
    , m_deviceQuery(this)
    , m_runner(this)
{
    m_deviceQuery.setObjectName(QStringLiteral("deviceQuery"));
    m_runner.setObjectName(QStringLiteral("benchmarkRunner"));
    m_runner.setCancelGrace(kCancelGrace);
    m_clock.setInterval(kClockTick);

    buildLayout();
    fillModels();

    connect(&m_deviceQuery, &DeviceQuery::listed, this, &BenchmarkView::showDevices);
    connect(&m_deviceQuery, &DeviceQuery::failed, this, &BenchmarkView::showDeviceFailure);
    connect(&m_runner, &BenchmarkRunner::progressed, this, &BenchmarkView::onProgress);
    connect(&m_runner, &BenchmarkRunner::logLine, m_log, &QPlainTextEdit::appendPlainText);
    connect(&m_runner, &BenchmarkRunner::finished, this, &BenchmarkView::onRunFinished);
    connect(&m_runner, &BenchmarkRunner::stateChanged, this, &BenchmarkView::updateControls);
    connect(&m_clock, &QTimer::timeout, this, &BenchmarkView::updateTimeLabel);
    connect(&m_clock, &QTimer::timeout, this, &BenchmarkView::showMeasuredSoFar);
    connect(m_run, &QPushButton::clicked, this, &BenchmarkView::startRun);
    connect(m_cancel, &QPushButton::clicked, &m_runner, &BenchmarkRunner::cancel);
    connect(m_import, &QPushButton::clicked, this, &BenchmarkView::chooseImportFile);
    connect(m_chooseConfig, &QPushButton::clicked, this, &BenchmarkView::chooseConfigFile);
    connect(m_refreshDevices, &QPushButton::clicked, this, &BenchmarkView::refreshDevices);
    connect(m_device, &QComboBox::currentIndexChanged, this, &BenchmarkView::onDeviceChanged);
    connect(m_model, &QComboBox::currentIndexChanged, this, &BenchmarkView::updateControls);
    connect(m_processes, &QSpinBox::valueChanged, this, &BenchmarkView::updateControls);
    updateControls();
}

BenchmarkView::~BenchmarkView() = default;

void BenchmarkView::buildLayout()
{
    m_banner = wrappingLabel(QStringLiteral("statusBanner"));
    m_banner->setFrameShape(QFrame::StyledPanel);
    m_banner->setMargin(8);
    m_banner->setText(tr("The devices of this machine are listed when the view opens."));

    m_model = new QComboBox;
    m_model->setObjectName(QStringLiteral("modelBox"));
    m_chooseConfig = new QPushButton(tr("Your model's config.json..."));
    m_chooseConfig->setObjectName(QStringLiteral("chooseConfigButton"));
    m_chooseConfig->setToolTip(tr("A Hugging Face config.json of a GPT-NeoX or Llama-style model"));
    auto* modelRow = new QHBoxLayout;
    modelRow->addWidget(m_model, 1);
    modelRow->addWidget(m_chooseConfig);

    m_methods = new QComboBox;
    m_methods->setObjectName(QStringLiteral("methodsBox"));
    m_methods->addItem(tr("Free lunch (TF32, fused attention, autocast, fused AdamW)"),
        QStringLiteral("free-lunch"));
    m_methods->addItem(tr("Naive (the paper's plain set-up)"), QStringLiteral("naive"));
    m_methods->addItem(
        tr("Full search (both, with checkpointing and offload)"), QStringLiteral("all"));
    // Shrinkable (the whole text in the open list): the longest item set the window's minimum.
    for (QComboBox* combo : { m_model, m_methods }) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(24);
    }

    m_device = new QComboBox;
    m_device->setObjectName(QStringLiteral("deviceBox"));
    m_refreshDevices = new QPushButton(tr("Refresh"));
    m_refreshDevices->setObjectName(QStringLiteral("refreshDevicesButton"));
    auto* deviceRow = new QHBoxLayout;
    deviceRow->addWidget(m_device, 1);
    deviceRow->addWidget(m_refreshDevices);

    m_reducedRecipe
        = new QCheckBox(tr("Reduced recipe for a quick trial (global batch %1, %2 tokens)")
                            .arg(kTrialGlobalBatch)
                            .arg(kTrialSequenceLength));
    m_reducedRecipe->setObjectName(QStringLiteral("reducedRecipeBox"));
    m_reducedRecipe->setToolTip(tr("Its results get a model id of their own in the planner, so "
                                   "they never pass for the full training recipe."));
    m_validationSteps = new QSpinBox;
    m_validationSteps->setObjectName(QStringLiteral("validationStepsBox"));
    m_validationSteps->setRange(0, kMaxValidationSteps);
    m_validationSteps->setValue(kDefaultValidationSteps);
    m_validationSteps->setSpecialValueText(tr("off"));
    m_validationSteps->setToolTip(tr("Real optimizer steps run after the estimate, to report how "
                                     "far the extrapolated step time is from a measured one"));

    m_processes = new QSpinBox;
    m_processes->setObjectName(QStringLiteral("processCountBox"));
    m_processes->setRange(1, 1);
    m_processes->setToolTip(tr("More than one starts one gpuplan-bench process per GPU (GPU 0, "
                               "1, ...), which meet over NCCL; on the CPU, that many processes "
                               "over Gloo, to try the multi-GPU code"));
    m_parallelism = new QComboBox;
    m_parallelism->setObjectName(QStringLiteral("parallelismBox"));
    m_parallelism->addItem(tr("DDP (gradients all-reduced)"), QStringLiteral("ddp"));
    m_parallelism->addItem(tr("ZeRO-1 (optimizer state sharded)"), QStringLiteral("zero1"));
    m_parallelism->addItem(tr("ZeRO-2 (gradients sharded too)"), QStringLiteral("zero2"));
    m_parallelism->addItem(tr("ZeRO-3 (parameters sharded too)"), QStringLiteral("zero3"));
    m_parallelism->addItem(tr("All four"), QStringLiteral("all"));
    auto* processRow = new QHBoxLayout;
    processRow->addWidget(m_processes);
    processRow->addWidget(m_parallelism, 1);
    m_processesLabel = new QLabel(tr("GPUs:"));

    // Named for screen readers: a form row holding a layout makes no label the box's buddy
    // (both spin boxes were read out as the group's title, "Measurement").
    m_model->setAccessibleName(tr("Model"));
    m_device->setAccessibleName(tr("Device"));
    m_processes->setAccessibleName(tr("GPUs"));
    m_parallelism->setAccessibleName(tr("Parallelism"));
    m_validationSteps->setAccessibleName(tr("Validation steps"));
    auto* form = new QFormLayout;
    form->addRow(tr("Model:"), modelRow);
    form->addRow(tr("Methods:"), m_methods);
    form->addRow(tr("Device:"), deviceRow);
    form->addRow(m_processesLabel, processRow);
    form->addRow(QString(), m_reducedRecipe);
    auto* validationRow = new QHBoxLayout;
    validationRow->addWidget(m_validationSteps);
    validationRow->addStretch(1);
    form->addRow(tr("Validation steps:"), validationRow);

    m_run = new QPushButton(tr("Run benchmark"));
    m_run->setObjectName(QStringLiteral("runButton"));
    m_run->setDefault(true);
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setObjectName(QStringLiteral("cancelButton"));
    m_import = new QPushButton(tr("Import results file..."));
    m_import->setObjectName(QStringLiteral("importButton"));
    m_import->setToolTip(
        tr("A results file gpuplan-bench wrote on another machine, e.g. a GPU server"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    buttons->addStretch(1);
    buttons->addWidget(m_import);

    auto* settings = new QGroupBox(tr("Measurement"));
    auto* settingsLayout = new QVBoxLayout(settings);
    settingsLayout->addLayout(form);
    settingsLayout->addStretch(1);
    settingsLayout->addLayout(buttons);

    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("progressBar"));
    m_progress->setRange(0, 100);
    m_progress->setValue(0);
    m_phase = wrappingLabel(QStringLiteral("phaseLabel"));
    m_phase->setText(tr("Not running."));
    m_time = wrappingLabel(QStringLiteral("timeLabel"));
    m_outcome = wrappingLabel(QStringLiteral("outcomeLabel"));
    auto* progress = new QGroupBox(tr("Progress"));
    auto* progressLayout = new QVBoxLayout(progress);
    progressLayout->addWidget(m_progress);
    progressLayout->addWidget(m_phase);
    progressLayout->addWidget(m_time);
    progressLayout->addWidget(m_outcome);
    progressLayout->addStretch(1);

    m_summary = wrappingLabel(QStringLiteral("summaryLabel"));
    m_summary->setText(tr("No measurement yet."));
    auto* summary = new QGroupBox(tr("Best configuration"));
    auto* summaryLayout = new QVBoxLayout(summary);
    summaryLayout->addWidget(m_summary);
    summaryLayout->addStretch(1);

    m_log = new QPlainTextEdit;
    m_log->setObjectName(QStringLiteral("logView"));
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(kMaxLogLines);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto* log = new QGroupBox(tr("Log"));
    auto* logLayout = new QVBoxLayout(log);
    logLayout->addWidget(m_log);

    auto* grid = new QGridLayout(this);
    grid->addWidget(m_banner, 0, 0, 1, 2);
    grid->addWidget(settings, 1, 0);
    grid->addWidget(progress, 1, 1);
    grid->addWidget(summary, 2, 0, 1, 2);
    grid->addWidget(log, 3, 0, 1, 2);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    grid->setRowStretch(3, 1);
}

void BenchmarkView::fillModels()
{
    // The shipped models only: results of earlier runs are models of the planner, not of
    // gpuplan-bench.
    const CatalogLoad shipped = loadCatalog(shippedDataFiles());
    for (const auto& w : shipped.catalog->workloads) {
        m_model->addItem(
            QStringLiteral("%1 (%2 parameters)")
                .arg(views::toQString(w.name))
                .arg(QLocale(QLocale::English).toString(static_cast<qlonglong>(w.parameters))),
            views::toQString(w.id));
    }
    selectModel(QString::fromLatin1(kTrialModel));
}

void BenchmarkView::selectModel(const QString& id)
{
    const int index = m_model->findData(id);
    if (index >= 0)
        m_model->setCurrentIndex(index);
}

void BenchmarkView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (!m_devicesRequested) {
        m_devicesRequested = true;
        refreshDevices();
    }
}

void BenchmarkView::refreshDevices()
{
    const BenchLocation location = locateBench();
    m_benchProgram = location.program;
    m_device->clear();
    if (m_benchProgram.isEmpty()) {
        m_banner->setText(location.problem + QLatin1Char(' ')
            + tr("Results measured elsewhere can still be imported."));
        updateControls();
        return;
    }
    m_banner->setText(tr("Looking for devices with %1 ...").arg(m_benchProgram));
    m_deviceQuery.start(m_benchProgram);
    updateControls();
}

void BenchmarkView::showDevices(const DeviceList& list)
{
    m_device->clear();
    m_gpusHere = 0;
    for (const auto& d : list.devices) {
        m_device->addItem(d.label(), d.deviceArgument());
        m_gpusHere += d.isCuda() ? 1 : 0;
    }

    QString text;
    if (const BenchDevice* gpu = list.firstGpu()) {
        QStringList names;
        for (const auto& d : list.devices)
            if (d.isCuda())
                names << d.name;
        text = tr("Found %n GPU(s): %1 (LibTorch %2).", nullptr, static_cast<int>(names.size()))
                   .arg(names.join(QStringLiteral(", ")), list.libtorch);
        m_device->setCurrentIndex(m_device->findData(gpu->deviceArgument()));
    } else {
        text
            = tr("No GPU found on this machine (LibTorch %1 sees no CUDA device). You can still "
                 "run a small model on the CPU to see how a measurement works: Pythia-160M with "
                 "a reduced recipe is selected and takes a few minutes. For real numbers, run "
                 "gpuplan-bench on your GPU server (benchmark-view.md in the gpuplan documentation "
                 "has a SLURM srun example) and bring its results file here with \"Import results "
                 "file...\" or "
                 "File > Import measurements.")
                  .arg(list.libtorch);
        m_device->setCurrentIndex(m_device->findData(QStringLiteral("cpu")));
        if (!m_devicesListedBefore) // a Refresh keeps the model the user chose
            selectModel(QString::fromLatin1(kTrialModel));
    }
    m_devicesListedBefore = true;
    for (const auto& warning : list.warnings)
        text += QLatin1Char('\n') + tr("Warning: %1").arg(warning);
    m_banner->setText(text);
    onDeviceChanged();
}

void BenchmarkView::showDeviceFailure(const QString& why)
{
    m_device->clear();
    m_device->addItem(tr("cpu  (the device list is unavailable)"), QStringLiteral("cpu"));
    m_banner->setText(tr("Could not list the devices: %1 Only the CPU is offered; a run will "
                         "report its own error if the benchmark cannot work here.")
                          .arg(why));
    onDeviceChanged();
}

void BenchmarkView::onDeviceChanged()
{
    // The shipped recipes are sized for GPUs; on a CPU only the reduced one ends in minutes.
    m_reducedRecipe->setChecked(m_device->currentData().toString() == QLatin1String("cpu"));
    updateProcessChoices();
    updateControls();
}

// 1 ... the GPUs of this machine on a GPU; on the CPU the user picks a number of processes.
void BenchmarkView::updateProcessChoices()
{
    const bool onCpu = m_device->currentData().toString() == QLatin1String("cpu");
    m_processesLabel->setText(onCpu ? tr("CPU processes:") : tr("GPUs:"));
    m_processes->setAccessibleName(onCpu ? tr("CPU processes") : tr("GPUs"));
    m_processes->setRange(1, onCpu ? kMaxCpuProcesses : std::max(1, m_gpusHere));
}

void BenchmarkView::chooseConfigFile()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Choose a Hugging Face config.json"), QString(), tr("Model config (*.json)"));
    if (path.isEmpty())
        return;
    const QString label = tr("Your model: %1").arg(QFileInfo(path).absoluteFilePath());
    int index = -1;
    for (int i = 0; i < m_model->count(); ++i)
        if (!m_model->itemData(i, kConfigFileRole).toString().isEmpty())
            index = i;
    if (index < 0) {
        m_model->addItem(label);
        index = m_model->count() - 1;
    }
    m_model->setItemText(index, label);
    m_model->setItemData(index, QString(), Qt::UserRole);
    m_model->setItemData(index, QFileInfo(path).absoluteFilePath(), kConfigFileRole);
    m_model->setCurrentIndex(index);
}

RunRequest BenchmarkView::currentRequest() const
{
    RunRequest request;
    request.configFile = m_model->currentData(kConfigFileRole).toString();
    if (request.configFile.isEmpty())
        request.modelId = m_model->currentData(Qt::UserRole).toString();
    request.methods = m_methods->currentData().toString();
    request.device = m_device->currentData().toString();
    request.reducedRecipe = m_reducedRecipe->isChecked();
    request.validationSteps = m_validationSteps->value();
    request.processes = m_processes->value();
    request.parallelism = m_parallelism->currentData().toString();
    return request;
}

void BenchmarkView::startRun()
{
    if (isRunning() || m_benchProgram.isEmpty())
        return;
    if (!m_workDir.isValid()) {
        m_outcome->setText(tr("Could not create a temporary folder for the results: %1")
                               .arg(m_workDir.errorString()));
        return;
    }
    m_lastRequest = currentRequest();
    const QStringList arguments = benchRunArguments(m_lastRequest);
    const QString out = m_workDir.filePath(QStringLiteral("run-%1.yaml").arg(++m_runCount));
    m_log->clear();
    m_log->appendPlainText(QStringLiteral("$ ") + m_benchProgram + QLatin1Char(' ')
        + arguments.join(QLatin1Char(' ')));
    m_progress->setValue(0);
    m_phase->setText(tr("Starting..."));
    m_outcome->clear();
    m_outcome->setStyleSheet(QString());
    m_summary->setText(tr("Measuring..."));
    m_resultsSeenAt = QDateTime();
    m_runner.start(m_benchProgram, arguments, out);
    if (m_runner.isActive()) // a worker that failed to start has already been reported
        m_clock.start();
    updateTimeLabel();
    updateControls();
}

void BenchmarkView::onProgress(const benchrun::ProgressLine& progress)
{
    // An error line reports 100 %: the run is over, not done; the bar keeps what was done.
    if (progress.phase != ProgressPhase::Error)
        m_progress->setValue(static_cast<int>(progress.percent));
    const QString description = describeProgress(progress);
    m_phase->setText(description);
    m_log->appendPlainText(QStringLiteral("[%1%] ").arg(progress.percent, 5, 'f', 1) + description
        + (progress.message.isEmpty() ? QString() : QStringLiteral(" - ") + progress.message));
}

void BenchmarkView::onRunFinished(BenchmarkRunner::State state, const QString& outcome)
{
    m_clock.stop();
    updateTimeLabel();
    if (state == BenchmarkRunner::State::Finished)
        m_progress->setValue(m_progress->maximum());
    const QString phase = state == BenchmarkRunner::State::Finished ? tr("Finished.")
        : state == BenchmarkRunner::State::Cancelled                ? tr("Cancelled.")
                                                                    : tr("Failed.");
    m_phase->setText(phase);
    m_outcome->setStyleSheet(state == BenchmarkRunner::State::Failed ? kFailureStyle : QString());
    m_outcome->setText(saveRunResults(state, outcome));
    m_log->appendPlainText(m_outcome->text());
    updateControls();
}

// Checks the worker's results file with the planner's reader and files it in the user results
// dir; returns the outcome to show, with the worker's temporary path replaced by the saved one.
QString BenchmarkView::saveRunResults(BenchmarkRunner::State state, const QString& outcome)
{
    if (!m_runner.hasResults()) {
        m_summary->setText(tr("No configuration was measured, so nothing was saved."));
        return outcome;
    }
    const QString temporary = m_runner.resultsFile();
    ResultSummary summary = summarizeResultsFile(temporary, *m_catalog);
    summary.validationStepsAsked = m_lastRequest.validationSteps;
    summary.runStoppedEarly = state != BenchmarkRunner::State::Finished;
    if (!summary.readable) {
        m_summary->setText(tr("The worker's results file cannot be used, so nothing was saved:\n%1")
                               .arg(summary.error));
        return outcome;
    }
    // Named after what was asked for: the shipped id, not the recipe-qualified one the reader
    // gives a reduced recipe; the file itself records the recipe.
    const QString model = m_lastRequest.modelId.isEmpty() ? views::toQString(summary.best.modelId)
                                                          : m_lastRequest.modelId;
    const bool onCpu = m_lastRequest.device == QLatin1String("cpu");
    std::string device = onCpu       ? std::string("cpu")
        : summary.best.gpuId.empty() ? summary.best.deviceName
                                     : summary.best.gpuId;
    if (summary.best.gpuCount > 1)
        device = std::to_string(summary.best.gpuCount) + "x" + device;
    const StoredResults stored = storeResultsFile(temporary,
        resultsFileName(model, views::toQString(device), QDateTime::currentDateTimeUtc()));
    if (stored.path.isEmpty()) {
        m_summary->setText(summary.text());
        return outcome + QLatin1Char(' ') + stored.error;
    }
    m_summary->setText(summary.text());
    emit measurementsSaved(stored.path);
    return QString(outcome).replace(temporary, stored.path);
}

bool BenchmarkView::stopAndKeepResults(std::chrono::milliseconds timeout)
{
    if (!isRunning())
        return true;
    // finished() runs onRunFinished, which saves what was measured; the event loop has to turn
    // for QProcess to notice the worker's exit. The runner kills the worker after the cancel
    // grace, so the wait ends well within `timeout` unless the system is stuck.
    QEventLoop loop;
    connect(&m_runner, &BenchmarkRunner::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(timeout, &loop, &QEventLoop::quit);
    m_runner.cancel();
    if (isRunning())
        loop.exec(QEventLoop::ExcludeUserInputEvents);
    return !isRunning();
}

bool BenchmarkView::importResults(const QString& path)
{
    const StoredResults stored = importResultsFile(path, *m_catalog);
    if (stored.path.isEmpty()) {
        m_outcome->setStyleSheet(kFailureStyle);
        m_outcome->setText(stored.error);
        return false;
    }
    m_outcome->setStyleSheet(QString());
    const ResultSummary summary = summarizeResultsFile(stored.path, *m_catalog);
    m_summary->setText(summary.text());
    m_outcome->setText(tr("Imported %1 as %2; the planner now uses it as a measured estimate.")
                           .arg(path, stored.path));
    emit measurementsSaved(stored.path);
    return true;
}

void BenchmarkView::chooseImportFile()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Import a gpuplan-bench results file"), QString(), tr("Results (*.yaml *.yml)"));
    if (!path.isEmpty())
        importResults(path);
}

// The worker rewrites its results file after every configuration; showing it as it grows tells
// the user what a failure or a Cancel would keep.
void BenchmarkView::showMeasuredSoFar()
{
    if (!m_runner.isActive() || !m_runner.hasResults())
        return;
    const QDateTime modified = QFileInfo(m_runner.resultsFile()).lastModified();
    if (modified == m_resultsSeenAt)
        return;
    m_resultsSeenAt = modified;
    ResultSummary summary = summarizeResultsFile(m_runner.resultsFile(), *m_catalog);
    summary.validationStepsAsked = m_lastRequest.validationSteps;
    if (summary.readable)
        m_summary->setText(tr("Measured so far (kept if the run stops early):") + QLatin1Char('\n')
            + summary.text());
}

void BenchmarkView::updateTimeLabel()
{
    if (m_runner.state() == BenchmarkRunner::State::Idle) {
        m_time->clear();
        return;
    }
    QString text = tr("Elapsed %1").arg(formatDuration(m_runner.elapsed()));
    if (m_runner.isActive()) {
        if (const auto left = m_runner.estimatedRemaining())
            text += tr(", about %1 left").arg(formatDuration(*left));
    }
    m_time->setText(text);
}

void BenchmarkView::updateControls()
{
    const bool running = isRunning();
    const bool haveModel = m_model->currentIndex() >= 0;
    for (QWidget* input : { static_cast<QWidget*>(m_model), static_cast<QWidget*>(m_chooseConfig),
             static_cast<QWidget*>(m_methods), static_cast<QWidget*>(m_device),
             static_cast<QWidget*>(m_reducedRecipe), static_cast<QWidget*>(m_validationSteps),
             static_cast<QWidget*>(m_processes) })
        input->setEnabled(!running);
    // A strategy means something only with several processes.
    m_parallelism->setEnabled(!running && m_processes->value() > 1);
    m_refreshDevices->setEnabled(!running && !m_deviceQuery.isRunning());
    m_run->setEnabled(!running && !m_benchProgram.isEmpty() && m_device->count() > 0 && haveModel
        && !m_deviceQuery.isRunning());
    m_cancel->setEnabled(m_runner.state() == BenchmarkRunner::State::Running);
    if (m_runner.state() == BenchmarkRunner::State::Cancelling)
        m_phase->setText(tr("Cancelling..."));
}

} // namespace gpuplan::benchview
