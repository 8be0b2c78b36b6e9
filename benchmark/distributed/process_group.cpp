#include "benchmark/distributed/process_group.h"

#include "benchmark/distributed/backends.h"

#include <torch/csrc/distributed/c10d/HashStore.hpp>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <stdexcept>

namespace gpuplan::bench::distributed {

namespace {

std::string bytesToString(const std::vector<uint8_t>& bytes)
{
    return std::string(bytes.begin(), bytes.end());
}

std::vector<uint8_t> stringToBytes(const std::string& text)
{
    return std::vector<uint8_t>(text.begin(), text.end());
}

std::string where(const Rendezvous& z)
{
    return z.masterAddress + ":" + std::to_string(z.masterPort);
}

c10::intrusive_ptr<c10d::Store> openStore(const ConnectRequest& request)
{
    const Rendezvous& z = request.rendezvous;
    if (z.worldSize == 1)
        return c10::make_intrusive<c10d::HashStore>();
    c10d::TCPStoreOptions options;
    options.port = static_cast<std::uint16_t>(z.masterPort);
    options.isServer = z.rank == 0;
    options.waitWorkers = false; // the joins below wait, with messages that name who is missing
    options.timeout = request.rendezvousTimeout;
    try {
        return c10::make_intrusive<c10d::TCPStore>(z.masterAddress, options);
    } catch (const std::exception& e) {
        const std::string why = e.what();
        const std::string firstLine = why.substr(0, why.find('\n'));
        if (z.rank == 0)
            throw std::runtime_error("rank 0 could not serve the rendezvous on " + where(z) + " ("
                + firstLine
                + "): the port is in use or not this machine's; set MASTER_PORT to "
                  "a free port (under --nproc-per-node leave it unset and one is chosen)");
        throw std::runtime_error("rank " + std::to_string(z.rank) + " could not reach rank 0 at "
            + where(z) + " within " + std::to_string(request.rendezvousTimeout.count() / 1000)
            + " s (" + firstLine
            + "): is rank 0 running, and are MASTER_ADDR and MASTER_PORT those of its host?");
    }
}

// Every rank announces itself and compares its world size and command with rank 0's, then
// posts its verdict; every rank waits for all verdicts, so rank 0 (which serves the store)
// outlives the others' checks and every rank can say which one was started wrongly. Catches a
// rank started with another WORLD_SIZE, two processes claiming one rank, ranks that never come
// and ranks started with other arguments, each with a message instead of a hang.
void checkAgreement(c10d::Store& store, const ConnectRequest& request)
{
    const Rendezvous& z = request.rendezvous;
    const std::string me = std::to_string(z.rank);
    const std::string seconds = std::to_string(request.rendezvousTimeout.count() / 1000);
    if (store.add("gpuplan/joined/" + me, 1) > 1)
        throw std::runtime_error(
            "two processes claim rank " + me + ": every rank needs its own RANK (or SLURM_PROCID)");
    if (z.rank == 0) {
        store.set("gpuplan/world", stringToBytes(std::to_string(z.worldSize)));
        store.set("gpuplan/command", stringToBytes(request.fingerprint));
    }
    try {
        store.wait({ "gpuplan/world", "gpuplan/command" });
    } catch (const std::exception&) {
        throw std::runtime_error(
            "rank " + me + " met no rank 0 at " + where(z) + " within " + seconds + " s");
    }
    std::string verdict = "ok";
    const std::string rootWorld = bytesToString(store.get("gpuplan/world"));
    if (rootWorld != std::to_string(z.worldSize))
        verdict = "rank " + me + " was started for a world of " + std::to_string(z.worldSize)
            + " ranks, rank 0 for " + rootWorld
            + ": every rank needs the same WORLD_SIZE (or SLURM_NTASKS)";
    else if (bytesToString(store.get("gpuplan/command")) != request.fingerprint)
        verdict = "rank " + me
            + " was started with other arguments than rank 0: every rank "
              "must run the same gpuplan-bench command";
    store.set("gpuplan/checked/" + me, stringToBytes(verdict));
    if (verdict != "ok")
        throw std::runtime_error(verdict);

    std::vector<std::string> everyone;
    for (int r = 0; r < z.worldSize; ++r)
        everyone.push_back("gpuplan/checked/" + std::to_string(r));
    try {
        store.wait(everyone);
    } catch (const std::exception& e) {
        // A rank that found itself wrong says why, even when others never came (rank 0 started
        // for a larger world than the rest); otherwise name the ranks that did not join.
        std::string wrong;
        std::string missing;
        try {
            for (const auto& key : everyone)
                if (wrong.empty() && store.check({ key }))
                    if (std::string other = bytesToString(store.get(key)); other != "ok")
                        wrong = std::move(other);
            for (int r = 0; r < z.worldSize; ++r)
                if (!store.check({ "gpuplan/joined/" + std::to_string(r) }))
                    missing += (missing.empty() ? "" : ", ") + std::to_string(r);
        } catch (const std::exception&) {
            throw std::runtime_error("rank " + me + " lost the rendezvous at " + where(z)
                + " while waiting for the other ranks (" + e.what() + ")");
        }
        if (!wrong.empty())
            throw std::runtime_error(wrong);
        if (missing.empty())
            throw std::runtime_error("rank " + me + " waited " + seconds
                + " s for the other ranks' checks at " + where(z) + " (" + e.what() + ")");
        throw std::runtime_error("rank(s) " + missing + " of " + std::to_string(z.worldSize)
            + " did not join within " + seconds
            + " s: were fewer processes started than WORLD_SIZE says?");
    }
    for (int r = 0; r < z.worldSize; ++r) {
        const std::string other = bytesToString(store.get(everyone[static_cast<std::size_t>(r)]));
        if (other != "ok")
            throw std::runtime_error(other);
    }
}

} // namespace

bool backendAvailable(bool cuda, std::string& why)
{
    if (cuda && !ncclCompiledIn()) {
        why = "this gpuplan-bench was built against a LibTorch without CUDA/NCCL: multi-GPU runs "
              "need a build against a CUDA LibTorch";
        return false;
    }
    if (!cuda && !glooCompiledIn()) {
        why = "this gpuplan-bench was built without Gloo: multi-process CPU runs are not "
              "available";
        return false;
    }
    return true;
}

std::unique_ptr<Communicator> connect(const ConnectRequest& request)
{
    std::string why;
    if (!backendAvailable(request.cuda, why))
        throw std::runtime_error(why);
    auto store = openStore(request);
    store->setTimeout(request.rendezvousTimeout);
    checkAgreement(*store, request);
    // The process group's own keys live apart from the rendezvous checks.
    auto groupStore = c10::make_intrusive<c10d::PrefixStore>("gpuplan/pg", store);
    const Rendezvous& z = request.rendezvous;
    if (request.cuda)
        return makeNcclCommunicator(
            groupStore, z.rank, z.worldSize, request.collectiveTimeout, request.cudaDevice);
    return makeGlooCommunicator(
        groupStore, z.rank, z.worldSize, request.collectiveTimeout, z.masterAddress);
}

} // namespace gpuplan::bench::distributed
