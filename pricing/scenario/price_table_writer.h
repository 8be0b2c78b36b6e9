#pragma once

// Writes price tables as a user price file: complete GPU, chassis, system and cloud-offer entries
// (same schema as pricing/data), which layer over the shipped tables by id, plus the electricity
// price and PUE with their sources.

#include "core/catalog.h"

#include <string>
#include <vector>

namespace gpuplan {

std::string writePriceTables(const Catalog& catalog);

// What the user edited, as a user price file: the entries of `edited` that `base` (the tables
// beneath the file: shipped, then imported) lacks or holds otherwise, each whole, and the
// electricity price and PUE where they differ. Written whole, every entry the user never
// touched had been frozen at the day of the save, over the shipped tables' later updates.
std::string writeEditedPriceTables(const Catalog& edited, const Catalog& base);

// The ids of the price-table entries (GPUs, chassis, systems, cloud offers) that one catalog
// holds otherwise than the other or alone, then the keys of the electricity price and PUE where
// they differ: empty when both would write the same tables. A save checks its file with it.
std::vector<std::string> priceEntriesThatDiffer(const Catalog& a, const Catalog& b);

// Cloud offers alone, as a user price file with a title and description (an imported cloud
// catalog). Each offer is written as writePriceTables writes it.
std::string writeCloudOfferTable(const std::vector<CloudOffer>& offers, const std::string& title,
    const std::string& description);

} // namespace gpuplan
