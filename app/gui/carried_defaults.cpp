#include "app/gui/carried_defaults.h"

namespace gpuplan::gui {

Assumptions CarriedDefaults::carry(
    const Assumptions& scenario, const Assumptions& before, const Assumptions& after)
{
    Assumptions carried = scenario;
    carryOne(AssumptionId::ElectricityUsdPerKwh, carried, before, after, m_electricity);
    carryOne(AssumptionId::Pue, carried, before, after, m_pue);
    if (m_reloading) { // a reload is no edit: what it replaced is not given back
        scenarioReplaced();
        m_reloading = false;
    }
    return carried;
}

void CarriedDefaults::tablesReloaded()
{
    scenarioReplaced();
    m_reloading = true;
}

void CarriedDefaults::scenarioReplaced()
{
    m_electricity.reset();
    m_pue.reset();
}

void CarriedDefaults::carryOne(AssumptionId id, Assumptions& scenario, const Assumptions& before,
    const Assumptions& after, std::optional<SetAside>& setAside)
{
    const double was = assumptionValue(before, id);
    const double now = assumptionValue(after, id);
    if (was == now)
        return;
    const double held = assumptionValue(scenario, id);
    // A value set aside is stale once the scenario holds anything but what was carried (the
    // user typed another, or opened another scenario).
    if (setAside && held != setAside->carried)
        setAside.reset();
    if (setAside && now == setAside->tableBefore) {
        // The edit undone, the scenario untouched since: its own value comes back.
        setAssumptionValue(scenario, id, setAside->own);
        scenario.source(id) = setAside->ownSource;
        setAside.reset();
        return;
    }
    if (setAside) // a further edit over the carried value: the own value stays set aside
        setAside->carried = now;
    else if (held != was) // the scenario's own value, replaced by this edit
        setAside = SetAside { was, now, held, scenario.source(id) };
    setAssumptionValue(scenario, id, now);
    scenario.source(id) = after.source(id);
}

} // namespace gpuplan::gui
