#pragma once

// One convention for numbers in every locale: gpuplan shows and reads figures as US English
// ("$40,000", "0.13 $/kWh"), the convention of the US grant budgets and price sources it serves,
// which its tables, reports and JSON already write whatever the locale. Two things otherwise
// follow the user's locale: Qt's widgets, which read and show numbers by the default QLocale
// (a German "$40.000" budget box beside "$40,000" in the text), and C's printf family, by
// LC_NUMERIC, which QCoreApplication sets from the environment (a budget justification said
// "assumed utilisation 0,40 of peak" under de_DE).

namespace gpuplan::views {

// Call once, after the Q(Core)Application is made (it sets LC_NUMERIC from the environment).
void useOneNumberConvention();

} // namespace gpuplan::views
