// The proposal report stays readable however many offers are loaded: at most ten pages for
// every shipped model with 500 extra offers, the full tables in CSV files beside the PDF (named
// in the report), and flags abbreviated with a legend.

#include "app/render/proposal_report.h"
#include "pricing/catalog_loader.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuplan;

namespace {

// The shipped current prices plus `extra` offers: copies of the shipped ones under new ids,
// each a little dearer, as an imported catalog adds them.
std::shared_ptr<const Catalog> catalogWithOffers(int extra)
{
    const CatalogLoad load = loadCatalog(shippedDataFiles());
    auto catalog = std::make_shared<Catalog>(*load.catalog);
    const auto shipped = catalog->cloudOffers;
    for (int i = 0; i < extra; ++i) {
        CloudOffer o = shipped[static_cast<std::size_t>(i) % shipped.size()];
        o.id += "-imported-" + std::to_string(i);
        o.provider += " " + std::to_string(i % 40);
        if (o.onDemandUsdPerHour)
            *o.onDemandUsdPerHour *= 1.0 + 0.001 * (i + 1);
        if (o.spotUsdPerHour)
            *o.spotUsdPerHour *= 1.0 + 0.001 * (i + 1);
        catalog->cloudOffers.push_back(std::move(o));
    }
    return catalog;
}

int pdfPages(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    static const QRegularExpression page(QStringLiteral("/Type\\s*/Page[^s]"));
    return static_cast<int>(QString::fromLatin1(f.readAll()).count(page));
}

int lines(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    return static_cast<int>(f.readAll().count('\n'));
}

} // namespace

class TestReportPages : public QObject {
    Q_OBJECT

    std::shared_ptr<const Catalog> catalog = catalogWithOffers(500);

    // Pythia-1B with the shipped defaults, planned on the tests' day.
    Scenario pythia1b() const
    {
        Scenario s;
        s.catalog = catalog;
        s.modelId = "pythia-1b";
        s.assumptions = catalog->defaults;
        s.today = "2026-11-23";
        return s;
    }

private slots:
    void atMostTenPagesWith500Offers_data()
    {
        QTest::addColumn<QString>("model");
        for (const auto& w : catalog->workloads)
            QTest::newRow(w.id.c_str()) << QString::fromStdString(w.id);
        QVERIFY(catalog->workloads.size() >= 8);
    }
    void atMostTenPagesWith500Offers()
    {
        QFETCH(QString, model);
        Scenario s;
        s.catalog = catalog;
        s.modelId = model.toStdString();
        s.assumptions = catalog->defaults;
        s.budgetUsd = 40000;
        s.today = "2026-11-23";
        const Results r = evaluate(s);
        QVERIFY(r.cloud.size() > 500);
        render::ReportInput in;
        in.results = &r;
        in.catalog = catalog.get();
        in.date = QStringLiteral("2026-11-23");
        QTemporaryDir dir;
        const QString pdf = dir.filePath(QStringLiteral("plan.pdf"));
        QString error;
        QVERIFY2(render::writeProposalReport(in, pdf, &error), qPrintable(error));
        const int pages = pdfPages(pdf);
        QVERIFY2(pages >= 2 && pages <= 10, qPrintable(QString::number(pages)));
        // Every option and offer in the CSVs beside it (a header line each).
        QCOMPARE(lines(dir.filePath(QStringLiteral("plan-options.csv"))),
            static_cast<int>(r.options.size()) + 1);
        QCOMPARE(lines(dir.filePath(QStringLiteral("plan-offers.csv"))),
            static_cast<int>(r.cloud.size()) + 1);
    }

    // The buy-vs-rent chart only where something rents the machine's GPUs: alone, the buy
    // line compares with nothing.
    void buyVsRentChartNeedsAnOfferOfTheSameGpus()
    {
        const Results r = evaluate(pythia1b());
        const auto indexOf = [&r](const std::string& gpu, int count) {
            for (std::size_t i = 0; i < r.options.size(); ++i)
                if (r.options[i].gpu->id == gpu && r.options[i].gpuCount == count)
                    return std::optional<std::size_t>(i);
            return std::optional<std::size_t>();
        };
        render::ReportInput in;
        in.results = &r;
        in.catalog = catalog.get();
        in.buyOption = indexOf("h100-94gb-nvl", 2);
        QVERIFY(in.buyOption);
        QVERIFY(matchingCloudOffers(r, *in.buyOption).empty());
        QVERIFY(!render::proposalReportHtml(in).contains(QStringLiteral("chart:buy-vs-rent")));
        in.buyOption = indexOf("rtx-5090", 8);
        QVERIFY(in.buyOption);
        QVERIFY(render::proposalReportHtml(in).contains(QStringLiteral("chart:buy-vs-rent")));
    }

    // A source's own percent signs stay in it: the electricity line's four values went in
    // by four arg() calls, and a URL's "%2C" took the PUE.
    void aSourcesPercentSignsAreNotPlaceholders()
    {
        Scenario s = pythia1b();
        s.assumptions.source(AssumptionId::ElectricityUsdPerKwh).source
            = "https://x.edu/Utility%20Rates%2C%20FY26.pdf";
        s.assumptions.amortizationYears = 1.0;
        const Results r = evaluate(s);
        render::ReportInput in;
        in.results = &r;
        in.catalog = catalog.get();
        const QString html = render::proposalReportHtml(in);
        QVERIFY2(html.contains(QStringLiteral("Utility%20Rates%2C%20FY26.pdf")), qPrintable(html));
        QVERIFY(html.contains(QStringLiteral("; PUE 1.58 (")));
        QVERIFY(html.contains(QStringLiteral("Amortisation: 1 year, machine in use")));
    }

    // The assumptions list flags a stale electricity rate as the price list and the budget
    // justification do, and says colocation falls on each machine's draw before PUE: a 2024
    // tariff passed unflagged, and the rate read against the grid's draw gave no budget's
    // figure (review).
    void assumptionsFlagAStaleRateAndTheHostingBasis()
    {
        Scenario s = pythia1b();
        Provenance& electricity = s.assumptions.source(AssumptionId::ElectricityUsdPerKwh);
        electricity.source = "campus utility rate sheet";
        electricity.date = "2024-07";
        electricity.note.clear();
        chooseAssumptionValue(s.assumptions, AssumptionId::HostingUsdPerKwMonth, 150);
        const Results r = evaluate(s);
        render::ReportInput in;
        in.results = &r;
        in.catalog = catalog.get();
        const QString html = render::proposalReportHtml(in);
        QVERIFY2(html.contains(QStringLiteral(
                     "(campus utility rate sheet, 2024-07; more than 12 months old on 2026-11-23: "
                     "check it before submitting); PUE 1.58 (")),
            qPrintable(html));
        QVERIFY2(html.contains(QStringLiteral("hosting (colocation) $150.00/kW-month on each "
                                              "machine's draw before PUE (user-supplied)")),
            qPrintable(html));
        // A rate dated within the limit is not flagged.
        electricity.date = "2026-06";
        const Results fresh = evaluate(s);
        in.results = &fresh;
        QVERIFY(render::proposalReportHtml(in).contains(
            QStringLiteral("(campus utility rate sheet, 2026-06); PUE")));
    }

    void reportNamesTheCsvFilesAndExplainsFlags()
    {
        const Results r = evaluate(pythia1b());
        render::ReportInput in;
        in.results = &r;
        in.catalog = catalog.get();
        in.optionsCsvName = QStringLiteral("plan-options.csv");
        in.offersCsvName = QStringLiteral("plan-offers.csv");
        const QString html = render::proposalReportHtml(in);
        QVERIFY(html.contains(QStringLiteral("are in plan-options.csv")));
        QVERIFY(html.contains(QStringLiteral("are in plan-offers.csv")));
        QVERIFY(html.contains(QStringLiteral("<b>UT</b> unsynchronised timing")));
        // Sections that must not be split from their heading start a page; a table's header
        // row repeats on every page it runs onto.
        QVERIFY(html.contains(
            QStringLiteral("<h2 style=\"page-break-before:always\">Grant budget by year</h2>")));
        QVERIFY(html.contains(
            QStringLiteral("<h2 style=\"page-break-before:always\">Training time and cost</h2>")));
        QVERIFY(html.contains(QStringLiteral(
            "<h2 style=\"page-break-before:always\">Prices and their sources</h2>")));
        QVERIFY(html.contains(QStringLiteral("<thead><tr><th")));
        // The budget's notes follow its table, as under `gpuplan-cli budget`: at F&A 0 the
        // sponsor's rules still charge it.
        QVERIFY(html.contains(QStringLiteral("</table><p>Warning: The indirect (F&amp;A) rate is "
                                             "0%, yet the sponsor's rules (US federal")));
        // Figures are never broken inside a cell ("$255,23 / 7" in a budget's Total column): a
        // single figure does not wrap, and a range may break only after its en dash; a date
        // keeps its hyphens.
        static const QRegularExpression wholeFigure(
            QStringLiteral("<td style=\"font-size:7pt; white-space:nowrap\">\\$[0-9,]+</td>"));
        QVERIFY(html.contains(wholeFigure));
        static const QRegularExpression range(QStringLiteral("\\(\\$[0-9,]+\u2013\\$[0-9,]+\\)"));
        QVERIFY(html.contains(range));
        const QRegularExpressionMatch hyphened
            = QRegularExpression(QStringLiteral(".{60}\\(\\$[0-9,]+-\\$.{30}")).match(html);
        QVERIFY2(!hyphened.hasMatch(), qPrintable(hyphened.captured(0)));
        QVERIFY(html.contains(QRegularExpression(QStringLiteral(">20[0-9]{2}-[0-9]{2}"))));
        // Only ranges: a date or a part number in brackets keeps its hyphen ("(archived
        // 2025-03-03)" had become "2025-03\u201303").
        QVERIFY(!html.contains(QRegularExpression(QStringLiteral("[0-9]{4}-[0-9]{2}\u2013"))));
        QVERIFY(!html.contains(QRegularExpression(QStringLiteral("[A-Za-z][0-9]\u2013"))));
        // The appendix lists fewer offers than there are, each kind's cheapest at least.
        const auto offers = render::reportOffers(in);
        QVERIFY(offers.size() < r.cloud.size() / 10);
        QVERIFY(!offers.empty());
    }
};

QTEST_MAIN(TestReportPages)
#include "tst_report_pages.moc"
