// gpuplan-cli chart and report: the same charts and report, rendered headless from scripts.

#include "tests/support/program.h"

#include <QtTest>

class TestCliRender : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QTemporaryDir m_data; // an empty user data dir: only the shipped tables

    struct Run {
        int exitCode = -1;
        QString out;
        QString err;
    };

    Run run(const QStringList& arguments)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("GPUPLAN_DATA_DIR"), m_data.path());
        env.remove(QStringLiteral("QT_QPA_PLATFORM")); // the CLI must go offscreen by itself
        const auto r
            = gpuplan::testing::runProgram(QStringLiteral(GPUPLAN_CLI), arguments, env, 60000);
        return { r.exitCode, QString::fromUtf8(r.out), QString::fromUtf8(r.err) };
    }

    // The words of a report written by `report --model pythia-1b` with `options` to `name`
    // in the test's folder, read by pdftotext; empty (with a warning) where either failed.
    QString reportWords(const QString& name, const QStringList& options)
    {
#ifdef GPUPLAN_PDFTOTEXT
        const QString out = m_dir.filePath(name);
        const Run r = run(QStringList { QStringLiteral("report"), QStringLiteral("--model"),
                              QStringLiteral("pythia-1b") }
            + options + QStringList { QStringLiteral("--out"), out });
        if (r.exitCode != 0) {
            qWarning("report failed: %s", qPrintable(r.err));
            return {};
        }
        const auto text = gpuplan::testing::runProgram(QStringLiteral(GPUPLAN_PDFTOTEXT),
            { out, QStringLiteral("-") }, QProcessEnvironment::systemEnvironment());
        return text.exitCode == 0 ? QString::fromUtf8(text.out).simplified() : QString();
#else
        Q_UNUSED(name);
        Q_UNUSED(options);
        return {};
#endif
    }

    // The budget table's Total row's last figure, over a 3-year grant ("$24,325").
    static QString budgetTotal(const QString& words)
    {
        static const QRegularExpression total(QStringLiteral(
            "Total \\$[0-9,]+ \\$[0-9,]+ \\$[0-9,]+ (\\$[0-9,]+)")); // 3 years, then the total
        return total.match(words).captured(1);
    }

private slots:
    void pngAtTheAskedDpi()
    {
        const QString out = m_dir.filePath(QStringLiteral("hw.png"));
        const Run r = run({ QStringLiteral("chart"), QStringLiteral("--model"),
            QStringLiteral("pythia-1b"), QStringLiteral("--kind"), QStringLiteral("hardware-cost"),
            QStringLiteral("--budget"), QStringLiteral("40000"), QStringLiteral("--dpi"),
            QStringLiteral("100"), QStringLiteral("--out"), out });
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QImage image(out);
        QCOMPARE(image.size(), QSize(900, 550));
    }

    void everyKindAndFormat_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("file");
        QTest::newRow("experiment svg")
            << QStringLiteral("experiment-cost") << QStringLiteral("e.svg");
        QTest::newRow("buy-vs-rent pdf")
            << QStringLiteral("buy-vs-rent") << QStringLiteral("b.pdf");
        QTest::newRow("hardware pdf") << QStringLiteral("hardware-cost") << QStringLiteral("h.pdf");
        QTest::newRow("sensitivity svg")
            << QStringLiteral("sensitivity") << QStringLiteral("s.svg");
    }

    void everyKindAndFormat()
    {
        QFETCH(QString, kind);
        QFETCH(QString, file);
        const QString out = m_dir.filePath(file);
        const Run r = run(
            { QStringLiteral("chart"), QStringLiteral("--model"), QStringLiteral("pythia-410m"),
                QStringLiteral("--kind"), kind, QStringLiteral("--out"), out });
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(r.out.contains(out));
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray head = f.read(256);
        QVERIFY(file.endsWith(QLatin1String(".pdf"))
                ? head.startsWith("%PDF-")
                : head.contains("<svg") || head.contains("<?xml"));
    }

    void buyVsRentForAChosenMachine()
    {
        const QString out = m_dir.filePath(QStringLiteral("bvr.svg"));
        Run r = run({ QStringLiteral("chart"), QStringLiteral("--model"),
            QStringLiteral("pythia-1b"), QStringLiteral("--kind"), QStringLiteral("buy-vs-rent"),
            QStringLiteral("--machine"), QStringLiteral("8xh100-80gb-sxm"), QStringLiteral("--out"),
            out });
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(f.readAll()).contains(QStringLiteral("Buy 8×H100 SXM")));
        f.close();
        r = run({ QStringLiteral("chart"), QStringLiteral("--model"), QStringLiteral("pythia-1b"),
            QStringLiteral("--kind"), QStringLiteral("buy-vs-rent"), QStringLiteral("--months"),
            QStringLiteral("--out"), out });
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(f.readAll()).contains(QStringLiteral("Months (at")));
        r = run({ QStringLiteral("chart"), QStringLiteral("--model"), QStringLiteral("pythia-1b"),
            QStringLiteral("--kind"), QStringLiteral("buy-vs-rent"), QStringLiteral("--machine"),
            QStringLiteral("3xnothing"), QStringLiteral("--out"), out });
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("--machine 3xnothing")));
    }

    void badUsageExitsTwoWithAMessage_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        const QString out = QStringLiteral("/tmp/never-written.png");
        QTest::newRow("bad kind") << QStringList { QStringLiteral("chart"),
            QStringLiteral("--model"), QStringLiteral("pythia-1b"), QStringLiteral("--kind"),
            QStringLiteral("pie"), QStringLiteral("--out"), out }
                                  << QStringLiteral("--kind must be");
        QTest::newRow("buy-vs-rent with nothing to rent") << QStringList { QStringLiteral("chart"),
            QStringLiteral("--model"), QStringLiteral("pythia-1b"), QStringLiteral("--kind"),
            QStringLiteral("buy-vs-rent"), QStringLiteral("--price-set"), QStringLiteral("paper"),
            QStringLiteral("--machine"), QStringLiteral("8xrtx-3090"), QStringLiteral("--out"),
            out } << QStringLiteral("no cloud offer has the same GPUs as 8×RTX 3090");
        QTest::newRow("no out") << QStringList { QStringLiteral("chart"), QStringLiteral("--model"),
            QStringLiteral("pythia-1b"), QStringLiteral("--kind"), QStringLiteral("hardware-cost") }
                                << QStringLiteral("--out FILE is required");
        QTest::newRow("bad suffix") << QStringList { QStringLiteral("chart"),
            QStringLiteral("--model"), QStringLiteral("pythia-1b"), QStringLiteral("--kind"),
            QStringLiteral("hardware-cost"), QStringLiteral("--out"), QStringLiteral("x.gif") }
                                    << QStringLiteral(".png, .svg or .pdf");
        QTest::newRow("unknown model") << QStringList { QStringLiteral("chart"),
            QStringLiteral("--model"), QStringLiteral("gpt-9"), QStringLiteral("--kind"),
            QStringLiteral("hardware-cost"), QStringLiteral("--out"),
            out } << QStringLiteral("unknown model 'gpt-9'; known models: pythia-160m");
        QTest::newRow("dpi out of range") << QStringList { QStringLiteral("chart"),
            QStringLiteral("--model"), QStringLiteral("pythia-1b"), QStringLiteral("--kind"),
            QStringLiteral("hardware-cost"), QStringLiteral("--dpi"), QStringLiteral("0"),
            QStringLiteral("--out"), out } << QStringLiteral("dpi");
        QTest::newRow("sensitivity bad metric") << QStringList { QStringLiteral("chart"),
            QStringLiteral("--model"), QStringLiteral("pythia-1b"), QStringLiteral("--kind"),
            QStringLiteral("sensitivity"), QStringLiteral("--metric"), QStringLiteral("roi"),
            QStringLiteral("--out"), out }
                                                << QStringLiteral("--metric must be break-even or "
                                                                  "experiment-cost");
        QTest::newRow("sensitivity unknown offer") << QStringList { QStringLiteral("chart"),
            QStringLiteral("--model"), QStringLiteral("pythia-1b"), QStringLiteral("--kind"),
            QStringLiteral("sensitivity"), QStringLiteral("--machine"),
            QStringLiteral("8xh100-80gb-sxm"), QStringLiteral("--offer"), QStringLiteral("nope"),
            QStringLiteral("--out"), out } << QStringLiteral("unknown --offer 'nope'");
        QTest::newRow("option the chart does not use")
            << QStringList { QStringLiteral("chart"), QStringLiteral("--model"),
                   QStringLiteral("pythia-1b"), QStringLiteral("--kind"),
                   QStringLiteral("hardware-cost"), QStringLiteral("--metric"),
                   QStringLiteral("experiment-cost"), QStringLiteral("--out"), out }
            << QStringLiteral(
                   "gpuplan-cli chart: error: --metric applies to --kind sensitivity, not "
                   "hardware-cost");
        QTest::newRow("months on a planner chart") << QStringList { QStringLiteral("chart"),
            QStringLiteral("--model"), QStringLiteral("pythia-1b"), QStringLiteral("--kind"),
            QStringLiteral("experiment-cost"), QStringLiteral("--months"), QStringLiteral("--out"),
            out } << QStringLiteral("--months applies to --kind buy-vs-rent, not experiment-cost");
        QTest::newRow("report not pdf")
            << QStringList { QStringLiteral("report"), QStringLiteral("--model"),
                   QStringLiteral("pythia-1b"), QStringLiteral("--out"), QStringLiteral("r.png") }
            << QStringLiteral("--out r.png: the report is written as a PDF; name it FILE.pdf");
        QTest::newRow("report without out") << QStringList { QStringLiteral("report"),
            QStringLiteral("--model"), QStringLiteral("pythia-1b") }
                                            << QStringLiteral("--out FILE.pdf is required");
    }

    void badUsageExitsTwoWithAMessage()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const Run r = run(arguments);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }

    void reportWritesAPdf()
    {
        const QString out = m_dir.filePath(QStringLiteral("report.pdf"));
        const Run r = run({ QStringLiteral("report"), QStringLiteral("--model"),
            QStringLiteral("pythia-1b"), QStringLiteral("--budget"), QStringLiteral("40000"),
            QStringLiteral("--out"), out });
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.read(5) == "%PDF-");
        QVERIFY(f.size() > 10000);
        // Every file written is named, the tables beside the PDF too.
        QCOMPARE(r.out,
            QStringLiteral("Wrote %1\nWrote %2\nWrote %3\n")
                .arg(out, m_dir.filePath(QStringLiteral("report-options.csv")),
                    m_dir.filePath(QStringLiteral("report-offers.csv"))));
    }

    // The report and its tables are written together or not at all: a folder where a table
    // goes fails the report before anything is written, and an earlier report stays whole.
    void reportAndItsTablesAllOrNone()
    {
        const QString out = m_dir.filePath(QStringLiteral("whole.pdf"));
        QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("whole-offers.csv"))));
        const Run r = run({ QStringLiteral("report"), QStringLiteral("--model"),
            QStringLiteral("pythia-1b"), QStringLiteral("--out"), out });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("whole-offers.csv: it is not a regular file")),
            qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(out));
        QVERIFY(!QFileInfo::exists(m_dir.filePath(QStringLiteral("whole-options.csv"))));
        QVERIFY(r.out.isEmpty());
    }

    // The report budgets 3, 4 and 3 runs with owning costs: its buy-vs-rent paragraph counts
    // the same 10 runs over the grant's 36 months as its budget table (it counted 1 run at the
    // planner's rate of one a month, and 10 months of hosting beside the table's 36).
    void reportCountsWhatItsBudgetBudgets()
    {
#ifndef GPUPLAN_PDFTOTEXT
        QSKIP("pdftotext (poppler-utils) is not installed: the report's text cannot be read");
#else
        const QString words = reportWords(QStringLiteral("grant.pdf"),
            { QStringLiteral("--machine"), QStringLiteral("4xa100-80gb-sxm"),
                QStringLiteral("--price-set"), QStringLiteral("paper"),
                QStringLiteral("--runs-per-year"), QStringLiteral("3,4,3"),
                QStringLiteral("--hosting-usd-per-kw-month"), QStringLiteral("100") });
        QVERIFY(!words.isEmpty());
        QVERIFY2(words.contains(QStringLiteral("Planned: 10 runs, at 0.28 runs a month")),
            qPrintable(words.left(3000)));
        // The planner's rate is not replaced without a word (review), nor what it moves.
        QVERIFY2(words.contains(QStringLiteral(
                     "The planner was set to 1 run at 1 run a month. Here the plan's totals count "
                     "the grant's 10 runs, and the break-even's months, the owning costs each run "
                     "carries, the buy-vs-rent verdict and the runs each reserved term holds "
                     "follow the grant's pace.")),
            qPrintable(words.left(3000)));
        // The owning costs a reviewer needs to reproduce the figures, with their sources; the
        // hosting rate typed is the user's, not the table's.
        QVERIFY2(words.contains(QStringLiteral("Owning costs: hosting (colocation) "
                                               "$100.00/kW-month on each machine's draw before PUE "
                                               "(user")), // "user-" may end a line, its hyphen lost
            qPrintable(words.left(3000)));
        QVERIFY(words.contains(QStringLiteral("For the 10 runs planned: buying 4\u00D7A100 SXM")));
        // The budget table's total for buying and the paragraph's buy total: the same dollars.
        static const QRegularExpression buying(
            QStringLiteral("For the 10 runs planned: buying 4\u00D7A100 SXM costs (\\$[0-9,]+)"));
        const auto match = buying.match(words);
        QVERIFY(match.hasMatch());
        QCOMPARE(match.captured(1), budgetTotal(words));
#endif
    }

    // Runs that, back to back on one machine, end after the grant: page 1's buy total counts
    // the owning costs of every month they take, the budget those of the grant's months only.
    // Said, with the budget's total, instead of "may differ by a few dollars" beside $29,796
    // and $24,325 (review).
    void reportSaysWhyItsBuyTotalIsNotTheBudgets()
    {
#ifndef GPUPLAN_PDFTOTEXT
        QSKIP("pdftotext (poppler-utils) is not installed: the report's text cannot be read");
#else
        const QString words = reportWords(QStringLiteral("long-runs.pdf"),
            { QStringLiteral("--machine"), QStringLiteral("1xrtx-5090"),
                QStringLiteral("--indirect-rate"), QStringLiteral("0.5"),
                QStringLiteral("--runs-per-year"), QStringLiteral("3,4,3"),
                QStringLiteral("--hosting-usd-per-kw-month"), QStringLiteral("100"),
                QStringLiteral("--today"), QStringLiteral("2026-12-01") });
        const QString total = budgetTotal(words);
        QVERIFY2(!total.isEmpty(), qPrintable(words));
        QVERIFY2(words.contains(QStringLiteral("Back to back on the one machine, the runs end "))
                && words.contains(QStringLiteral(
                    "books each run in its year and the owning costs of the grant's months only, "
                    "for %1; the comparison above counts the owning costs of every month the "
                    "runs take")
                                      .arg(total)),
            qPrintable(words.left(3000)));
        QVERIFY(!words.contains(QStringLiteral("These totals are unrounded")));
#endif
    }

    // The note on the planner's pace names only what the report holds that the pace moves: a
    // rental report said its break-even months, owning costs and verdict followed the grant's
    // pace where it had no machine to compare and no owning costs (helper 70).
    void reportNamesWhatThePlannersPaceWouldMove_data()
    {
        QTest::addColumn<QString>("offer");
        QTest::addColumn<QString>("expected");
        // RunPod's H200 rents GPUs that are not sold one at a time: nothing to compare.
        QTest::addRow("nothing to compare")
            << QStringLiteral("runpod-h200")
            << QStringLiteral("The planner was set to 10 runs at 2 runs a month; that moves no "
                              "figure here.");
        // The 8xH100 system AWS's p5 rents is for sale: its break-even counts months.
        QTest::addRow("a machine to compare")
            << QStringLiteral("aws-p5-48xlarge")
            << QStringLiteral("The planner was set to 10 runs at 2 runs a month. Here the "
                              "break-even's months follow the grant's pace.");
    }

    void reportNamesWhatThePlannersPaceWouldMove()
    {
#ifndef GPUPLAN_PDFTOTEXT
        QSKIP("pdftotext (poppler-utils) is not installed: the report's text cannot be read");
#else
        QFETCH(QString, offer);
        QFETCH(QString, expected);
        const QString out = m_dir.filePath(offer + QStringLiteral(".pdf"));
        const Run r = run(
            { QStringLiteral("report"), QStringLiteral("--model"), QStringLiteral("pythia-1b"),
                QStringLiteral("--offer"), offer, QStringLiteral("--runs"), QStringLiteral("10"),
                QStringLiteral("--runs-per-month"), QStringLiteral("2"), QStringLiteral("--today"),
                QStringLiteral("2026-12-01"), QStringLiteral("--out"), out });
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto text = gpuplan::testing::runProgram(QStringLiteral(GPUPLAN_PDFTOTEXT),
            { out, QStringLiteral("-") }, QProcessEnvironment::systemEnvironment());
        QCOMPARE(text.exitCode, 0);
        // pdftotext writes the "fi" ligature DejaVu Sans sets.
        const QString words
            = QString::fromUtf8(text.out).simplified().replace(QChar(0xFB01), QStringLiteral("fi"));
        QVERIFY2(words.contains(QStringLiteral("Planned: 10 runs, at 0.28 runs a month")),
            qPrintable(words.left(3000)));
        QVERIFY2(words.contains(expected), qPrintable(words.left(3000)));
#endif
    }
};

QTEST_GUILESS_MAIN(TestCliRender)
#include "tst_cli_render.moc"
