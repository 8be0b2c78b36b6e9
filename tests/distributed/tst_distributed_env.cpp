// How a rank finds the others: SLURM's compressed node lists, the torchrun and srun variables,
// and the messages for wrong ones. Also the nccl-tests bus-bandwidth factors and the search's
// memory model. No processes, no LibTorch collectives: runs in milliseconds.

#include "benchmark/distributed/bus_bandwidth.h"
#include "benchmark/distributed/distributed_run.h"
#include "benchmark/distributed/rendezvous_env.h"
#include "benchmark/distributed/slurm_nodelist.h"
#include "benchmark/search_pruning.h"

#include <QTest>

#include <map>

using namespace gpuplan::bench;
using namespace gpuplan::bench::distributed;

namespace {

Environment fakeEnvironment(std::map<std::string, std::string> variables)
{
    return [variables = std::move(variables)](const char* name) -> std::optional<std::string> {
        const auto it = variables.find(name);
        return it == variables.end() ? std::nullopt : std::optional<std::string>(it->second);
    };
}

QStringList toQt(const std::vector<std::string>& hosts)
{
    QStringList out;
    for (const auto& h : hosts)
        out << QString::fromStdString(h);
    return out;
}

} // namespace

class TestDistributedEnv : public QObject {
    Q_OBJECT

private slots:
    void nodeLists_data()
    {
        QTest::addColumn<QString>("list");
        QTest::addColumn<QStringList>("hosts");
        QTest::addRow("one host") << "node07" << QStringList { "node07" };
        QTest::addRow("range and single, padded")
            << "node[01-04,07]" << QStringList { "node01", "node02", "node03", "node04", "node07" };
        QTest::addRow("padding kept across a power of ten")
            << "gpu[08-10]" << QStringList { "gpu08", "gpu09", "gpu10" };
        QTest::addRow("several entries")
            << "a[1-2],b07,c" << QStringList { "a1", "a2", "b07", "c" };
        QTest::addRow("two bracket groups multiply")
            << "r[1-2]-n[0-1]" << QStringList { "r1-n0", "r1-n1", "r2-n0", "r2-n1" };
        QTest::addRow("suffix after the brackets")
            << "gpu-[001-002]-ib" << QStringList { "gpu-001-ib", "gpu-002-ib" };
    }
    void nodeLists()
    {
        QFETCH(QString, list);
        QFETCH(QStringList, hosts);
        const HostList parsed = expandNodeList(list.toStdString());
        QCOMPARE(QString::fromStdString(parsed.error), QString());
        QCOMPARE(toQt(parsed.hosts), hosts);
    }

    void badNodeLists_data()
    {
        QTest::addColumn<QString>("list");
        QTest::addColumn<QString>("message");
        QTest::addRow("unclosed") << "node[01-04"
                                  << "'[' without ']'";
        QTest::addRow("stray close") << "node01]"
                                     << "']' without '['";
        QTest::addRow("backwards") << "node[4-1]"
                                   << "runs backwards";
        QTest::addRow("not a number") << "node[a-b]"
                                      << "is not a number";
        QTest::addRow("empty entry") << "node1,,node2"
                                     << "empty host name";
    }
    void badNodeLists()
    {
        QFETCH(QString, list);
        QFETCH(QString, message);
        const HostList parsed = expandNodeList(list.toStdString());
        QVERIFY(parsed.hosts.empty());
        QVERIFY2(QString::fromStdString(parsed.error).contains(message), parsed.error.c_str());
        QVERIFY(QString::fromStdString(parsed.error).contains(list));
    }

    void nodeListLimit()
    {
        QVERIFY(QString::fromStdString(expandNodeList("n[1-100000]", 1000).error)
                    .contains("more than 1000 hosts"));
    }

    void noLauncherIsOneProcess()
    {
        const RendezvousRead read = readRendezvous(fakeEnvironment({ { "HOME", "/root" } }));
        QCOMPARE(read.error, std::string());
        QCOMPARE(read.rendezvous.worldSize, 1);
        QCOMPARE(read.rendezvous.launcher, std::string());
    }

    void torchrunVariables()
    {
        const RendezvousRead read = readRendezvous(fakeEnvironment({ { "RANK", "5" },
            { "WORLD_SIZE", "8" }, { "LOCAL_RANK", "1" }, { "LOCAL_WORLD_SIZE", "4" },
            { "MASTER_ADDR", "node01" }, { "MASTER_PORT", "29500" } }));
        QCOMPARE(read.error, std::string());
        const Rendezvous& z = read.rendezvous;
        QCOMPARE(z.launcher, std::string("torchrun"));
        QCOMPARE(z.rank, 5);
        QCOMPARE(z.worldSize, 8);
        QCOMPARE(z.localRank, 1);
        QCOMPARE(z.localWorldSize, 4);
        QCOMPARE(z.nodeCount, 2);
        QCOMPARE(z.masterAddress, std::string("node01"));
        QCOMPARE(z.masterPort, 29500);
    }

    void handWrittenLaunchIsOneNode()
    {
        const RendezvousRead read = readRendezvous(fakeEnvironment({ { "RANK", "1" },
            { "WORLD_SIZE", "2" }, { "MASTER_ADDR", "127.0.0.1" }, { "MASTER_PORT", "29500" } }));
        QCOMPARE(read.error, std::string());
        QCOMPARE(read.rendezvous.localRank, 1);
        QCOMPARE(read.rendezvous.localWorldSize, 2);
        QCOMPARE(read.rendezvous.nodeCount, 1);
    }

    void slurmVariables()
    {
        const RendezvousRead read
            = readRendezvous(fakeEnvironment({ { "SLURM_PROCID", "6" }, { "SLURM_STEP_ID", "0" },
                { "SLURM_STEP_NUM_TASKS", "8" }, { "SLURM_NTASKS", "16" }, { "SLURM_LOCALID", "2" },
                { "SLURM_STEP_NUM_NODES", "2" }, { "SLURM_JOB_NODELIST", "gpu[07-08,11]" },
                { "SLURM_STEP_NODELIST", "gpu[08,11]" }, { "SLURM_JOB_ID", "4242" } }));
        QCOMPARE(read.error, std::string());
        const Rendezvous& z = read.rendezvous;
        QCOMPARE(z.launcher, std::string("slurm"));
        QCOMPARE(z.rank, 6);
        QCOMPARE(z.worldSize, 8); // the step's tasks, not the job's
        QCOMPARE(z.localRank, 2);
        QCOMPARE(z.localWorldSize, 4);
        QCOMPARE(z.nodeCount, 2);
        QCOMPARE(z.masterAddress, std::string("gpu08")); // first host of the step
        QCOMPARE(z.masterPort, slurmDefaultPort(4242, 0));
        QVERIFY(z.masterPort >= 20000 && z.masterPort < 40000);
    }

    void slurmWithMasterSet()
    {
        const RendezvousRead read = readRendezvous(fakeEnvironment(
            { { "SLURM_PROCID", "0" }, { "SLURM_STEP_ID", "3" }, { "SLURM_NTASKS", "2" },
                { "SLURM_LOCALID", "0" }, { "SLURM_JOB_NODELIST", "node[01-02]" },
                { "MASTER_ADDR", "10.0.0.1" }, { "MASTER_PORT", "12345" } }));
        QCOMPARE(read.error, std::string());
        QCOMPARE(read.rendezvous.masterAddress, std::string("10.0.0.1"));
        QCOMPARE(read.rendezvous.masterPort, 12345);
    }

    void batchScriptIsOneProcess()
    {
        // sbatch's script sees the job's variables but is no srun task.
        const RendezvousRead read = readRendezvous(fakeEnvironment({ { "SLURM_PROCID", "0" },
            { "SLURM_NTASKS", "8" }, { "SLURM_JOB_NODELIST", "node[01-02]" } }));
        QCOMPARE(read.error, std::string());
        QCOMPARE(read.rendezvous.worldSize, 1);
    }

    void wrongVariables_data()
    {
        QTest::addColumn<QStringList>("variables"); // NAME=value
        QTest::addColumn<QString>("message");
        const QStringList master { "MASTER_ADDR=127.0.0.1", "MASTER_PORT=29500" };
        QTest::addRow("rank not a number") << (master + QStringList { "RANK=abc", "WORLD_SIZE=2" })
                                           << "RANK='abc' is not a whole number";
        QTest::addRow("rank too large") << (master + QStringList { "RANK=2", "WORLD_SIZE=2" })
                                        << "RANK=2 is not below WORLD_SIZE=2";
        QTest::addRow("world size missing")
            << (master + QStringList { "RANK=0" }) << "WORLD_SIZE is not";
        QTest::addRow("rank missing")
            << (master + QStringList { "WORLD_SIZE=2" }) << "WORLD_SIZE is set but RANK is not";
        QTest::addRow("port out of range")
            << QStringList { "RANK=0", "WORLD_SIZE=2", "MASTER_ADDR=h", "MASTER_PORT=70000" }
            << "MASTER_PORT='70000' is not a whole number from 1 to 65535";
        QTest::addRow("no master address") << QStringList { "RANK=0", "WORLD_SIZE=2",
            "MASTER_PORT=29500" } << "MASTER_ADDR is not set";
        QTest::addRow("local world larger than world")
            << (master
                   + QStringList { "RANK=0", "WORLD_SIZE=2", "LOCAL_RANK=0", "LOCAL_WORLD_SIZE=4" })
            << "LOCAL_WORLD_SIZE=4 is larger than WORLD_SIZE=2";
        QTest::addRow("slurm tasks uneven over nodes") << QStringList { "SLURM_PROCID=0",
            "SLURM_STEP_ID=0", "SLURM_NTASKS=3", "SLURM_LOCALID=0", "SLURM_NNODES=2",
            "SLURM_JOB_NODELIST=n[1-2]", "SLURM_JOB_ID=7" }
                                                       << "do not spread evenly over 2 nodes";
        QTest::addRow("slurm bad node list") << QStringList { "SLURM_PROCID=0", "SLURM_STEP_ID=0",
            "SLURM_NTASKS=2", "SLURM_LOCALID=0", "SLURM_JOB_NODELIST=n[1-2",
            "SLURM_JOB_ID=7" } << "SLURM_JOB_NODELIST: SLURM node list 'n[1-2': '[' without ']'";
    }
    void wrongVariables()
    {
        QFETCH(QStringList, variables);
        QFETCH(QString, message);
        std::map<std::string, std::string> env;
        for (const QString& v : variables)
            env[v.section('=', 0, 0).toStdString()] = v.section('=', 1).toStdString();
        const RendezvousRead read = readRendezvous(fakeEnvironment(env));
        QVERIFY2(QString::fromStdString(read.error).contains(message), read.error.c_str());
    }

    // A timeout that is not whole seconds is refused (exit 2), not replaced by its default.
    void malformedTimeoutsAreRefused()
    {
        CliOptions options;
        for (const char* name :
            { "GPUPLAN_BENCH_RENDEZVOUS_TIMEOUT", "GPUPLAN_BENCH_COLLECTIVE_TIMEOUT" })
            for (const char* value : { "5s", "0", "abc", "999999999" }) {
                const ProcessRole role = processRole(options, fakeEnvironment({ { name, value } }));
                QCOMPARE(role.error,
                    std::string(name) + " must be a whole number of seconds from 1 to 604800, not '"
                        + value + "'");
            }
        const auto env = fakeEnvironment({ { "GPUPLAN_BENCH_RENDEZVOUS_TIMEOUT", "60" } });
        QCOMPARE(processRole(options, env).error, std::string());
        QCOMPARE(rendezvousTimeout(env), std::chrono::milliseconds(60000));
    }

    void busBandwidthFactors()
    {
        // nccl-tests' PERFORMANCE.md: 2(n-1)/n for all-reduce, (n-1)/n for the others.
        QCOMPARE(busFactor(Collective::AllReduce, 8), 1.75);
        QCOMPARE(busFactor(Collective::ReduceScatter, 8), 0.875);
        QCOMPARE(busFactor(Collective::AllGather, 2), 0.5);
        QCOMPARE(busFactor(Collective::AllReduce, 1), 0.0);
        QCOMPARE(busBandwidth(Collective::AllReduce, 4, 1'000'000, 0.001), 1.5e9);
        QCOMPARE(algorithmBandwidth(1'000'000, 0.0), 0.0);
    }

    void memoryModelFit()
    {
        const auto model = fitMemoryModel({ { 1, 1100 }, { 2, 1200 }, { 4, 1400 } });
        QVERIFY(model);
        QCOMPARE(model->fixedBytes, 1000.0);
        QCOMPARE(model->bytesPerSample, 100.0);
        QCOMPARE(largestFittingMicroBatch(*model, 1850, 64), 8);
        QCOMPARE(largestFittingMicroBatch(*model, 1050, 64), 0);
        QVERIFY(!fitMemoryModel({ { 4, 1400 } }));
        QVERIFY(!fitMemoryModel({ { 4, 1400 }, { 4, 1500 } }));
    }

    void pruningSkipsWhatCannotWin()
    {
        ConfigurationResult base;
        base.configuration = { Method::FreeLunch, false, false, Parallelism::Zero1 };
        base.microBatch = base.fittedMicroBatch = 16;
        base.accumulation = 1;
        base.memorySamples = { { 8, 5000 }, { 16, 9000 } }; // 1000 + 500 per sample
        base.stateBytes.optimizerState = 800;
        const Configuration checkpointed { Method::FreeLunch, true, false, Parallelism::Zero1 };
        const Configuration offloaded { Method::FreeLunch, false, true, Parallelism::Zero1 };
        const Configuration otherStrategy { Method::FreeLunch, true, false, Parallelism::Zero3 };
        const Configuration naive { Method::Naive, false, false, Parallelism::Zero1 };

        // The measured one already runs the whole per-device batch: nothing adding work wins.
        auto d = decideSkip(checkpointed, { base }, /*target=*/16, std::nullopt);
        QVERIFY(d.skip);
        QVERIFY(QString::fromStdString(d.reason).contains("whole per-device batch"));
        QVERIFY(decideSkip(offloaded, { base }, 16, std::nullopt).skip);
        QVERIFY(!decideSkip(otherStrategy, { base }, 16, std::nullopt).skip);
        QVERIFY(!decideSkip(naive, { base }, 16, std::nullopt).skip);

        // Below the target: checkpointing might fit more (measured); offload per the model.
        QVERIFY(!decideSkip(checkpointed, { base }, 64, 9500).skip);
        // 9500 + 800 freed: (10300 - 1000) / 500 = 18.6 -> 16, not more than measured.
        d = decideSkip(offloaded, { base }, 64, 9500);
        QVERIFY(d.skip);
        QCOMPARE(d.dominatingMicroBatch, 16);
        QVERIFY(QString::fromStdString(d.reason).contains("memory model"));
        // With room for 32 once the state is gone, offload is measured.
        QVERIFY(!decideSkip(offloaded, { base }, 64, 16500).skip);
        // No capacity known (a CPU without --memory-limit): measured.
        QVERIFY(!decideSkip(offloaded, { base }, 64, std::nullopt).skip);

        // What fitted counts, not the even split of an uneven batch (12 here, 16 fitted): a
        // micro-batch of the whole target fitted, so nothing adding memory can do better.
        ConfigurationResult split = base;
        split.microBatch = 12;
        split.accumulation = 2;
        d = decideSkip(checkpointed, { split }, 16, std::nullopt);
        QVERIFY(d.skip);
        QVERIFY2(QString::fromStdString(d.reason).contains(
                     "already fits the largest micro-batch the search tries (16)"),
            d.reason.c_str());
        QCOMPARE(decideSkip(offloaded, { split }, 64, 9500).dominatingMicroBatch, 16);
    }
};

QTEST_GUILESS_MAIN(TestDistributedEnv)
#include "tst_distributed_env.moc"
