#pragma once

// How every view words what core returns as structured reasons: the recommendation, why an
// option is unavailable, warnings, and how a cloud price is paid. One wording for the CLI, the
// GUI, the report and JSON.

#include "core/evaluate.h"
#include "core/sensitivity.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace gpuplan::views {

// "fastest machine within the $40,000 budget"; "no machine meets the constraints" when the rule
// found none, with the nearest miss ("; the fastest, 8×H100 SXM 80GB, takes 4.0 days, past the
// 1-day deadline"); empty without a budget or deadline.
QString recommendationReason(const Results& results);

// "Caution: " and why the recommended machine's training time is too short to trust (it
// exceeds the GPUs' peak, comes near it, or assumes perfect scaling), then, as a second
// "Caution: ", why its price may not buy a machine that powers its cards (powerSupplyText);
// empty when neither holds. The recommendation stays what the rule finds, as the paper's Fig. 7
// makes it; this says so.
QString recommendationCaution(const OwnedOption& recommended);

// "Within the constraints at the central estimate only: its time's range reaches 86.4 days,
// past the 60-day deadline": where the recommended machine's range crosses the deadline or its
// price's range the budget; empty where the whole range keeps within them (or without ranges).
QString recommendationRangeNote(const Results& results);

// "Set aside: 8×RTX 3090 would be faster (30 days, $21,073 machine), but that time is 128% of
// its GPUs' peak, which is physically impossible": the option the rule would have picked had an
// impossible time counted (Results::setAsideAbovePeak); empty when there is none.
QString recommendationSetAside(const Results& results);

// "fastest machine within the $40,000 budget in 92% of sampled cases; otherwise 4x RTX A6000":
// how firm the recommendation is (needs Results::monteCarlo); empty without one.
QString robustnessText(const Results& results);

// "pays off after 9-14 runs", "pays off after 9 runs or later, or never", "never pays off":
// a break-even as a range.
QString breakEvenRangeText(const BreakEvenRange& range);

// "no chassis with 16 GPU slots", "infeasible: <where>", "no paper estimate".
QString unavailableReason(const Unavailable& unavailable, SourcePolicy source);

// "H100 SXM 80GB and H200 SXM 141GB as 1, 2 or 4 GPUs (sold only in systems of 8 GPUs); RTX 3090
// as 16 GPUs (no chassis with 16 GPU slots)": every machine not evaluated, grouped by why and by
// the GPU counts, for a chart's note or a report; empty when every machine was.
QString unavailableSummary(const Results& results);

// "gcp-v100 and drexel-picotte-v100 (no source times the model on V100 SXM2 16GB or V100 SXM2
// 32GB: no peak is known for its precision there)": the offers nothing times
// (Results::untimedOffers), by reason; empty when there are none.
QString untimedOffersSummary(const Results& results);
// Their ids alone, "gcp-v100 and drexel-picotte-v100", where the reason is said apart.
QString untimedOfferList(const Results& results);

// What the run rate moves of a buy-vs-rent comparison of `machine` (an index into the options;
// none: no machine compared): its break-even's months where it has one; where owning costs
// accrue by the month, what each run carries of them and so the verdict; and, `termsShown`,
// the runs each reserved term holds. The rest (prices, days, electricity, a budget's years)
// is the same at any pace. For the notes that say where the report's pace differs from the
// Run rate: "the break-even's months", ...
QStringList figuresAtThePace(
    const Results& results, std::optional<std::size_t> machine, bool termsShown);

// "cloud offer X names unknown GPU Y", "unknown model: X", ...
QString warningText(const Warning& warning, SourcePolicy source);

// "on-demand", "spot", "reserved 3-yr".
QString pricingLabel(Pricing pricing, std::optional<double> reservedYears = std::nullopt);

// "a 1-yr commitment costs $210,328 for 47 runs back to back; it beats on-demand from 20.7 runs,
// and for this plan of 1 run it does not": a reservation's term against paying per run.
QString commitmentVerdict(const Commitment& commitment, int plannedRuns);

// "2026-04-06 (7 mo)": a price's date and its age on the plan's day; "2025-03-03 (20 mo, stale)"
// past the price age limit (in words: a colour reaches neither a screen reader nor every eye);
// the date alone without an age.
QString priceDateText(const std::string& date, const PriceAge& age);

// An assumption's citation, as the report, the budget justification and the Assumptions dock give
// it: "source, date", the source alone where it has no date of its own, "user-supplied" for the
// user's own figure; empty without a source.
QString assumptionCitation(const Provenance& source);

// "vendor quote", "list price", "street price", "resale price": what kind of figure a purchase
// price is, in words; empty where the table does not say.
QString priceKindText(PriceKind kind);

// "stale price": the flag a table shows beside a price older than the price age limit.
QString stalePriceLabel();
// "stale price: check this rate before budgeting with it", under one rental's rate.
QString staleRateNote();

// The stale price flag explained for this plan: its limit and day; empty if no price is stale.
QString stalePriceNote(const Results& results);

// "current prices (2025-2026)", "the paper's prices (2024-09-21)"; the name itself for a set this
// version does not know.
QString priceSetLabel(const std::string& priceSet);

// "$4,423", "$0.20/h", "$0.0845/kWh", "50%", "109 days": a sensitivity input's value in its unit.
QString sensitivityInputText(const SensitivityRow& row, double value);

} // namespace gpuplan::views
