#pragma once

#include <QString>
#include <QStringList>

namespace gpuplan::views {

// The user's own data, layered over the shipped tables without editing them:
//   <dir>/prices/*.yaml        price tables (same schema as pricing/data), over every price set
//   <dir>/prices/<set>/*.yaml  price tables for one shipped price set only (the GUI's edits of
//                              that set, which hold its whole tables)
//   <dir>/results/*.yaml       gpuplan-bench results (the planner's "measured" source)
// <dir> is $GPUPLAN_DATA_DIR if set (tests, portable installs), else ~/.local/share/gpuplan.
QString userDataDir();
// The files over `priceSet`, oldest first (modification time, then name): the newest import or
// saved edit wins.
QStringList userPriceFiles(const QString& priceSet);
QStringList userResultFiles(); // sorted by name

} // namespace gpuplan::views
