#pragma once

// Where a multi-process run meets: this process's rank and the master's address, read from the
// variables a launcher sets. Three launchers are understood, in this order:
//   torchrun (and gpuplan-bench's own --nproc-per-node): RANK, WORLD_SIZE, LOCAL_RANK,
//     LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT;
//   SLURM's srun: SLURM_PROCID, SLURM_STEP_NUM_TASKS (or SLURM_NTASKS), SLURM_LOCALID,
//     SLURM_STEP_NODELIST (or SLURM_JOB_NODELIST; the master is its first host unless
//     MASTER_ADDR is set), MASTER_PORT or a port derived from SLURM_JOB_ID;
//   none of them: one process.
// A batch script itself (SLURM variables but no srun step) counts as one process. No LibTorch.

#include <functional>
#include <optional>
#include <string>

namespace gpuplan::bench::distributed {

struct Rendezvous {
    int rank = 0;
    int worldSize = 1;
    int localRank = 0;
    int localWorldSize = 1;
    int nodeCount = 1;
    std::string masterAddress;
    int masterPort = 0;
    std::string launcher; // "torchrun", "slurm", or "" for a single process
};

struct RendezvousRead {
    Rendezvous rendezvous;
    std::string error; // wrong or missing variables, in words naming them; empty when usable
};

using Environment = std::function<std::optional<std::string>(const char* name)>;
Environment processEnvironment(); // getenv

RendezvousRead readRendezvous(const Environment& environment);

// SLURM's master port when MASTER_PORT is not set: one per job step, in 20000-39999, the same
// on every task of the step.
int slurmDefaultPort(long long jobId, long long stepId);

} // namespace gpuplan::bench::distributed
