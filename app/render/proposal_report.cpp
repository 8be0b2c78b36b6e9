#include "app/render/proposal_report.h"

#include "app/common/cloud_columns.h"
#include "app/common/format.h"
#include "app/common/option_columns.h"
#include "app/render/buy_vs_rent_chart.h"
#include "app/render/chart_export.h"

#include <QDate>
#include <QFileInfo>
#include <QFont>
#include <QPageLayout>
#include <QPdfWriter>
#include <QTextDocument>
#include <QUrl>

#include <algorithm>

namespace gpuplan::render {

namespace {

// Charts go into the report as images at this resolution: sharp in print, small enough to mail.
constexpr int kReportChartDpi = 200;
// Width of a chart in the document's layout units (the A4 text width at 96 units per inch).
constexpr int kReportChartWidth = 640;

QString esc(const QString& text)
{
    return text.toHtmlEscaped();
}

QString esc(const std::string& text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

QString provenance(const Provenance& p)
{
    QString text = esc(p.date.empty() ? std::string("undated") : p.date) + QStringLiteral(", ")
        + esc(p.source);
    if (!p.note.empty())
        text += QStringLiteral(" (") + esc(p.note) + QLatin1Char(')');
    return text;
}

QString row(const QStringList& cells, bool header = false)
{
    const QString tag = header ? QStringLiteral("th") : QStringLiteral("td");
    QString html = QStringLiteral("<tr>");
    for (const auto& c : cells)
        html += QStringLiteral("<%1 style=\"font-size:7pt\">%2</%1>").arg(tag, c);
    return html + QStringLiteral("</tr>");
}

QString tableStart()
{
    return QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" width=\"100%\" "
                          "style=\"border-collapse:collapse; font-size:7.5pt;\">");
}

QString assumptionsSection(const Results& r)
{
    const Assumptions& a = r.assumptions;
    QString html = QStringLiteral("<h2>Assumptions</h2><ul>");
    html
        += QStringLiteral("<li>Estimate source: %1</li>").arg(views::toQString(toString(r.source)));
    html += QStringLiteral("<li>Amortisation: %1 years, machine in use %2 of the time</li>")
                .arg(a.amortizationYears)
                .arg(views::formatPercent(a.machineUtilization));
    html += QStringLiteral("<li>Electricity: $%1 per kWh (%2); PUE %3 (%4)</li>")
                .arg(a.electricityUsdPerKwh)
                .arg(provenance(a.electricitySource))
                .arg(a.pue)
                .arg(provenance(a.pueSource));
    html += QStringLiteral("<li>Spot restart overhead: %1 (%2)</li>")
                .arg(views::formatPercent(a.spotRestartOverhead), provenance(a.spotOverheadSource));
    html += QStringLiteral("<li>Indirect (F&amp;A) rate on cloud spend: %1 (equipment exempt)</li>")
                .arg(views::formatPercent(a.indirectRate));
    html += QStringLiteral("<li>Analytic estimates assume %1 of peak (%2)</li>")
                .arg(views::formatPercent(a.analyticUtilization),
                    provenance(a.analyticUtilizationSource));
    html += QStringLiteral("<li>Planned runs: %1, at %2 runs a month</li>")
                .arg(a.plannedRuns)
                .arg(a.runsPerMonth);
    return html + QStringLiteral("</ul>");
}

QString optionsTable(const Results& r)
{
    QString html = tableStart();
    QStringList headers;
    for (int c = 0; c < views::kOptionColumnCount; ++c)
        headers << esc(views::header(static_cast<views::OptionColumn>(c)));
    html += row(headers, true);
    for (const auto& o : r.options) {
        QStringList cells;
        for (int c = 0; c < views::kOptionColumnCount; ++c)
            // Flag names wrap at spaces in a narrow column ("exceeds peak", not "exceeds_pe-").
            cells << esc(views::displayText(o, static_cast<views::OptionColumn>(c)))
                         .replace(QLatin1Char('_'), QLatin1Char(' '));
        html += row(cells);
    }
    return html + QStringLiteral("</table>");
}

QString cloudTable(const Results& r)
{
    QString html = tableStart();
    QStringList headers;
    for (int c = 0; c < views::kCloudColumnCount; ++c)
        headers << esc(views::header(static_cast<views::CloudColumn>(c)));
    html += row(headers, true);
    for (const auto& o : r.cloud) {
        QStringList cells;
        for (int c = 0; c < views::kCloudColumnCount; ++c)
            cells << esc(views::displayText(o, static_cast<views::CloudColumn>(c)))
                         .replace(QLatin1Char('_'), QLatin1Char(' '));
        html += row(cells);
    }
    return html + QStringLiteral("</table>");
}

QString sourcesSection(const Catalog& catalog, const Results& r)
{
    QString html = QStringLiteral("<h2>Prices and their sources</h2>");
    html += tableStart()
        + row({ QStringLiteral("Item"), QStringLiteral("Price"), QStringLiteral("Date, source") },
            true);
    for (const auto& g : catalog.gpus)
        if (g.priceUsd)
            html += row({ esc(g.name) + QStringLiteral(" (GPU)"), views::formatUsd(*g.priceUsd),
                provenance(g.priceSource) });
    for (const auto& c : catalog.chassis)
        html += row({ esc(c.name) + QStringLiteral(" (chassis, %1 slots)").arg(c.gpuSlots),
            views::formatUsd(c.priceUsd), provenance(c.priceSource) });
    for (const auto& o : catalog.cloudOffers) {
        QStringList rates;
        if (o.onDemandUsdPerHour)
            rates << views::formatUsd(*o.onDemandUsdPerHour) + QStringLiteral("/h on-demand");
        if (o.spotUsdPerHour)
            rates << views::formatUsd(*o.spotUsdPerHour) + QStringLiteral("/h spot");
        for (const auto& res : o.reserved)
            rates << views::formatUsd(res.usdPerHour) + QStringLiteral("/h %1-yr").arg(res.years);
        html += row({ esc(o.provider + " " + o.instance), rates.join(QStringLiteral(", ")),
            provenance(o.source) });
    }
    html += QStringLiteral("</table>");
    if (r.workload)
        html += QStringLiteral("<p>Model recipe: %1.</p>").arg(provenance(r.workload->source));
    return html;
}

} // namespace

std::optional<std::size_t> reportBuyOption(const ReportInput& in)
{
    const Results& r = *in.results;
    if (in.buyOption && *in.buyOption < r.options.size())
        return in.buyOption;
    if (r.recommended)
        return r.recommended;
    if (r.options.empty())
        return std::nullopt;
    const auto cheapest = std::min_element(
        r.options.begin(), r.options.end(), [](const OwnedOption& a, const OwnedOption& b) {
            return a.experimentCostUsd < b.experimentCostUsd;
        });
    return static_cast<std::size_t>(cheapest - r.options.begin());
}

QString proposalReportHtml(const ReportInput& in)
{
    const Results& r = *in.results;
    const QString model = r.workload ? esc(r.workload->name) : QStringLiteral("(no model)");
    const QString date = in.date.isEmpty() ? QDate::currentDate().toString(Qt::ISODate) : in.date;
    QString html
        = QStringLiteral("<html><body style=\"font-family:'DejaVu Sans'; font-size:9pt;\">");
    html += QStringLiteral("<h1>Training compute for %1: buy or rent</h1>").arg(model);
    html += QStringLiteral("<p>Prepared with gpuplan on %1.</p>").arg(esc(date));
    if (r.workload) {
        const Workload& w = *r.workload;
        html += QStringLiteral("<p><b>Model:</b> %1, %2 parameters, %3 training FLOPs, global "
                               "batch %4, %5 steps.</p>")
                    .arg(model, QString::number(static_cast<double>(w.parameters), 'g', 4),
                        QString::number(w.trainingFlops, 'g', 3))
                    .arg(w.globalBatch)
                    .arg(w.steps);
    }
    if (r.recommended) {
        const auto& o = r.options[*r.recommended];
        html += QStringLiteral("<p><b>Recommendation:</b> %1, %2: %3, %4 machine, %5 per "
                               "experiment.</p>")
                    .arg(esc(shortMachineLabel(o)), esc(r.recommendationReason),
                        views::formatDays(o.estimate.days), views::formatUsd(o.machineCostUsd),
                        views::formatUsd(o.experimentCostUsd));
    }
    if (const auto buy = reportBuyOption(in))
        html += QStringLiteral("<p><b>Buy vs rent:</b> %1</p>")
                    .arg(esc(buyVsRentConclusion(r, *buy)));
    html += assumptionsSection(r);
    html += QStringLiteral("<h2>Training time and cost</h2>");
    for (const char* name : { "chart:hardware", "chart:experiment", "chart:buy-vs-rent" })
        html += QStringLiteral("<p><img src=\"%1\" width=\"%2\"></p>")
                    .arg(QLatin1String(name))
                    .arg(kReportChartWidth);
    html += QStringLiteral("<h2>Machines to buy</h2>") + optionsTable(r);
    if (!r.unavailable.empty()) {
        QStringList items;
        for (const auto& u : r.unavailable)
            items << QStringLiteral("%1&times;%2 (%3)")
                         .arg(u.gpuCount)
                         .arg(esc(u.gpuId), esc(u.reason));
        html += QStringLiteral("<p>Not available: ") + items.join(QStringLiteral("; "))
            + QStringLiteral("</p>");
    }
    html += QStringLiteral("<h2>Renting the same work</h2>") + cloudTable(r);
    if (in.catalog)
        html += sourcesSection(*in.catalog, r);
    return html + QStringLiteral("</body></html>");
}

bool writeProposalReport(const ReportInput& in, const QString& path, QString* error)
{
    if (!in.results || !in.results->workload) {
        *error = QStringLiteral("no model to report on");
        return false;
    }
    QTextDocument doc;
    doc.setDefaultFont(QFont(QStringLiteral("DejaVu Sans"), 8));
    // Smaller than an exported figure, so the chart text prints at about 8 pt on the page.
    const FigureSize figure { 7.0, 4.4, kReportChartDpi };
    doc.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("chart:hardware")),
        renderChartImage(hardwareCostChart(*in.results, in.chartOptions), figure));
    doc.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("chart:experiment")),
        renderChartImage(experimentCostChart(*in.results, in.chartOptions), figure));
    BuyVsRentOptions buy;
    buy.optionIndex = reportBuyOption(in).value_or(0);
    doc.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("chart:buy-vs-rent")),
        renderChartImage(buyVsRentChart(*in.results, buy), figure));
    doc.setHtml(proposalReportHtml(in));

    QPdfWriter pdf(path);
    pdf.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
        QMarginsF(0, 0, 0, 0), QPageLayout::Millimeter));
    pdf.setTitle(QStringLiteral("Training compute plan"));
    pdf.setCreator(QStringLiteral("gpuplan"));
    // QTextDocument::print adds its own 2 cm margins; the writer adds none on top.
    doc.print(&pdf);
    if (!QFileInfo::exists(path)) {
        *error = QStringLiteral("cannot write %1").arg(path);
        return false;
    }
    return true;
}

} // namespace gpuplan::render
