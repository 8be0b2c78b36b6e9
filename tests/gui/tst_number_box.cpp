// Numbers typed into gpuplan's boxes are read as the user means them, in any locale, or refused
// as typed; never read as another number. Qt's QDoubleSpinBox had read "0.21" in a German locale
// as 2.000 $/kWh, "25000.50" in the budget box as $2,500,050, and kept two decimals in the price
// tables' editor (0.137 saved as 0.13).

#include "app/common/number_convention.h"
#include "app/gui/number_box.h"

#include <QItemEditorFactory>
#include <QLocale>
#include <QTest>

#include <clocale>
#include <cstring>
#include <memory>

using gpuplan::gui::NumberBox;

namespace {

// The Assumptions dock's electricity price box.
std::unique_ptr<NumberBox> electricityBox()
{
    auto box = std::make_unique<NumberBox>();
    box->setRange(0, 10);
    box->setDecimals(3);
    box->setSuffix(QStringLiteral(" $/kWh"));
    box->setKeyboardTracking(false);
    box->setValue(0.13);
    return box;
}

// The Planner's budget box.
std::unique_ptr<NumberBox> budgetBox()
{
    auto box = std::make_unique<NumberBox>();
    box->setRange(100, 1e8);
    box->setDecimals(0);
    box->setPrefix(QStringLiteral("$"));
    box->setGroupSeparatorShown(true);
    box->setKeyboardTracking(false);
    box->setValue(40000);
    return box;
}

// What the box holds after the user selects its text, types `text` and presses Enter.
double typed(NumberBox& box, const QString& text)
{
    box.show();
    box.setFocus();
    QTest::keyClick(&box, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(&box, text);
    QTest::keyClick(&box, Qt::Key_Return);
    return box.value();
}

} // namespace

class TestNumberBox : public QObject {
    Q_OBJECT

private slots:
    void cleanup() { QLocale::setDefault(QLocale::c()); }

    void aDecimalPointOrCommaIsTheDecimalMark()
    {
        for (const QLocale& locale : { QLocale(QLocale::German, QLocale::Germany),
                 QLocale(QLocale::French, QLocale::France), QLocale::c() }) {
            QLocale::setDefault(locale);
            auto box = electricityBox();
            QCOMPARE(typed(*box, QStringLiteral("0.21")), 0.21);
            QCOMPARE(typed(*box, QStringLiteral("0,137")), 0.137);
            QCOMPARE(typed(*box, QStringLiteral("1.5")), 1.5);
        }
    }

    void thousandsAreGroupedOnlyWhereTheBoxHoldsThem()
    {
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        auto budget = budgetBox();
        QCOMPARE(typed(*budget, QStringLiteral("25,000")), 25000.0);
        // A point in a box without decimals is read, and the value rounded to what it shows.
        QCOMPARE(typed(*budget, QStringLiteral("25000.50")), 25001.0);
        QCOMPARE(budget->text(), QStringLiteral("$25,001"));
        // A German grouping in a box of whole dollars is one too.
        QCOMPARE(typed(*budget, QStringLiteral("400.000")), 400000.0);
        auto electricity = electricityBox();
        QCOMPARE(*electricity->parse(QStringLiteral("1,500")), 1.5); // it holds no thousands
        // A leading 0 groups nothing: a decimal comma, also where a box holds thousands.
        QCOMPARE(*budget->parse(QStringLiteral("0,137")), 0.137);
        QCOMPARE(*budget->parse(QStringLiteral("-0,137")), -0.137);
    }

    void textThatIsNoNumberOrTooLargeIsRefusedAsTyped()
    {
        auto box = electricityBox();
        QString text = QStringLiteral("0.2x");
        int pos = static_cast<int>(text.size());
        QCOMPARE(box->validate(text, pos), QValidator::Invalid);
        text = QStringLiteral("12");
        QCOMPARE(box->validate(text, pos), QValidator::Invalid); // above 10 $/kWh
        text = QStringLiteral(","); // the start of ",5"
        QCOMPARE(box->validate(text, pos), QValidator::Intermediate);
        text = QStringLiteral("1.2.3");
        QCOMPARE(box->validate(text, pos), QValidator::Invalid);
        // The keystroke that would pass the maximum is not taken: "12" stays "1".
        QCOMPARE(typed(*box, QStringLiteral("12")), 1.0);
        auto budget = budgetBox();
        text = QStringLiteral("$50"); // on the way to $500: below the minimum, not refused
        QCOMPARE(budget->validate(text, pos), QValidator::Intermediate);
    }

    void tableEditorsKeepSubCentFigures()
    {
        std::unique_ptr<QWidget> editor(
            gpuplan::gui::numberEditorFactory()->createEditor(QMetaType::Double, nullptr));
        auto* box = qobject_cast<NumberBox*>(editor.get());
        QVERIFY(box);
        box->setValue(0.137);
        QCOMPARE(box->value(), 0.137);
        QCOMPARE(box->text(), QStringLiteral("0.137"));
        QCOMPARE(typed(*box, QStringLiteral("0,1375")), 0.1375);
        // No range of its own: the price table's check names what is out of range.
        QCOMPARE(typed(*box, QStringLiteral("-2")), -2.0);
        // Text editors stay Qt's.
        std::unique_ptr<QWidget> text(
            gpuplan::gui::numberEditorFactory()->createEditor(QMetaType::QString, nullptr));
        QVERIFY(text && !qobject_cast<NumberBox*>(text.get()));
    }

    // After the app's start-up, widgets and C's printf write numbers the one way.
    void oneNumberConventionEverywhere()
    {
        QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
        gpuplan::views::useOneNumberConvention();
        QCOMPARE(QLocale().decimalPoint(), QStringLiteral("."));
        QCOMPARE(QLocale().groupSeparator(), QStringLiteral(","));
        QCOMPARE(QString::fromLatin1(std::setlocale(LC_NUMERIC, nullptr)), QStringLiteral("C"));
        QCOMPARE(std::strcmp(std::localeconv()->decimal_point, "."), 0);
        auto budget = budgetBox();
        QCOMPARE(budget->text(), QStringLiteral("$40,000"));
    }
};

QTEST_MAIN(TestNumberBox)
#include "tst_number_box.moc"
