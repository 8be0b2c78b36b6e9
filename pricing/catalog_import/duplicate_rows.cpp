#include "pricing/catalog_import/duplicate_rows.h"

namespace gpuplan::catalog_import {

bool DuplicateRows::seenBefore(const CsvRecord& record)
{
    // Fields joined with their lengths, so that ("a,b") and ("a", "b") stay different.
    std::string key;
    for (const auto& field : record.fields)
        key.append(std::to_string(field.size())).append(1, ':').append(field);
    return !m_seen.insert(std::move(key)).second;
}

} // namespace gpuplan::catalog_import
