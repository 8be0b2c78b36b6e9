#pragma once

// Connects this process to the others of a run: the c10d TCPStore rendezvous at the master
// (rank 0 serves it), checks that every rank agrees on the world size and the command, then
// opens the backend's process group (NCCL for CUDA, Gloo for the CPU). A world of one needs no
// network: it meets in an in-process store. No LibTorch in this header.

#include "benchmark/distributed/communicator.h"
#include "benchmark/distributed/rendezvous_env.h"

#include <chrono>
#include <memory>
#include <string>

namespace gpuplan::bench::distributed {

struct ConnectRequest {
    Rendezvous rendezvous;
    bool cuda = false; // NCCL on GPU `cudaDevice`, else Gloo
    int cudaDevice = 0;
    // Whatever must be equal on every rank (the command line): compared through the store.
    std::string fingerprint;
    std::chrono::milliseconds rendezvousTimeout { std::chrono::minutes(5) };
    // How long a rank waits in one collective for the others; a dead peer is usually noticed
    // sooner, by the closed connection.
    std::chrono::milliseconds collectiveTimeout { std::chrono::minutes(30) };
};

// Throws std::runtime_error with a message naming the variable, port or rank at fault.
std::unique_ptr<Communicator> connect(const ConnectRequest& request);

// Whether this build can open the backend for `cuda`; `why` says what is missing. Checked
// before any rank waits for another, so a LibTorch without NCCL or Gloo fails at once on every
// rank instead of hanging.
bool backendAvailable(bool cuda, std::string& why);

} // namespace gpuplan::bench::distributed
