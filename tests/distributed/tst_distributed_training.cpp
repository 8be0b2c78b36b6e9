// The parallel strategies against one process: two Gloo ranks (this executable started twice
// as workers) train a tiny GPT-NeoX for K optimizer steps, each on its half of every batch in
// two micro-steps; one process trains on the whole batch in one micro-step. The parameters
// must agree within a float tolerance, for ddp, zero1, zero2 and zero3 (with and without
// activation checkpointing), and for a tiny Mamba (its selective scan, convolution and fp32
// residual inside the blocks ZeRO gathers) under zero2 and checkpointed zero3. The same runs show
// the sharding: optimizer state halves under zero1, gradients under zero2 and parameters under
// zero3; and the collectives a step makes are the ones communicateOnly() times.

#include "../benchmark/tiny_models.h"
#include "benchmark/distributed/launcher.h"
#include "benchmark/distributed/process_group.h"
#include "benchmark/distributed/sharded_step.h"
#include "benchmark/model_selection.h"
#include "benchmark/models/model_factory.h"
#include "benchmark/training_step.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <fstream>

using namespace gpuplan::bench;
using namespace gpuplan::bench::distributed;

namespace {

constexpr int kRanks = 2;
constexpr int kGlobalBatch = 8;
constexpr int kMicroBatch = 2; // two micro-steps per rank and step
constexpr int kSteps = 3;
constexpr std::uint64_t kModelSeed = 7;
constexpr std::uint64_t kDataSeed = 11;
// Same data, same update rule; only the order of the floating-point sums differs (gradients
// summed over ranks and micro-steps instead of over one batch). Adam divides by the gradient's
// root mean square, so where a gradient element is near zero a rounding-level difference in it
// moves its parameter by a visible share of the learning rate (1e-4) per step. Measured:
// at most 3.2e-6 after 3 steps, about 1 % of how far the steps move the parameters.
constexpr double kTolerance = 1e-5;
// Gradients: summation order only, relative to the largest element; measured under 1e-6.
constexpr double kGradientTolerance = 1e-5;
// Model folders under tests/benchmark/data.
constexpr const char* kNeox = "tiny-neox";
constexpr const char* kMamba = "tiny-mamba";

Recipe tinyRecipe(const ModelSpec& spec)
{
    RecipeOverrides overrides;
    overrides.globalBatch = kGlobalBatch;
    overrides.sequenceLength = testing::tinyInputSize(spec);
    overrides.steps = 1000;
    overrides.precision
        = gpuplan::Precision::FP32; // as the tests were written (custom models: fp16)
    return recipeFor(spec, *shippedCatalog(), overrides);
}

torch::Tensor flatParameters(TrainableModel& model)
{
    std::vector<torch::Tensor> flat;
    for (const auto& p : model.parameters())
        flat.push_back(p.detach().reshape(-1));
    return torch::cat(flat);
}

struct WorkerReport {
    std::int64_t gradientElements = 0; // rank 0's first-step update gradients, written first
    StateBytes state;
    std::int64_t stepBytes = 0; // one optimizer step, counted during training
    std::int64_t aloneBytes = 0; // communicateOnly() of the same step
    std::int64_t paddedElements = 0;
};

// One rank: K steps on its half of each batch; rank 0 writes its parameters and counts.
int runWorker(const std::string& modelFolder, const std::string& strategy, bool checkpointing,
    const std::string& out)
{
    torch::set_num_threads(1);
    const RendezvousRead read = readRendezvous(processEnvironment());
    if (!read.error.empty()) {
        std::fprintf(stderr, "%s\n", read.error.c_str());
        return 2;
    }
    ConnectRequest request;
    request.rendezvous = read.rendezvous;
    request.fingerprint = modelFolder + " " + strategy;
    request.rendezvousTimeout = std::chrono::seconds(60);
    request.collectiveTimeout = std::chrono::seconds(120);
    auto communicator = connect(request);
    const int rank = communicator->rank();

    const ModelSpec spec = testing::tinyFromConfig(modelFolder.c_str());
    const Recipe recipe = tinyRecipe(spec);
    torch::manual_seed(kModelSeed);
    auto model = makeModel(spec, recipe);
    model->train();
    const Configuration configuration { Method::Naive, checkpointing, false,
        *parallelismFromString(strategy) };
    std::vector<std::string> notes;
    ShardedStep step(*model, configuration, recipe, torch::kCPU, *communicator, notes);

    WorkerReport report;
    torch::Tensor firstGradients;
    torch::manual_seed(kDataSeed);
    const int perRank = kGlobalBatch / kRanks;
    for (int k = 0; k < kSteps; ++k) {
        const Batch full = model->makeBatch(kGlobalBatch, torch::kCPU);
        if (k == 0)
            communicator->resetCount();
        for (int m = 0; m < perRank / kMicroBatch; ++m) {
            const auto start = rank * perRank + m * kMicroBatch;
            const Batch micro { full.inputs.narrow(0, start, kMicroBatch),
                full.targets.narrow(0, start, kMicroBatch) };
            step.microStep(micro, /*closesStep=*/m + 1 == perRank / kMicroBatch);
        }
        if (k == 0) {
            // Each group's gradient from its start: rank 0's shard is a group's first part.
            std::vector<torch::Tensor> parts;
            for (const auto& g : step.updateGradients())
                parts.push_back(g.clone());
            firstGradients = torch::cat(parts);
            report.gradientElements = firstGradients.numel();
        }
        step.optimizerStep();
        if (k == 0)
            report.stepBytes = communicator->count().bytes;
    }
    report.state = step.stateBytes();
    communicator->resetCount();
    step.communicateOnly(perRank / kMicroBatch);
    report.aloneBytes = communicator->count().bytes;
    for (const auto& group : flattenParameters(*makeModel(spec, recipe), kRanks))
        report.paddedElements += group.padded();
    step.restoreModel();

    if (rank == 0) {
        const torch::Tensor parameters = flatParameters(*model).contiguous();
        std::ofstream file(out, std::ios::binary);
        file.write(reinterpret_cast<const char*>(&report), sizeof report);
        file.write(reinterpret_cast<const char*>(firstGradients.data_ptr<float>()),
            static_cast<std::streamsize>(firstGradients.numel() * sizeof(float)));
        file.write(reinterpret_cast<const char*>(parameters.data_ptr<float>()),
            static_cast<std::streamsize>(parameters.numel() * sizeof(float)));
    }
    communicator->barrier();
    return 0;
}

struct Reference {
    torch::Tensor parameters; // after kSteps
    // The first step's gradient per group in the flat layout, the part a rank-0 shard holds
    // (`shards`: the whole group for ddp).
    std::vector<torch::Tensor> groupGradients;
};

// The reference: one process, the whole batch in one micro-step per optimizer step.
Reference singleProcess(const std::string& modelFolder, bool checkpointing)
{
    torch::set_num_threads(1);
    const ModelSpec spec = testing::tinyFromConfig(modelFolder.c_str());
    const Recipe recipe = tinyRecipe(spec);
    torch::manual_seed(kModelSeed);
    auto model = makeModel(spec, recipe);
    model->train();
    std::vector<std::string> notes;
    TrainingStep step(*model, { Method::Naive, checkpointing, false }, recipe, torch::kCPU, notes);
    Reference reference;
    auto copy = makeModel(spec, recipe); // for the ranks' grouping and padding; before the data
    torch::manual_seed(kDataSeed);
    for (int k = 0; k < kSteps; ++k) {
        step.microStep(model->makeBatch(kGlobalBatch, torch::kCPU));
        if (k == 0) {
            auto copyParameters = copy->parameters();
            const auto original = model->parameters();
            for (std::size_t i = 0; i < original.size(); ++i)
                copyParameters[i].mutable_grad() = original[i].grad().clone();
            for (const auto& group : flattenParameters(*copy, kRanks)) {
                auto flat = torch::zeros({ group.padded() });
                const auto views = viewsInto(group, flat);
                for (std::size_t i = 0; i < views.size(); ++i)
                    views[i].copy_(group.parameters[i].grad());
                reference.groupGradients.push_back(flat);
            }
        }
        step.optimizerStep();
    }
    reference.parameters = flatParameters(*model);
    return reference;
}

} // namespace

class TestDistributedTraining : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void equalsSingleProcess_data()
    {
        QTest::addColumn<QString>("model"); // a folder under tests/benchmark/data
        QTest::addColumn<QString>("strategy");
        QTest::addColumn<bool>("checkpointing");
        const QString neox = QString::fromLatin1(kNeox), mamba = QString::fromLatin1(kMamba);
        QTest::addRow("ddp") << neox << "ddp" << false;
        QTest::addRow("zero1") << neox << "zero1" << false;
        QTest::addRow("zero2") << neox << "zero2" << false;
        QTest::addRow("zero3") << neox << "zero3" << false;
        QTest::addRow("zero3 checkpointed") << neox << "zero3" << true;
        QTest::addRow("mamba zero2") << mamba << "zero2" << false;
        QTest::addRow("mamba zero3 checkpointed") << mamba << "zero3" << true;
    }
    void equalsSingleProcess()
    {
        QFETCH(QString, model);
        QFETCH(QString, strategy);
        QFETCH(bool, checkpointing);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString out = dir.filePath(QStringLiteral("rank0.bin"));
        std::string portError;
        const int port = freeTcpPort("127.0.0.1", portError);
        QVERIFY2(port > 0, portError.c_str());

        std::vector<std::unique_ptr<QProcess>> workers;
        for (int r = 0; r < kRanks; ++r) {
            auto p = std::make_unique<QProcess>();
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert("RANK", QString::number(r));
            env.insert("WORLD_SIZE", QString::number(kRanks));
            env.insert("MASTER_ADDR", "127.0.0.1");
            env.insert("MASTER_PORT", QString::number(port));
            p->setProcessEnvironment(env);
            p->setProcessChannelMode(QProcess::ForwardedErrorChannel);
            p->start(QCoreApplication::applicationFilePath(),
                { "--worker", model, strategy, checkpointing ? "1" : "0", out });
            workers.push_back(std::move(p));
        }
        for (auto& p : workers) {
            QVERIFY(p->waitForFinished(180000));
            QCOMPARE(p->exitStatus(), QProcess::NormalExit);
            QCOMPARE(p->exitCode(), 0);
        }

        const Reference single = singleProcess(model.toStdString(), checkpointing);
        const torch::Tensor& reference = single.parameters;
        std::ifstream file(out.toStdString(), std::ios::binary);
        WorkerReport report;
        file.read(reinterpret_cast<char*>(&report), sizeof report);
        torch::Tensor gradients = torch::empty({ report.gradientElements });
        file.read(reinterpret_cast<char*>(gradients.data_ptr<float>()),
            static_cast<std::streamsize>(gradients.numel() * sizeof(float)));
        torch::Tensor parameters = torch::empty_like(reference);
        file.read(reinterpret_cast<char*>(parameters.data_ptr<float>()),
            static_cast<std::streamsize>(parameters.numel() * sizeof(float)));
        QVERIFY(file.good());

        // Adam hardly notices a wrongly scaled gradient (it divides by the gradient's size),
        // so the averaged gradients of the first step are compared as well.
        std::vector<torch::Tensor> expected;
        for (const auto& g : single.groupGradients)
            expected.push_back(strategy == "ddp" ? g : g.narrow(0, 0, g.numel() / kRanks));
        const torch::Tensor expectedGradients = torch::cat(expected);
        QCOMPARE(gradients.numel(), expectedGradients.numel());
        const double gradientScale = expectedGradients.abs().max().item<double>();
        const double gradientDifference
            = (gradients - expectedGradients).abs().max().item<double>();
        qInfo("%s %s: first-step gradients differ by %.3g (largest %.3g)", qPrintable(model),
            qPrintable(strategy), gradientDifference, gradientScale);
        QVERIFY(gradientDifference <= kGradientTolerance * gradientScale);

        const double difference = (parameters - reference).abs().max().item<double>();
        const double moved = (reference -
            [&] {
                torch::manual_seed(kModelSeed);
                const ModelSpec spec = testing::tinyFromConfig(qPrintable(model));
                return flatParameters(*makeModel(spec, tinyRecipe(spec)));
            }())
                                 .abs()
                                 .max()
                                 .item<double>();
        qInfo("%s %s: max |parameter difference| %.3g after %d steps (training moved them up "
              "to %.3g)",
            qPrintable(model), qPrintable(strategy), difference, kSteps, moved);
        QVERIFY(moved > 1e-4); // the steps did something
        QVERIFY2(difference <= kTolerance, qPrintable(QString::number(difference)));
        if (model == QLatin1String(kNeox) && !checkpointing)
            m_reports[strategy] = report;
    }

    // Per rank, between steps, on 2 ranks (buffers padded to a multiple of 2 x 32 elements).
    void shardingHalvesState()
    {
        QVERIFY(m_reports.size() == 4);
        const WorkerReport ddp = m_reports["ddp"], z1 = m_reports["zero1"], z2 = m_reports["zero2"],
                           z3 = m_reports["zero3"];
        const std::int64_t fp32 = 4 * ddp.paddedElements;
        QCOMPARE(ddp.state.parameters, fp32);
        QCOMPARE(ddp.state.gradients, fp32);
        QCOMPARE(ddp.state.optimizerState, 2 * fp32); // Adam's two moments
        QCOMPARE(z1.state.optimizerState, ddp.state.optimizerState / 2);
        QCOMPARE(z1.state.parameters, fp32);
        QCOMPARE(z2.state.gradients, ddp.state.gradients / 2);
        QCOMPARE(z2.state.optimizerState, ddp.state.optimizerState / 2);
        QCOMPARE(z3.state.parameters, ddp.state.parameters / 2);
        QCOMPARE(z3.state.gradients, ddp.state.gradients / 2);
        QCOMPARE(z3.state.optimizerState, ddp.state.optimizerState / 2);
    }

    // Algorithm bytes of one optimizer step of two micro-steps, P = padded parameter bytes:
    // ddp all-reduces P; zero1 reduce-scatters P and all-gathers P; zero2 reduce-scatters P
    // every micro-step; zero3 also gathers every block twice per micro-step.
    void communicationPerStep()
    {
        for (const auto& [strategy, report] : m_reports.toStdMap())
            QCOMPARE(report.aloneBytes, report.stepBytes);
        const std::int64_t p = 4 * m_reports["ddp"].paddedElements;
        QCOMPARE(m_reports["ddp"].stepBytes, p);
        QCOMPARE(m_reports["zero1"].stepBytes, 2 * p);
        QCOMPARE(m_reports["zero2"].stepBytes, 2 * p + p);
        QVERIFY(m_reports["zero3"].stepBytes > 2 * (2 * p));
        QVERIFY(m_reports["zero3"].stepBytes < 2 * (3 * p));
    }

private:
    QMap<QString, WorkerReport> m_reports; // tiny GPT-NeoX's, by strategy
};

int main(int argc, char** argv)
{
    if (argc == 6 && std::strcmp(argv[1], "--worker") == 0) {
        try {
            return runWorker(argv[2], argv[3], std::strcmp(argv[4], "1") == 0, argv[5]);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "worker: %s\n", e.what());
            return 1;
        }
    }
    QCoreApplication app(argc, argv);
    TestDistributedTraining test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_distributed_training.moc"
