// Words on the planner's own widgets: the F&A label shows its ampersand, counts take their
// plural, and the Buy vs rent view hands its chosen offers and axis to the report.

#include "app/gui/assumptions_panel.h"
#include "app/gui/buy_vs_rent_view.h"
#include "app/gui/planner_session.h"
#include "app/render/buy_vs_rent_chart.h"
#include "pricing/catalog_loader.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QListWidget>
#include <QSpinBox>
#include <QtTest>

using namespace gpuplan;

class TestViewWording : public QObject {
    Q_OBJECT

private slots:
    void indirectRateLabelShowsItsAmpersand()
    {
        gui::AssumptionsPanel panel;
        auto* spin = panel.findChild<QDoubleSpinBox*>(QStringLiteral("indirectRate"));
        QVERIFY(spin);
        auto* form = qobject_cast<QFormLayout*>(panel.layout());
        QVERIFY(form);
        auto* label = qobject_cast<QLabel*>(form->labelForField(spin));
        QVERIFY(label);
        // "&&" is drawn as "&"; a single "&" would be a shortcut marker and vanish: "(FA)".
        QCOMPARE(label->text(), QStringLiteral("Indirect (F&&A) rate"));
        QVERIFY(QKeySequence::mnemonic(label->text()).isEmpty());
    }

    void plannedRunsTakeTheirPlural()
    {
        gui::AssumptionsPanel panel;
        auto* runs = panel.findChild<QSpinBox*>(QStringLiteral("plannedRuns"));
        auto* rate = panel.findChild<QDoubleSpinBox*>(QStringLiteral("runsPerMonth"));
        QVERIFY(runs && rate);
        runs->setValue(1);
        QCOMPARE(runs->text(), QStringLiteral("1 run"));
        runs->setValue(2);
        QCOMPARE(runs->text(), QStringLiteral("2 runs"));
        Assumptions a = panel.assumptions();
        a.plannedRuns = 1;
        a.runsPerMonth = 1.0;
        panel.setAssumptions(a); // signals blocked: the suffix still follows
        QCOMPARE(runs->text(), QStringLiteral("1 run"));
        QCOMPARE(rate->text(), QStringLiteral("1.00 run/month"));
    }

    void buyVsRentViewHandsOverItsChoice()
    {
        const auto catalog = loadCatalog(shippedDataFiles()).catalog;
        gui::PlannerSession session(catalog);
        gui::BuyVsRentView view(&session);
        const Results& r = session.results();
        // A machine with two offers of its own GPUs and count.
        std::size_t chosen = r.options.size();
        for (std::size_t i = 0; i < r.options.size() && chosen == r.options.size(); ++i)
            if (matchingCloudOffers(r, i).size() >= 2)
                chosen = i;
        QVERIFY(chosen < r.options.size());
        view.setMachine(chosen);
        const auto matching = matchingCloudOffers(r, chosen);
        QCOMPARE(view.chosenOffers(), matching); // ticked by default
        auto* offers = view.findChild<QListWidget*>(QStringLiteral("offers"));
        QVERIFY(offers);
        // Untick all but the last matching offer.
        for (int row = 0; row < offers->count(); ++row)
            if (offers->item(row)->data(Qt::UserRole).toInt() != static_cast<int>(matching.back()))
                offers->item(row)->setCheckState(Qt::Unchecked);
        QCOMPARE(view.chosenOffers(), std::vector<std::size_t> { matching.back() });
        QCOMPARE(view.conclusion(), render::buyVsRentConclusion(r, chosen, { matching.back() }));
        QVERIFY(!view.monthsAxis());
        view.findChild<QComboBox*>(QStringLiteral("axis"))->setCurrentIndex(1);
        QVERIFY(view.monthsAxis());
        QVERIFY(view.chartData().x.title.startsWith(QStringLiteral("Months")));
    }
};

QTEST_MAIN(TestViewWording)
#include "tst_view_wording.moc"
