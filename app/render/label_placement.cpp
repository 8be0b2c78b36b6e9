#include "app/render/label_placement.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace gpuplan::render {

namespace {

// Farther candidates, as multiples of the clearance: a label pushed off its first spots by a
// line still sits near enough to read as its point's.
constexpr qreal kDistances[] = { 1.0, 1.6 };
// Further out, for the one label that must show, joined to its point by a leader line.
constexpr qreal kLeaderDistances[] = { 2.4, 3.4, 4.6, 6.0 };

// A spot beside a point, with the side of the point it lies on (Any: centred above or below).
struct Candidate {
    QPointF topLeft;
    LabelSide side;
    bool oneSidedOnly = false; // flush above or below: only for a one-sided label
};

std::vector<Candidate> candidates(const QPointF& at, const QSizeF& size, qreal r)
{
    const qreal w = size.width();
    const qreal h = size.height();
    return {
        { { at.x() + r, at.y() - h / 2 }, LabelSide::Right },
        { { at.x() - r - w, at.y() - h / 2 }, LabelSide::Left },
        { { at.x() - w / 2, at.y() - r - h }, LabelSide::Any }, // above
        { { at.x() - w / 2, at.y() + r }, LabelSide::Any }, // below
        { { at.x() + r, at.y() - r - h }, LabelSide::Right }, // diagonals
        { { at.x() + r, at.y() + r }, LabelSide::Right },
        { { at.x() - r - w, at.y() - r - h }, LabelSide::Left },
        { { at.x() - r - w, at.y() + r }, LabelSide::Left },
        // Above or below, flush with the point on its side: where a one-sided label has no room
        // beside its point (a bar ending near the plot's edge). A label free to go anywhere has
        // the centred spots instead.
        { { at.x(), at.y() - r - h }, LabelSide::Right, true },
        { { at.x() - w, at.y() - r - h }, LabelSide::Left, true },
        { { at.x(), at.y() + r }, LabelSide::Right, true },
        { { at.x() - w, at.y() + r }, LabelSide::Left, true },
    };
}

// How far `p` is from the nearest edge of `box` (0 inside it).
qreal distanceTo(const QRectF& box, const QPointF& p)
{
    const qreal dx = std::max({ box.left() - p.x(), 0.0, p.x() - box.right() });
    const qreal dy = std::max({ box.top() - p.y(), 0.0, p.y() - box.bottom() });
    return std::hypot(dx, dy);
}

// Whether another marker lies nearer the label than its own point: the label then reads as
// that point's ("8×H200 SXM" ended at the 8×H100's marker, a diagonal spot away from its own).
// Markers at the point itself (a ring around it) do not count.
bool nearerToAnother(const QRectF& box, const QPointF& own, const std::vector<QRectF>& markers)
{
    constexpr qreal kSamePoint = 1.0; // px: a marker centred on the point is the point's
    constexpr qreal kMargin = 2.0; // px: as near as its own point is still its own
    // Another marker must be clearly nearer: in a crowd every spot has a neighbour about as
    // near as the point, and a label beside its own point still reads as its own.
    constexpr qreal kNearer = 0.5;
    const qreal ownDistance = distanceTo(box, own);
    for (const QRectF& m : markers) {
        const QPointF centre = m.center();
        if (QLineF(centre, own).length() <= kSamePoint)
            continue;
        if (distanceTo(box, centre) + kMargin < kNearer * ownDistance)
            return true;
    }
    return false;
}

// Whether a label that may go on `wanted` side may take candidate `c`.
bool allowed(const Candidate& c, LabelSide wanted)
{
    return wanted == LabelSide::Any ? !c.oneSidedOnly : c.side == wanted;
}

// Where the label that must show goes when no spot beside its point is free: spots further out,
// nearest first; then the free spot nearest the point within `near` of it, over lines if need
// be, then the spot there over the fewest markers, on its halo (a small crowded chart: the cloud
// offers around the ringed machine at 1280x800, where the nearest free spot lay among the
// rentals at 30 times its cost); then the same anywhere on the plot. Each on the point's side
// of the dividers first (`onItsSide`). Never over its own point and ring. A grid of at most
// about 4,000 spots: on a large crowded plot a 6 px grid took most of a second.
std::optional<QRectF> farSpot(const QRectF& plot, const LabelRequest& label, qreal clearance,
    const std::function<bool(const QRectF&, bool, bool)>& isFree,
    const std::function<bool(const QRectF&)>& onItsSide, const std::vector<QRectF>& markers,
    const std::vector<QRectF>& taken)
{
    const QRectF own(
        label.anchor - QPointF(clearance, clearance), QSizeF(2 * clearance, 2 * clearance));
    const qreal step = std::max(6.0, std::sqrt(plot.width() * plot.height() / 4000.0));
    const auto bestSpot = [&](qreal within, bool keepSide, const auto& cost) {
        std::optional<QRectF> best;
        std::pair<std::size_t, qreal> lowest { std::numeric_limits<std::size_t>::max(), 0.0 };
        for (qreal y = plot.top(); y + label.size.height() <= plot.bottom(); y += step)
            for (qreal x = plot.left(); x + label.size.width() <= plot.right(); x += step) {
                const QRectF box(QPointF(x, y), label.size);
                const qreal distance = distanceTo(box, label.anchor);
                if (distance > within || box.intersects(own) || (keepSide && !onItsSide(box)))
                    continue;
                const auto c = cost(box);
                if (!c)
                    continue;
                const std::pair<std::size_t, qreal> here { *c, distance };
                if (here < lowest) {
                    lowest = here;
                    best = box;
                }
            }
        return best;
    };
    const auto free = [&](bool clearLines) {
        return [&isFree, clearLines](const QRectF& b) {
            return isFree(b, false, clearLines) ? std::optional<std::size_t>(0) : std::nullopt;
        };
    };
    const auto fewestMarkers = [&](const QRectF& b) -> std::optional<std::size_t> {
        for (std::size_t t = markers.size(); t < taken.size(); ++t)
            if (taken[t].intersects(b))
                return std::nullopt; // never over another label
        return static_cast<std::size_t>(std::count_if(
            markers.begin(), markers.end(), [&](const QRectF& m) { return m.intersects(b); }));
    };
    const qreal near = std::min(plot.width(), plot.height()) / 3.0;
    for (const bool keepSide : { true, false }) {
        for (qreal distance : kLeaderDistances)
            for (const Candidate& c : candidates(label.anchor, label.size, clearance * distance))
                if (const QRectF box(c.topLeft, label.size);
                    !c.oneSidedOnly && isFree(box, false, true) && (!keepSide || onItsSide(box)))
                    return box;
        for (const qreal within : { near, std::numeric_limits<qreal>::max() }) {
            if (auto box = bestSpot(within, keepSide, free(true)))
                return box;
            if (auto box = bestSpot(within, keepSide, free(false)))
                return box;
            if (auto box = bestSpot(within, keepSide, fewestMarkers))
                return box;
        }
    }
    return std::nullopt;
}

} // namespace

bool segmentCrossesRect(const QLineF& segment, const QRectF& rect)
{
    if (rect.contains(segment.p1()) || rect.contains(segment.p2()))
        return true;
    const QLineF edges[] = {
        { rect.topLeft(), rect.topRight() },
        { rect.topRight(), rect.bottomRight() },
        { rect.bottomRight(), rect.bottomLeft() },
        { rect.bottomLeft(), rect.topLeft() },
    };
    for (const QLineF& edge : edges)
        if (segment.intersects(edge, nullptr) == QLineF::BoundedIntersection)
            return true;
    return false;
}

std::vector<std::optional<QRectF>> placeLabels(const QRectF& plot,
    const std::vector<LabelRequest>& labels, const LabelObstacles& obstacles, qreal clearance,
    std::vector<std::optional<QLineF>>* leaders)
{
    std::vector<std::optional<QRectF>> placed;
    placed.reserve(labels.size());
    if (leaders)
        leaders->assign(labels.size(), std::nullopt);
    std::vector<QRectF> taken = obstacles.markers;
    std::vector<QLineF> lines = obstacles.segments; // and the leaders drawn so far
    // clearLines false: over lines too, on the label's halo (the one that must show, where the
    // budget and deadline lines leave a small plot no free spot wide enough).
    auto isFree = [&](const QRectF& box, bool clearSoft, bool clearLines = true) {
        if (!plot.contains(box))
            return false;
        for (const QRectF& t : taken)
            if (t.intersects(box))
                return false;
        for (const QLineF& s : lines)
            if (clearLines && segmentCrossesRect(s, box))
                return false;
        if (clearSoft)
            for (const QLineF& s : obstacles.softSegments)
                if (segmentCrossesRect(s, box))
                    return false;
        return true;
    };
    // Wholly on its point's side of every divider: the box clears it, and the line from the
    // point to the box's centre crosses none.
    const auto onSideOf = [&](const QPointF& anchor) {
        return [&obstacles, anchor](const QRectF& box) {
            const QLineF toLabel(anchor, box.center());
            return std::none_of(
                obstacles.dividers.begin(), obstacles.dividers.end(), [&](const QLineF& d) {
                    return segmentCrossesRect(d, box)
                        || toLabel.intersects(d, nullptr) == QLineF::BoundedIntersection;
                });
        };
    };
    for (const LabelRequest& label : labels) {
        const auto onItsSide = onSideOf(label.anchor);
        std::optional<QRectF> where;
        for (bool clearSoft : { true, false }) {
            for (qreal distance : kDistances) {
                for (const Candidate& c :
                    candidates(label.anchor, label.size, clearance * distance))
                    if (const QRectF box(c.topLeft, label.size); allowed(c, label.side)
                        && (!label.rowBand
                            || (box.top() >= label.rowBand->first
                                && box.bottom() <= label.rowBand->second))
                        && isFree(box, clearSoft) && onItsSide(box)
                        && !nearerToAnother(box, label.anchor, obstacles.markers)) {
                        where = box;
                        break;
                    }
                if (where)
                    break;
            }
            if (where)
                break;
        }
        // Not beside its point: a leader line (below) says whose label it is.
        const bool far = !where && label.mustShow;
        if (far)
            where = farSpot(plot, label, clearance, isFree, onItsSide, obstacles.markers, taken);
        if (far && where) {
            // A line from the ring's edge to the label's nearest edge says whose label it is.
            const QPointF to(std::clamp(label.anchor.x(), where->left(), where->right()),
                std::clamp(label.anchor.y(), where->top(), where->bottom()));
            QLineF leader(label.anchor, to);
            if (leader.length() > clearance) {
                leader.setP1(leader.pointAt(clearance / leader.length()));
                lines.push_back(leader); // later labels keep clear of it
                if (leaders)
                    (*leaders)[placed.size()] = leader;
            }
        }
        if (where)
            taken.push_back(*where);
        placed.push_back(where);
    }
    return placed;
}

} // namespace gpuplan::render
