#pragma once

#include "core/evaluate.h"

#include <QJsonObject>

namespace gpuplan::views {

// The JSON of `gpuplan-cli plan --format json`. Other tools rely on these names: add fields,
// never rename or remove one.
QJsonObject toJson(const OwnedOption& o);
QJsonObject toJson(const CloudOption& c);
QJsonObject toJson(const Results& r);

} // namespace gpuplan::views
