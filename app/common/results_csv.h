#pragma once

#include "core/evaluate.h"

#include <QString>
#include <QStringList>

namespace gpuplan::views {

// RFC 4180 CSV of the tables, with raw numbers (no "$" or grouping) so spreadsheets can sum.
QString optionsCsv(const Results& r);
QString cloudCsv(const Results& r);
QString csvRow(const QStringList& cells);

} // namespace gpuplan::views
