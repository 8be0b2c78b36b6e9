#include "app/gui/number_box.h"

#include "app/common/format.h"

#include <QItemEditorFactory>
#include <QRegularExpression>

#include <cmath>

namespace gpuplan::gui {

namespace {

// Thousands grouped by commas, as the English locale every figure in gpuplan is shown in writes
// them: "40,000", "1,234.5".
bool groupedThousands(const QString& body)
{
    // Not "0,137": a leading 0 groups nothing, so that is a decimal comma.
    static const QRegularExpression grouped(
        QStringLiteral("^-?[1-9]\\d{0,2}(,\\d{3})+(\\.\\d*)?$"));
    return grouped.match(body).hasMatch();
}

// What the user may still be typing towards a number: a sign, or a number ending in its mark.
bool partialNumber(const QString& body)
{
    static const QRegularExpression partial(QStringLiteral("^-?(\\d[\\d,]*)?[.,]?$"));
    return partial.match(body).hasMatch();
}

} // namespace

NumberBox::NumberBox(QWidget* parent)
    : QDoubleSpinBox(parent)
{
}

void NumberBox::setTrimmedZeros(bool trimmed)
{
    m_trimmedZeros = trimmed;
    setValue(value()); // shown anew
}

QString NumberBox::withoutAffixes(const QString& text) const
{
    QString body = text.trimmed();
    if (!prefix().isEmpty() && body.startsWith(prefix().trimmed()))
        body.remove(0, prefix().trimmed().size());
    if (!suffix().isEmpty() && body.endsWith(suffix().trimmed()))
        body.chop(suffix().trimmed().size());
    return body.trimmed();
}

std::optional<double> NumberBox::parse(const QString& text) const
{
    QString body = withoutAffixes(text);
    body.remove(QLatin1Char(' '));
    if (body.isEmpty())
        return std::nullopt;
    // A comma is a thousands separator only where it groups thousands and the box can hold
    // thousands; otherwise, alone and without a point, it is a decimal comma ("0,21").
    // In a box of whole amounts, points that group thousands ("400.000", German) do so.
    static const QRegularExpression pointGrouped(QStringLiteral("^-?[1-9]\\d{0,2}(\\.\\d{3})+$"));
    if (groupedThousands(body) && maximum() >= 1000)
        body.remove(QLatin1Char(','));
    else if (decimals() == 0 && maximum() >= 1000 && pointGrouped.match(body).hasMatch())
        body.remove(QLatin1Char('.'));
    else if (body.count(QLatin1Char(',')) == 1 && !body.contains(QLatin1Char('.')))
        body.replace(QLatin1Char(','), QLatin1Char('.'));
    static const QRegularExpression plain(QStringLiteral("^-?(\\d+\\.?\\d*|\\.\\d+)$"));
    if (!plain.match(body).hasMatch())
        return std::nullopt;
    bool ok = false;
    const double v = body.toDouble(&ok); // "C" conventions: the body is plain digits by now
    if (!ok || !std::isfinite(v))
        return std::nullopt;
    return v;
}

QValidator::State NumberBox::validate(QString& input, int& /*pos*/) const
{
    const std::optional<double> v = parse(input);
    if (!v)
        return partialNumber(withoutAffixes(input)) ? QValidator::Intermediate
                                                    : QValidator::Invalid;
    // Above the maximum, more typing cannot help: refused as typed (Qt clamps nothing then).
    if (*v > maximum())
        return QValidator::Invalid;
    // Below the minimum, the user may be on the way to a valid number ("1" of "150").
    if (*v < minimum())
        return QValidator::Intermediate;
    return QValidator::Acceptable;
}

double NumberBox::valueFromText(const QString& text) const
{
    const double scale = std::pow(10.0, decimals());
    return std::round(parse(text).value_or(value()) * scale) / scale;
}

QString NumberBox::textFromValue(double value) const
{
    QString text = QDoubleSpinBox::textFromValue(value);
    if (m_trimmedZeros && decimals() > 0)
        text = views::withoutTrailingZeros(text, locale().decimalPoint().front());
    return text;
}

namespace {

class NumberEditorCreator : public QItemEditorCreatorBase {
public:
    QWidget* createWidget(QWidget* parent) const override
    {
        auto* box = new NumberBox(parent);
        box->setFrame(false);
        box->setDecimals(kTableEditorDecimals);
        box->setRange(-1e12, 1e12);
        box->setTrimmedZeros(true);
        box->setButtonSymbols(QAbstractSpinBox::NoButtons);
        return box;
    }
    QByteArray valuePropertyName() const override { return QByteArrayLiteral("value"); }
};

} // namespace

QItemEditorFactory* numberEditorFactory()
{
    static QItemEditorFactory* factory = [] {
        // Other types fall back to Qt's default factory.
        auto* f = new QItemEditorFactory;
        f->registerEditor(QMetaType::Double, new NumberEditorCreator);
        return f;
    }();
    return factory;
}

} // namespace gpuplan::gui
