#pragma once

// The price editor's columns, one descriptor each: header, what kind of value the cell holds
// (which decides its validation), how to read it from a catalog and how to write it back. The
// price book, its table model and its validation all go through this one table.

#include "core/catalog.h"

#include <QVariant>

#include <cstddef>
#include <span>

namespace gpuplan::gui {

// In the order of the Price tables view's tabs.
enum class PriceTable { Gpus, Chassis, Systems, Cloud, Electricity };

enum class CellKind {
    ReadOnly, // identity columns: changing them would make another entry
    Source, // where a figure came from: required text
    Date, // ISO date, as the loader accepts it
    Price, // purchase price (limits::kPriceUsd)
    PriceKindChoice, // what kind of figure the price is: it sets the price's default range
    Rate, // hourly rate (limits::kHourlyUsd); an offer keeps at least one
    Assumption, // the row's assumption, bounded by the assumption table
};

struct PriceColumn {
    const char* header; // translated by the views
    CellKind kind;
    QVariant (*get)(const Catalog& catalog, std::size_t row);
    void (*set)(Catalog& catalog, std::size_t row, const QVariant& value); // null: read-only
};

std::span<const PriceColumn> priceColumns(PriceTable table);
int priceRowCount(const Catalog& catalog, PriceTable table);

// The assumptions the Electricity table edits, one per row.
AssumptionId electricityRowAssumption(std::size_t row);

// The provenance a row's Date and Source columns edit.
const Provenance& rowProvenance(const Catalog& catalog, PriceTable table, std::size_t row);
Provenance& rowProvenance(Catalog& catalog, PriceTable table, std::size_t row);

} // namespace gpuplan::gui
