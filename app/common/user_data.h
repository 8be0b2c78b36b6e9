#pragma once

#include <QString>
#include <QStringList>

namespace gpuplan::views {

// The user's own data, layered over the shipped tables without editing them:
//   <dir>/prices/*.yaml   price tables (same schema as pricing/data)
//   <dir>/results/*.yaml  gpuplan-bench results (the planner's "measured" source)
// <dir> is $GPUPLAN_DATA_DIR if set (tests, portable installs), else ~/.local/share/gpuplan.
QString userDataDir();
QStringList userPriceFiles();   // sorted by name, so layering order is predictable
QStringList userResultFiles();

} // namespace gpuplan::views
