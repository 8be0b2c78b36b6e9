// The progress contract end to end: gpuplan-bench's own writer (benchmark/progress.cpp, plain
// C++) against the GUI's reader (app/benchrun/progress_line.cpp), for every phase of
// core/benchmark_protocol.h.

#include "app/benchrun/progress_line.h"
#include "benchmark/progress.h"

#include <QTest>

using namespace gpuplan;

class TestProgressProtocol : public QObject {
    Q_OBJECT

private slots:
    void everyPhaseRoundTrips()
    {
        for (ProgressPhase phase : kProgressPhases) {
            QVERIFY(progressPhaseFromString(toString(phase)) == phase);
            const bench::ProgressEvent event { phase, "free-lunch ckpt=off", 8, 42.5,
                "a \"note\"" };
            const auto line
                = benchrun::parseProgressLine(QByteArray::fromStdString(bench::toJsonLine(event)));
            QVERIFY2(line, bench::toJsonLine(event).c_str());
            QVERIFY(line->phase == phase);
            QCOMPARE(line->configuration, QStringLiteral("free-lunch ckpt=off"));
            QCOMPARE(line->microBatchSize.value_or(0), qint64 { 8 });
            QCOMPARE(line->percent, 42.5);
            QCOMPARE(line->message, QStringLiteral("a \"note\""));
        }
    }

    void theDocumentedSpellings()
    {
        QStringList names;
        for (ProgressPhase phase : kProgressPhases)
            names << QString::fromUtf8(
                toString(phase).data(), static_cast<qsizetype>(toString(phase).size()));
        QCOMPARE(names.join(QLatin1Char(' ')),
            QStringLiteral("start build launch comm_probe search warmup measure validate "
                           "configuration_done done error"));
    }

    void anUnknownPhaseIsNotProgress()
    {
        QVERIFY(!benchrun::parseProgressLine(R"({"phase": "compiling", "percent": 5})"));
        QVERIFY(!progressPhaseFromString("Search"));
    }
};

QTEST_GUILESS_MAIN(TestProgressProtocol)
#include "tst_progress_protocol.moc"
