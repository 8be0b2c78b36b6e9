#pragma once

#include "core/evaluate.h"

#include <QJsonObject>

namespace gpuplan::views {

// Every JSON document gpuplan-cli prints carries "schema_version": this number. Adding a field
// keeps it; renaming or removing one, or changing a meaning, raises it
// (tests/cli/data/json/ holds the golden documents).
inline constexpr int kCliJsonSchemaVersion = 1;

// `object` with "schema_version" set: the top level of a printed JSON document.
QJsonObject versioned(QJsonObject object);

// The JSON of `gpuplan-cli plan --format json` (toJson(Results) is versioned). Other tools rely on
// these names: add fields, never rename or remove one.
QJsonObject toJson(const Results& results, const OwnedOption& o);
// With `ranges`, the *_low/*_high of its costs (Results::hasRanges).
QJsonObject toJson(const CloudOption& c, bool ranges = false);
QJsonObject toJson(const Results& r);

} // namespace gpuplan::views
