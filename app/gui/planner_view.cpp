#include "app/gui/planner_view.h"

#include "app/common/budget_table.h"
#include "app/common/cloud_columns.h"
#include "app/common/format.h"
#include "app/common/option_columns.h"
#include "app/common/wording.h"
#include "app/gui/cloud_table_model.h"
#include "app/gui/flow_row.h"
#include "app/gui/keyed_sort_proxy.h"
#include "app/gui/number_box.h"
#include "app/gui/option_table_model.h"
#include "app/gui/planner_session.h"
#include "app/gui/rental_filter_button.h"
#include "app/render/chart_widget.h"
#include "core/limits.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace gpuplan::gui {

namespace {

constexpr double kDefaultBudgetUsd = 40000.0; // the paper's worked example
constexpr double kDefaultDeadlineDays = 30.0;

QTableView* makeTable(QAbstractItemModel* model, const QString& name)
{
    auto* table = new QTableView;
    table->setObjectName(name);
    table->setModel(model);
    table->setSortingEnabled(true);
    // Qt starts a sortable table in descending order (Z to A): A to Z reads as intended.
    table->sortByColumn(0, Qt::AscendingOrder);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setAlternatingRowColors(true);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    table->setWordWrap(false);
    // Tab leaves the table (arrow keys move between cells): with Qt's default, Tab went round
    // its hundreds of cells and a keyboard user never got back to the controls.
    table->setTabKeyNavigation(false);
    // Sorting from the keyboard: the header takes no focus, so the current cell's column is
    // sorted by Alt+Up (A to Z, low to high) or Alt+Down, and by the table's context menu.
    const std::pair<Qt::SortOrder, QKeyCombination> orders[] = {
        { Qt::AscendingOrder, Qt::ALT | Qt::Key_Up },
        { Qt::DescendingOrder, Qt::ALT | Qt::Key_Down },
    };
    for (const auto& [order, key] : orders) {
        auto* sort = new QAction(order == Qt::AscendingOrder
                ? QObject::tr("Sort by this column, lowest first")
                : QObject::tr("Sort by this column, highest first"),
            table);
        sort->setShortcut(QKeySequence(key));
        sort->setShortcutContext(Qt::WidgetShortcut);
        QObject::connect(sort, &QAction::triggered, table, [table, o = order] {
            const QModelIndex current = table->currentIndex();
            table->sortByColumn(current.isValid() ? current.column() : 0, o);
            if (current.isValid())
                table->scrollTo(table->currentIndex());
        });
        table->addAction(sort);
    }
    table->setContextMenuPolicy(Qt::ActionsContextMenu);
    return table;
}

QSortFilterProxyModel* sortingProxy(QAbstractItemModel* source, QObject* parent)
{
    auto* proxy = new KeyedSortProxy(parent);
    proxy->setSourceModel(source);
    proxy->setSortRole(Qt::UserRole);
    return proxy;
}

// Puts these columns first, in this order, on screen only (the CSV and the CLI keep theirs):
// on a laptop the tables showed the options' Flags (above peak, stale price) and every rental's
// cost a page of scrolling to the right, away from the row's name.
void showFirst(QTableView* table, const std::vector<int>& columns)
{
    QHeaderView* header = table->horizontalHeader();
    for (int at = 0; at < static_cast<int>(columns.size()); ++at)
        header->moveSection(header->visualIndex(columns[static_cast<std::size_t>(at)]), at);
}

} // namespace

PlannerView::PlannerView(PlannerSession* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
{
    m_optionModel = new OptionTableModel(this);
    m_cloudModel = new CloudTableModel(this);
    m_optionProxy = sortingProxy(m_optionModel, this);
    m_cloudProxy = sortingProxy(m_cloudModel, this);
    buildLayout();
    connect(m_session, &PlannerSession::resultsChanged, this, &PlannerView::resultsChanged);
    resultsChanged();
}

void PlannerView::buildLayout()
{
    m_model = new QComboBox;
    m_model->setObjectName(QStringLiteral("model"));
    m_source = new QComboBox;
    m_source->setObjectName(QStringLiteral("source"));
    const std::pair<SourcePolicy, QString> sources[] = {
        { SourcePolicy::Best, tr("best available") },
        { SourcePolicy::Paper, tr("paper, Table 1 (optimal settings)") },
        { SourcePolicy::PaperNaive, tr("paper, Table 4 (naive settings)") },
        { SourcePolicy::Analytic, tr("analytic (FLOPs / peak × utilisation)") },
        { SourcePolicy::Measured, tr("measured with gpuplan-bench") },
        { SourcePolicy::Extrapolated, tr("extrapolated to more GPUs") },
    };
    for (const auto& [policy, label] : sources)
        m_source->addItem(label, static_cast<int>(policy));
    m_source->setToolTip(tr("Where training times come from. Best available takes, per machine, "
                            "measured > extrapolated from a measurement on fewer GPUs > the "
                            "paper's tables > the analytic estimate (an extrapolation with no "
                            "known bandwidth between the GPUs after the paper's tables)."));
    // Shrinkable to nine characters (the full text in the open list): the control row must
    // fit a laptop screen beside the Assumptions dock.
    for (QComboBox* combo : { m_model, m_source }) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(9);
    }
    m_logAxes = new QCheckBox(tr("Log axes"));
    m_logAxes->setObjectName(QStringLiteral("logAxes"));
    m_logAxes->setChecked(true);
    m_rentalFilter = new RentalFilterButton;
    m_budgetOn = new QCheckBox(tr("Budget"));
    m_budgetOn->setObjectName(QStringLiteral("budgetOn"));
    m_budget = new NumberBox;
    m_budget->setObjectName(QStringLiteral("budget"));
    // The limits a scenario file is held to (core/limits.h), at its precision, trailing zeros
    // trimmed: a file's $50 budget or 32.95-day deadline showed as $100 and 33.0, which a later
    // tick of the box then applied unsaid.
    m_budget->setRange(limits::kBudgetUsd.bounds.min, limits::kBudgetUsd.bounds.max);
    m_budget->setDecimals(2);
    m_budget->setTrimmedZeros(true);
    m_budget->setSingleStep(5000);
    m_budget->setPrefix(QStringLiteral("$"));
    m_budget->setGroupSeparatorShown(true);
    m_budget->setValue(kDefaultBudgetUsd);
    m_budget->setKeyboardTracking(false);
    m_deadlineOn = new QCheckBox(tr("Deadline"));
    m_deadlineOn->setObjectName(QStringLiteral("deadlineOn"));
    m_deadline = new NumberBox;
    m_deadline->setObjectName(QStringLiteral("deadline"));
    m_deadline->setRange(limits::kDeadlineDays.bounds.min, limits::kDeadlineDays.bounds.max);
    m_deadline->setDecimals(2);
    m_deadline->setTrimmedZeros(true);
    m_deadline->setSuffix(tr(" days"));
    m_deadline->setValue(kDefaultDeadlineDays);
    m_deadline->setKeyboardTracking(false);
    // "1 day", not "1 days", as the recommendation words it (views::formatDeadline).
    connect(m_deadline, &QDoubleSpinBox::valueChanged, m_deadline, [box = m_deadline](double days) {
        box->setSuffix(days == 1.0 ? tr(" day") : tr(" days"));
    });

    // Labels are the boxes' buddies: Alt+M and Alt+S reach them, and a screen reader names each
    // box by its label (it read out the current value); the number boxes are named by the
    // check box that turns them on.
    auto* modelLabel = new QLabel(tr("&Model:"));
    modelLabel->setBuddy(m_model);
    auto* sourceLabel = new QLabel(tr("E&stimates:"));
    sourceLabel->setBuddy(m_source);
    m_budget->setAccessibleName(tr("Budget"));
    m_deadline->setAccessibleName(tr("Deadline"));
    // One line where the window is wide enough, two where it is not (flow_row.h).
    auto* controls = new FlowRow;
    controls->addGroup({ modelLabel, m_model });
    controls->addGroup({ sourceLabel, m_source });
    controls->addGroup({ m_logAxes, m_rentalFilter });
    controls->addGroup({ m_budgetOn, m_budget });
    controls->addGroup({ m_deadlineOn, m_deadline });

    m_recommendation = new QLabel;
    m_recommendation->setObjectName(QStringLiteral("recommendation"));
    m_recommendation->setWordWrap(true);
    // Always rich text: its parts are escaped as HTML, and without a tag Qt's guess showed
    // "F&amp;A" literally.
    m_recommendation->setTextFormat(Qt::RichText);
    m_recommendation->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_hardwareChart = new render::ChartWidget;
    m_hardwareChart->setObjectName(QStringLiteral("hardwareChart"));
    m_experimentChart = new render::ChartWidget;
    m_experimentChart->setObjectName(QStringLiteral("experimentChart"));
    auto* charts = new QSplitter(Qt::Horizontal);
    charts->addWidget(m_hardwareChart);
    charts->addWidget(m_experimentChart);

    m_optionsTable = makeTable(m_optionProxy, QStringLiteral("optionsTable"));
    m_cloudTable = makeTable(m_cloudProxy, QStringLiteral("cloudTable"));
    const auto option = [](views::OptionColumn c) { return static_cast<int>(c); };
    showFirst(m_optionsTable,
        { option(views::OptionColumn::Gpu), option(views::OptionColumn::GpuCount),
            option(views::OptionColumn::Days), option(views::OptionColumn::Source),
            option(views::OptionColumn::MachineCost), option(views::OptionColumn::ExperimentCost),
            option(views::OptionColumn::Flags) });
    const auto cloud = [](views::CloudColumn c) { return static_cast<int>(c); };
    showFirst(m_cloudTable,
        { cloud(views::CloudColumn::Provider), cloud(views::CloudColumn::Offer),
            cloud(views::CloudColumn::Gpu), cloud(views::CloudColumn::GpuCount),
            cloud(views::CloudColumn::CheapestCost), cloud(views::CloudColumn::Days),
            cloud(views::CloudColumn::Flags) });
    auto* tables = new QTabWidget;
    tables->addTab(m_optionsTable, tr("Machines to buy"));
    tables->addTab(m_cloudTable, tr("Cloud offers"));
    m_optionsTable->setAccessibleName(tr("Machines to buy"));
    m_cloudTable->setAccessibleName(tr("Cloud offers"));

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(charts);
    split->addWidget(tables);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({ 600, 330 }); // the charts are what the user came for

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_recommendation);
    layout->addWidget(split, 1);

    connect(m_model, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_syncing)
            m_session->setModel(m_model->currentData().toString().toStdString());
    });
    connect(m_source, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_syncing)
            m_session->setSource(static_cast<SourcePolicy>(m_source->currentData().toInt()));
    });
    connect(m_logAxes, &QCheckBox::toggled, this, &PlannerView::replotCharts);
    connect(m_rentalFilter, &RentalFilterButton::filterChanged, this, &PlannerView::replotCharts);
    connect(m_logAxes, &QCheckBox::toggled, this, &PlannerView::logAxesToggled);
    connect(m_budgetOn, &QCheckBox::toggled, this, &PlannerView::applyBudget);
    connect(m_budget, &QDoubleSpinBox::valueChanged, this, &PlannerView::applyBudget);
    connect(m_deadlineOn, &QCheckBox::toggled, this, &PlannerView::applyDeadline);
    connect(m_deadline, &QDoubleSpinBox::valueChanged, this, &PlannerView::applyDeadline);

    connect(m_optionsTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current) {
            if (m_syncing)
                return;
            const int index = current.data(OptionTableModel::OptionIndexRole).toInt();
            keepSelection(current.isValid() && index >= 0
                    ? std::optional<std::size_t>(static_cast<std::size_t>(index))
                    : std::nullopt);
            replotCharts();
            if (m_selected)
                emit optionChosen(*m_selected);
        });
    for (auto* chart : { m_hardwareChart, m_experimentChart })
        connect(chart, &render::ChartWidget::optionClicked, this,
            [this](int index) { selectOption(static_cast<std::size_t>(index)); });
}

void PlannerView::applyBudget()
{
    if (m_syncing)
        return;
    m_budget->setEnabled(m_budgetOn->isChecked());
    m_session->setBudget(
        m_budgetOn->isChecked() ? std::optional<double>(m_budget->value()) : std::nullopt);
}

void PlannerView::applyDeadline()
{
    if (m_syncing)
        return;
    m_deadline->setEnabled(m_deadlineOn->isChecked());
    m_session->setDeadline(
        m_deadlineOn->isChecked() ? std::optional<double>(m_deadline->value()) : std::nullopt);
}

void PlannerView::syncControls()
{
    m_syncing = true;
    const Scenario& s = m_session->scenario();
    if (m_model->count() != static_cast<int>(s.catalog->workloads.size())
        || m_model->findData(QString::fromStdString(s.modelId)) < 0) {
        m_model->clear();
        for (const auto& w : s.catalog->workloads) {
            QString label = QString::fromStdString(w.name);
            if (hasMeasurements(*s.catalog, w.id))
                label += tr("  (measured)");
            m_model->addItem(label, QString::fromStdString(w.id));
        }
    }
    m_model->setCurrentIndex(m_model->findData(QString::fromStdString(s.modelId)));
    m_source->setCurrentIndex(m_source->findData(static_cast<int>(s.source)));
    m_budgetOn->setChecked(s.budgetUsd.has_value());
    if (s.budgetUsd)
        m_budget->setValue(*s.budgetUsd);
    m_budget->setEnabled(s.budgetUsd.has_value());
    m_deadlineOn->setChecked(s.deadlineDays.has_value());
    if (s.deadlineDays)
        m_deadline->setValue(*s.deadlineDays);
    m_deadline->setEnabled(s.deadlineDays.has_value());
    m_syncing = false;
}

void PlannerView::resultsChanged()
{
    syncControls();
    const Results& r = m_session->results();
    m_selected.reset();
    for (std::size_t i = 0; m_selectedMachine && i < r.options.size() && !m_selected; ++i)
        if (r.options[i].gpu->id == m_selectedMachine->first
            && r.options[i].gpuCount == m_selectedMachine->second)
            m_selected = i;
    if (!m_selected)
        m_selectedMachine.reset();
    m_syncing = true;
    m_optionModel->setResults(&r, &m_session->comparisons());
    m_cloudModel->setResults(&r);
    m_syncing = false;
    selectRowOf(m_selected); // the model's reset cleared the table's selection
    if (!m_columnsSized && !r.options.empty()) {
        // Once: later re-plots keep the widths the user chose.
        m_optionsTable->resizeColumnsToContents();
        m_cloudTable->resizeColumnsToContents();
        m_columnsSized = true;
    }
    // Except a column whose header changed: "Per experiment (with F&A)" once an indirect rate
    // is set was cut to "er experiment (with F&A", the part that says what the figures hold.
    for (auto& [table, headers] : { std::pair { m_optionsTable, &m_optionHeaders },
             std::pair { m_cloudTable, &m_cloudHeaders } }) {
        const QAbstractItemModel* model = table->model();
        QStringList now;
        for (int c = 0; c < model->columnCount(); ++c)
            now << model->headerData(c, Qt::Horizontal).toString();
        if (m_columnsSized && headers->size() == now.size())
            for (int c = 0; c < now.size(); ++c)
                if (now[c] != (*headers)[c])
                    table->resizeColumnToContents(c);
        *headers = now;
    }

    QString text;
    if (r.recommended) {
        const auto& o = r.options[*r.recommended];
        text
            = tr("<b>Recommended:</b> %1 — %2: %3, %4 machine, %5 per experiment.")
                  .arg(render::shortMachineLabel(o), views::recommendationReason(r).toHtmlEscaped(),
                      views::formatDays(o.estimate.days), views::formatUsd(o.machineCostUsd),
                      views::formatUsd(o.experimentCostUsd));
        if (const QString caution = views::recommendationCaution(o); !caution.isEmpty())
            text += QStringLiteral(" <span style=\"color:#b00000\">%1</span>")
                        .arg(caution.toHtmlEscaped());
        if (const QString note = views::recommendationRangeNote(r); !note.isEmpty())
            text += QLatin1Char(' ') + note.toHtmlEscaped();
    } else if (const QString why = views::recommendationReason(r); !why.isEmpty()) {
        text = tr("<b>No recommendation:</b> %1.").arg(why.toHtmlEscaped());
    } else {
        text = tr("Set a budget or a deadline to get a recommendation.");
    }
    if (const QString aside = views::recommendationSetAside(r); !aside.isEmpty())
        text += QLatin1Char(' ') + aside.toHtmlEscaped() + QLatin1Char('.');
    // Every cost in the tables and charts counts F&A where these rules put it: say which.
    if (const QString fa = views::indirectScopeText(r.indirectRules, r.assumptions.indirectRate);
        !fa.isEmpty())
        text += tr(" %1.").arg(fa.toHtmlEscaped());
    if (!m_session->comparisons().empty())
        text += tr(" Hollow markers and italic rows: the GPUs measured with gpuplan-bench, as "
                   "each source estimates them (pentagon measured, star extrapolated, diamond "
                   "the paper's, square analytic).");
    for (const auto& w : r.warnings)
        text += QStringLiteral("<br><span style=\"color:#b00000\">%1</span>")
                    .arg(views::warningText(w, r.source).toHtmlEscaped());
    m_recommendation->setText(text);
    m_rentalFilter->offersChanged(r);
    replotCharts();
}

render::PlannerChartOptions PlannerView::chartOptions() const
{
    render::PlannerChartOptions options;
    options.logX = options.logY = m_logAxes->isChecked();
    options.budgetUsd = m_session->scenario().budgetUsd;
    options.deadlineDays = m_session->scenario().deadlineDays;
    options.highlightOption = m_selected;
    options.cloud = m_rentalFilter->filter();
    for (const auto& other : m_session->comparisons())
        options.comparisons.push_back(&other);
    return options;
}

void PlannerView::replotCharts()
{
    const auto options = chartOptions();
    m_hardwareChart->setChartData(render::hardwareCostChart(m_session->results(), options));
    m_experimentChart->setChartData(render::experimentCostChart(m_session->results(), options));
}

void PlannerView::selectOption(std::optional<std::size_t> index)
{
    keepSelection(index);
    selectRowOf(m_selected);
    replotCharts();
    if (m_selected)
        emit optionChosen(*m_selected);
}

void PlannerView::keepSelection(std::optional<std::size_t> index)
{
    const Results& r = m_session->results();
    m_selected = index && *index < r.options.size() ? index : std::nullopt;
    m_selectedMachine.reset();
    if (m_selected)
        m_selectedMachine.emplace(r.options[*m_selected].gpu->id, r.options[*m_selected].gpuCount);
}

void PlannerView::selectRowOf(std::optional<std::size_t> index)
{
    if (!index)
        return;
    for (int row = 0; row < m_optionProxy->rowCount(); ++row) {
        const QModelIndex at = m_optionProxy->index(row, 0);
        if (at.data(OptionTableModel::OptionIndexRole).toInt() == static_cast<int>(*index)) {
            m_syncing = true;
            m_optionsTable->selectRow(row);
            m_optionsTable->scrollTo(at);
            m_syncing = false;
            return;
        }
    }
}

bool PlannerView::logAxes() const
{
    return m_logAxes->isChecked();
}

void PlannerView::setLogAxes(bool on)
{
    m_logAxes->setChecked(on);
}

} // namespace gpuplan::gui
