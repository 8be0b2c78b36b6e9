#include "core/assumptions.h"

#include <algorithm>
#include <cmath>

namespace gpuplan {

namespace {

// The one mapping from id to field; everything else goes through the table. A template so that
// the const and the mutable overloads share it.
template <typename A> auto doubleField(A& a, AssumptionId id) -> decltype(&a.pue)
{
    switch (id) {
    case AssumptionId::AmortizationYears:
        return &a.amortizationYears;
    case AssumptionId::MachineUtilization:
        return &a.machineUtilization;
    case AssumptionId::ElectricityUsdPerKwh:
        return &a.electricityUsdPerKwh;
    case AssumptionId::Pue:
        return &a.pue;
    case AssumptionId::SpotRestartOverhead:
        return &a.spotRestartOverhead;
    case AssumptionId::IndirectRate:
        return &a.indirectRate;
    case AssumptionId::AnalyticUtilization:
        return &a.analyticUtilization;
    case AssumptionId::RunsPerMonth:
        return &a.runsPerMonth;
    case AssumptionId::HostingUsdPerKwMonth:
        return &a.hostingUsdPerKwMonth;
    case AssumptionId::MachineRoomUsdPerMonth:
        return &a.machineRoomUsdPerMonth;
    case AssumptionId::SupportRate:
        return &a.supportRate;
    case AssumptionId::StaffUsdPerYear:
        return &a.staffUsdPerYear;
    case AssumptionId::FringeRate:
        return &a.fringeRate;
    case AssumptionId::ResaleFraction:
        return &a.resaleFraction;
    case AssumptionId::PlannedRuns:
    case AssumptionId::StaleMonths:
        return nullptr;
    }
    return nullptr;
}

} // namespace

double assumptionValue(const Assumptions& a, AssumptionId id)
{
    if (id == AssumptionId::PlannedRuns)
        return a.plannedRuns;
    if (id == AssumptionId::StaleMonths)
        return a.staleMonths;
    return *doubleField(a, id);
}

void setAssumptionValue(Assumptions& a, AssumptionId id, double value)
{
    if (id == AssumptionId::PlannedRuns) {
        a.plannedRuns = static_cast<int>(std::lround(value));
        return;
    }
    if (id == AssumptionId::StaleMonths) {
        a.staleMonths = static_cast<int>(std::lround(value));
        return;
    }
    *doubleField(a, id) = value;
}

namespace {
bool sameValue(double a, double b)
{
    // A value typed into a percent field comes back divided by 100: equal within rounding.
    return std::abs(a - b) <= 1e-9 * std::max({ 1.0, std::abs(a), std::abs(b) });
}
} // namespace

void chooseAssumptionValue(Assumptions& a, AssumptionId id, double value, const Assumptions* tables)
{
    const double before = assumptionValue(a, id);
    setAssumptionValue(a, id, value);
    const double after = assumptionValue(a, id);
    if (sameValue(before, after))
        return;
    Provenance& source = a.source(id);
    if (tables && sameValue(after, assumptionValue(*tables, id))
        && !tables->source(id).source.empty()) {
        source = tables->source(id);
        return;
    }
    const AssumptionSpec& spec = assumptionSpec(id);
    source = {};
    source.source = spec.suggested && sameValue(after, *spec.suggested)
        ? std::string(spec.suggestedSource)
        : std::string(kUserSupplied);
}

} // namespace gpuplan
