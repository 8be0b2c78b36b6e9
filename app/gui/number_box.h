#pragma once

// A number box that reads what a user types the way they mean it, never silently otherwise.
// Qt's QDoubleSpinBox drops a character its locale does not expect: "0.21" in a German locale
// became 2.000 $/kWh, "25000.50" in the budget box $2,500,050, "0,21" in English 2.000. Here a
// decimal comma is a decimal mark wherever it cannot be a thousands separator, a decimal point
// is read in a box that shows none (and the value rounded to what the box shows), and text that
// is neither is refused as typed.

#include <QDoubleSpinBox>

class QItemEditorFactory;

#include <optional>

namespace gpuplan::gui {

class NumberBox : public QDoubleSpinBox {
    Q_OBJECT

public:
    explicit NumberBox(QWidget* parent = nullptr);

    // Without the zeros after the last significant decimal ("0.137", not "0.1370"): for editors
    // whose decimals are there to keep a sub-cent price, not to line values up.
    void setTrimmedZeros(bool trimmed);

    QValidator::State validate(QString& input, int& pos) const override;
    double valueFromText(const QString& text) const override;
    QString textFromValue(double value) const override;

    // The number in `text` (prefix, suffix and spaces around it allowed), as this box reads it;
    // nullopt when it is not a number.
    std::optional<double> parse(const QString& text) const;

private:
    QString withoutAffixes(const QString& text) const; // the typed number, prefix and suffix off

    bool m_trimmedZeros = false;
};

// Editors for a table's numbers: a NumberBox with four decimals (a sub-cent $/kWh or $/h; Qt's
// default editor kept two and rounded 0.137 to 0.13 unsaid) and no range of its own, so that the
// model's check names what is out of range.
QItemEditorFactory* numberEditorFactory();
inline constexpr int kTableEditorDecimals = 4;

} // namespace gpuplan::gui
