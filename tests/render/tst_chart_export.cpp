// Export: PNG at the chosen DPI, SVG with its text as text, PDF that renders, the proposal
// report, and clear failures.

#include "app/render/chart_export.h"
#include "app/render/planner_charts.h"
#include "app/render/proposal_report.h"
#include "pricing/catalog_loader.h"

#include <QtTest>

using namespace gpuplan;
using namespace gpuplan::render;

class TestChartExport : public QObject {
    Q_OBJECT

    std::shared_ptr<const Catalog> m_catalog;
    Results m_results;
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
        s.budgetUsd = 40000.0;
        m_results = evaluate(s);
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
        QVERIFY(html.contains(QStringLiteral("Assumptions")));
        QVERIFY(html.contains(QStringLiteral("chart:hardware")));
        QVERIFY(html.contains(QStringLiteral("chart:experiment")));
        QVERIFY(html.contains(QStringLiteral("chart:buy-vs-rent")));
        QVERIFY(html.contains(QStringLiteral("Prices and their sources")));
        // Every priced GPU appears with its date.
        for (const auto& g : m_catalog->gpus)
            if (g.priceUsd)
                QVERIFY2(html.contains(QString::fromStdString(g.priceSource.date)), g.id.c_str());
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
