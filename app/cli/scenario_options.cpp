#include "app/cli/scenario_options.h"

#include "app/cli/cli_support.h"
#include "app/common/format.h"
#include "app/common/wording.h"

#include <QDate>

#include <algorithm>
#include <cmath>

namespace gpuplan::cli {

namespace {

QString knownIds(const Catalog& c, bool models)
{
    QStringList ids;
    if (models)
        for (const auto& w : c.workloads)
            ids << QString::fromStdString(w.id);
    else
        for (const auto& g : c.gpus)
            ids << QString::fromStdString(g.id);
    return ids.join(QStringLiteral(", "));
}

QString boundsText(const Bounds& b)
{
    return QString::number(b.min) + QStringLiteral(" to ") + QString::number(b.max);
}

} // namespace

void addSponsorOption(QCommandLineParser& p)
{
    p.addOption({ QStringLiteral("sponsor"),
        QStringLiteral("The sponsor's budget rules, which say which costs carry the indirect "
                       "(F&A) rate in every cost per run, break-even, plan and budget (default "
                       "us-federal, else the price tables' first; see 'list sponsors')."),
        QStringLiteral("ID") });
}

std::optional<std::string> sponsorOption(
    const QCommandLineParser& p, const Catalog& catalog, QString* error)
{
    // Prices without sponsors' rules (a catalog of one's own) weigh F&A on cloud spend only,
    // unless a sponsor is asked for.
    if (!p.isSet(QStringLiteral("sponsor")))
        return catalog.defaultSponsorId();
    const QString sponsor = p.value(QStringLiteral("sponsor"));
    if (!catalog.findSponsor(sponsor.toStdString())) {
        QStringList known;
        for (const auto& rules : catalog.sponsors)
            known << QString::fromStdString(rules.id);
        *error = QStringLiteral("unknown sponsor '%1' (known: %2)")
                     .arg(sponsor,
                         known.isEmpty() ? QStringLiteral("none loaded")
                                         : known.join(QStringLiteral(", ")));
        return std::nullopt;
    }
    return sponsor.toStdString();
}

void addScenarioOptions(QCommandLineParser& p)
{
    p.addOption({ QStringLiteral("model"),
        QStringLiteral("Model id (see 'gpuplan-cli list models')."), QStringLiteral("ID") });
    p.addOption({ QStringLiteral("source"),
        QStringLiteral("best (default), paper, paper-naive, analytic, measured or "
                       "extrapolated."),
        QStringLiteral("SOURCE"), QStringLiteral("best") });
    p.addOption({ QStringLiteral("budget"),
        QStringLiteral("Hardware budget in USD: recommend the fastest machine within it."),
        QStringLiteral("USD") });
    p.addOption({ QStringLiteral("deadline"),
        QStringLiteral("Deadline in days: recommend the cheapest machine that meets it."),
        QStringLiteral("DAYS") });
    p.addOption({ QStringLiteral("gpus"),
        QStringLiteral("Only these GPU ids, to buy and to rent, comma-separated (default: all)."),
        QStringLiteral("IDS") });
    addSponsorOption(p);
    p.addOption({ QStringLiteral("today"),
        QStringLiteral("The day prices' ages are counted to (default: today's date)."),
        QStringLiteral("YYYY-MM-DD") });
    p.addOption({ QStringLiteral("samples"),
        QStringLiteral("Seeded Monte Carlo over every input's range: p10/p50/p90 and how often "
                       "the recommendation holds (default 0: ranges only)."),
        QStringLiteral("N"), QStringLiteral("0") });
    p.addOption({ QStringLiteral("seed"),
        QStringLiteral("Seed of the Monte Carlo samples (default 1): the same seed, the same "
                       "figures."),
        QStringLiteral("N"), QStringLiteral("1") });
    for (const auto& spec : kAssumptionSpecs)
        p.addOption({ views::toQString(spec.option),
            QStringLiteral("%1 In %2, %3 (default: the price tables', built in %4).")
                .arg(views::toQString(spec.help), views::toQString(unitName(spec.unit)),
                    boundsText(spec.bounds))
                .arg(spec.fallback),
            spec.wholeNumber ? QStringLiteral("N") : QStringLiteral("X") });
}

std::optional<Scenario> scenarioFromOptions(
    const QCommandLineParser& p, std::shared_ptr<const Catalog> catalog, QString* error)
{
    Scenario s;
    s.catalog = std::move(catalog);
    s.assumptions = s.catalog->defaults;
    if (!p.isSet(QStringLiteral("model"))) {
        *error = QStringLiteral("--model is required (see 'gpuplan-cli list models')");
        return std::nullopt;
    }
    s.modelId = p.value(QStringLiteral("model")).toStdString();
    if (!s.catalog->findWorkload(s.modelId)) {
        *error = "unknown model '" + p.value(QStringLiteral("model"))
            + "'; known models: " + knownIds(*s.catalog, true);
        return std::nullopt;
    }
    const auto policy = sourcePolicyFromString(p.value(QStringLiteral("source")).toStdString());
    if (!policy) {
        *error
            = "--source must be best, paper, paper-naive, analytic, measured or extrapolated, not '"
            + p.value(QStringLiteral("source")) + "'";
        return std::nullopt;
    }
    s.source = *policy;
    if (p.isSet(QStringLiteral("gpus"))) {
        for (const auto& id :
            p.value(QStringLiteral("gpus")).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            if (!s.catalog->findGpu(id.trimmed().toStdString())) {
                *error = "unknown GPU '" + id.trimmed()
                    + "'; known GPUs: " + knownIds(*s.catalog, false);
                return std::nullopt;
            }
            // Listed twice, every machine of that GPU was planned and printed twice.
            if (std::find(s.gpuIds.begin(), s.gpuIds.end(), id.trimmed().toStdString())
                != s.gpuIds.end()) {
                *error = "--gpus names '" + id.trimmed() + "' twice";
                return std::nullopt;
            }
            s.gpuIds.push_back(id.trimmed().toStdString());
        }
        if (s.gpuIds.empty()) { // "--gpus ,": not every GPU
            *error
                = QStringLiteral("--gpus names no GPU; known GPUs: ") + knownIds(*s.catalog, false);
            return std::nullopt;
        }
    }
    const auto sponsor = sponsorOption(p, *s.catalog, error);
    if (!sponsor)
        return std::nullopt;
    s.sponsorId = *sponsor;
    for (const auto& spec : kAssumptionSpecs) {
        const QString name = views::toQString(spec.option);
        const auto value = numberOption(p, name, spec.bounds, error);
        if (!error->isEmpty())
            return std::nullopt;
        if (value && spec.wholeNumber && *value != std::floor(*value)) {
            *error = "--" + name + " must be a whole number, not " + p.value(name);
            return std::nullopt;
        }
        if (value)
            chooseAssumptionValue(s.assumptions, spec.id, *value);
    }
    // Exactly YYYY-MM-DD: Qt's ISO parsing read "2026-11-28 garbage" as 2026-11-28.
    const QString todayText = p.value(QStringLiteral("today"));
    const QDate today = !p.isSet(QStringLiteral("today")) ? QDate::currentDate()
        : todayText.size() == 10 ? QDate::fromString(todayText, QStringLiteral("yyyy-MM-dd"))
                                 : QDate();
    if (!today.isValid()) {
        *error
            = "--today must be a date YYYY-MM-DD, not '" + p.value(QStringLiteral("today")) + "'";
        return std::nullopt;
    }
    s.today = today.toString(Qt::ISODate).toStdString();
    // A seed written as digits is read as the whole number it is: as a double, 2^53 + 1 had
    // become 2^53 unsaid, another seed than the one asked for (review).
    if (const QString seed = p.value(QStringLiteral("seed")); p.isSet(QStringLiteral("seed"))) {
        bool digits = false;
        const qulonglong exact = seed.trimmed().toULongLong(&digits, 10);
        const auto most = static_cast<qulonglong>(limits::kSeed.bounds.max);
        if (digits && exact > most) {
            *error = "--seed: " + seed + " is outside 0 to " + QString::number(most) + " (2^53)";
            return std::nullopt;
        }
    }
    for (const FieldSpec* field : { &limits::kMonteCarloSamples, &limits::kSeed }) {
        const QString name = views::toQString(field->key);
        const auto value
            = numberOption(p, name, field->bounds, error)
                  .value_or(field == &limits::kSeed ? static_cast<double>(s.seed) : 0.0);
        if (!error->isEmpty())
            return std::nullopt;
        if (value != std::floor(value)) {
            *error = "--" + name + " must be a whole number, not " + p.value(name);
            return std::nullopt;
        }
        if (field == &limits::kSeed)
            s.seed = static_cast<std::uint64_t>(value);
        else
            s.monteCarloSamples = static_cast<int>(value);
    }
    const auto& budget = limits::kBudgetUsd.bounds;
    s.budgetUsd = numberOption(p, QStringLiteral("budget"), budget, error);
    if (!error->isEmpty())
        return std::nullopt;
    const auto& deadline = limits::kDeadlineDays.bounds;
    s.deadlineDays = numberOption(p, QStringLiteral("deadline"), deadline, error);
    if (!error->isEmpty())
        return std::nullopt;
    return s;
}

std::optional<std::size_t> machineOption(
    const Results& results, const QString& text, QString* error)
{
    if (text.isEmpty()) {
        if (const auto chosen = defaultMachineToCompare(results))
            return chosen;
        *error = QStringLiteral("this model has no machine to buy");
        return std::nullopt;
    }
    const qsizetype x = text.indexOf(QLatin1Char('x'));
    bool ok = false;
    const int count = x > 0 ? text.left(x).toInt(&ok) : 0;
    const std::string gpu = text.mid(x + 1).toStdString();
    for (std::size_t i = 0; ok && i < results.options.size(); ++i)
        if (results.options[i].gpuCount == count && results.options[i].gpu->id == gpu)
            return i;
    // Why not, where the plan knows (no price, no estimate, ...), and a machine that is one.
    QString why;
    for (const auto& u : results.unavailable)
        if (ok && u.gpuCount == count && u.gpuId == gpu)
            why = QStringLiteral(": ") + views::unavailableReason(u, results.source);
    *error = QStringLiteral("--machine %1 is not one of the options%2 (write COUNTxGPU_ID")
                 .arg(text, why);
    if (const auto example = defaultMachineToCompare(results))
        *error += QStringLiteral(", e.g. %1x%2")
                      .arg(results.options[*example].gpuCount)
                      .arg(QString::fromStdString(results.options[*example].gpu->id));
    *error += QLatin1Char(')');
    return std::nullopt;
}

} // namespace gpuplan::cli
