#pragma once

// "Rental offers" on the Planner: which offers the experiment-cost chart draws. By default the
// cheapest per GPU type and count of each way to rent; the menu adds every offer, or narrows
// to kinds, providers and fresh rates. The tables always list every offer.

#include "app/render/rental_series.h"

#include <QToolButton>

class QAction;
class QMenu;

namespace gpuplan::gui {

class RentalFilterButton : public QToolButton {
    Q_OBJECT

public:
    explicit RentalFilterButton(QWidget* parent = nullptr);

    // The providers of `results`' offers, for the Providers submenu (ticks are kept by name);
    // its stale limit names the freshness choice; the offers nothing times, named at the foot
    // of the menu (where a user looks for an offer missing from the chart: in the chart's note
    // it pushed the GPUs' colour key out of the legend).
    void offersChanged(const Results& results);
    render::CloudFilter filter() const;

    QAction* everyOfferAction() const { return m_everyOffer; }
    QAction* freshOnlyAction() const { return m_freshOnly; }
    QAction* providerAction(const QString& provider) const; // nullptr if not offered

signals:
    void filterChanged();

private:
    QAction* addToggle(QMenu* menu, const QString& text, bool checked);

    QAction* m_everyOffer = nullptr;
    QAction* m_freshOnly = nullptr;
    QMenu* m_providers = nullptr;
    QAction* m_untimed = nullptr; // disabled: "Not timed for this model: ..." where any are not
    std::vector<std::pair<OfferKind, QAction*>> m_kinds;
    int m_staleMonths = 12;
};

} // namespace gpuplan::gui
