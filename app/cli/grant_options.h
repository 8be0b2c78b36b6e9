#pragma once

// The options of a grant budget (budget, report): what is budgeted (--machine or --offer), the
// grant's length, start and runs per year, the year of purchase; the sponsor's rules are the
// scenario's (--sponsor, scenario_options.h), which weigh F&A in the plan too.

#include "core/catalog.h"
#include "core/costing/grant_budget.h"

#include <QCommandLineParser>
#include <QString>

#include <optional>

namespace gpuplan::cli {

// --machine is added by the caller (report has its own wording); --offer, --offer-gpus,
// --years-of-grant, --start, --runs-per-year, --equipment-year.
void addGrantOptions(QCommandLineParser& parser);

struct GrantChoice {
    BudgetTarget target;
    GrantPlan plan;
    const SponsorRules* sponsor = nullptr; // Results::indirectRules' sponsor in the catalog
};

// The budget the options describe over evaluated results; nullopt with *error set on a bad
// value, an unknown offer, no sponsor loaded, or a plan that cannot be budgeted. Without --machine
// and
// --offer: the report's default machine.
std::optional<GrantChoice> grantFromOptions(const QCommandLineParser& parser,
    const Catalog& catalog, const Results& results, QString* error);

} // namespace gpuplan::cli
