#include "app/gui/buy_vs_rent_view.h"

#include <algorithm>
#include <set>
#include <utility>

#include "app/common/format.h"
#include "app/gui/flow_row.h"
#include "app/gui/planner_session.h"
#include "app/render/buy_vs_rent_chart.h"
#include "app/render/chart_widget.h"
#include "app/render/planner_charts.h"
#include "app/render/sensitivity_chart.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>

namespace gpuplan::gui {

namespace {
constexpr int kCloudIndexRole = Qt::UserRole;
constexpr int kOfferIdRole = Qt::UserRole + 1;
constexpr int kGpuCountRole = Qt::UserRole + 2;
} // namespace

BuyVsRentView::BuyVsRentView(PlannerSession* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
{
    m_machine = new QComboBox;
    m_machine->setObjectName(QStringLiteral("machine"));
    m_axis = new QComboBox;
    m_axis->setObjectName(QStringLiteral("axis"));
    m_axis->addItem(tr("number of runs"));
    m_axis->addItem(tr("months at the run rate"));
    m_offers = new QListWidget;
    m_offers->setObjectName(QStringLiteral("offers"));
    m_offers->setMinimumWidth(230);
    m_offers->setMaximumWidth(420);
    // An offer's line wraps within the list rather than running off under a scroll bar, cut
    // mid-word ("108 days · RT"; review); the tooltip has it whole too.
    m_offers->setWordWrap(true);
    m_offers->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_conclusion = new QLabel;
    m_conclusion->setObjectName(QStringLiteral("conclusion"));
    m_conclusion->setWordWrap(true);
    QFont big = m_conclusion->font();
    big.setPointSizeF(big.pointSizeF() * 1.15);
    m_conclusion->setFont(big);
    m_conclusion->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_planVerdict = new QLabel;
    m_planVerdict->setObjectName(QStringLiteral("planVerdict"));
    m_planVerdict->setWordWrap(true);
    m_planVerdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_chart = new render::ChartWidget;
    m_chart->setObjectName(QStringLiteral("buyVsRentChart"));
    m_metric = new QComboBox;
    m_metric->setObjectName(QStringLiteral("sensitivityMetric"));
    m_metric->addItem(tr("runs to break even"));
    m_metric->addItem(tr("per-experiment cost"));
    m_tornado = new render::ChartWidget;
    m_tornado->setObjectName(QStringLiteral("sensitivityChart"));
    m_tornadoNote = new QLabel;
    m_tornadoNote->setObjectName(QStringLiteral("sensitivityNote"));
    m_tornadoNote->setWordWrap(true);

    // One line where the window is wide enough (flow_row.h); the machine's name shrinks to 34
    // characters (a count, a GPU and its price), whole in the open list and the tooltip.
    m_machine->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_machine->setMinimumContentsLength(34);
    connect(m_machine, &QComboBox::currentTextChanged, m_machine, &QComboBox::setToolTip);
    auto* top = new FlowRow;
    top->setSpacing(12);
    top->addGroup({ new QLabel(tr("Machine to buy:")), m_machine });
    top->addGroup({ new QLabel(tr("Against:")), m_axis });
    top->addGroup({ new QLabel(tr("Sensitivity of:")), m_metric });
    auto* side = new QVBoxLayout;
    side->addWidget(new QLabel(tr("Cloud offers of the same GPU:")));
    side->addWidget(m_offers);
    auto* tornado = new QWidget;
    auto* tornadoLayout = new QVBoxLayout(tornado);
    tornadoLayout->setContentsMargins(0, 0, 0, 0);
    tornadoLayout->addWidget(m_tornadoNote);
    tornadoLayout->addWidget(m_tornado, 1);
    // The tornado keeps a line for each input's label (ChartWidget::rowsMinimumHeight): on a
    // short screen it scrolls rather than squeezing the labels off their bars.
    auto* tornadoScroll = new QScrollArea;
    tornadoScroll->setObjectName(QStringLiteral("sensitivityScroll"));
    tornadoScroll->setWidgetResizable(true);
    tornadoScroll->setFrameShape(QFrame::NoFrame);
    tornadoScroll->setWidget(tornado);
    auto* charts = new QSplitter(Qt::Vertical);
    charts->addWidget(m_chart);
    charts->addWidget(tornadoScroll);
    charts->setStretchFactor(0, 3);
    charts->setStretchFactor(1, 2);
    // The same 3:2 from the start: the stretch factors share only what is left over the
    // charts' size hints, which gave the tornado most of the height.
    charts->setSizes({ 3000, 2000 });
    auto* body = new QHBoxLayout;
    body->addWidget(charts, 1);
    body->addLayout(side);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_conclusion);
    layout->addWidget(m_planVerdict);
    layout->addLayout(body, 1);

    connect(m_machine, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_syncing) {
            fillOffers();
            replot();
        }
    });
    // The tornado does not depend on the x axis: only the chart redraws.
    connect(m_axis, &QComboBox::currentIndexChanged, this, [this] { replot(/*tornado=*/false); });
    connect(m_metric, &QComboBox::currentIndexChanged, this, [this] { replot(); });
    connect(m_offers, &QListWidget::itemChanged, this, [this] {
        if (m_syncing)
            return;
        m_machineChosen = true; // the user's offers are for this machine
        replot();
        emit settingsChanged();
    });
    // The user's choices only: activated (not the view's own changes: a restored scenario, a
    // machine carried over from the planner), and only when it moved the index (activated
    // also comes for the item already chosen).
    connect(m_machine, &QComboBox::currentIndexChanged, this, [this] { m_machineMoved = true; });
    connect(m_axis, &QComboBox::currentIndexChanged, this, [this] { m_axisMoved = true; });
    connect(m_machine, &QComboBox::activated, this, [this] {
        if (std::exchange(m_machineMoved, false)) {
            m_machineChosen = true;
            emit settingsChanged();
            if (const auto chosen = machine())
                emit machineChosenHere(*chosen);
        }
    });
    connect(m_axis, &QComboBox::activated, this, [this] {
        if (std::exchange(m_axisMoved, false))
            emit settingsChanged();
    });
    connect(m_session, &PlannerSession::resultsChanged, this, &BuyVsRentView::resultsChanged);
    resultsChanged();
}

std::optional<std::size_t> BuyVsRentView::machine() const
{
    const int index = m_machine->currentIndex();
    return index >= 0 ? std::optional<std::size_t>(static_cast<std::size_t>(index)) : std::nullopt;
}

void BuyVsRentView::setMachine(std::size_t optionIndex)
{
    if (static_cast<int>(optionIndex) < m_machine->count()) {
        m_machine->setCurrentIndex(static_cast<int>(optionIndex));
        m_machineChosen = true; // in the Planner, or by a scenario
    }
    m_machineMoved = false; // not a change of this combo's own to save
}

void BuyVsRentView::followRecommendation()
{
    m_machineChosen = false;
    resultsChanged();
}

std::vector<std::size_t> BuyVsRentView::chosenOffers() const
{
    std::vector<std::size_t> chosen;
    for (int row = 0; row < m_offers->count(); ++row)
        if (m_offers->item(row)->checkState() == Qt::Checked)
            chosen.push_back(
                static_cast<std::size_t>(m_offers->item(row)->data(kCloudIndexRole).toInt()));
    return chosen;
}

bool BuyVsRentView::monthsAxis() const
{
    return m_axis->currentIndex() == 1;
}

void BuyVsRentView::setChosenOffers(const std::vector<std::size_t>& cloudIndices)
{
    m_syncing = true;
    for (int row = 0; row < m_offers->count(); ++row) {
        auto* item = m_offers->item(row);
        const auto index = static_cast<std::size_t>(item->data(kCloudIndexRole).toInt());
        const bool chosen
            = std::find(cloudIndices.begin(), cloudIndices.end(), index) != cloudIndices.end();
        item->setCheckState(chosen ? Qt::Checked : Qt::Unchecked);
    }
    m_syncing = false;
    replot();
}

void BuyVsRentView::setMonthsAxis(bool months)
{
    m_axis->setCurrentIndex(months ? 1 : 0);
    m_axisMoved = false; // not the user's
}

QString BuyVsRentView::conclusion() const
{
    const auto chosen = machine();
    if (!chosen)
        return tr("No machine is available to buy for this model.");
    const auto offers = chosenOffers();
    if (offers.empty() && m_offers->count() > 0)
        return tr("Tick a cloud offer to see when buying pays off against it.");
    return render::buyVsRentConclusion(m_session->results(), *chosen, offers);
}

QString BuyVsRentView::planVerdict() const
{
    const auto chosen = machine();
    return chosen ? render::planVerdictText(m_session->results(), *chosen, chosenOffers())
                  : QString();
}

render::ChartData BuyVsRentView::chartData() const
{
    const Results& r = m_session->results();
    render::BuyVsRentOptions options;
    options.optionIndex = machine().value_or(r.options.size());
    options.months = monthsAxis();
    options.cloudIndices = chosenOffers();
    if (options.cloudIndices.empty() && m_offers->count() > 0)
        options.cloudIndices.push_back(r.cloud.size()); // none chosen: only the buy line
    return render::buyVsRentChart(r, options);
}

std::optional<render::ChartData> BuyVsRentView::sensitivityData(QString* why) const
{
    const Results& r = m_session->results();
    const auto chosen = machine();
    if (!chosen || *chosen >= r.options.size()) {
        *why = tr("No machine to buy: nothing to test for sensitivity.");
        return std::nullopt;
    }
    const auto against = sensitivityOfferAmong(r, *chosen, chosenOffers());
    const SensitivityMetric metric = m_metric->currentIndex() == 1
        ? SensitivityMetric::ExperimentCostUsd
        : SensitivityMetric::BreakEvenRuns;
    auto chart
        = render::machineSensitivityChart(m_session->scenario(), r, *chosen, against, metric, why);
    if (!chart)
        *why = tr("No way to rent the same GPUs to break even against: choose the "
                  "per-experiment cost.");
    return chart;
}

void BuyVsRentView::resultsChanged()
{
    const Results& r = m_session->results();
    // The machine shown so far, found again by GPU and count: an assumption change can renumber
    // the options, and an edited price changes the label.
    std::optional<MachineKey> previous;
    if (const auto shown = machine(); m_machineChosen && shown && *shown < m_machineKeys.size())
        previous = m_machineKeys[*shown];
    m_syncing = true;
    m_machine->clear();
    m_machineKeys.clear();
    int index = -1;
    for (const auto& o : r.options) {
        m_machine->addItem(render::shortMachineLabel(o) + QStringLiteral(" — ")
            + views::formatUsd(o.machineCostUsd));
        m_machineKeys.emplace_back(o.gpu->id, o.gpuCount);
        if (previous && m_machineKeys.back() == *previous)
            index = static_cast<int>(m_machineKeys.size()) - 1;
    }
    // First shown: the machine the Budget view and the report compare too.
    if (index < 0)
        index = static_cast<int>(defaultMachineToCompare(r).value_or(0));
    m_machine->setCurrentIndex(r.options.empty() ? -1 : index);
    m_machineMoved = false; // not the user's
    m_syncing = false;
    fillOffers();
    replot();
}

void BuyVsRentView::fillOffers()
{
    const Results& r = m_session->results();
    const auto chosen = machine();
    const std::optional<MachineKey> listing = chosen && *chosen < m_machineKeys.size()
        ? std::optional<MachineKey>(m_machineKeys[*chosen])
        : std::nullopt;
    // The same machine's offers listed again (an assumption changed): the user's ticks stay,
    // by offer and GPU count; an offer not listed before, or another machine, starts from the
    // default (the offers of the machine's own GPU count).
    const bool again = listing && listing == m_offersFor;
    std::set<std::pair<QString, int>> listed;
    std::set<std::pair<QString, int>> ticked;
    for (int row = 0; again && row < m_offers->count(); ++row) {
        const QListWidgetItem* item = m_offers->item(row);
        const std::pair<QString, int> key { item->data(kOfferIdRole).toString(),
            item->data(kGpuCountRole).toInt() };
        listed.insert(key);
        if (item->checkState() == Qt::Checked)
            ticked.insert(key);
    }
    m_offersFor = listing;
    m_syncing = true;
    m_offers->clear();
    if (chosen && *chosen < r.options.size()) {
        const auto& o = r.options[*chosen];
        for (std::size_t i = 0; i < r.cloud.size(); ++i) {
            const auto& c = r.cloud[i];
            if (c.gpu != o.gpu)
                continue;
            // What tells offers apart first (the pane is narrow and instance names are long,
            // often the GPU's name again); the whole name in the tooltip.
            const QString provider = QString::fromStdString(c.offer->provider);
            const QString instance = QString::fromStdString(c.offer->instance);
            // A reservation is bought a term at a time: its price for the plan, not a run's share.
            const QString perRun = c.cheapestIsCommitment
                ? tr("%1 for the plan (%2-yr terms)")
                      .arg(views::formatUsd(c.planTotalUsd))
                      .arg(c.cheapestReservedYears.value_or(0.0))
                : views::formatUsd(c.cheapestCostUsd.value_or(0.0)) + tr("/run");
            // The days too: x1 and x8 of an offer cost about the same per run and differ in
            // how long a run takes, which the list did not say.
            const QString days = views::formatDays(c.estimate.days);
            auto* item = new QListWidgetItem(QStringLiteral("%1 \u00D7%2: %3, %4 \u00B7 %5")
                                                 .arg(provider)
                                                 .arg(c.gpuCount)
                                                 .arg(perRun, days, instance));
            const std::pair<QString, int> key { QString::fromStdString(c.offer->id), c.gpuCount };
            item->setData(kCloudIndexRole, static_cast<int>(i));
            item->setData(kOfferIdRole, key.first);
            item->setData(kGpuCountRole, key.second);
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            const bool tick = listed.count(key) ? ticked.count(key) > 0 : c.gpuCount == o.gpuCount;
            item->setCheckState(tick ? Qt::Checked : Qt::Unchecked);
            item->setToolTip(QStringLiteral("%1 %2 \u00D7%3: %4, %5 a run\nRate as of %6, %7")
                                 .arg(provider, instance)
                                 .arg(c.gpuCount)
                                 .arg(perRun, days, QString::fromStdString(c.offer->source.date),
                                     QString::fromStdString(c.offer->source.source)));
            m_offers->addItem(item);
        }
    }
    m_syncing = false;
}

void BuyVsRentView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_stale)
        replot();
}

void BuyVsRentView::replot(bool tornado)
{
    // Hidden behind another tab: draw when shown, so assumption changes re-plot the planner
    // without paying for this chart too.
    if (!isVisible() && m_chart->chartData().title.size() > 0) {
        m_stale = true;
        return;
    }
    m_stale = false;
    // The break-even sentence is this view's headline: under the chart it would say it twice.
    // An exported chart (chartData()) keeps it as its footnote, where it stands alone.
    render::ChartData shown = chartData();
    const QString said = conclusion();
    if (!said.isEmpty() && shown.footnote.startsWith(said))
        shown.footnote = shown.footnote.mid(said.size()).trimmed();
    m_chart->setChartData(shown);
    m_conclusion->setText(said);
    m_planVerdict->setText(planVerdict());
    m_planVerdict->setVisible(!m_planVerdict->text().isEmpty());
    if (!tornado)
        return;
    // Evaluates the scenario twice per uncertain input: only when what it shows can change.
    QString why;
    const auto sensitivity = sensitivityData(&why);
    m_tornado->setVisible(sensitivity.has_value());
    m_tornadoNote->setVisible(!sensitivity);
    m_tornadoNote->setText(why);
    if (sensitivity) {
        m_tornado->setChartData(*sensitivity);
        m_tornado->setMinimumHeight(m_tornado->rowsMinimumHeight(sensitivity->y.rows.size()));
    }
}

} // namespace gpuplan::gui
