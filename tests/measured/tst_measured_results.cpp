// The reader of gpuplan-bench results files (docs/results-format.md): golden folders of bad and
// unusual input (tests/measured/data/<case>/{input.yaml, expected.txt}: the messages users see,
// then what was kept), and the measured source reaching evaluate().
// GPUPLAN_UPDATE_GOLDEN=1 rewrites expected.txt from the current output (review the diff!).

#include "core/evaluate.h"
#include "pricing/measured_results.h"

#include "tests/support/golden.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

using namespace gpuplan;
using gpuplan::testing::readAll;

namespace {
const QString kDataDir = QStringLiteral(GPUPLAN_TEST_DATA "/data");

std::shared_ptr<const Catalog> shipped()
{
    static const auto catalog = loadCatalog(shippedDataFiles(kPaperPriceSet)).catalog;
    return catalog;
}

MeasuredLoad readText(const QByteArray& text, const std::string& name = "input.yaml")
{
    return readMeasuredResults(text.toStdString(), name, *shipped());
}

// Pythia-1B planned from the shipped paper prices with `load`'s measurements added. The
// catalog is returned with the results: they point into it.
struct Planned {
    std::shared_ptr<Catalog> catalog;
    Results results;
};
Planned planWith(const MeasuredLoad& load, SourcePolicy source)
{
    Planned planned;
    planned.catalog = std::make_shared<Catalog>(*shipped());
    addMeasurements(*planned.catalog, load);
    Scenario s;
    s.catalog = planned.catalog;
    s.modelId = "pythia-1b";
    s.assumptions = planned.catalog->defaults;
    s.source = source;
    planned.results = evaluate(s);
    return planned;
}

// Issues, then one line per kept result: what a reviewer needs to see in a golden file.
std::string describe(const MeasuredLoad& load)
{
    std::string out = formatIssues(load.issues);
    for (std::size_t i = 0; i < load.results.size(); ++i) {
        const MeasuredResult& r = load.results[i];
        char line[512];
        std::snprintf(line, sizeof line, "result: %s on %s [%s] x%d: %.2f days (%.2f-%.2f), %s\n",
            r.modelId.c_str(), r.deviceName.c_str(), r.gpuId.c_str(), r.gpuCount, r.trainingDays,
            r.trainingDaysLow, r.trainingDaysHigh, r.configuration.c_str());
        out += line;
        out += "workload: " + load.workloads[i].id + " \"" + load.workloads[i].name + "\"\n";
    }
    return out;
}
} // namespace

class TestMeasuredResults : public QObject {
    Q_OBJECT

private slots:
    void validFileGivesTheBestConfiguration()
    {
        const MeasuredLoad load = readText(readAll(kDataDir + "/valid.yaml"), "valid.yaml");
        QVERIFY2(load.issues.empty(), formatIssues(load.issues).c_str());
        QCOMPARE(load.results.size(), std::size_t { 1 });
        const MeasuredResult& r = load.results.front();
        QCOMPARE(r.modelId, std::string("pythia-1b"));
        QCOMPARE(r.gpuId, std::string("h100-80gb-sxm"));
        QCOMPARE(r.deviceName, std::string("NVIDIA H100 80GB HBM3"));
        QCOMPARE(r.gpuCount, 1);
        QCOMPARE(r.trainingDays, 43.7);
        QCOMPARE(r.trainingDaysLow, 43.5);
        QCOMPARE(r.trainingDaysHigh, 44.0);
        QCOMPARE(r.configuration,
            std::string("free-lunch mbs=16 ckpt=off offload=off "
                        "(micro-batch 16, accumulation 64)"));
        QCOMPARE(r.validationError.value_or(-1), 0.011);
        QCOMPARE(r.source.date, std::string("2026-11-22"));
        QCOMPARE(r.source.source,
            std::string("gpuplan-bench 0.2.0, LibTorch 2.11.0 on gpu-node-07 (valid.yaml)"));
        // The shipped recipe was used, so the shipped workload is reused unchanged.
        QCOMPARE(load.workloads.front().trainingFlops,
            shipped()->findWorkload("pythia-1b")->trainingFlops);
    }

    void golden_data() { testing::addGoldenRows(kDataDir, 35); }
    void golden()
    {
        QFETCH(QString, folder);
        const MeasuredLoad load = readText(readAll(folder + "/input.yaml"));
        const QByteArray actual = QByteArray::fromStdString(describe(load));
        GPUPLAN_COMPARE_GOLDEN(actual, folder + QStringLiteral("/expected.txt"));
        // A file with errors contributes nothing; one with only warnings contributes its result.
        if (!load.ok())
            QVERIFY(load.results.empty());
    }

    void measuredSourceReachesEvaluate()
    {
        auto catalog = std::make_shared<Catalog>(*shipped());
        addMeasurements(*catalog, readText(readAll(kDataDir + "/valid.yaml"), "valid.yaml"));
        Scenario s;
        s.catalog = catalog;
        s.modelId = "pythia-1b";
        s.assumptions = catalog->defaults;
        s.source = SourcePolicy::Best;
        const Results results = evaluate(s);
        const auto it = std::find_if(results.options.begin(), results.options.end(),
            [](auto& o) { return o.gpu->id == "h100-80gb-sxm" && o.gpuCount == 1; });
        QVERIFY(it != results.options.end());
        QVERIFY(it->estimate.source == EstimateSource::Measured);
        QCOMPARE(it->estimate.days, 43.7);
        // Implied utilisation comes from the planner's own FLOPs and peak, not the file's figure:
        // FLOPs / (days * 86400 * 1 * 989e12).
        const double flops = catalog->findWorkload("pythia-1b")->trainingFlops;
        QCOMPARE(it->estimate.impliedUtilization, flops / (43.7 * 86400.0 * 989e12));
        // Eight GPUs are extrapolated from the one measured (NVLink 4's bus bandwidth), ahead of
        // the paper's unsynchronised table.
        const auto eight = std::find_if(results.options.begin(), results.options.end(),
            [](auto& o) { return o.gpu->id == "h100-80gb-sxm" && o.gpuCount == 8; });
        QVERIFY(eight != results.options.end());
        QVERIFY(eight->estimate.source == EstimateSource::Extrapolated);
        QVERIFY(eight->estimate.days < 43.7 / 8 * 1.5);
    }

    // The estimate says what the validation measured: an extrapolation from a timed block to a
    // step, or, where the block was the whole step, the same work timed again.
    void theNoteSaysWhatTheValidationMeasured()
    {
        const QByteArray valid = readAll(kDataDir + "/valid.yaml");
        const auto noteWith = [&](const QByteArray& text) {
            const MeasuredLoad load = readText(text, "valid.yaml");
            if (!load.ok())
                return QStringLiteral("(errors) ")
                    + QString::fromStdString(formatIssues(load.issues));
            const Planned planned = planWith(load, SourcePolicy::Measured);
            for (const auto& o : planned.results.options)
                if (o.gpu->id == "h100-80gb-sxm" && o.gpuCount == 1)
                    return QString::fromStdString(o.estimate.note);
            return QString();
        };
        QVERIFY2(noteWith(valid).endsWith(QStringLiteral("; validated within 1.1%")),
            qPrintable(noteWith(valid)));
        QByteArray blockOfFour = valid;
        blockOfFour.replace("    validation_error: 0.011\n",
            "    validation_error: 0.011\n    block_micro_steps: 4\n");
        QVERIFY2(noteWith(blockOfFour).endsWith(QStringLiteral("; validated within 1.1%")),
            qPrintable(noteWith(blockOfFour)));
        QByteArray wholeStep = valid;
        wholeStep.replace("    validation_error: 0.011\n",
            "    validation_error: 0.011\n    block_micro_steps: 64\n");
        QVERIFY2(noteWith(wholeStep).endsWith(
                     QStringLiteral("; whole steps timed, a repeat agreed within 1.1%")),
            qPrintable(noteWith(wholeStep)));
    }

    // Two files measuring a model on the same GPUs: the later one is used, and that is said.
    void aSecondFileForTheSameMachineIsWarned()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString first = dir.filePath("first.yaml");
        const QString second = dir.filePath("second.yaml");
        QVERIFY(QFile::copy(kDataDir + "/valid.yaml", first));
        QVERIFY(QFile::copy(kDataDir + "/valid.yaml", second));
        const MeasuredLoad load
            = loadMeasuredResultsFiles({ first.toStdString(), second.toStdString() }, *shipped());
        QVERIFY(load.ok());
        QCOMPARE(load.results.size(), std::size_t { 2 });
        QCOMPARE(formatIssues(load.issues),
            second.toStdString() + ": warning: measures pythia-1b on 1x h100-80gb-sxm as "
                + first.toStdString() + " does; the planner uses this file, the later one\n");
    }

    // A run over two machines of as many GPUs is not one machine's time: both are kept for
    // what each prices (core/estimators.cpp), with no warning that one replaces the other. The
    // warning had named the one-machine file as replaced while the planner priced it.
    void aRunOverMachinesIsNotTheSameMachine()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString oneMachine = dir.filePath("one.yaml");
        const QString twoMachines = dir.filePath("two.yaml");
        QVERIFY(QFile::copy(kDataDir + "/valid.yaml", oneMachine));
        QByteArray text = readAll(kDataDir + "/valid.yaml");
        text.replace("  gpu_count: 1\nmodel:", "  gpu_count: 2\n  node_count: 2\nmodel:");
        // Each GPU's half of the global batch.
        text.replace("grad_accumulation_steps: 64", "grad_accumulation_steps: 32");
        text.replace("grad_accumulation_steps: 128", "grad_accumulation_steps: 64");
        QFile out(twoMachines);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text);
        out.close();
        const MeasuredLoad mixed = loadMeasuredResultsFiles(
            { oneMachine.toStdString(), twoMachines.toStdString() }, *shipped());
        QVERIFY2(mixed.ok(), formatIssues(mixed.issues).c_str());
        QCOMPARE(formatIssues(mixed.issues), std::string());
        QCOMPARE(mixed.results.size(), std::size_t { 2 });
        // Two of the two-machine run: that one is said, with its machines.
        const MeasuredLoad twice = loadMeasuredResultsFiles(
            { twoMachines.toStdString(), twoMachines.toStdString() }, *shipped());
        QCOMPARE(formatIssues(twice.issues),
            twoMachines.toStdString() + ": warning: measures pythia-1b on 2x h100-80gb-sxm over "
                + "2 machines as " + twoMachines.toStdString()
                + " does; the planner uses this file, the later one\n");
    }

    // A measurement on a device the GPU table does not know (a CPU run writes an empty gpu_id)
    // cannot be priced; the warning that nothing could be says where it was measured.
    void anUnpricedDeviceIsNamed()
    {
        QByteArray text = readAll(kDataDir + "/valid.yaml");
        QVERIFY(text.contains("  gpu_id: h100-80gb-sxm\n"));
        text.replace("  gpu_id: h100-80gb-sxm\n", "  gpu_id: \"\"\n");
        const MeasuredLoad load = readText(text, "cpu.yaml");
        QVERIFY2(load.ok(), formatIssues(load.issues).c_str());
        const Planned planned = planWith(load, SourcePolicy::Measured);
        const Results& r = planned.results;
        QVERIFY(r.options.empty());
        QCOMPARE(r.warnings.size(), std::size_t { 1 });
        QCOMPARE(r.warnings[0].kind, Warning::Kind::NoEstimateForAnyMachine);
        QCOMPARE(r.warnings[0].detail, std::string("NVIDIA H100 80GB HBM3 (cpu.yaml)"));
    }

    void reducedRecipeIsAModelOfItsOwn()
    {
        auto catalog = std::make_shared<Catalog>(*shipped());
        const MeasuredLoad load = readText(readAll(kDataDir + "/reduced-recipe/input.yaml"));
        QVERIFY(load.ok());
        addMeasurements(*catalog, load);
        const std::string id = "pythia-1b@batch8-seq128-steps143000-bf16";
        QVERIFY(catalog->findWorkload(id));
        QCOMPARE(catalog->findWorkload(id)->globalBatch, 8);
        QCOMPARE(catalog->findWorkload("pythia-1b")->globalBatch, 1024); // shipped one untouched
    }

    void plannerCatalogLayersResultsOverPrices()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString good = dir.filePath("good.yaml");
        QVERIFY(QFile::copy(kDataDir + "/valid.yaml", good));
        const std::string missing = dir.filePath("missing.yaml").toStdString();
        const CatalogLoad load = loadPlannerCatalog({}, { good.toStdString(), missing });
        QVERIFY(!load.ok());
        QCOMPARE(formatIssues(load.issues),
            missing + ": error: cannot open the file: it does not exist\n");
        QCOMPARE(load.catalog->measured.size(), std::size_t { 1 }); // the good file still counts
    }
};

QTEST_APPLESS_MAIN(TestMeasuredResults)
#include "tst_measured_results.moc"
