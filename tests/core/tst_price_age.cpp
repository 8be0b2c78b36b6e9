// The age of a price against the day a plan is made, and the stale_price rule.

#include "core/price_age.h"

#include <QTest>

using namespace gpuplan;

class TestPriceAge : public QObject {
    Q_OBJECT

    static constexpr int kUnknown = 9999;

private slots:
    void monthsOld_data()
    {
        QTest::addColumn<QString>("date");
        QTest::addColumn<QString>("today");
        QTest::addColumn<int>("expected"); // kUnknown: no age
        QTest::addRow("the paper's quotes") << "2024-09-21"
                                            << "2026-11-23" << 26;
        QTest::addRow("not yet a whole month") << "2026-10-24"
                                               << "2026-11-23" << 0;
        QTest::addRow("a whole month") << "2026-10-23"
                                       << "2026-11-23" << 1;
        QTest::addRow("month only: the first") << "2025-11"
                                               << "2026-11-23" << 12;
        QTest::addRow("year only: January") << "2024"
                                            << "2026-11-23" << 34;
        // After today, counted backwards: a typo for 2025 must not pass for a fresh price.
        QTest::addRow("future") << "2027-01-01"
                                << "2026-11-23" << -1;
        QTest::addRow("ten months ahead") << "2027-10-01"
                                          << "2026-11-28" << -10;
        QTest::addRow("two days ahead") << "2026-11-30"
                                        << "2026-11-28" << -1;
        QTest::addRow("year only, ahead") << "2027"
                                          << "2026-11-28" << -1;
        QTest::addRow("undated") << "undated"
                                 << "2026-11-23" << kUnknown;
        QTest::addRow("no today") << "2024-09-21"
                                  << "" << kUnknown;
        QTest::addRow("month 13") << "2024-13-01"
                                  << "2026-11-23" << kUnknown;
    }
    void monthsOld()
    {
        QFETCH(QString, date);
        QFETCH(QString, today);
        QFETCH(int, expected);
        const auto age = gpuplan::monthsOld(date.toStdString(), today.toStdString());
        QCOMPARE(age.value_or(kUnknown), expected);
    }

    void staleAfterTheLimit()
    {
        const std::string today = "2026-11-23";
        QVERIFY(!isStale({ "2025-11-23", "x", "" }, today, 12)); // 12 months: not over
        QVERIFY(!isStale({ "2025-10-24", "x", "" }, today, 12)); // still 12 whole months
        QVERIFY(isStale({ "2025-10-23", "x", "" }, today, 12)); // 13
        QVERIFY(isStale({ "undated", "x", "why" }, today, 12)); // age unknown
        QVERIFY(isStale({ "2026-11-24", "x", "" }, today, 12)); // dated after today
        QVERIFY(!isStale({ "2026-11-23", "x", "" }, today, 12)); // today itself
        QVERIFY(!isStale({ "2020-01", "x", "" }, "", 12)); // no today: nothing is aged
    }
};

QTEST_GUILESS_MAIN(TestPriceAge)
#include "tst_price_age.moc"
