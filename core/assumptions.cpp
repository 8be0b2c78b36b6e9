#include "core/assumptions.h"

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

} // namespace gpuplan
