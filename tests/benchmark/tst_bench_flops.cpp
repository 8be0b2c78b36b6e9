// One FLOPs definition (docs/flops.md): for every model in the shipped models.yaml,
// gpuplan-bench builds it, and its training FLOPs (trainingFlopsPerSample x global batch x
// steps, what `describe` prints) are within 1 % of the planner's training_flops.

#include "benchmark/model_selection.h"

#include <QTest>

#include <cmath>

using namespace gpuplan::bench;

class TestBenchFlops : public QObject {
    Q_OBJECT

private slots:
    void plannerAndBenchmarkAgree_data()
    {
        QTest::addColumn<QString>("id");
        const auto catalog = shippedCatalog();
        QVERIFY(!catalog->workloads.empty());
        for (const auto& w : catalog->workloads)
            QTest::addRow("%s", w.id.c_str()) << QString::fromStdString(w.id);
    }
    void plannerAndBenchmarkAgree()
    {
        QFETCH(QString, id);
        const auto catalog = shippedCatalog();
        const auto* workload = catalog->findWorkload(id.toStdString());
        QVERIFY(workload);
        const auto spec = shippedModelSpec(id.toStdString());
        QVERIFY2(spec, "every shipped model is one gpuplan-bench builds");
        const Recipe recipe = recipeFor(*spec, *catalog, {});
        const double benchmark = trainingFlopsPerSample(*spec, recipe.sequenceLength)
            * recipe.globalBatch * static_cast<double>(recipe.steps);
        const double planner = workload->trainingFlops;
        QVERIFY2(std::abs(planner - benchmark) <= 0.01 * benchmark,
            qPrintable(QStringLiteral("models.yaml %1, gpuplan-bench %2")
                           .arg(planner, 0, 'g', 4)
                           .arg(benchmark, 0, 'g', 4)));
    }
};

QTEST_GUILESS_MAIN(TestBenchFlops)
#include "tst_bench_flops.moc"
