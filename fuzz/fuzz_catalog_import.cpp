// libFuzzer target: the catalog importer (pricing/catalog_import) on any bytes, as both formats.
// Beyond "no crash, no hang, no sanitizer report", it checks the importer's promises: every row
// read is kept or dropped once, and every import that yields offers writes a price table the
// catalog loader reads without a single issue.

#include "pricing/catalog_import/catalog_import.h"
#include "pricing/catalog_import/imported_table.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace gpuplan;
using namespace gpuplan::catalog_import;

namespace {

// A GPU table with every id the alias table maps to, so that imported offers can be read back
// without loading the whole shipped catalog at each run.
const DataFile& gpuTable()
{
    static const DataFile file = [] {
        std::string text = "schema_version: 1\ngpus:\n";
        for (const auto& id : GpuAliasTable::shipped().gpuIds())
            text += "  - {id: " + id + ", name: " + id
                + ", memory_gb: 80, board_power_watts: 700, peak_tflops: {bf16: 989}, spec: "
                  "{date: 2025, source: fuzz}}\n";
        return DataFile { "gpus.yaml", text };
    }();
    return file;
}

void check(bool promise)
{
    if (!promise)
        __builtin_trap();
}

void importAs(std::string_view text, CatalogFormat format, RegionAggregate aggregate)
{
    const ImportOptions options { format, "Fuzz", "2025-06-30", {}, aggregate };
    const ImportTables tables { GpuAliasTable::shipped(), GcpHostVmTable::shipped(),
        GpuAliasTable::shipped().gpuIds() };
    const CatalogImport result = importCatalog(text, "input.csv", options, tables);
    if (!result.ok())
        return;
    check(result.summary.rowsKept + static_cast<int>(result.summary.dropped.size())
        == result.summary.rowsRead);
    const std::string yamlText = writeImportedTable(result, options, "input.csv");
    if (checkImportSize(result, yamlText))
        return;
    check(checkImportedTable({ gpuTable() }, { "imported.yaml", yamlText }).empty());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    // The aggregate varies with the input, so every mode is exercised without a format byte
    // that seeds copied from the golden folders would lack.
    const auto aggregate = static_cast<RegionAggregate>(size % 3);
    importAs(text, CatalogFormat::SkyPilot, aggregate);
    importAs(text, CatalogFormat::Gpuhunt, aggregate);
    return 0;
}
