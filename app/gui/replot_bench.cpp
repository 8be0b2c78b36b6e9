// gpuplan-gui-replot-bench: how long the planner takes from an assumption change to a repainted
// window, on the full grid (every GPU with a price × 1/2/4/8 GPUs × every cloud offer).
// Target: <= 16 ms (one frame at 60 Hz), with the shipped offers and with OFFERS cloud offers
// (the shipped ones repeated across made-up regions at rates a few percent apart, as an import
// of a catalog by region gives). Run offscreen or under Xvfb:
//   QT_QPA_PLATFORM=offscreen gpuplan-gui-replot-bench [changes] [offers]

#include "app/common/number_convention.h"
#include "app/gui/allocator_tuning.h"
#include "app/gui/assumptions_panel.h"
#include "app/gui/main_window.h"
#include "app/gui/planner_session.h"
#include "app/gui/user_files.h"
#include "pricing/measured_results.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTextStream>

#include <algorithm>
#include <vector>

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    gpuplan::gui::keepFreedMemoryForReplots(); // as the app does
    QApplication app(argc, argv);
    gpuplan::views::useOneNumberConvention();
    const int changes = argc > 1 ? std::max(1, QByteArray(argv[1]).toInt()) : 50;
    const int offers = argc > 2 ? std::max(0, QByteArray(argv[2]).toInt()) : 0;
    constexpr int kWarmUp = 5;

    auto catalog = std::make_shared<gpuplan::Catalog>(*gpuplan::loadPlannerCatalog({}, {}).catalog);
    const std::vector<gpuplan::CloudOffer> shipped = catalog->cloudOffers;
    for (int i = 0; static_cast<int>(catalog->cloudOffers.size()) < offers; ++i) {
        gpuplan::CloudOffer copy = shipped[static_cast<std::size_t>(i) % shipped.size()];
        const int region = i / static_cast<int>(shipped.size()) + 1;
        copy.id += "-r" + std::to_string(region);
        copy.region = "region-" + std::to_string(region);
        const double factor = 1.0 + 0.01 * (region % 7);
        if (copy.onDemandUsdPerHour)
            *copy.onDemandUsdPerHour *= factor;
        if (copy.spotUsdPerHour)
            *copy.spotUsdPerHour *= factor;
        catalog->cloudOffers.push_back(std::move(copy));
    }
    gpuplan::gui::MainWindow window(catalog);
    window.resize(1600, 1000);
    window.show();
    QApplication::processEvents();

    std::vector<double> ms;
    QElapsedTimer timer;
    for (int i = 0; i < kWarmUp + changes; ++i) {
        gpuplan::Assumptions a = window.session()->scenario().assumptions;
        a.amortizationYears = 3.0 + (i % 5); // a new value every time
        timer.start();
        window.session()->setAssumptions(a);
        window.repaint(); // synchronous: the charts and tables are painted when it returns
        const double elapsed = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        if (i >= kWarmUp)
            ms.push_back(elapsed);
    }
    std::sort(ms.begin(), ms.end());
    const auto& r = window.session()->results();
    QTextStream(stdout) << "options " << r.options.size() << ", cloud offers "
                        << catalog->cloudOffers.size() << " (" << r.cloud.size() << " priced)"
                        << ", changes " << changes << ": change -> repaint median "
                        << ms[ms.size() / 2] << " ms, p90 " << ms[ms.size() * 9 / 10] << " ms, max "
                        << ms.back() << " ms (target <= 16 ms)\n";
    return 0;
}
