#include "app/gui/assumptions_panel.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>

namespace gpuplan::gui {

namespace {
constexpr double kPercent = 100.0;
} // namespace

AssumptionsPanel::AssumptionsPanel(QWidget* parent)
    : QWidget(parent)
{
    auto* form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::FieldsStayAtSizeHint);
    m_years = addSpin(QStringLiteral("amortizationYears"), tr("Amortisation period"), 0.5, 20, 0.5,
        1, tr(" years"), tr("Lifespan over which the machine's price is spread."));
    m_machineUse = addSpin(QStringLiteral("machineUtilization"), tr("Machine in use"), 1, 100, 5, 0,
        tr(" %"), tr("Share of the lifespan the machine trains experiments."));
    m_electricity = addSpin(QStringLiteral("electricityPrice"), tr("Electricity price"), 0, 2, 0.01,
        3, tr(" $/kWh"), tr("What your institution pays per kWh."));
    m_pue = addSpin(QStringLiteral("pue"), tr("PUE (facility overhead)"), 1, 3, 0.05, 2, QString(),
        tr("Power usage effectiveness: 1.0 for a desktop, about 1.6 in a data centre."));
    m_spotOverhead = addSpin(QStringLiteral("spotOverhead"), tr("Spot restart overhead"), 0, 200, 5,
        0, tr(" %"), tr("Run time lost to pre-emptions on spot instances."));
    // "&&": a form label takes a single & as a shortcut marker and would show "(FA)".
    m_indirect = addSpin(QStringLiteral("indirectRate"), tr("Indirect (F&&A) rate on cloud"), 0,
        150, 1, 0, tr(" %"), tr("Applied to cloud spend only; equipment is exempt from the base."));
    m_analytic = addSpin(QStringLiteral("analyticUtilization"), tr("Analytic utilisation"), 1, 100,
        5, 0, tr(" % of peak"),
        tr("Fraction of peak the analytic estimate assumes training reaches."));
    m_runs = new QSpinBox;
    m_runs->setObjectName(QStringLiteral("plannedRuns"));
    m_runs->setRange(1, 10000);
    m_runs->setSuffix(tr(" runs"));
    m_runs->setToolTip(tr("Planned number of training runs in the project."));
    form->addRow(tr("Planned runs"), m_runs);
    connect(m_runs, &QSpinBox::valueChanged, this, &AssumptionsPanel::assumptionsChanged);
    m_runsPerMonth = addSpin(QStringLiteral("runsPerMonth"), tr("Run rate"), 0.05, 100, 0.5, 2,
        tr(" runs/month"), tr("For stating the break-even in months."));
    connect(m_runs, &QSpinBox::valueChanged, this, &AssumptionsPanel::updateRunSuffixes);
    connect(
        m_runsPerMonth, &QDoubleSpinBox::valueChanged, this, &AssumptionsPanel::updateRunSuffixes);
    setAssumptions(Assumptions {});
}

QDoubleSpinBox* AssumptionsPanel::addSpin(const QString& objectName, const QString& label,
    double min, double max, double step, int decimals, const QString& suffix, const QString& tip)
{
    auto* spin = new QDoubleSpinBox;
    spin->setObjectName(objectName);
    spin->setRange(min, max);
    spin->setSingleStep(step);
    spin->setDecimals(decimals);
    spin->setSuffix(suffix);
    spin->setToolTip(tip);
    spin->setKeyboardTracking(false); // re-plot on a finished number, not on every digit
    static_cast<QFormLayout*>(layout())->addRow(label, spin);
    connect(spin, &QDoubleSpinBox::valueChanged, this, &AssumptionsPanel::assumptionsChanged);
    return spin;
}

// "1 run", not "1 runs".
void AssumptionsPanel::updateRunSuffixes()
{
    m_runs->setSuffix(m_runs->value() == 1 ? tr(" run") : tr(" runs"));
    m_runsPerMonth->setSuffix(
        m_runsPerMonth->value() == 1.0 ? tr(" run/month") : tr(" runs/month"));
}

void AssumptionsPanel::setAssumptions(const Assumptions& a)
{
    m_base = a;
    const QSignalBlocker blockers[]
        = { QSignalBlocker(m_years), QSignalBlocker(m_machineUse), QSignalBlocker(m_electricity),
              QSignalBlocker(m_pue), QSignalBlocker(m_spotOverhead), QSignalBlocker(m_indirect),
              QSignalBlocker(m_analytic), QSignalBlocker(m_runs), QSignalBlocker(m_runsPerMonth) };
    m_years->setValue(a.amortizationYears);
    m_machineUse->setValue(a.machineUtilization * kPercent);
    m_electricity->setValue(a.electricityUsdPerKwh);
    m_pue->setValue(a.pue);
    m_spotOverhead->setValue(a.spotRestartOverhead * kPercent);
    m_indirect->setValue(a.indirectRate * kPercent);
    m_analytic->setValue(a.analyticUtilization * kPercent);
    m_runs->setValue(a.plannedRuns);
    m_runsPerMonth->setValue(a.runsPerMonth);
    updateRunSuffixes(); // its signals are blocked here
    m_electricity->setToolTip(tr("What your institution pays per kWh. Default: %1, %2")
                                  .arg(QString::fromStdString(a.electricitySource.date),
                                      QString::fromStdString(a.electricitySource.source)));
}

Assumptions AssumptionsPanel::assumptions() const
{
    Assumptions a = m_base;
    a.amortizationYears = m_years->value();
    a.machineUtilization = m_machineUse->value() / kPercent;
    a.electricityUsdPerKwh = m_electricity->value();
    a.pue = m_pue->value();
    a.spotRestartOverhead = m_spotOverhead->value() / kPercent;
    a.indirectRate = m_indirect->value() / kPercent;
    a.analyticUtilization = m_analytic->value() / kPercent;
    a.plannedRuns = m_runs->value();
    a.runsPerMonth = m_runsPerMonth->value();
    return a;
}

} // namespace gpuplan::gui
