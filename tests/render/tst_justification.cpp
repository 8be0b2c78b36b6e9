// The budget justification (app/render/budget_justification.h) for a fixed scenario on the
// paper's prices: the text as a golden file, the same numbers as the budget table, and the ODF
// file opened back (its content.xml unzipped here) with every paragraph in it.

#include "app/common/budget_table.h"
#include "app/common/format.h"
#include "app/render/budget_justification.h"
#include "pricing/catalog_loader.h"
#include "tests/support/golden.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>
#include <QtEndian>

#include <zlib.h>

using namespace gpuplan;

namespace {

// One member of a ZIP archive, by name: stored or deflated (what QTextDocumentWriter writes).
QByteArray unzipMember(const QByteArray& zip, const QByteArray& name)
{
    qsizetype at = 0;
    while (
        at + 30 <= zip.size() && qFromLittleEndian<quint32>(zip.constData() + at) == 0x04034b50u) {
        const char* h = zip.constData() + at;
        const quint16 method = qFromLittleEndian<quint16>(h + 8);
        const quint32 packed = qFromLittleEndian<quint32>(h + 18);
        const quint32 size = qFromLittleEndian<quint32>(h + 22);
        const quint16 nameLength = qFromLittleEndian<quint16>(h + 26);
        const quint16 extraLength = qFromLittleEndian<quint16>(h + 28);
        const QByteArray member = zip.mid(at + 30, nameLength);
        const qsizetype data = at + 30 + nameLength + extraLength;
        if (member == name) {
            if (method == 0)
                return zip.mid(data, size);
            QByteArray out(static_cast<qsizetype>(size), Qt::Uninitialized);
            z_stream z {};
            inflateInit2(&z, -MAX_WBITS); // raw deflate, as in ZIP
            z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(zip.constData() + data));
            z.avail_in = packed;
            z.next_out = reinterpret_cast<Bytef*>(out.data());
            z.avail_out = size;
            const int status = inflate(&z, Z_FINISH);
            inflateEnd(&z);
            return status == Z_STREAM_END ? out : QByteArray();
        }
        at = data + packed;
    }
    return {};
}

// Pythia-1B on `catalog` with its default assumptions, on the tests' day.
Scenario pythia1b(const std::shared_ptr<const Catalog>& catalog)
{
    Scenario s;
    s.catalog = catalog;
    s.modelId = "pythia-1b";
    s.assumptions = catalog->defaults;
    s.today = "2026-11-23";
    return s;
}

} // namespace

class TestJustification : public QObject {
    Q_OBJECT

    std::shared_ptr<const Catalog> catalog;
    Results results;
    GrantPlan plan;
    GrantBudget budget;
    const SponsorRules* sponsor = nullptr;
    BudgetTarget target;

    // The plain-text justification of `t` under this test's plan and sponsor.
    QString justificationOf(const Results& r, BudgetTarget t) const
    {
        return render::toPlainText(
            render::budgetJustification(r, t, plan, *sponsor, grantBudget(r, t, plan, *sponsor)));
    }

private slots:
    void initTestCase()
    {
        const CatalogLoad load = loadCatalog(shippedDataFiles("paper"));
        QVERIFY(load.issues.empty());
        catalog = load.catalog;
        Scenario s;
        s.catalog = catalog;
        s.modelId = "pythia-1b";
        s.assumptions = catalog->defaults;
        s.assumptions.indirectRate = 0.5;
        s.today = "2026-11-23";
        results = evaluate(s);
        for (std::size_t i = 0; i < results.options.size(); ++i)
            if (results.options[i].gpu->id == "a100-80gb-sxm" && results.options[i].gpuCount == 4)
                target = { BudgetTarget::Kind::Owned, i };
        QCOMPARE(results.options[target.index].gpuCount, 4);
        plan.runsPerYear = { 3, 4, 3 };
        plan.startYear = 2027;
        plan.startMonth = 1;
        sponsor = catalog->findSponsor("us-federal");
        QVERIFY(sponsor);
        QCOMPARE(checkGrantPlan(plan, results, target), GrantPlanProblem::None);
        budget = grantBudget(results, target, plan, *sponsor);
    }

    void markdownIsTheGoldenText()
    {
        const auto text = render::budgetJustification(results, target, plan, *sponsor, budget);
        GPUPLAN_COMPARE_GOLDEN(render::toMarkdown(text).toUtf8(),
            QStringLiteral(GPUPLAN_TEST_DATA "/data/justification/4xa100-3-4-3.md"));
    }

    // A negotiated rate is printed as negotiated (55.5%, not 56%), the categories joined as
    // prose; rules that put the rate on none of the costs say so once, naming the sponsor.
    void theRateAndItsCategoriesReadAsNegotiated()
    {
        Scenario s;
        s.catalog = catalog;
        s.modelId = "pythia-1b";
        s.assumptions = catalog->defaults;
        s.assumptions.indirectRate = 0.555;
        s.assumptions.staffUsdPerYear = 9052.0;
        s.assumptions.fringeRate = 0.323;
        s.today = "2026-11-23";
        const Results r = evaluate(s);
        const QString text = render::toPlainText(render::budgetJustification(
            r, target, plan, *sponsor, grantBudget(r, target, plan, *sponsor)));
        QVERIFY2(text.contains(QStringLiteral(
                     "Indirect costs at the institution's rate of 55.5% apply to electricity, "
                     "staff time and fringe benefits (on staff time) under the sponsor's rules")),
            qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("staff time $27,156, fringe benefits (on staff "
                                              "time) $8,772.")),
            qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Fringe benefits: 32.3% (")), qPrintable(text));
        const SponsorRules* none = catalog->findSponsor("no-indirect");
        QVERIFY(none);
        const QString unpaid = render::toPlainText(render::budgetJustification(
            r, target, plan, *none, grantBudget(r, target, plan, *none)));
        QVERIFY2(unpaid.contains(QStringLiteral(
                     "No indirect costs are budgeted: the sponsor's rules (No indirect costs) put "
                     "the institution's rate of 55.5% on none of these costs. Amounts")),
            qPrintable(unpaid));
    }

    // An analytic time states its assumed utilisation once: the implied one is the same figure.
    void anAnalyticTimeStatesItsUtilisationOnce()
    {
        Scenario s;
        s.catalog = catalog;
        s.modelId = "pythia-1b";
        s.assumptions = catalog->defaults;
        s.source = SourcePolicy::Analytic;
        s.today = "2026-11-23";
        const Results r = evaluate(s);
        const QString text = render::toPlainText(render::budgetJustification(
            r, target, plan, *sponsor, grantBudget(r, target, plan, *sponsor)));
        QVERIFY2(text.contains(QStringLiteral("(estimate: analytic, assumed utilisation 0.40 of "
                                              "peak).")),
            qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("implied utilisation")));
        QVERIFY(justificationOf(results, target).contains(QStringLiteral("implied utilisation")));
    }

    // The request and the indirect costs in the text are the budget table's cells.
    void numbersMatchTheBudgetTable()
    {
        const QString text = render::toPlainText(
            render::budgetJustification(results, target, plan, *sponsor, budget));
        const views::BudgetTable table = views::budgetTable(results, target, plan, budget);
        const QStringList total = table.rows.last();
        QCOMPARE(total.first(), QStringLiteral("Total"));
        QVERIFY2(text.contains(QStringLiteral("We request ") + total.last()), qPrintable(text));
        const QStringList indirect = table.rows[table.rows.size() - 2];
        const QStringList base = table.rows[table.rows.size() - 3];
        QCOMPARE(base.first(), QStringLiteral("F&A base"));
        QVERIFY2(text.contains(indirect.last() + QStringLiteral(" on a base of ") + base.last()
                     + QStringLiteral(" (each year's F&A rounded to the dollar).")),
            qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("3 in Year 1 (2027-01 to 2027-12), 4 in Year 2")));
        QVERIFY(!text.contains(QLatin1Char('#')));
        // Each price says what kind it is and, past the price age limit, to check it.
        QVERIFY2(text.contains(QStringLiteral("2024-09-21, a vendor quote; more than 12 months "
                                              "old on 2026-11-23: check it before submitting")),
            qPrintable(text));

        // An undated price is flagged for its unknown age, not called old.
        auto undated = std::make_shared<Catalog>(*catalog);
        for (auto& g : undated->gpus)
            if (g.id == "a100-80gb-sxm")
                g.priceSource.date = "undated";
        Scenario s;
        s.catalog = undated;
        s.modelId = "pythia-1b";
        s.assumptions = undated->defaults;
        s.today = "2026-11-23";
        const Results u = evaluate(s);
        const QString undatedText = justificationOf(u, target);
        QVERIFY2(
            undatedText.contains(QStringLiteral("undated, a vendor quote; its date is unknown: "
                                                "check it before submitting")),
            qPrintable(undatedText));
    }

    // The PI's own electricity price is cited as theirs, not as the EIA's average that the
    // shipped table states (review); the PUE left alone keeps its source.
    void aChosenValueIsCitedAsUserSupplied()
    {
        const QString shipped = render::toPlainText(
            render::budgetJustification(results, target, plan, *sponsor, budget));
        QVERIFY2(
            shipped.contains(QStringLiteral("Electricity: $0.13 per kWh (")), qPrintable(shipped));
        QVERIFY(!shipped.contains(QStringLiteral("user-supplied")));
        // The shipped price is of 2024: stale on the plan's day, as the GPU's is (review).
        QVERIFY2(shipped.contains(QStringLiteral("Table 5.6.A), 2024; more than 12 months old on "
                                                 "2026-11-23: check it before submitting); PUE")),
            qPrintable(shipped));
        Scenario s = pythia1b(catalog);
        chooseAssumptionValue(s.assumptions, AssumptionId::ElectricityUsdPerKwh, 0.08);
        const Results chosen = evaluate(s);
        const QString text = justificationOf(chosen, target);
        QVERIFY2(
            text.contains(QStringLiteral("Electricity: $0.08 per kWh (user-supplied); PUE 1.58 (")),
            qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("user-supplied); PUE 1.58 (user-supplied")));
    }

    // Every owning cost the budget charges names its rate and source; the sponsor's rate on an
    // allocation is said to fall on no cash (it read "...apply to computing services
    // (allocation, no cash) ...: $0.").
    void owningCostsAndAllocationsAreExplained()
    {
        Scenario s = pythia1b(catalog);
        s.assumptions.indirectRate = 0.55;
        chooseAssumptionValue(s.assumptions, AssumptionId::HostingUsdPerKwMonth, 150);
        chooseAssumptionValue(s.assumptions, AssumptionId::StaffUsdPerYear, 20000);
        const Results owning = evaluate(s);
        const QString text = justificationOf(owning, target);
        QVERIFY2(
            // On the machine's own draw (3.22 kW from the grid / PUE 1.58), as it is charged.
            text.contains(QStringLiteral("Hosting (colocation): $150.00/kW-month, on the "
                                         "machine's 2.04 kW before PUE (user-supplied)")),
            qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("Staff time: $20,000/year (user-supplied)")));
        QVERIFY(!text.contains(QStringLiteral("Support contract:")));
        // The paper's price set has no allocations: the current one has NSF ACCESS.
        const CatalogLoad current = loadCatalog(shippedDataFiles());
        s.catalog = current.catalog;
        s.assumptions = current.catalog->defaults;
        s.assumptions.indirectRate = 0.55;
        const Results r = evaluate(s);
        std::optional<BudgetTarget> allocation;
        for (std::size_t i = 0; i < r.cloud.size(); ++i)
            if (r.cloud[i].offer->kind == OfferKind::Allocation)
                allocation = BudgetTarget { BudgetTarget::Kind::Rented, i };
        QVERIFY(allocation);
        QCOMPARE(checkGrantPlan(plan, r, *allocation), GrantPlanProblem::None);
        const QString granted = justificationOf(r, *allocation);
        QVERIFY2(
            granted.contains(QStringLiteral("No indirect costs are budgeted: the allocation costs "
                                            "no cash, so the institution's rate of 55% under the "
                                            "sponsor's rules")),
            qPrintable(granted));
        // Electricity at $0 on a machine is no allocation: it is said to cost nothing.
        Scenario free = s;
        chooseAssumptionValue(free.assumptions, AssumptionId::ElectricityUsdPerKwh, 0.0);
        const Results noPower = evaluate(free);
        std::optional<BudgetTarget> owned;
        for (std::size_t i = 0; i < noPower.options.size() && !owned; ++i)
            if (noPower.options[i].gpuCount == 8) // equipment: only electricity in the base
                owned = BudgetTarget { BudgetTarget::Kind::Owned, i };
        QVERIFY(owned);
        const QString machine = justificationOf(noPower, *owned);
        QVERIFY(!machine.contains(QStringLiteral("allocation")));
        QVERIFY2(
            machine.contains(QStringLiteral("No indirect costs are budgeted: electricity, which "
                                            "carry the institution's rate of 55%")),
            qPrintable(machine));
        QVERIFY(machine.contains(QStringLiteral("cost nothing in this budget.")));
    }

    // Renting is set against buying under the same sponsor's rules: with a sponsor that pays
    // no indirect costs, the rental carries none either (the planner's cost per run has 50%).
    void rentingIsComparedUnderTheSameRules()
    {
        const SponsorRules* none = catalog->findSponsor("no-indirect");
        QVERIFY(none);
        const GrantBudget owned = grantBudget(results, target, plan, *none);
        const OwnedOption& o = results.options[target.index];
        QVERIFY(o.cheapestCloudIndex);
        const GrantBudget rented = grantBudget(
            results, { BudgetTarget::Kind::Rented, *o.cheapestCloudIndex }, plan, *none);
        const double perRunWithIndirect = *results.cloud[*o.cheapestCloudIndex].cheapestCostUsd;
        // Within the rounding of its three yearly cells to whole dollars.
        QVERIFY(qAbs(rented.totalUsd * 1.5 - 10 * perRunWithIndirect) <= 1.5 * 3 * 0.5);
        const QString text
            = render::toPlainText(render::budgetJustification(results, target, plan, *none, owned));
        const QString expected
            = QStringLiteral("For the 10 training runs of this plan, renting would cost %1, "
                             "against %2 for buying.")
                  .arg(views::formatWholeUsd(rented.totalUsd),
                      views::formatWholeUsd(owned.totalUsd));
        // Without F&A on the rental, renting stays cheaper through the plan, and the sentence
        // before the totals agrees with them.
        QVERIFY(rented.totalUsd < owned.totalUsd);
        QVERIFY2(
            text.contains(QStringLiteral("Under these budget rules, buying 4\u00D7A100 SXM does "
                                         "not pay off through all 10 training runs of this plan "
                                         "against renting Azure 4\u00D7A100 SXM 80GB, on-demand "
                                         "at $7,085 per run before indirect costs.")),
            qPrintable(text));
        QVERIFY2(text.contains(expected), qPrintable(text));
    }

    // A budget that rents weighs buying the same GPUs the same way: this plan's runs and
    // calendar, the sponsor's rules, against the offer it rents (not the planner's break-even
    // months at its own run rate).
    void rentingBudgetWeighsBuyingUnderItsRules()
    {
        const OwnedOption& o = results.options[target.index];
        QVERIFY(o.cheapestCloudIndex);
        const BudgetTarget renting { BudgetTarget::Kind::Rented, *o.cheapestCloudIndex };
        const GrantBudget rented = grantBudget(results, renting, plan, *sponsor);
        const QString text = render::toPlainText(
            render::budgetJustification(results, renting, plan, *sponsor, rented));
        QVERIFY2(text.contains(QStringLiteral("Buying the same GPUs instead (4\u00D7A100 SXM, "
                                              "$83,482) was considered. Under these budget rules, "
                                              "buying 4\u00D7A100 SXM pays off from run 9 of this "
                                              "plan, in Year 3")),
            qPrintable(text));
        QVERIFY(text.contains(
            QStringLiteral("For the 10 training runs of this plan, renting would "
                           "cost %1, against %2 for buying.")
                .arg(views::formatUsd(rented.totalUsd), views::formatUsd(budget.totalUsd))));
        QVERIFY(!text.contains(QStringLiteral("break-even after"))); // the planner's sentence
        // Buying bought in year 2 with runs in year 1 cannot be budgeted: said, not priced
        // another way.
        GrantPlan late = plan;
        late.equipmentYear = 2;
        const QString lateText = render::toPlainText(render::budgetJustification(
            results, renting, late, *sponsor, grantBudget(results, renting, late, *sponsor)));
        QVERIFY2(lateText.contains(QStringLiteral("was considered; it cannot be budgeted in this "
                                                  "plan: runs are planned before year 2, when it "
                                                  "would be bought.")),
            qPrintable(lateText));
        QVERIFY(!lateText.contains(QStringLiteral("move them"))); // the tool's advice, not prose
        // The spend per run as a reviewer checks it: rate per GPU-hour x GPU-hours (4 GPUs of
        // one 8-GPU-only VM for 18 days, priced per GPU as the paper does).
        QVERIFY2(text.contains(QStringLiteral("$7,085 before indirect costs per run ($4.10 per "
                                              "GPU-hour for 1,728 GPU-hours; 1 instance)")),
            qPrintable(text));
    }

    // A break-even in a year the machine cannot run back to back is on paper only: said there.
    void aBreakEvenInAnOverfullYearSaysSo()
    {
        GrantPlan crowded = plan;
        crowded.runsPerYear = { 25, 1, 1 }; // 4xA100 runs about 20 a year back to back
        const GrantBudget b = grantBudget(results, target, crowded, *sponsor);
        QCOMPARE(b.overfullYears, std::vector<int> { 1 });
        const QString text = render::toPlainText(
            render::budgetJustification(results, target, crowded, *sponsor, b));
        QVERIFY2(text.contains(QStringLiteral("buying 4\u00D7A100 SXM pays off from run 9 of this "
                                              "plan, in Year 1 (2027-01 to 2027-12), a year whose "
                                              "runs one machine cannot run back to back, against "
                                              "renting")),
            qPrintable(text));
        // The totals then differ in capacity, and the plan's paragraph names the year.
        QVERIFY2(text.contains(QStringLiteral("The totals are not for the same capacity: renting "
                                              "finishes every run in its year, while buying "
                                              "counts one machine, and the runs of year 1 do not "
                                              "fit on one machine back to back (finishing them "
                                              "in the year would take another machine, not "
                                              "counted).")),
            qPrintable(text));
        QVERIFY2(text.contains(
                     QStringLiteral("The runs of year 1 do not fit on one machine back to back.")),
            qPrintable(text));
        QVERIFY(!justificationOf(results, target).contains(QStringLiteral("cannot run back")));
        QVERIFY(!justificationOf(results, target).contains(QStringLiteral("same capacity")));
    }

    void odtOpensWithEveryParagraph()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("justification.odt"));
        const auto text = render::budgetJustification(results, target, plan, *sponsor, budget);
        QString error;
        QVERIFY2(render::writeJustification(text, path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray zip = file.readAll();
        QCOMPARE(
            unzipMember(zip, "mimetype"), QByteArray("application/vnd.oasis.opendocument.text"));
        const QByteArray content = unzipMember(zip, "content.xml");
        QVERIFY(!content.isEmpty());
        // Read back as a document: the XML's text without its markup holds every block.
        QTextDocument back;
        back.setHtml(QString::fromUtf8(content));
        const QString plain = back.toPlainText().simplified();
        for (const auto& block : text)
            for (const QString& part :
                block.items.isEmpty() ? QStringList { block.text } : block.items)
                QVERIFY2(plain.contains(part.simplified()), qPrintable(part));
    }

    void unknownExtensionIsRefused()
    {
        QString error;
        QVERIFY(!render::writeJustification({}, QStringLiteral("/tmp/x.docx"), &error));
        QVERIFY(error.contains(QStringLiteral(".odt, .md or .txt")));
    }
};

QTEST_MAIN(TestJustification)
#include "tst_justification.moc"
