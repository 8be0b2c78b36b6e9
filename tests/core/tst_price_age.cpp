// The age of a price against the day a plan is made, and the stale_price rule.

#include "core/price_age.h"

#include <QTest>

using namespace gpuplan;

class TestPriceAge : public QObject {
    Q_OBJECT

private slots:
    void monthsOld_data()
    {
        QTest::addColumn<QString>("date");
        QTest::addColumn<QString>("today");
        QTest::addColumn<int>("expected"); // -1: unknown
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
        QTest::addRow("future") << "2027-01-01"
                                << "2026-11-23" << 0;
        QTest::addRow("undated") << "undated"
                                 << "2026-11-23" << -1;
        QTest::addRow("no today") << "2024-09-21"
                                  << "" << -1;
        QTest::addRow("month 13") << "2024-13-01"
                                  << "2026-11-23" << -1;
    }
    void monthsOld()
    {
        QFETCH(QString, date);
        QFETCH(QString, today);
        QFETCH(int, expected);
        const auto age = gpuplan::monthsOld(date.toStdString(), today.toStdString());
        QCOMPARE(age.value_or(-1), expected);
    }

    void staleAfterTheLimit()
    {
        const std::string today = "2026-11-23";
        QVERIFY(!isStale({ "2025-11-23", "x", "" }, today, 12)); // 12 months: not over
        QVERIFY(!isStale({ "2025-10-24", "x", "" }, today, 12)); // still 12 whole months
        QVERIFY(isStale({ "2025-10-23", "x", "" }, today, 12)); // 13
        QVERIFY(isStale({ "undated", "x", "why" }, today, 12)); // age unknown
        QVERIFY(!isStale({ "2020-01", "x", "" }, "", 12)); // no today: nothing is aged
    }
};

QTEST_GUILESS_MAIN(TestPriceAge)
#include "tst_price_age.moc"
