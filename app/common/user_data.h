#pragma once

#include <QString>
#include <QStringList>

namespace gpuplan::views {

// The user's own data, layered over the shipped tables without editing them:
//   <dir>/prices/*.yaml   price tables (same schema as pricing/data)
//   <dir>/results/*.yaml  gpuplan-bench results (the planner's "measured" source)
// <dir> is $GPUPLAN_DATA_DIR if set (tests, portable installs), else ~/.local/share/gpuplan.
QString userDataDir();
// Oldest first (modification time, then name): the newest import or saved edit wins.
QStringList userPriceFiles();
QStringList userResultFiles(); // sorted by name

} // namespace gpuplan::views
