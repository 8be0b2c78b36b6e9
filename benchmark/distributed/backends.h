#pragma once

// The backend factories behind process_group.h (internal to benchmark/distributed). Each is
// defined by its backend's source file where this LibTorch has the backend, and by
// backend_unavailable.cpp otherwise.

#include "benchmark/distributed/communicator.h"

#include <torch/csrc/distributed/c10d/Store.hpp>

#include <chrono>
#include <memory>
#include <string>

namespace gpuplan::bench::distributed {

bool glooCompiledIn();
bool ncclCompiledIn();

std::unique_ptr<Communicator> makeGlooCommunicator(const c10::intrusive_ptr<c10d::Store>& store,
    int rank, int worldSize, std::chrono::milliseconds timeout, const std::string& masterAddress);

std::unique_ptr<Communicator> makeNcclCommunicator(const c10::intrusive_ptr<c10d::Store>& store,
    int rank, int worldSize, std::chrono::milliseconds timeout, int device);

} // namespace gpuplan::bench::distributed
