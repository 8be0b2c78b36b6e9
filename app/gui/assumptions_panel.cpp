#include "app/gui/assumptions_panel.h"

#include "app/gui/number_box.h"

#include "app/common/format.h"
#include "app/common/wording.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QToolButton>

#include <cmath>

namespace gpuplan::gui {

namespace {

constexpr double kPercent = 100.0;

// How each assumption is shown; what it is (label, unit, bounds) comes from the assumption table.
struct Presentation {
    const char* objectName; // stable names for tests and for scripted screenshots
    double step;
    int decimals;
    const char* suffix; // singular; plural forms are in pluralSuffix()
};

Presentation presentationOf(AssumptionId id)
{
    switch (id) {
    case AssumptionId::AmortizationYears:
        return { "amortizationYears", 0.5, 1, " years" };
    case AssumptionId::MachineUtilization:
        return { "machineUtilization", 5, 0, " %" };
    case AssumptionId::ElectricityUsdPerKwh:
        return { "electricityPrice", 0.01, 3, " $/kWh" };
    case AssumptionId::Pue:
        return { "pue", 0.05, 2, "" };
    case AssumptionId::SpotRestartOverhead:
        return { "spotOverhead", 5, 0, " %" };
    case AssumptionId::IndirectRate:
        return { "indirectRate", 1, 1, " %" }; // negotiated rates such as 55.5 %
    case AssumptionId::AnalyticUtilization:
        return { "analyticUtilization", 5, 0, " % of peak" };
    case AssumptionId::PlannedRuns:
        return { "plannedRuns", 1, 0, " run" };
    case AssumptionId::RunsPerMonth:
        return { "runsPerMonth", 0.5, 2, " run/month" };
    case AssumptionId::HostingUsdPerKwMonth:
        return { "hostingUsdPerKwMonth", 10, 2, " $/kW-month" };
    case AssumptionId::MachineRoomUsdPerMonth:
        return { "machineRoomUsdPerMonth", 10, 2, " $/month" };
    case AssumptionId::SupportRate:
        return { "supportRate", 1, 1, " %/year" };
    case AssumptionId::StaffUsdPerYear:
        return { "staffUsdPerYear", 1000, 0, " $/year" };
    case AssumptionId::FringeRate:
        return { "fringeRate", 1, 1, " % of staff" };
    case AssumptionId::ResaleFraction:
        return { "resaleFraction", 5, 0, " % of price" };
    case AssumptionId::StaleMonths:
        return { "staleMonths", 1, 0, " months" };
    }
    return { "", 1, 2, "" };
}

// "1 run", not "1 runs".
QString pluralSuffix(AssumptionId id, double shown)
{
    const bool one = shown == 1.0;
    if (id == AssumptionId::PlannedRuns)
        return one ? QObject::tr(" run") : QObject::tr(" runs");
    if (id == AssumptionId::RunsPerMonth)
        return one ? QObject::tr(" run/month") : QObject::tr(" runs/month");
    return QString::fromLatin1(presentationOf(id).suffix);
}

QString toQString(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

} // namespace

AssumptionsPanel::AssumptionsPanel(QWidget* parent)
    : QWidget(parent)
{
    auto* form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::FieldsStayAtSizeHint);
    // In a narrow dock (a laptop screen) a field goes under its label instead of behind a
    // scroll bar.
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    m_fields.reserve(kAssumptionCount);
    for (const auto& spec : kAssumptionSpecs)
        addField(spec);
    setAssumptions(Assumptions {});
}

void AssumptionsPanel::addField(const AssumptionSpec& spec)
{
    const Presentation look = presentationOf(spec.id);
    const bool percent = spec.unit == Unit::Fraction || spec.unit == Unit::FractionPerYear;
    Field field { spec.id, nullptr, nullptr, percent ? kPercent : 1.0 };
    QAbstractSpinBox* box = nullptr;
    if (spec.wholeNumber) {
        field.whole = new QSpinBox;
        field.whole->setRange(static_cast<int>(spec.bounds.min), static_cast<int>(spec.bounds.max));
        box = field.whole;
    } else {
        field.number = new NumberBox;
        field.number->setRange(spec.bounds.min * field.scale, spec.bounds.max * field.scale);
        field.number->setSingleStep(look.step);
        field.number->setDecimals(look.decimals);
        box = field.number;
    }
    box->setObjectName(QString::fromLatin1(look.objectName));
    // Named for screen readers: a row with a Sourced button is the label's buddy, not the box.
    box->setAccessibleName(toQString(spec.label));
    box->setKeyboardTracking(false); // re-plot on a finished number, not on every digit
    // "&&": a form label takes a single & as a shortcut marker and would show "(FA)".
    QString label = toQString(spec.label);
    label.replace(QLatin1Char('&'), QStringLiteral("&&"));
    if (spec.suggested) {
        // The owning costs beyond the paper are off by default; one click takes the sourced value.
        auto* row = new QWidget;
        auto* rowLayout = new QHBoxLayout(row);
        rowLayout->setContentsMargins(0, 0, 0, 0);
        rowLayout->addWidget(box);
        auto* use = new QToolButton;
        use->setObjectName(box->objectName() + QStringLiteral("Suggested"));
        use->setText(tr("Sourced"));
        use->setAccessibleName(tr("Use the sourced %1").arg(toQString(spec.label).toLower()));
        use->setToolTip(tr("Use %1: %2")
                            .arg(views::formatQuantity(*spec.suggested, spec.unit),
                                toQString(spec.suggestedSource)));
        const double shown = *spec.suggested * field.scale;
        connect(use, &QToolButton::clicked, this, [field, shown] {
            if (field.whole)
                field.whole->setValue(static_cast<int>(shown));
            else
                field.number->setValue(shown);
        });
        rowLayout->addWidget(use);
        static_cast<QFormLayout*>(layout())->addRow(label, row);
    } else {
        static_cast<QFormLayout*>(layout())->addRow(label, box);
    }
    m_fields.push_back(field);
    const std::size_t index = m_fields.size() - 1;
    auto edited = [this, index] { fieldEdited(m_fields[index]); };
    if (field.whole)
        connect(field.whole, &QSpinBox::valueChanged, this, edited);
    else
        connect(field.number, &QDoubleSpinBox::valueChanged, this, edited);
}

void AssumptionsPanel::showValue(const Field& f)
{
    const double value = assumptionValue(m_current, f.id);
    const QSignalBlocker blocker(f.whole ? static_cast<QObject*>(f.whole) : f.number);
    if (f.whole)
        f.whole->setValue(static_cast<int>(std::lround(value)));
    else
        f.number->setValue(value * f.scale);
    showSource(f);
}

void AssumptionsPanel::showSource(const Field& f)
{
    const Provenance& source = m_current.source(f.id);
    QString tip = toQString(assumptionSpec(f.id).help);
    if (source.source == kUserSupplied)
        tip += tr("\nYour figure: the report cites it as user-supplied.");
    else if (!source.source.empty())
        tip += tr("\nSource: %1").arg(views::assumptionCitation(source));
    (f.whole ? static_cast<QWidget*>(f.whole) : f.number)->setToolTip(tip);
}

void AssumptionsPanel::fieldEdited(const Field& f)
{
    const double shown = f.whole ? f.whole->value() : f.number->value();
    // Back at the tables' value (after Sourced, or a typo undone): theirs, with their source.
    chooseAssumptionValue(m_current, f.id, shown / f.scale, &m_tables);
    showSource(f); // the tooltip cites the typed value's source, not the one it replaced
    updateSuffixes();
    emit assumptionsChanged();
}

void AssumptionsPanel::updateSuffixes()
{
    for (const auto& f : m_fields) {
        const double shown = f.whole ? f.whole->value() : f.number->value();
        const QString suffix = pluralSuffix(f.id, shown);
        if (f.whole)
            f.whole->setSuffix(suffix);
        else
            f.number->setSuffix(suffix);
    }
}

QAbstractSpinBox* AssumptionsPanel::editor(AssumptionId id) const
{
    for (const auto& f : m_fields)
        if (f.id == id)
            return f.whole ? static_cast<QAbstractSpinBox*>(f.whole) : f.number;
    return nullptr;
}

void AssumptionsPanel::setAssumptions(const Assumptions& a)
{
    m_current = a;
    for (const auto& f : m_fields)
        showValue(f);
    updateSuffixes(); // its signals are blocked here
}

} // namespace gpuplan::gui
