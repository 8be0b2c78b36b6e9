// libFuzzer target: the gpuplan-bench results reader (pricing/measured_results) on any bytes,
// against the shipped catalog (loaded once), as the planner reads a user's results file.

#include "pricing/catalog_loader.h"
#include "pricing/measured_results.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace gpuplan;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const CatalogLoad shipped = loadCatalog(shippedDataFiles());
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const MeasuredLoad load = readMeasuredResults(text, "results.yaml", *shipped.catalog);
    Catalog catalog = *shipped.catalog;
    addMeasurements(catalog, load);
    return 0;
}
