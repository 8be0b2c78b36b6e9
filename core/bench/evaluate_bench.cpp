// Times gpuplan::evaluate on the full grid: every model x every GPU x counts 1-8 x every cloud
// offer, with the shipped catalog. Prints the median and spread of the per-call time.
// Target (issue "planner core"): <= 1 ms per evaluate of one model's full grid.

#include "core/evaluate.h"
#include "pricing/catalog_loader.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

int main()
{
    using namespace gpuplan;
    using Clock = std::chrono::steady_clock;
    constexpr int kWarmup = 20;
    constexpr int kRepeats = 201;

    const CatalogLoad load = loadCatalog(shippedDataFiles());
    if (!load.ok()) {
        std::fprintf(stderr, "%s", formatIssues(load.issues).c_str());
        return 2;
    }
    const auto catalog = load.catalog;
    Scenario scenario;
    scenario.catalog = catalog;
    scenario.assumptions = catalog->defaults;
    scenario.budgetUsd = 40000.0;

    std::size_t options = 0;
    std::size_t cloud = 0;
    auto evaluateAllModels = [&] {
        options = cloud = 0;
        for (const auto& w : catalog->workloads) {
            scenario.modelId = w.id;
            const Results r = evaluate(scenario);
            options += r.options.size();
            cloud += r.cloud.size();
        }
    };
    for (int i = 0; i < kWarmup; ++i)
        evaluateAllModels();
    std::vector<double> perModelMicros;
    for (int i = 0; i < kRepeats; ++i) {
        const auto start = Clock::now();
        evaluateAllModels();
        const std::chrono::duration<double, std::micro> elapsed = Clock::now() - start;
        perModelMicros.push_back(elapsed.count() / static_cast<double>(catalog->workloads.size()));
    }
    std::sort(perModelMicros.begin(), perModelMicros.end());
    std::printf("evaluate(): %zu models, %zu GPUs, %zu cloud offers; %zu owned + %zu cloud "
                "options per pass\n",
        catalog->workloads.size(), catalog->gpus.size(), catalog->cloudOffers.size(), options,
        cloud);
    std::printf("per model (one full grid): median %.1f us, min %.1f us, max %.1f us over %d "
                "runs\n",
        perModelMicros[perModelMicros.size() / 2], perModelMicros.front(), perModelMicros.back(),
        kRepeats);
    return 0;
}
