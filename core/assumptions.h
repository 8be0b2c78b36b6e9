#pragma once

#include "core/provenance.h"

namespace gpuplan {

// Every knob of the cost model with its default. Defaults reproduce the paper's Fig. 7
// (5-year lifespan, machine busy all the time, no energy in the per-experiment cost).
struct Assumptions {
    double amortizationYears = 5.0;
    double machineUtilization = 1.0; // fraction of the lifespan the machine runs experiments
    double electricityUsdPerKwh = 0.13;
    double pue = 1.5; // facility overhead on electricity (1.0 = none)
    double spotRestartOverhead = 0.10; // extra run time lost to pre-emptions on spot
    double indirectRate = 0.0; // F&A rate on cloud spend; 0 = off. Equipment is exempt.
    double analyticUtilization = 0.4; // fraction of peak the analytic estimator assumes
    int plannedRuns = 1;
    double runsPerMonth = 1.0; // for stating break-even in months

    Provenance electricitySource;
    Provenance pueSource;
    Provenance spotOverheadSource;
    Provenance analyticUtilizationSource;
};

} // namespace gpuplan
