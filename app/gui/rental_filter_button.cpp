#include "app/gui/rental_filter_button.h"

#include "app/common/wording.h"

#include <QMenu>

#include <algorithm>
#include <set>

namespace gpuplan::gui {

RentalFilterButton::RentalFilterButton(QWidget* parent)
    : QToolButton(parent)
{
    setObjectName(QStringLiteral("rentalFilter"));
    setText(tr("Offers"));
    setToolTip(tr("Which rental offers the per-experiment chart draws; the tables list all"));
    setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(this);
    m_everyOffer
        = addToggle(menu, tr("Every offer (not only the cheapest per GPU and count)"), false);
    m_freshOnly = addToggle(menu, QString(), false);
    menu->addSection(tr("Kinds"));
    for (const auto& [kind, text] : { std::pair { OfferKind::Cloud, tr("Cloud") },
             std::pair { OfferKind::Campus, tr("Campus clusters") },
             std::pair { OfferKind::Allocation, tr("Allocations") } }) {
        QAction* action = addToggle(menu, text, true);
        m_kinds.emplace_back(kind, action);
        // An empty choice would mean "all" to the filter: the last ticked kind stays ticked.
        connect(action, &QAction::toggled, this, [this, action](bool on) {
            const bool any = std::any_of(m_kinds.begin(), m_kinds.end(),
                [](const auto& k) { return k.second->isChecked(); });
            if (!on && !any)
                action->setChecked(true);
        });
    }
    m_providers = menu->addMenu(tr("Providers"));
    m_untimed = menu->addAction(QString());
    m_untimed->setObjectName(QStringLiteral("untimedOffers"));
    m_untimed->setEnabled(false);
    m_untimed->setVisible(false);
    menu->setToolTipsVisible(true);
    setMenu(menu);
}

QAction* RentalFilterButton::addToggle(QMenu* menu, const QString& text, bool checked)
{
    QAction* action = menu->addAction(text);
    action->setCheckable(true);
    action->setChecked(checked);
    connect(action, &QAction::toggled, this, &RentalFilterButton::filterChanged);
    return action;
}

void RentalFilterButton::offersChanged(const Results& results)
{
    m_staleMonths = results.assumptions.staleMonths;
    m_freshOnly->setText(tr("Only rates under %1 months old").arg(m_staleMonths));
    // Short in the menu, the reason in its tooltip: a menu as wide as the whole sentence.
    m_untimed->setText(tr("Not timed for this model: %1").arg(views::untimedOfferList(results)));
    m_untimed->setToolTip(views::untimedOffersSummary(results));
    m_untimed->setVisible(!results.untimedOffers.empty());
    std::set<QString> providers;
    for (const CloudOption& c : results.cloud)
        providers.insert(QString::fromStdString(c.offer->provider));
    std::set<QString> unticked;
    std::set<QString> had;
    for (QAction* a : m_providers->actions()) {
        had.insert(a->text());
        if (!a->isChecked())
            unticked.insert(a->text());
    }
    if (had == providers)
        return; // the same menu: no flicker, no spurious replot
    m_providers->clear();
    const QSignalBlocker quiet(this); // rebuilding is not a change of the filter
    for (const QString& p : providers)
        addToggle(m_providers, p, !unticked.count(p));
}

QAction* RentalFilterButton::providerAction(const QString& provider) const
{
    for (QAction* a : m_providers->actions())
        if (a->text() == provider)
            return a;
    return nullptr;
}

render::CloudFilter RentalFilterButton::filter() const
{
    render::CloudFilter f;
    f.everyOffer = m_everyOffer->isChecked();
    if (m_freshOnly->isChecked())
        f.maxAgeMonths = m_staleMonths;
    bool allKinds = true;
    for (const auto& [kind, action] : m_kinds) {
        allKinds = allKinds && action->isChecked();
        if (action->isChecked())
            f.kinds.insert(kind);
    }
    if (allKinds)
        f.kinds.clear();
    bool allProviders = true;
    std::set<std::string> ticked;
    for (QAction* a : m_providers->actions()) {
        allProviders = allProviders && a->isChecked();
        if (a->isChecked())
            ticked.insert(a->text().toStdString());
    }
    if (!allProviders)
        f.providers = ticked;
    return f;
}

} // namespace gpuplan::gui
