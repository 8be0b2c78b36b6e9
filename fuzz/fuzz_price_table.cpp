// libFuzzer target: the price-table loader (pricing/catalog_loader) on any bytes, as a user
// file. A file that loads without errors must also survive the planner's own writers: the whole
// tables (writePriceTables) and the Price tables view's save (writeEditedPriceTables, here over
// no tables beneath, so every entry is an edit), each read again without errors.

#include "pricing/catalog_loader.h"
#include "pricing/scenario/price_table_writer.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace gpuplan;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    const CatalogLoad load = loadCatalog({ { "input.yaml", text } });
    if (!load.ok() || load.catalog->gpus.empty())
        return 0;
    const CatalogLoad again = loadCatalog({ { "saved.yaml", writePriceTables(*load.catalog) } });
    if (!again.ok())
        __builtin_trap();
    const CatalogLoad edited
        = loadCatalog({ { "edited.yaml", writeEditedPriceTables(*load.catalog, Catalog {}) } });
    if (!edited.ok())
        __builtin_trap();
    return 0;
}
