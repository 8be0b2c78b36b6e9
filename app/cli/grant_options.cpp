#include "app/cli/grant_options.h"

#include "app/cli/cli_support.h"
#include "app/cli/scenario_options.h"
#include "app/common/budget_table.h"
#include "app/common/format.h"
#include "core/limits.h"

#include <QStringList>

namespace gpuplan::cli {

namespace {

// A whole number within `bounds` from an option, `fallback` when it is absent.
std::optional<int> wholeOption(
    const QCommandLineParser& p, const QString& name, Bounds bounds, int fallback, QString* error)
{
    if (!p.isSet(name))
        return fallback;
    const auto value = numberOption(p, name, bounds, error);
    if (!value)
        return std::nullopt;
    if (*value != static_cast<int>(*value)) {
        *error = QStringLiteral("--%1 must be a whole number, not %2").arg(name).arg(*value);
        return std::nullopt;
    }
    return static_cast<int>(*value);
}

// The cloud option of offer `id` for `gpuCount` GPUs (default: the GPUs one rate buys).
std::optional<std::size_t> offerOption(
    const QCommandLineParser& p, const Catalog& catalog, const Results& results, QString* error)
{
    const QString id = p.value(QStringLiteral("offer"));
    const CloudOffer* offer = catalog.findCloudOffer(id.toStdString());
    if (!offer) {
        *error = QStringLiteral("unknown offer '%1' (see 'gpuplan-cli list cloud')").arg(id);
        return std::nullopt;
    }
    int gpus = offer->gpusPerInstance;
    if (p.isSet(QStringLiteral("offer-gpus"))) {
        const auto n
            = wholeOption(p, QStringLiteral("offer-gpus"), limits::kGpuCount.bounds, gpus, error);
        if (!n)
            return std::nullopt;
        gpus = *n;
    }
    QStringList counts;
    for (std::size_t i = 0; i < results.cloud.size(); ++i) {
        if (results.cloud[i].offer != offer)
            continue;
        if (results.cloud[i].gpuCount == gpus)
            return i;
        counts << QString::number(results.cloud[i].gpuCount);
    }
    // --gpus narrows the plan to some GPUs: an offer of another GPU then has no option.
    bool planned = !p.isSet(QStringLiteral("gpus"));
    for (const QString& gpu :
        p.value(QStringLiteral("gpus")).split(QLatin1Char(','), Qt::SkipEmptyParts))
        planned = planned || gpu.trimmed().toStdString() == offer->gpuId;
    *error = !planned ? QStringLiteral("offer '%1' rents %2, which --gpus leaves out of the plan")
                            .arg(id, QString::fromStdString(offer->gpuId))
        : counts.isEmpty()
        ? QStringLiteral("offer '%1' has no option for this model (no estimate for its GPUs at "
                         "the counts planned, whole instances of %2)")
              .arg(id)
              .arg(offer->gpusPerInstance)
        : QStringLiteral("offer '%1' has no option for %2 GPUs of this model; --offer-gpus can "
                         "be %3")
              .arg(id)
              .arg(gpus)
              .arg(counts.join(QStringLiteral(", ")));
    return std::nullopt;
}

} // namespace

void addGrantOptions(QCommandLineParser& p)
{
    p.addOption({ QStringLiteral("offer"),
        QStringLiteral("Budget renting from this offer instead of buying (see 'list cloud'), at "
                       "its cheapest pay-as-you-go rate (an offer of reserved terms only: by its "
                       "terms; see --reserved-terms)."),
        QStringLiteral("ID") });
    p.addOption({ QStringLiteral("offer-gpus"),
        QStringLiteral(
            "GPUs rented from --offer (default: the GPUs one rate buys, gpus_per_instance)."),
        QStringLiteral("N") });
    p.addOption({ QStringLiteral("reserved-terms"),
        QStringLiteral("Budget --offer by its reserved terms (as the offer lists them, bought "
                       "where the runs need them) instead of its cheapest pay-as-you-go "
                       "rate.") });
    p.addOption({ QStringLiteral("years-of-grant"),
        QStringLiteral("Length of the grant in years (%1 to %2; default %3).")
            .arg(limits::kGrantYears.bounds.min)
            .arg(limits::kGrantYears.bounds.max)
            .arg(GrantPlan {}.years),
        QStringLiteral("N"), QString::number(GrantPlan {}.years) });
    p.addOption({ QStringLiteral("start"),
        QStringLiteral("First month of the grant (default: the month after --today)."),
        QStringLiteral("YYYY-MM") });
    p.addOption({ QStringLiteral("runs-per-year"),
        QStringLiteral("Runs in each grant year, e.g. 3,4,3 (default: --runs spread "
                       "evenly, the remainder in the first years)."),
        QStringLiteral("A,B,C") });
    p.addOption({ QStringLiteral("equipment-year"),
        QStringLiteral("Grant year the machine is bought in (default 1)."), QStringLiteral("N"),
        QStringLiteral("1") });
}

std::optional<GrantChoice> grantFromOptions(
    const QCommandLineParser& p, const Catalog& catalog, const Results& results, QString* error)
{
    GrantChoice choice;
    if (p.isSet(QStringLiteral("offer")) && p.isSet(QStringLiteral("machine"))) {
        *error = QStringLiteral("give --machine or --offer, not both");
        return std::nullopt;
    }
    if (p.isSet(QStringLiteral("equipment-year")) && p.isSet(QStringLiteral("offer"))) {
        *error = QStringLiteral("--equipment-year is the grant year the machine is bought in: "
                                "renting (--offer) buys none");
        return std::nullopt;
    }
    if (p.isSet(QStringLiteral("reserved-terms")) && !p.isSet(QStringLiteral("offer"))) {
        *error = QStringLiteral("--reserved-terms needs --offer: it budgets that offer's "
                                "reserved terms");
        return std::nullopt;
    }
    if (p.isSet(QStringLiteral("offer-gpus")) && !p.isSet(QStringLiteral("offer"))) {
        *error = QStringLiteral("--offer-gpus needs --offer: it says how many GPUs to rent from "
                                "that offer");
        return std::nullopt;
    }
    if (p.isSet(QStringLiteral("offer"))) {
        const auto index = offerOption(p, catalog, results, error);
        if (!index)
            return std::nullopt;
        choice.target = { BudgetTarget::Kind::Rented, *index };
        if (p.isSet(QStringLiteral("reserved-terms"))) {
            const CloudOffer& offer = *results.cloud[*index].offer;
            if (offer.reserved.empty()) {
                // Terms listed apart from the instance's hourly rates (AWS's P4, each dated
                // as its source is) are named, as the planner weighs them against each other.
                QString apart;
                for (const CloudOffer& other : catalog.cloudOffers)
                    if (!other.reserved.empty() && sameInstance(other, offer))
                        apart = QStringLiteral("; the instance's terms are offer '%1'")
                                    .arg(QString::fromStdString(other.id));
                *error = QStringLiteral("offer '%1' lists no reserved terms%2 (see 'list cloud')")
                             .arg(QString::fromStdString(offer.id), apart);
                return std::nullopt;
            }
            choice.target.reservedTerms = true; // an offer of terms only is budgeted so anyway
        }
    } else {
        const auto index = machineOption(results, p.value(QStringLiteral("machine")), error);
        if (!index)
            return std::nullopt;
        choice.target = { BudgetTarget::Kind::Owned, *index };
    }
    const auto years = wholeOption(
        p, QStringLiteral("years-of-grant"), limits::kGrantYears.bounds, choice.plan.years, error);
    const auto equipmentYear = years
        ? wholeOption(p, QStringLiteral("equipment-year"), limits::kGrantYears.bounds, 1, error)
        : std::nullopt;
    if (!equipmentYear)
        return std::nullopt;
    choice.plan.years = *years;
    choice.plan.equipmentYear = *equipmentYear;
    if (p.isSet(QStringLiteral("start"))) {
        if (!views::parseGrantStart(p.value(QStringLiteral("start")), choice.plan)) {
            *error = QStringLiteral("--start must be a month, YYYY-MM, from %1 to %2, not '%3'")
                         .arg(int(limits::kGrantStartYear.min))
                         .arg(int(limits::kGrantStartYear.max))
                         .arg(p.value(QStringLiteral("start")));
            return std::nullopt;
        }
    } else {
        views::defaultGrantStart(QString::fromStdString(results.today), choice.plan);
    }
    if (p.isSet(QStringLiteral("runs-per-year")) && p.isSet(QStringLiteral("runs"))) {
        // Both say how many runs: which one the budget follows must not be a guess.
        *error = QStringLiteral("give --runs (spread evenly over the years) or --runs-per-year, "
                                "not both");
        return std::nullopt;
    }
    if (p.isSet(QStringLiteral("runs-per-year"))
        && !views::parseRunsPerYear(p.value(QStringLiteral("runs-per-year")), choice.plan, error))
        return std::nullopt;
    // The sponsor the scenario's costs were weighed by (scenarioFromOptions checked it).
    choice.sponsor = catalog.findSponsor(results.indirectRules.id);
    if (!choice.sponsor) {
        *error = QStringLiteral("no sponsor's rules are loaded (pricing/data/sponsors.yaml)");
        return std::nullopt;
    }
    if (const auto problem = checkGrantPlan(choice.plan, results, choice.target);
        problem != GrantPlanProblem::None) {
        *error = views::grantPlanProblemText(problem, choice.plan);
        return std::nullopt;
    }
    return choice;
}

} // namespace gpuplan::cli
