#pragma once

// Writes the price tables the user edited in the planner as a user price file: complete GPU,
// chassis and cloud-offer entries (same schema as pricing/data), which layer over the shipped
// tables by id, plus the electricity price and PUE with their sources.

#include "core/catalog.h"

#include <string>

namespace gpuplan {

std::string writePriceTables(const Catalog& catalog);

// Cloud offers alone, as a user price file with a title and description (an imported cloud
// catalog). Each offer is written as writePriceTables writes it.
std::string writeCloudOfferTable(const std::vector<CloudOffer>& offers, const std::string& title,
    const std::string& description);

} // namespace gpuplan
