#include "app/common/price_staleness.h"

#include "app/common/format.h"
#include "core/price_age.h"

namespace gpuplan::views {

QString stalenessText(const Provenance& p, const Results& r)
{
    const auto months = monthsOld(p.date, r.today);
    if (!isStaleAge(months, r.today, r.assumptions.staleMonths))
        return {};
    const QString today = QString::fromStdString(r.today);
    // An undated price is stale because its age is unknown, not because it is old.
    if (!months)
        return QStringLiteral("; its date is unknown: check it before submitting");
    if (*months < 0)
        return QStringLiteral("; it is dated after %1: check it before submitting").arg(today);
    return QStringLiteral("; more than %1 old on %2: check it before submitting")
        .arg(formatQuantity(r.assumptions.staleMonths, Unit::Months), today);
}

QString assumptionStalenessText(AssumptionId id, const Results& r)
{
    const Provenance& p = r.assumptions.source(id);
    return p.date.empty() || p.source == kUserSupplied ? QString() : stalenessText(p, r);
}

} // namespace gpuplan::views
