#include "app/common/number_convention.h"

#include <QLocale>

#include <clocale>

namespace gpuplan::views {

void useOneNumberConvention()
{
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    std::setlocale(LC_NUMERIC, "C");
}

} // namespace gpuplan::views
