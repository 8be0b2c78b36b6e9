#pragma once

// Writes the price tables the user edited in the planner as a user price file: complete GPU,
// chassis and cloud-offer entries (same schema as pricing/data), which layer over the shipped
// tables by id, plus the electricity price and PUE with their sources.

#include "core/catalog.h"

#include <string>

namespace gpuplan {

std::string writePriceTables(const Catalog& catalog);

} // namespace gpuplan
