// Export: PNG at the chosen DPI, SVG with its text as text, PDF that renders, the proposal
// report, and clear failures.

#include "app/common/format.h"
#include "app/common/saved_file.h"
#include "app/render/buy_vs_rent_chart.h"
#include "app/render/chart_export.h"
#include "app/render/planner_charts.h"
#include "app/render/proposal_report.h"
#include "pricing/catalog_loader.h"

#include <QtTest>

#include <sys/resource.h>

#include <csignal>

using namespace gpuplan;
using namespace gpuplan::render;

namespace {

// RLIMIT_FSIZE for the test's own process while it lives, with SIGXFSZ ignored so that a write
// past it fails (EFBIG) instead of ending the process: what a full disk does to an export.
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes)
    {
        previousHandler_ = std::signal(SIGXFSZ, SIG_IGN);
        if (getrlimit(RLIMIT_FSIZE, &previous_) != 0)
            return;
        rlimit limited = previous_;
        limited.rlim_cur = bytes;
        set_ = setrlimit(RLIMIT_FSIZE, &limited) == 0;
    }
    ~FileSizeLimit()
    {
        if (set_)
            setrlimit(RLIMIT_FSIZE, &previous_);
        std::signal(SIGXFSZ, previousHandler_);
    }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;
    bool isSet() const { return set_; }

private:
    rlimit previous_ {};
    void (*previousHandler_)(int) = SIG_DFL;
    bool set_ = false;
};

} // namespace

class TestChartExport : public QObject {
    Q_OBJECT

    std::shared_ptr<const Catalog> m_catalog;
    Results m_results;
    Scenario m_scenario; // what m_results were evaluated from
    QTemporaryDir m_dir;

    QString path(const QString& name) const { return m_dir.filePath(name); }

    // Renders page 1 of a PDF with pdftoppm and returns the image (null if it failed).
    QImage renderPdfPage(const QString& pdf)
    {
#ifdef GPUPLAN_PDFTOPPM
        const QString prefix = pdf + QStringLiteral("-page");
        QProcess p;
        p.start(QStringLiteral(GPUPLAN_PDFTOPPM),
            { QStringLiteral("-png"), QStringLiteral("-r"), QStringLiteral("50"),
                QStringLiteral("-f"), QStringLiteral("1"), QStringLiteral("-l"),
                QStringLiteral("1"), QStringLiteral("-singlefile"), pdf, prefix });
        if (!p.waitForFinished(30000) || p.exitCode() != 0)
            return {};
        return QImage(prefix + QStringLiteral(".png"));
#else
        Q_UNUSED(pdf);
        return {};
#endif
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_catalog = loadCatalog(shippedDataFiles()).catalog;
        Scenario s;
        s.catalog = m_catalog;
        s.modelId = "pythia-1b";
        s.assumptions = m_catalog->defaults;
        // Within $50,000 the recommendation is 8x RTX A6000, which two cloud offers rent: the
        // report then has a break-even to show, and another offer to compare with.
        s.budgetUsd = 50000.0;
        s.today = "2026-11-23";
        m_results = evaluate(s);
        m_scenario = s;
        QVERIFY(!m_results.options.empty());
    }

    void formatFromSuffix()
    {
        QVERIFY(exportFormatFor(QStringLiteral("a.PNG")) == ExportFormat::Png);
        QVERIFY(exportFormatFor(QStringLiteral("dir/a.svg")) == ExportFormat::Svg);
        QVERIFY(exportFormatFor(QStringLiteral("a.pdf")) == ExportFormat::Pdf);
        QVERIFY(!exportFormatFor(QStringLiteral("a.jpg")));
    }

    void pngHasThePixelsOfItsDpi_data()
    {
        QTest::addColumn<int>("dpi");
        QTest::newRow("screen") << 96;
        QTest::newRow("print") << 300;
    }

    void pngHasThePixelsOfItsDpi()
    {
        QFETCH(int, dpi);
        const QString file = path(QStringLiteral("hw-%1.png").arg(dpi));
        QString error;
        const FigureSize size { 9.0, 5.5, dpi };
        QVERIFY2(
            exportChart(hardwareCostChart(m_results, {}), file, size, &error), qPrintable(error));
        const QImage image(file);
        QCOMPARE(image.width(), qRound(9.0 * dpi));
        QCOMPARE(image.height(), qRound(5.5 * dpi));
        QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), dpi);
        // Not blank: the plot has coloured markers on white.
        int coloured = 0;
        for (int y = 0; y < image.height(); y += 7)
            for (int x = 0; x < image.width(); x += 7) {
                const QColor c = image.pixelColor(x, y);
                coloured += (c.saturation() > 100) ? 1 : 0;
            }
        QVERIFY(coloured > 20);
    }

    void svgIsVectorWithText()
    {
        const QString file = path(QStringLiteral("exp.svg"));
        QString error;
        QVERIFY2(
            exportChart(experimentCostChart(m_results, {}), file, {}, &error), qPrintable(error));
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString svg = QString::fromUtf8(f.readAll());
        QVERIFY(svg.contains(QStringLiteral("<svg")));
        QVERIFY(svg.contains(QStringLiteral("per-experiment cost vs training days")));
        QVERIFY(svg.contains(QStringLiteral("Training days")));
        QVERIFY(svg.contains(QStringLiteral("Cloud, spot")));
        QVERIFY(!svg.contains(QStringLiteral("<image"))); // drawn, not a bitmap
        // The whiskers are drawn, in their series' colour at kWhiskerAlpha (170/255).
        QVERIFY2(svg.contains(QStringLiteral("stroke-opacity=\"0.666667\"")), "no whiskers");
    }

    // Buy vs rent's bands are in the export too (kBandAlpha, 45/255).
    void svgHasTheBands()
    {
        const QString file = path(QStringLiteral("buy.svg"));
        QString error;
        BuyVsRentOptions buy;
        buy.optionIndex = m_results.recommended.value_or(0);
        QVERIFY2(exportChart(buyVsRentChart(m_results, buy), file, {}, &error), qPrintable(error));
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString svg = QString::fromUtf8(f.readAll());
        QVERIFY2(svg.contains(QStringLiteral("fill-opacity=\"0.176471\"")), "no band");
    }

    void pdfRenders()
    {
        const QString file = path(QStringLiteral("hw.pdf"));
        QString error;
        QVERIFY2(
            exportChart(hardwareCostChart(m_results, {}), file, {}, &error), qPrintable(error));
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.read(5) == "%PDF-");
#ifndef GPUPLAN_PDFTOPPM
        QSKIP("pdftoppm (poppler-utils) is not installed");
#endif
        const QImage page = renderPdfPage(file);
        QVERIFY(!page.isNull());
        QCOMPARE(page.width(), qRound(9.0 * 50)); // 9 inches at 50 DPI
        QCOMPARE(page.height(), qRound(5.5 * 50));
    }

    void badTargetsFailWithAMessage()
    {
        QString error;
        QVERIFY(!exportChart(
            hardwareCostChart(m_results, {}), path(QStringLiteral("x.jpg")), {}, &error));
        QVERIFY(error.contains(QStringLiteral(".png, .svg or .pdf")));
        QVERIFY(!exportChart(hardwareCostChart(m_results, {}),
            QStringLiteral("/nonexistent-dir/x.png"), {}, &error));
        QVERIFY(error.contains(QStringLiteral("cannot write")));
        QVERIFY(!exportChart(hardwareCostChart(m_results, {}), path(QStringLiteral("y.png")),
            { 9.0, 5.5, 5000 }, &error));
        QVERIFY(error.contains(QStringLiteral("DPI")));
    }

    void reportHasEverySection()
    {
        ReportInput input;
        input.results = &m_results;
        input.catalog = m_catalog.get();
        input.date = QStringLiteral("2026-11-22");
        const QString html = proposalReportHtml(input);
        QVERIFY(html.contains(QStringLiteral("Training compute for Pythia-1B")));
        QVERIFY(html.contains(QStringLiteral("2026-11-22")));
        QVERIFY(html.contains(QStringLiteral("Recommendation:")));
        QVERIFY(html.contains(QStringLiteral("Buy vs rent:")));
        // Its totals unrounded beside the budget's whole dollars: said where both stand.
        QVERIFY(html.contains(QStringLiteral("Grant budget by year")));
        QVERIFY(html.contains(QStringLiteral("These totals are unrounded; the grant budget adds "
                                             "whole dollars by line and year")));
        QVERIFY(html.contains(QStringLiteral("Assumptions")));
        QVERIFY(html.contains(QStringLiteral("chart:hardware")));
        QVERIFY(html.contains(QStringLiteral("chart:experiment")));
        QVERIFY(html.contains(QStringLiteral("chart:buy-vs-rent")));
        QVERIFY(!html.contains(QStringLiteral("chart:sensitivity"))); // no scenario given
        QVERIFY(html.contains(QStringLiteral("Prices and their sources")));
        // Ranges: the recommendation's figures with theirs, and the break-even's.
        const auto& o = m_results.options[*m_results.recommended];
        QVERIFY2(html.contains(views::formatUsdWithRange(
                     o.experimentCostUsd, o.experimentCostRange.low, o.experimentCostRange.high)
                                   .toHtmlEscaped()),
            qPrintable(html.left(3000)));
        QVERIFY(html.contains(QStringLiteral("Ranges in brackets: every input at either end")));
        QVERIFY2(html.contains(QStringLiteral("with every input at either end of its range, it "
                                              "pays off after")),
            qPrintable(html.left(3000)));
        // Beside the break-even, which way the planned runs cost less (the recommended machine
        // is the one compared when no other is chosen).
        const QString verdict = planVerdictText(m_results, *m_results.recommended);
        QVERIFY(verdict.startsWith(QStringLiteral("For the 1 run planned: buying ")));
        QVERIFY2(html.contains(verdict.toHtmlEscaped()), qPrintable(html.left(3000)));
        input.scenario = &m_scenario;
        QVERIFY(proposalReportHtml(input).contains(QStringLiteral("chart:sensitivity")));
        // Numbers for people, not printf.
        QVERIFY2(
            html.contains(QStringLiteral("1.01 billion parameters")), qPrintable(html.left(2000)));
        QVERIFY(!html.contains(QStringLiteral("e+")));
        const QRegularExpression planned(
            QStringLiteral("Planned: (1 run|\\d+ runs), at (1 run|[\\d.]+ runs) a month"));
        QVERIFY2(planned.match(html).hasMatch(), qPrintable(html));
        // Every priced GPU appears with its date.
        for (const auto& g : m_catalog->gpus)
            if (g.priceUsd)
                QVERIFY2(html.contains(QString::fromStdString(g.priceSource.date)), g.id.c_str());
        // ... and its age on the plan's day: the HGX H100 of 2025-01-31 is 21 months old, past
        // the 12-month limit; RunPod's rates, dated 2026-11 (the catalogue's month read), are 0
        // months old.
        QVERIFY2(html.contains(QStringLiteral("Planned with current prices (2025-2026); ages on "
                                              "2026-11-23, prices older than 12 months, undated "
                                              "or dated after that day marked stale.")),
            qPrintable(html));
        QVERIFY(html.contains(QStringLiteral("HGX H100")));
        QVERIFY(html.contains(QStringLiteral("<b>21 mo, stale</b>")));
        // The flags' legend explains a power supply flag as such (it had fallen through to the
        // stale price's note): the recommended 8xRTX 5090 has none to spare.
        QVERIFY2(html.contains(QStringLiteral("<b>NSPS</b> no spare power supply: the cards' "
                                              "rated draw needs every one of the chassis's power "
                                              "supplies")),
            qPrintable(html.mid(html.indexOf(QStringLiteral("Flags: ")), 1500)));
        QVERIFY(html.contains(QStringLiteral(">0 mo<")));
        QVERIFY(html.contains(
            QStringLiteral("no cash; apply 14 days ahead, 2 days in the queue per run")));
        // Reservations of the offers listed are judged against paying on demand, for this
        // plan: compare with an offer that has a reserved rate and it is listed.
        std::optional<std::size_t> reserved;
        for (std::size_t i = 0; i < m_results.cloud.size() && !reserved; ++i)
            if (!m_results.cloud[i].commitments.empty())
                reserved = i;
        QVERIFY(reserved);
        input.buyCloudOffers = { *reserved };
        const QString withReserved = proposalReportHtml(input);
        QVERIFY(withReserved.contains(QStringLiteral("Reserved rates, paid for the whole term:")));
        QVERIFY(withReserved.contains(QStringLiteral("-yr commitment costs $")));
    }

    void humanCounts()
    {
        QCOMPARE(humanCount(1.011781e9), QStringLiteral("1.01 billion"));
        QCOMPARE(humanCount(162322944), QStringLiteral("162 million"));
        QCOMPARE(humanCount(12.5e6), QStringLiteral("12.5 million"));
        QCOMPARE(humanCount(1024), QStringLiteral("1,024"));
        QCOMPARE(humanCount(2e12), QStringLiteral("2 trillion"));
    }

    void reportFollowsTheChosenOffersAndPlurals()
    {
        Results one = m_results;
        one.assumptions.plannedRuns = 1;
        one.assumptions.runsPerMonth = 1;
        ReportInput input;
        input.results = &one;
        const auto buy = reportBuyOption(input);
        QVERIFY(buy);
        const auto offers = matchingCloudOffers(one, *buy);
        QVERIFY(!offers.empty());
        // Not the offer the core's own break-even is against.
        std::size_t other = offers.back();
        for (std::size_t i : offers)
            if (i != one.options[*buy].cheapestCloudIndex)
                other = i;
        input.buyCloudOffers = { other };
        const QString html = proposalReportHtml(input);
        QVERIFY2(
            html.contains(QStringLiteral("Planned: 1 run, at 1 run a month")), qPrintable(html));
        const QString words = buyVsRentConclusion(one, *buy, { other });
        QVERIFY(html.contains(words.toHtmlEscaped()));
        QVERIFY(offers.size() >= 2);
        QVERIFY(words != buyVsRentConclusion(one, *buy));
    }

    void reportWeighsWhatTheBudgetBudgets()
    {
        const auto find = [](const Results& r, const char* gpu, int count) {
            for (std::size_t i = 0; i < r.options.size(); ++i)
                if (r.options[i].gpu->id == gpu && r.options[i].gpuCount == count)
                    return std::optional<std::size_t>(i);
            return std::optional<std::size_t>();
        };
        // With F&A, a $2,090 machine is supplies under us-federal rules and carries F&A. The
        // planner's verdict weighs it so, as the grant budget does: both have renting cheaper
        // for the 3 runs (F&A on cloud spend only had buying $2,524 cheaper, against a budget
        // with renting cheaper).
        Scenario s = m_scenario;
        s.budgetUsd.reset();
        s.assumptions.plannedRuns = 3;
        s.assumptions.indirectRate = 0.55;
        s.sponsorId = "us-federal";
        const Results fa = evaluate(s);
        ReportInput input;
        input.results = &fa;
        input.catalog = m_catalog.get();
        input.buyOption = find(fa, "rtx-3090", 1);
        QVERIFY(input.buyOption);
        const QString html = proposalReportHtml(input);
        QVERIFY2(html.contains(QStringLiteral(
                     "Buying 1×RTX 3090 pays off from run 4 (break-even after 3.2 runs")),
            qPrintable(html.left(4000)));
        QVERIFY(html.contains(QStringLiteral(
            "For the 3 runs planned: buying 1×RTX 3090 costs $7,608 (the machine and electricity; "
            "F&amp;A at 55% on the machine and electricity), renting from Vast.ai 1×RTX 3090, "
            "on-demand costs $7,433 (F&amp;A at 55% on it): renting is cheaper by $175")));
        // The grant budgets of the two agree: renting cheaper by about the same.
        GrantPlan plan;
        plan.startYear = 2027;
        plan.startMonth = 1;
        const SponsorRules& federal = *m_catalog->findSponsor("us-federal");
        const auto vast = fa.options[*input.buyOption].cheapestCloudIndex;
        QVERIFY(vast);
        QCOMPARE(fa.cloud[*vast].offer->provider, std::string("Vast.ai"));
        const double buyTotal
            = grantBudget(fa, { BudgetTarget::Kind::Owned, *input.buyOption }, plan, federal)
                  .totalUsd;
        const double rentTotal
            = grantBudget(fa, { BudgetTarget::Kind::Rented, *vast }, plan, federal).totalUsd;
        QVERIFY2(std::abs((buyTotal - rentTotal) - 175.48) < 3.0,
            qPrintable(QStringLiteral("%1 %2").arg(buyTotal).arg(rentTotal)));
        QVERIFY2(html.contains(QStringLiteral(
                     "Indirect (F&amp;A) rate: 55%, on cloud and recharge computing, a machine "
                     "below $5,000 (supplies), electricity, hosting, support, staff time and "
                     "fringe benefits, in "
                     "the per-run costs, break-even and budget alike (US federal")),
            qPrintable(html));

        // Rules that charge nothing: the report says the rate falls on no cost, naming them.
        Scenario noIndirect = s;
        noIndirect.sponsorId = "no-indirect";
        const Results none = evaluate(noIndirect);
        ReportInput noneInput = input;
        noneInput.results = &none;
        QVERIFY2(proposalReportHtml(noneInput).contains(
                     QStringLiteral("Indirect (F&amp;A) rate: 55%, on no cost under the "
                                    "sponsor's rules (No indirect costs)")),
            qPrintable(proposalReportHtml(noneInput)));

        // A budget that rents 8x H100 from one offer: the buy-vs-rent section weighs buying the
        // same GPUs against that offer, not the planner's default machine.
        ReportInput renting;
        renting.results = &m_results;
        renting.catalog = m_catalog.get();
        std::optional<std::size_t> offer;
        for (std::size_t i = 0; i < m_results.cloud.size(); ++i)
            if (m_results.cloud[i].offer->id == "runpod-h100-sxm"
                && m_results.cloud[i].gpuCount == 8)
                offer = i;
        QVERIFY(offer);
        renting.budgetTarget = BudgetTarget { BudgetTarget::Kind::Rented, *offer };
        QCOMPARE(reportBuyOption(renting), find(m_results, "h100-80gb-sxm", 8));
        QCOMPARE(reportCloudOffers(renting), std::vector<std::size_t> { *offer });
        QVERIFY(proposalReportHtml(renting).contains(
            QStringLiteral("<b>Buy vs rent:</b> Buying 8×H100 SXM")));

        // Renting with F&A: buying the same GPUs is weighed against the offer rented, F&A on
        // both sides where the sponsor's rules put it, as the budget and its justification
        // weigh it.
        ReportInput rentingFa;
        rentingFa.results = &fa;
        rentingFa.catalog = m_catalog.get();
        for (std::size_t i = 0; i < fa.cloud.size(); ++i)
            if (fa.cloud[i].offer->id == "runpod-rtx-a6000" && fa.cloud[i].gpuCount == 2)
                rentingFa.budgetTarget = BudgetTarget { BudgetTarget::Kind::Rented, i };
        QVERIFY(rentingFa.budgetTarget);
        QVERIFY2(proposalReportHtml(rentingFa).contains(QStringLiteral(
                     "For the 3 runs planned: buying 2×RTX A6000 costs $11,380 (the machine and "
                     "electricity; F&amp;A at 55% on electricity), renting from RunPod 2×RTX "
                     "A6000, on-demand costs $8,517 (F&amp;A at 55% on it): renting is cheaper "
                     "by $2,863")),
            qPrintable(proposalReportHtml(rentingFa).mid(
                proposalReportHtml(rentingFa).indexOf(QStringLiteral("For the 3 runs")), 400)));

        // Renting GPUs nobody sells as a machine: no machine stands in for them.
        ReportInput unsold;
        unsold.results = &m_results;
        unsold.catalog = m_catalog.get();
        for (std::size_t i = 0; i < m_results.cloud.size(); ++i)
            if (m_results.cloud[i].offer->id == "runpod-a100-sxm"
                && m_results.cloud[i].gpuCount == 4)
                unsold.budgetTarget = BudgetTarget { BudgetTarget::Kind::Rented, i };
        QVERIFY(unsold.budgetTarget);
        QVERIFY(!reportBuyOption(unsold));
        const QString unsoldHtml = proposalReportHtml(unsold);
        QVERIFY(unsoldHtml.contains(QStringLiteral("No machine with the same GPUs (4×A100 SXM "
                                                   "80GB) is for sale in this price set")));
        QVERIFY(!unsoldHtml.contains(QStringLiteral("chart:buy-vs-rent")));
    }

    // A budget renting a reservation-only offer (the paper's AWS p4de, 5-year terms): the
    // planner's per-run verdict stands in with a pay-as-you-go rental (Azure, renting cheaper),
    // so the budget's own weighing follows it, or the report read "renting is cheaper by
    // $58,843" above a budget that rents for $584,991 and $259,997 more after the grant.
    void reportWeighsAReservationTheBudgetRents()
    {
        const auto paper = loadCatalog(shippedDataFiles("paper")).catalog;
        QVERIFY(paper);
        Scenario s;
        s.catalog = paper;
        s.modelId = "pythia-1b";
        s.assumptions = paper->defaults;
        s.assumptions.indirectRate = 0.5;
        s.assumptions.plannedRuns = 10;
        s.sponsorId = "us-federal";
        s.today = "2026-11-28";
        const Results r = evaluate(s);
        ReportInput input;
        input.results = &r;
        input.catalog = paper.get();
        input.scenario = &s;
        for (std::size_t i = 0; i < r.cloud.size(); ++i)
            if (r.cloud[i].offer->id == "aws-p4de-24xlarge-5yr")
                input.budgetTarget = BudgetTarget { BudgetTarget::Kind::Rented, i };
        QVERIFY(input.budgetTarget);
        input.grantPlan = GrantPlan {};
        input.grantPlan->startYear = 2026;
        input.grantPlan->startMonth = 12;
        input.grantPlan->runsPerYear = { 3, 4, 3 };
        const QString html = proposalReportHtml(input);
        QVERIFY2(html.contains(QStringLiteral("renting from Azure 8×A100 SXM 80GB, on-demand")),
            qPrintable(html.left(4000)));
        QVERIFY2(html.contains(QStringLiteral(
                     "The grant budget below rents AWS 8×A100 SXM 80GB by reserved terms, "
                     "which the per-run comparison above does not weigh. "
                     "Buying the same GPUs instead (8×A100 SXM, $162,673) was considered. Under "
                     "these budget rules, buying 8×A100 SXM pays off from run 1")),
            qPrintable(html.left(6000)));
        QVERIFY(html.contains(QStringLiteral(
            "For the 10 training runs of this plan, renting would cost $584,991 and a further "
            "$259,997 before indirect costs owed after the grant")));
    }

    // The sources appendix lists the prices behind the machines planned, not the whole catalog:
    // with the plan narrowed to RTX 3090s, no DGX B200 or H100 card.
    void reportSourcesAreThePricesPlanned()
    {
        Scenario s = m_scenario;
        s.gpuIds = { "rtx-3090" };
        const Results r = evaluate(s);
        ReportInput input;
        input.results = &r;
        input.catalog = m_catalog.get();
        const QString html = proposalReportHtml(input);
        const QString sources = html.mid(html.indexOf(QStringLiteral("Prices and their sources")));
        QVERIFY(sources.contains(QStringLiteral("RTX 3090 (GPU)")));
        QVERIFY(sources.contains(QStringLiteral("(chassis, 8 slots)")));
        QVERIFY2(!sources.contains(QStringLiteral("DGX B200")), qPrintable(sources.left(3000)));
        QVERIFY(!sources.contains(QStringLiteral("H100 PCIe 80GB (GPU)")));
    }

    // A grant longer than the machine's life: page 1's comparison (the planner's: its life,
    // its resale) and the budget table (kept to the grant's end, no resale) are not one figure,
    // and the report says so with the budget's total.
    void reportSaysWhenTheGrantOutlastsTheMachine()
    {
        Scenario s = m_scenario;
        s.assumptions.amortizationYears = 3.0;
        const Results r = evaluate(s);
        QVERIFY(r.recommended);
        ReportInput input;
        input.results = &r;
        input.scenario = &s;
        input.catalog = m_catalog.get();
        input.budgetTarget = BudgetTarget { BudgetTarget::Kind::Owned, *r.recommended };
        GrantPlan plan;
        plan.startYear = 2027;
        plan.years = 5;
        input.grantPlan = plan;
        const QString html = proposalReportHtml(input);
        QVERIFY2(html.contains(QStringLiteral("The grant runs 2 years past the machine's 3-year "
                                              "life. The grant budget below keeps it in use")),
            qPrintable(html.left(4000)));
        plan.years = 3;
        input.grantPlan = plan;
        QVERIFY(!proposalReportHtml(input).contains(QStringLiteral("The grant runs")));
    }

    void reportCountsTheRunsItsBudgetBudgets()
    {
        // The Budget view's runs by year (3, 4, 3) where the plan has 1 run a month: the report
        // is written from the plan at 10 runs over the grant's 36 months, so buy vs rent counts
        // what the budget table does.
        Scenario s = m_scenario;
        s.assumptions.plannedRuns = 1;
        s.assumptions.runsPerMonth = 1.0;
        const Results one = evaluate(s);
        ReportInput input;
        input.results = &one;
        input.scenario = &s;
        input.catalog = m_catalog.get();
        GrantPlan plan;
        plan.startYear = 2027;
        plan.runsPerYear = { 3, 4, 3 };
        input.grantPlan = plan;
        const auto atGrant = planAtGrantRuns(input);
        QVERIFY(atGrant);
        QCOMPARE(atGrant->scenario.assumptions.plannedRuns, 10);
        QCOMPARE(atGrant->results.assumptions.plannedRuns, 10);
        QVERIFY(qAbs(atGrant->results.assumptions.runsPerMonth - 10.0 / 36.0) < 1e-12);
        QCOMPARE(atGrant->results.options.size(), one.options.size());
        QCOMPARE(atGrant->results.cloud.size(), one.cloud.size());
        ReportInput counted = input;
        counted.results = &atGrant->results;
        counted.scenario = &atGrant->scenario;
        const QString html = proposalReportHtml(counted);
        QVERIFY2(html.contains(QStringLiteral("Planned: 10 runs, at 0.28 runs a month")),
            qPrintable(html));
        QVERIFY(
            proposalReportHtml(input).contains(QStringLiteral("Planned: 1 run, at 1 run a month")));
        // Bought in year 2: the grant has the machine for 24 months.
        input.grantPlan->equipmentYear = 2;
        input.grantPlan->runsPerYear = { 0, 6, 6 };
        QVERIFY(qAbs(planAtGrantRuns(input)->results.assumptions.runsPerMonth - 0.5) < 1e-12);
        // Nothing to evaluate again: the plan is the budget's (36 runs at one a month), spread
        // or by year; or there is no scenario.
        input.grantPlan->equipmentYear = 1;
        s.assumptions.plannedRuns = 36;
        const Results monthly = evaluate(s);
        input.results = &monthly;
        input.grantPlan->runsPerYear = { 12, 12, 12 };
        QVERIFY(!planAtGrantRuns(input));
        input.grantPlan->runsPerYear.clear();
        QVERIFY(!planAtGrantRuns(input));
        input.grantPlan->runsPerYear = { 3, 4, 3 };
        input.scenario = nullptr;
        QVERIFY(!planAtGrantRuns(input));
    }

    void reportOverAnOldOneIsAtomic()
    {
        ReportInput input;
        input.results = &m_results;
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("report.pdf"));
        QString error;
        QVERIFY2(writeProposalReport(input, file, &error), qPrintable(error));
        QVERIFY2(writeProposalReport(input, file, &error), qPrintable(error)); // replaces it
        // Nothing left behind but the report and its two tables.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files),
            (QStringList { QStringLiteral("report-offers.csv"),
                QStringLiteral("report-options.csv"), QStringLiteral("report.pdf") }));

        // A target that cannot be replaced (a folder of that name) fails in words, and leaves
        // neither a temporary file nor a changed target behind.
        const QString folder = dir.filePath(QStringLiteral("folder.pdf"));
        QVERIFY(QDir().mkpath(folder + QStringLiteral("/inside")));
        QVERIFY(!writeProposalReport(input, folder, &error));
        QVERIFY2(error.contains(QStringLiteral("cannot write")), qPrintable(error));
        QVERIFY(QFileInfo(folder + QStringLiteral("/inside")).isDir());
        // Nothing left behind but the report and its two tables.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files),
            (QStringList { QStringLiteral("report-offers.csv"),
                QStringLiteral("report-options.csv"), QStringLiteral("report.pdf") }));
    }

    void reportInAReadOnlyFolderKeepsTheOldOne()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("report.pdf"));
        {
            QFile old(file);
            QVERIFY(old.open(QIODevice::WriteOnly));
            old.write("the old report");
        }
        QVERIFY(QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::ExeOwner));
        const bool writable
            = QFile(dir.filePath(QStringLiteral("probe"))).open(QIODevice::WriteOnly);
        if (writable) {
            QFile::remove(dir.filePath(QStringLiteral("probe")));
            QFile::setPermissions(
                dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
            QSKIP("running as root: a read-only folder is still writable");
        }
        ReportInput input;
        input.results = &m_results;
        QString error;
        const bool ok = writeProposalReport(input, file, &error);
        QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QVERIFY(!ok);
        QVERIFY2(error.contains(QStringLiteral("cannot write")), qPrintable(error));
        QFile old(file);
        QVERIFY(old.open(QIODevice::ReadOnly));
        QCOMPARE(old.readAll(), QByteArray("the old report"));
    }

    // A write cut short (here a file-size limit; a full disk alike) fails in words and leaves
    // the earlier file as it was, with nothing beside it: never a truncated file reported as
    // written.
    void writesCutShortKeepTheOldFile_data()
    {
        QTest::addColumn<QString>("name");
        for (const char* name : { "chart.png", "chart.svg", "chart.pdf", "report.pdf" })
            QTest::addRow("%s", name) << QString::fromLatin1(name);
    }

    void writesCutShortKeepTheOldFile()
    {
        QFETCH(QString, name);
        QTemporaryDir dir;
        const QString file = dir.filePath(name);
        {
            QFile old(file);
            QVERIFY(old.open(QIODevice::WriteOnly));
            old.write("the old file");
        }
        QString error;
        bool ok = true;
        {
            const FileSizeLimit limit(16 * 1024); // every one of these files is larger
            QVERIFY(limit.isSet());
            if (name.startsWith(QLatin1String("report"))) {
                ReportInput input;
                input.results = &m_results;
                ok = writeProposalReport(input, file, &error);
            } else {
                ok = exportChart(hardwareCostChart(m_results, {}), file, {}, &error);
            }
        }
        QVERIFY(!ok);
        QVERIFY2(error.contains(QStringLiteral("bytes could be written")), qPrintable(error));
        QFile old(file);
        QVERIFY(old.open(QIODevice::ReadOnly));
        QCOMPARE(old.readAll(), QByteArray("the old file"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList { name });
    }

    // A file smaller than QSaveFile's buffer (a justification, a scenario, price edits, a
    // budget CSV) is written only when it is committed: on a full disk that write failed, the
    // file was renamed into place anyway, and the earlier one was replaced by an empty file
    // announced as saved.
    void smallWritesCutShortKeepTheOldFile()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("justification.md"));
        {
            QFile old(file);
            QVERIFY(old.open(QIODevice::WriteOnly));
            old.write("the old file");
        }
        QString error;
        bool ok = true;
        {
            const FileSizeLimit limit(100);
            QVERIFY(limit.isSet());
            ok = views::saveWholeFile(file, QByteArray(2537, 'x'), &error);
        }
        QVERIFY(!ok);
        QVERIFY2(error.startsWith(QStringLiteral("cannot write ") + QDir::toNativeSeparators(file)),
            qPrintable(error));
        QFile old(file);
        QVERIFY(old.open(QIODevice::ReadOnly));
        QCOMPARE(old.readAll(), QByteArray("the old file"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files),
            QStringList { QStringLiteral("justification.md") });

        // With room, the same write replaces it.
        QVERIFY2(views::saveWholeFile(file, QByteArray(2537, 'x'), &error), qPrintable(error));
        QCOMPARE(QFileInfo(file).size(), 2537);
    }

    void reportPdfRenders()
    {
        ReportInput input;
        input.results = &m_results;
        input.catalog = m_catalog.get();
        const QString file = path(QStringLiteral("report.pdf"));
        QString error;
        QVERIFY2(writeProposalReport(input, file, &error), qPrintable(error));
        QVERIFY(QFileInfo(file).size() > 10000);
#ifndef GPUPLAN_PDFTOPPM
        QSKIP("pdftoppm (poppler-utils) is not installed");
#endif
        const QImage page = renderPdfPage(file);
        QVERIFY(!page.isNull());
        QVERIFY(page.height() > page.width()); // A4 portrait
    }
};

QTEST_MAIN(TestChartExport)
#include "tst_chart_export.moc"
