#include "benchmark/distributed/rendezvous_env.h"

#include "benchmark/distributed/slurm_nodelist.h"

#include <charconv>
#include <cstdlib>

namespace gpuplan::bench::distributed {

namespace {

constexpr int kSlurmPortBase = 20000;
constexpr int kSlurmPortSpan = 20000;

// Reads whole numbers out of named variables; the first problem is kept, naming the variable.
class Reader {
public:
    explicit Reader(const Environment& environment)
        : environment_(environment)
    {
    }

    bool has(const char* name) const { return environment_(name).has_value(); }

    std::optional<long long> number(const char* name, long long minimum, long long maximum)
    {
        const auto text = environment_(name);
        if (!text) {
            fail(std::string(name) + " is not set");
            return std::nullopt;
        }
        long long value = 0;
        const char* end = text->data() + text->size();
        const auto [ptr, ec] = std::from_chars(text->data(), end, value);
        if (text->empty() || ec != std::errc() || ptr != end || value < minimum
            || value > maximum) {
            fail(std::string(name) + "='" + *text + "' is not a whole number from "
                + std::to_string(minimum) + " to " + std::to_string(maximum));
            return std::nullopt;
        }
        return value;
    }

    std::optional<std::string> text(const char* name) const { return environment_(name); }

    void fail(const std::string& message)
    {
        if (error.empty())
            error = message;
    }

    std::string error;

private:
    const Environment& environment_;
};

constexpr long long kMaxRanks = 1 << 20;
constexpr long long kMaxPort = 65535;

RendezvousRead fromTorchrun(Reader& r)
{
    RendezvousRead out;
    Rendezvous& z = out.rendezvous;
    z.launcher = "torchrun";
    if (!r.has("WORLD_SIZE"))
        r.fail("RANK is set but WORLD_SIZE is not (torchrun sets both)");
    const auto rank = r.number("RANK", 0, kMaxRanks);
    const auto world = r.number("WORLD_SIZE", 1, kMaxRanks);
    // Without LOCAL_RANK / LOCAL_WORLD_SIZE the run is taken to be on one node, as a
    // hand-written launch is (torchrun always sets both).
    const auto local = r.has("LOCAL_RANK") ? r.number("LOCAL_RANK", 0, kMaxRanks) : rank;
    const auto localWorld
        = r.has("LOCAL_WORLD_SIZE") ? r.number("LOCAL_WORLD_SIZE", 1, kMaxRanks) : world;
    const auto address = r.text("MASTER_ADDR");
    if (!address || address->empty())
        r.fail("MASTER_ADDR is not set (the host of rank 0)");
    const auto port = r.number("MASTER_PORT", 1, kMaxPort);
    if (!r.error.empty() || !rank || !world || !local || !localWorld || !port) {
        out.error = r.error;
        return out;
    }
    z.rank = static_cast<int>(*rank);
    z.worldSize = static_cast<int>(*world);
    z.localRank = static_cast<int>(*local);
    z.localWorldSize = static_cast<int>(*localWorld);
    z.masterAddress = *address;
    z.masterPort = static_cast<int>(*port);
    if (z.rank >= z.worldSize)
        out.error = "RANK=" + std::to_string(z.rank)
            + " is not below WORLD_SIZE=" + std::to_string(z.worldSize);
    else if (z.localRank >= z.localWorldSize)
        out.error = "LOCAL_RANK=" + std::to_string(z.localRank)
            + " is not below LOCAL_WORLD_SIZE=" + std::to_string(z.localWorldSize);
    else if (z.localWorldSize > z.worldSize)
        out.error = "LOCAL_WORLD_SIZE=" + std::to_string(z.localWorldSize)
            + " is larger than WORLD_SIZE=" + std::to_string(z.worldSize);
    z.nodeCount = z.worldSize % z.localWorldSize == 0 ? z.worldSize / z.localWorldSize : 0;
    return out;
}

RendezvousRead fromSlurm(Reader& r)
{
    RendezvousRead out;
    Rendezvous& z = out.rendezvous;
    z.launcher = "slurm";
    const char* tasksName = r.has("SLURM_STEP_NUM_TASKS") ? "SLURM_STEP_NUM_TASKS" : "SLURM_NTASKS";
    const auto rank = r.number("SLURM_PROCID", 0, kMaxRanks);
    const auto world = r.number(tasksName, 1, kMaxRanks);
    const auto local = r.number("SLURM_LOCALID", 0, kMaxRanks);
    const char* nodesName = r.has("SLURM_STEP_NUM_NODES") ? "SLURM_STEP_NUM_NODES" : "SLURM_NNODES";
    const auto nodes = r.has(nodesName) ? r.number(nodesName, 1, kMaxRanks) : 1LL;
    std::optional<std::string> address = r.text("MASTER_ADDR");
    if (!address) {
        const char* listName
            = r.has("SLURM_STEP_NODELIST") ? "SLURM_STEP_NODELIST" : "SLURM_JOB_NODELIST";
        const auto list = r.text(listName);
        if (!list) {
            r.fail(
                "neither MASTER_ADDR nor SLURM_JOB_NODELIST is set: cannot tell the master host");
        } else {
            const HostList hosts = expandNodeList(*list);
            if (!hosts.error.empty())
                r.fail(std::string(listName) + ": " + hosts.error);
            else if (hosts.hosts.empty())
                r.fail(std::string(listName) + " is empty");
            else
                address = hosts.hosts.front();
        }
    }
    std::optional<long long> port;
    if (r.has("MASTER_PORT")) {
        port = r.number("MASTER_PORT", 1, kMaxPort);
    } else {
        const auto job = r.number("SLURM_JOB_ID", 0, (1LL << 62));
        const auto step = r.has("SLURM_STEP_ID") ? r.number("SLURM_STEP_ID", 0, (1LL << 62)) : 0LL;
        if (job && step)
            port = slurmDefaultPort(*job, *step);
    }
    if (!r.error.empty() || !rank || !world || !local || !port || !nodes || !address) {
        out.error = r.error;
        return out;
    }
    z.rank = static_cast<int>(*rank);
    z.worldSize = static_cast<int>(*world);
    z.localRank = static_cast<int>(*local);
    z.nodeCount = static_cast<int>(*nodes);
    z.localWorldSize = z.worldSize % z.nodeCount == 0 ? z.worldSize / z.nodeCount : 0;
    z.masterAddress = *address;
    z.masterPort = static_cast<int>(*port);
    if (z.rank >= z.worldSize)
        out.error = "SLURM_PROCID=" + std::to_string(z.rank) + " is not below " + tasksName + "="
            + std::to_string(z.worldSize);
    else if (z.localWorldSize == 0)
        out.error = std::string(tasksName) + "=" + std::to_string(z.worldSize)
            + " tasks do not spread evenly over " + std::to_string(z.nodeCount)
            + " nodes: give every node the same number of tasks (--ntasks-per-node)";
    else if (z.localRank >= z.localWorldSize)
        out.error = "SLURM_LOCALID=" + std::to_string(z.localRank) + " is not below the "
            + std::to_string(z.localWorldSize) + " tasks per node";
    return out;
}

} // namespace

Environment processEnvironment()
{
    return [](const char* name) -> std::optional<std::string> {
        const char* value = std::getenv(name);
        return value ? std::optional<std::string>(value) : std::nullopt;
    };
}

int slurmDefaultPort(long long jobId, long long stepId)
{
    return kSlurmPortBase + static_cast<int>((jobId * 16 + stepId) % kSlurmPortSpan);
}

RendezvousRead readRendezvous(const Environment& environment)
{
    Reader reader(environment);
    if (reader.has("RANK") || reader.has("WORLD_SIZE")) {
        if (!reader.has("RANK")) {
            RendezvousRead out;
            out.error = "WORLD_SIZE is set but RANK is not (torchrun sets both)";
            return out;
        }
        return fromTorchrun(reader);
    }
    // srun sets SLURM_STEP_ID for the tasks it starts; a batch script has only the job's.
    if (reader.has("SLURM_PROCID") && reader.has("SLURM_STEP_ID"))
        return fromSlurm(reader);
    return {};
}

} // namespace gpuplan::bench::distributed
