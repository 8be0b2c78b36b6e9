#pragma once

// What the Electricity table's edits do to the scenario's assumptions. The table holds the
// defaults (electricity price, PUE); an edit of one is carried into the open scenario, that one
// only (the other may be the scenario's own, typed in the Assumptions dock). Where the carried
// value replaced one of the scenario's own, undoing the edit brings the scenario's own back:
// until 2026-12-03 the undo set the scenario to the table's old default instead, and a
// scenario's $0.25/kWh came back as the table's $0.13 (review).

#include "core/assumptions.h"

#include <optional>

namespace gpuplan::gui {

class CarriedDefaults {
public:
    // The scenario's assumptions once the tables' defaults went from `before` to `after` (an
    // edit, its undo or redo). Unchanged defaults leave the scenario as it is.
    Assumptions carry(
        const Assumptions& scenario, const Assumptions& before, const Assumptions& after);
    // The tables are being reloaded (an import, a revert, another price set): the change that
    // follows is carried but sets nothing aside, and nothing set aside before comes back, as
    // no edit is left to undo.
    void tablesReloaded();
    // Another scenario is open (New, Open): what the last one held is not this one's to get
    // back.
    void scenarioReplaced();

private:
    // A scenario's own value that a table edit replaced, with the table's value before that
    // edit and the value carried: the table back at `tableBefore` while the scenario still
    // holds `carried` is the edit undone.
    struct SetAside {
        double tableBefore = 0.0;
        double carried = 0.0;
        double own = 0.0;
        Provenance ownSource;
    };
    void carryOne(AssumptionId id, Assumptions& scenario, const Assumptions& before,
        const Assumptions& after, std::optional<SetAside>& setAside);

    std::optional<SetAside> m_electricity;
    std::optional<SetAside> m_pue;
    bool m_reloading = false;
};

} // namespace gpuplan::gui
