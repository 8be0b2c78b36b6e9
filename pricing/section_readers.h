#pragma once

// Readers for each section of a price/data file (gpus, chassis, cloud_offers, models,
// assumptions, reference_tables). Internal to pricing/.

#include "core/catalog.h"
#include "pricing/yaml_reader.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan {

// A reference to an id defined elsewhere, checked once every file has been read.
struct PendingReference {
    enum class Kind { Gpu, Model };
    Kind kind = Kind::Gpu;
    std::string id;
    std::string context; // "cloud offer 'runpod-h100-sxm'"
    std::string file;
    int line = 0;
    int column = 0;
};

// Assumptions a file sets, by AssumptionId; unset ones keep the value of earlier layers.
struct AssumptionOverrides {
    std::array<std::optional<double>, kAssumptionCount> values;
    std::array<std::optional<Provenance>, kAssumptionCount> sources;

    void applyTo(Assumptions& a) const;
};

// A price set's price for a GPU defined in another file (gpu_prices section).
struct GpuPriceEntry {
    std::string gpuId;
    std::optional<double> priceUsd;
    Provenance priceSource;
    std::vector<PricePoint> otherPrices;
};

struct CatalogLayer {
    Catalog catalog; // only the sections this file has
    std::vector<GpuPriceEntry> gpuPrices;
    std::optional<AssumptionOverrides> assumptions;
    std::vector<PendingReference> references;
};

CatalogLayer readCatalogLayer(yaml::Reader& reader, const YAML::Node& root);

} // namespace gpuplan
