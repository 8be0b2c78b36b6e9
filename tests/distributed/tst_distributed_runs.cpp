// gpuplan-bench's multi-process runs as a user starts them, on the CPU with Gloo: a 2-rank run
// of every strategy gives one results file with gpu_count 2 that the planner loads; comm-probe
// reports bandwidths; a rank killed mid-run ends the run with a message naming it, no process
// left behind and the finished configurations kept; Cancel (SIGTERM) stops every rank; wrong
// rendezvous variables, a port in use and mismatched world sizes get a message, not a hang.
// Nothing here depends on timing: waits are for events, with generous limits.

#include "benchmark/distributed/launcher.h"
#include "benchmark/model_selection.h"
#include "pricing/measured_results.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <arpa/inet.h>
#include <cerrno>
#include <csignal>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {

// An earlier results file, as far as --out looks (it replaces nothing else).
const QByteArray kEarlierResults = "schema_version: 1\nkind: gpuplan-bench-results\n# earlier\n";

const QString kTinyNeox
    = QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/benchmark/data/tiny-neox/config.json");
constexpr int kFinishMs = 240000; // a generous bound for a tiny run, also under ASan

struct Result {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

QProcessEnvironment cleanEnvironment()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : { "RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "MASTER_ADDR",
             "MASTER_PORT", "SLURM_PROCID", "SLURM_STEP_ID" })
        env.remove(name);
    env.insert("OMP_NUM_THREADS", "1");
    return env;
}

Result runBench(const QStringList& args, const QProcessEnvironment& env = cleanEnvironment())
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(GPUPLAN_BENCH_EXE), args);
    if (!p.waitForFinished(kFinishMs))
        qWarning("gpuplan-bench did not finish: %s", qPrintable(args.join(' ')));
    return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
        p.readAllStandardError() };
}

QJsonObject parseObject(const QByteArray& text)
{
    QJsonParseError error;
    const auto doc = QJsonDocument::fromJson(text, &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("not JSON (%s): %s", qPrintable(error.errorString()), text.constData());
    return doc.object();
}

bool processGone(qint64 pid)
{
    return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

QList<qint64> rankPids(const QByteArray& stderrText)
{
    static const QRegularExpression started(
        QStringLiteral("started \\d+ ranks \\(pids ([0-9, ]+)\\)"));
    QList<qint64> pids;
    const auto match = started.match(QString::fromUtf8(stderrText));
    if (match.hasMatch())
        for (const auto& pid : match.captured(1).split(QStringLiteral(", ")))
            pids << pid.toLongLong();
    return pids;
}

// Reads stdout line by line until a line contains `text` (or the process ends).
bool waitForLine(QProcess& p, const QString& text, QByteArray& seen)
{
    while (p.state() != QProcess::NotRunning || p.bytesAvailable() > 0) {
        while (p.canReadLine()) {
            const QByteArray line = p.readLine();
            seen += line;
            if (QString::fromUtf8(line).contains(text))
                return true;
        }
        if (!p.waitForReadyRead(kFinishMs) && p.state() == QProcess::NotRunning && !p.canReadLine())
            return false;
    }
    return false;
}

QStringList tinyRun(const QString& out, const QString& minTime = QStringLiteral("0"))
{
    return { "run", "--config", kTinyNeox, "--device", "cpu", "--nproc-per-node", "2",
        "--parallelism", "all", "--methods", "naive", "--batch-size", "8", "--seq-len", "17",
        "--micro-batch", "2", "--steps-measured", "2", "--min-time", minTime, "--validate", "1",
        "--out", out };
}

int freePort()
{
    std::string error;
    return gpuplan::bench::distributed::freeTcpPort("127.0.0.1", error);
}

} // namespace

class TestDistributedRuns : public QObject {
    Q_OBJECT

private slots:
    void everyStrategyOnTwoRanks()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("results.yaml");
        // A minimum time: the ranks must agree on how many samples to take, or one waits in a
        // collective the other never joins.
        const Result r
            = runBench(tinyRun(out, QStringLiteral("0.2")) + QStringList { "--format", "json" });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = parseObject(r.out);
        QCOMPARE(o["gpu_count"].toInt(), 2);
        const QJsonArray configurations = o["configurations"].toArray();
        QStringList strategies;
        for (const auto& value : configurations) {
            const QJsonObject c = value.toObject();
            QVERIFY(c["feasible"].toBool());
            QCOMPARE(c["gpu_count"].toInt(), 2);
            QVERIFY(c["timed_samples"].toInt() >= 2);
            strategies << c["parallelism"].toString();
            QVERIFY(c["communication_bytes"].toDouble() > 0);
            QVERIFY(c["compute_seconds"].toObject()["median"].toDouble() > 0);
            QVERIFY(c["communication_seconds"].toObject()["median"].toDouble() > 0);
            QVERIFY(c["bus_bandwidth_bytes_per_second"].toDouble() > 0);
            QVERIFY(c["memory_samples"].toArray().size() >= 2);
            // Timed with the collectives as local copies on both ranks (a rank left waiting in
            // a collective the other skipped would hang here), at half the micro-batch and at it.
            QCOMPARE(c["micro_step_samples"].toArray().size(), 2);
            // The update alone where the close holds nothing else (ZeRO-1 and -2 also gather).
            const QString strategy = c["parallelism"].toString();
            QCOMPARE(c["optimizer_compute_seconds"].toObject()["median"].isDouble(),
                strategy == "ddp" || strategy == "zero3");
            QVERIFY(c["validation_error"].isDouble());
        }
        QCOMPARE(strategies, QStringList({ "ddp", "zero1", "zero2", "zero3" }));
        const QJsonObject interconnect = o["interconnect"].toObject();
        QCOMPARE(interconnect["backend"].toString(), QString("gloo"));
        QCOMPARE(interconnect["world_size"].toInt(), 2);
        QVERIFY(!interconnect["samples"].toArray().isEmpty());

        // One results file, from rank 0, that the planner reads as a 2-GPU measurement.
        const auto load = gpuplan::loadMeasuredResultsFiles(
            { out.toStdString() }, *gpuplan::bench::shippedCatalog());
        QVERIFY(load.ok());
        QCOMPARE(int(load.results.size()), 1);
        const auto& m = load.results.front();
        QCOMPARE(m.gpuCount, 2);
        QVERIFY(m.parallelism != gpuplan::Parallelism::None);
        QVERIFY(m.memorySamples.size() >= 2);
        QVERIFY(m.computeSeconds && m.communicationSeconds && m.communicationBytes);
        // The update alone where the best's close held nothing else (ZeRO-1 and -2 gather too).
        const bool updateAlone = m.parallelism == gpuplan::Parallelism::Ddp
            || m.parallelism == gpuplan::Parallelism::Zero3;
        QCOMPARE(m.optimizerComputeSeconds.has_value(), updateAlone);
        if (updateAlone)
            QVERIFY(*m.optimizerComputeSeconds < *m.computeSeconds);
        QVERIFY(!m.interconnect.empty());
        QCOMPARE(m.interconnectBackend, std::string("gloo"));
        QVERIFY(!QDir(dir.path()).entryList({ "*.tmp-*" }, QDir::Files).size());
    }

    // Under the launcher, the launcher alone sets an earlier results file aside and puts it
    // back when the ranks wrote nothing; the ranks leave it to it.
    void launcherKeepsTheEarlierResults()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("results.yaml");
        {
            QFile file(out);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(kEarlierResults);
        }
        const Result r = runBench(tinyRun(out) + QStringList { "--memory-limit", "1000" });
        QCOMPARE(r.exitCode, 1);
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.contains("gpuplan-bench: nothing was measured: the earlier results are back "
                              "in "
                     + out),
            r.err.constData());
        QVERIFY2(!err.contains("rank 0: the earlier results"), r.err.constData());
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), kEarlierResults);
        QVERIFY(!QFile::exists(out + ".previous"));
    }

    void commProbe()
    {
        const Result r = runBench({ "comm-probe", "--nproc-per-node", "2", "--device", "cpu",
            "--max-bytes", "65536", "--format", "json" });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = parseObject(r.out);
        QCOMPARE(o["world_size"].toInt(), 2);
        QStringList collectives;
        for (const auto& s : o["samples"].toArray()) {
            const QJsonObject sample = s.toObject();
            collectives << sample["collective"].toString();
            const double algbw = sample["algbw_bytes_per_second"].toDouble();
            const double busbw = sample["busbw_bytes_per_second"].toDouble();
            QVERIFY(algbw > 0);
            // 2 ranks: all-reduce's bus factor is 2(n-1)/n = 1, the others' (n-1)/n = 0.5.
            const double factor = sample["collective"].toString() == "all_reduce" ? 1.0 : 0.5;
            QVERIFY(std::abs(busbw - algbw * factor) <= 1e-9 * algbw);
        }
        QCOMPARE(collectives.count("all_reduce"), 4); // 1, 4, 16, 64 KiB
        QCOMPARE(collectives.count("reduce_scatter"), 4);
        QCOMPARE(collectives.count("all_gather"), 4);
        QCOMPARE(o["notes"].toArray().size(), 1); // Gloo's reduce-scatter
        QVERIFY(o["notes"].toArray().first().toString().startsWith("Gloo: reduce-scatter"));

        // One rank moves nothing: no bandwidth, and a note that says so instead of Gloo's.
        const Result alone = runBench(
            { "comm-probe", "--device", "cpu", "--max-bytes", "4096", "--format", "json" });
        QVERIFY2(alone.exitCode == 0, alone.err.constData());
        const QJsonObject one = parseObject(alone.out);
        QCOMPARE(one["world_size"].toInt(), 1);
        QVERIFY(!one["samples"].toArray().isEmpty());
        for (const auto& s : one["samples"].toArray()) {
            QCOMPARE(s.toObject()["algbw_bytes_per_second"].toDouble(), 0.0);
            QCOMPARE(s.toObject()["busbw_bytes_per_second"].toDouble(), 0.0);
        }
        const QJsonArray notes = one["notes"].toArray();
        QCOMPARE(notes.size(), 1);
        QVERIFY2(notes.first().toString().startsWith(
                     "one rank: no collective moves data (each returns at once)"),
            qPrintable(notes.first().toString()));
    }

    void killedRankEndsTheRun()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("results.yaml");
        QProcess launcher;
        launcher.setProcessEnvironment(cleanEnvironment());
        launcher.start(QStringLiteral(GPUPLAN_BENCH_EXE),
            tinyRun(out) + QStringList { "--progress", "jsonl" });
        QByteArray seen;
        QVERIFY2(waitForLine(launcher, "configuration_done", seen), seen.constData());
        const QByteArray err = launcher.readAllStandardError();
        const QList<qint64> pids = rankPids(err);
        QCOMPARE(pids.size(), 2);
        // Stop rank 1 first, so the run is certainly mid-way when it dies, then kill it.
        QCOMPARE(::kill(static_cast<pid_t>(pids[1]), SIGSTOP), 0);
        QCOMPARE(::kill(static_cast<pid_t>(pids[1]), SIGKILL), 0);
        QVERIFY(launcher.waitForFinished(kFinishMs));
        QCOMPARE(launcher.exitStatus(), QProcess::NormalExit);
        QCOMPARE(launcher.exitCode(), 1);
        const QString messages = QString::fromUtf8(err + launcher.readAllStandardError());
        QVERIFY2(
            messages.contains(
                QStringLiteral("rank 1 (pid %1) was killed by signal 9 (SIGKILL)").arg(pids[1])),
            qPrintable(messages));
        const QByteArray progress = seen + launcher.readAllStandardOutput();
        QVERIFY2(progress.contains("\"phase\": \"error\"") && progress.contains("rank 1"),
            progress.constData());
        for (const qint64 pid : pids)
            QVERIFY2(processGone(pid), qPrintable(QString::number(pid)));
        // What rank 0 finished before the kill is in the results file.
        const auto load = gpuplan::loadMeasuredResultsFiles(
            { out.toStdString() }, *gpuplan::bench::shippedCatalog());
        QCOMPARE(int(load.results.size()), 1);
        QCOMPARE(load.results.front().gpuCount, 2);
    }

    void cancelStopsEveryRank()
    {
        QTemporaryDir dir;
        QProcess launcher;
        launcher.setProcessEnvironment(cleanEnvironment());
        launcher.start(QStringLiteral(GPUPLAN_BENCH_EXE),
            tinyRun(dir.filePath("results.yaml")) + QStringList { "--progress", "jsonl" });
        QByteArray seen;
        QVERIFY2(waitForLine(launcher, "\"phase\": \"build\"", seen), seen.constData());
        const QList<qint64> pids = rankPids(launcher.readAllStandardError());
        QCOMPARE(pids.size(), 2);
        launcher.terminate();
        QVERIFY(launcher.waitForFinished(kFinishMs));
        QCOMPARE(launcher.exitCode(), 128 + SIGTERM);
        for (const qint64 pid : pids)
            QVERIFY(processGone(pid));
    }

    // The GUI kills the launcher if it has not ended a second after Cancel: the ranks die with
    // it (PR_SET_PDEATHSIG), so none is left behind.
    void killedLauncherTakesTheRanks()
    {
        QTemporaryDir dir;
        QProcess launcher;
        launcher.setProcessEnvironment(cleanEnvironment());
        launcher.start(QStringLiteral(GPUPLAN_BENCH_EXE),
            tinyRun(dir.filePath("results.yaml")) + QStringList { "--progress", "jsonl" });
        QByteArray seen;
        QVERIFY2(waitForLine(launcher, "\"phase\": \"build\"", seen), seen.constData());
        const QList<qint64> pids = rankPids(launcher.readAllStandardError());
        QCOMPARE(pids.size(), 2);
        launcher.kill();
        QVERIFY(launcher.waitForFinished(kFinishMs));
        // Orphaned ranks are reparented and reaped by init once the kernel's SIGKILL lands.
        QVERIFY(QTest::qWaitFor(
            [&] { return processGone(pids[0]) && processGone(pids[1]); }, kFinishMs));
    }

    // Ranks started by srun or torchrun (no launcher of ours) stopped by SIGTERM, as a SLURM
    // time limit stops them, before anything was written: rank 0 puts the earlier results file
    // back and says so (it had been left as results.yaml.previous, unsaid).
    void ranksOfAnotherLauncherStoppedPutTheEarlierFileBack()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("results.yaml");
        {
            QFile earlier(out);
            QVERIFY(earlier.open(QIODevice::WriteOnly));
            earlier.write(kEarlierResults);
        }
        const int port = freePort();
        QStringList args = tinyRun(out, QStringLiteral("30"));
        const auto flag = args.indexOf("--nproc-per-node");
        args.remove(flag, 2);
        args << "--progress"
             << "jsonl";
        std::vector<std::unique_ptr<QProcess>> ranks;
        for (const int rank : { 0, 1 }) {
            auto p = std::make_unique<QProcess>();
            QProcessEnvironment env = cleanEnvironment();
            env.insert("RANK", QString::number(rank));
            env.insert("WORLD_SIZE", "2");
            env.insert("MASTER_ADDR", "127.0.0.1");
            env.insert("MASTER_PORT", QString::number(port));
            p->setProcessEnvironment(env);
            p->start(QStringLiteral(GPUPLAN_BENCH_EXE), args);
            ranks.push_back(std::move(p));
        }
        QByteArray seen;
        QVERIFY2(waitForLine(*ranks[0], "\"phase\": \"measure\"", seen), seen.constData());
        QVERIFY(QFile::exists(out + ".previous"));
        for (auto& p : ranks)
            p->terminate();
        for (auto& p : ranks)
            QVERIFY(p->waitForFinished(kFinishMs));
        QCOMPARE(ranks[0]->exitCode(), 128 + SIGTERM);
        const QString err = QString::fromUtf8(ranks[0]->readAllStandardError());
        QVERIFY2(err.endsWith("gpuplan-bench: stopped by SIGTERM; no configuration had finished, "
                              "so nothing was written: the earlier results are back in "
                     + out + "\n"),
            qPrintable(err));
        QVERIFY(!QFile::exists(out + ".previous"));
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), kEarlierResults);
    }

    void mismatchedWorldSizes()
    {
        const int port = freePort();
        std::vector<std::unique_ptr<QProcess>> ranks;
        for (const auto& [rank, world] : { std::pair { 0, 2 }, std::pair { 1, 3 } }) {
            auto p = std::make_unique<QProcess>();
            QProcessEnvironment env = cleanEnvironment();
            env.insert("RANK", QString::number(rank));
            env.insert("WORLD_SIZE", QString::number(world));
            env.insert("MASTER_ADDR", "127.0.0.1");
            env.insert("MASTER_PORT", QString::number(port));
            env.insert("GPUPLAN_BENCH_RENDEZVOUS_TIMEOUT", "60");
            p->setProcessEnvironment(env);
            p->start(QStringLiteral(GPUPLAN_BENCH_EXE),
                { "comm-probe", "--device", "cpu", "--max-bytes", "4096" });
            ranks.push_back(std::move(p));
        }
        for (auto& p : ranks) {
            QVERIFY(p->waitForFinished(kFinishMs));
            QCOMPARE(p->exitCode(), 1);
            const QString err = QString::fromUtf8(p->readAllStandardError());
            QVERIFY2(err.contains("was started for a world of") && err.contains("WORLD_SIZE"),
                qPrintable(err));
        }
    }

    void portInUse()
    {
        // A listening socket holds the port rank 0 is told to serve the rendezvous on.
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr {};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof addr;
        QCOMPARE(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
        QCOMPARE(::listen(fd, 1), 0);
        QCOMPARE(::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &length), 0);
        QProcessEnvironment env = cleanEnvironment();
        env.insert("RANK", "0");
        env.insert("WORLD_SIZE", "2");
        env.insert("MASTER_ADDR", "127.0.0.1");
        env.insert("MASTER_PORT", QString::number(ntohs(addr.sin_port)));
        const Result r = runBench({ "comm-probe", "--device", "cpu" }, env);
        ::close(fd);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("could not serve the rendezvous") && r.err.contains("MASTER_PORT"),
            r.err.constData());
    }

    void wrongVariables()
    {
        QProcessEnvironment env = cleanEnvironment();
        env.insert("RANK", "abc");
        env.insert("WORLD_SIZE", "2");
        env.insert("MASTER_ADDR", "127.0.0.1");
        env.insert("MASTER_PORT", "29500");
        Result r = runBench({ "comm-probe", "--device", "cpu" }, env);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("RANK='abc' is not a whole number"), r.err.constData());

        env.insert("RANK", "0");
        r = runBench(
            { "run", "--config", kTinyNeox, "--device", "cpu", "--nproc-per-node", "2" }, env);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(
            r.err.contains("leave --nproc-per-node out under srun or torchrun"), r.err.constData());

        r = runBench({ "run", "--config", kTinyNeox, "--device", "cpu", "--nproc-per-node", "3",
            "--batch-size", "8" });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("does not split evenly over 3 ranks"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestDistributedRuns)
#include "tst_distributed_runs.moc"
