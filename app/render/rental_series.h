#pragma once

// The ways to rent, drawn on the experiment-cost chart beside the machines to buy: one series
// per way of paying (cloud on-demand, spot, reserved; campus recharge; allocation). With
// hundreds of imported offers the chart would be a cloud of markers, so by default each series
// keeps, per GPU type and count, only its cheapest offer; a filter chooses what else to show.
// The tables, CSV and JSON keep every offer.

#include "app/render/chart_data.h"
#include "core/evaluate.h"

#include <optional>
#include <set>
#include <string>

namespace gpuplan::render {

struct CloudFilter {
    bool everyOffer = false; // false: the cheapest per GPU type and count in each series
    std::set<OfferKind> kinds; // empty: every kind
    std::set<std::string> providers; // empty: every provider
    std::set<std::string> regions; // empty: every region
    std::optional<int> maxAgeMonths; // rates older than this are left out (undated too)

    bool shows(const CloudOption& option) const;
};

// Adds the series to `chart` (whose axes are fitted afterwards) and returns the allocation
// series apart: its $0 cash cost has no place on a log axis. The caller hands it to
// placeAllocations before fitting the axes (a linear axis draws $0 where it is) and again after
// (a log axis draws it on the floor, and its legend entry says so).
ChartSeries addRentalSeries(ChartData& chart, const Results& results, const CloudFilter& filter);
enum class AxesFitted { No, Yes };
void placeAllocations(ChartData& chart, ChartSeries& allocations, AxesFitted fitted);

// "Cheapest offer per GPU and count of each way to rent: 12 of 140 shown." or empty when every
// offer is drawn.
QString rentalNote(const Results& results, const CloudFilter& filter, int shown);

} // namespace gpuplan::render
