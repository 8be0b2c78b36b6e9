#pragma once

// Where point labels go on a chart, as a pure function of screen geometry (no Qt Charts), so
// tests can check that no label covers a marker, another label or a drawn line.

#include "app/render/chart_data.h"

#include <QLineF>
#include <QPointF>
#include <QRectF>
#include <QSizeF>

#include <optional>
#include <utility>
#include <vector>

namespace gpuplan::render {

struct LabelRequest {
    QPointF anchor; // the point's position on screen
    QSizeF size; // the label's text size
    LabelSide side = LabelSide::Any; // Left/Right: only the candidates on that side
    // A label of a row (a tornado's bar end): the screen y range of its row, which it must not
    // leave. Where the rows are low (a small window), a spot above or below the point lies on
    // the next row's bar and reads as that input's value.
    std::optional<std::pair<qreal, qreal>> rowBand = std::nullopt; // top, bottom
    // The one label a chart must show (the ringed machine): where no spot beside its point is
    // free, one further out, joined to its point with a leader line.
    bool mustShow = false;
};

struct LabelObstacles {
    std::vector<QRectF> markers; // every drawn marker (labels never cover a point)
    std::vector<QLineF> segments; // frontier, budget, deadline: never crossed
    // Lines a label keeps clear of where it can, and crosses (on its halo) where it cannot: the
    // cost curves of the buy-vs-rent chart, whose crossings are what the labels mark.
    std::vector<QLineF> softSegments;
    // The budget and deadline lines (also in `segments`): a label stays on its point's side of
    // each, where across one a machine over the budget read as within it.
    std::vector<QLineF> dividers;
};

// True when the segment passes through the rectangle (or touches it).
bool segmentCrossesRect(const QLineF& segment, const QRectF& rect);

// Puts each label beside its point, in request order (earlier requests win), trying right,
// left, above, below, the four diagonals, then the same a step further out (a one-sided request
// only the spots on its side, and above or below flush with the point on that side); a
// candidate must lie inside `plot`, clear every marker, every segment and every label placed
// before it (and every soft segment, unless no candidate clears those too), lie on its point's
// side of every divider, and lie not clearly nearer another marker than its own point (at half
// the distance, where it would read as that point's label). A label that fits nowhere gets
// nullopt: its point still has a tooltip and a table row. A `mustShow` label tries, last, spots
// up to six times further out, then the free spot nearest its point within a third of the
// plot's smaller side (over lines, then over as few markers as can be: on its halo near its
// point, it reads as its point's, where a free spot across the plot sat among other series'
// markers), then the same anywhere on the plot, never over another label or its own point,
// and on its point's side of the dividers where any spot is; such a label gets a leader line in
// `leaders`
// (from `clearance` off its point to the label's nearest edge), which later labels keep clear
// of. `clearance` is the distance from the point's centre to the nearest label edge.
std::vector<std::optional<QRectF>> placeLabels(const QRectF& plot,
    const std::vector<LabelRequest>& labels, const LabelObstacles& obstacles, qreal clearance,
    std::vector<std::optional<QLineF>>* leaders = nullptr);

} // namespace gpuplan::render
