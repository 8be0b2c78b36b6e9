#include "app/gui/price_book.h"

#include "app/gui/number_box.h"
#include "core/limits.h"
#include "pricing/yaml_reader.h"

#include <QUndoCommand>
#include <QUndoStack>

#include <cmath>

namespace gpuplan::gui {

namespace {

class EditCommand : public QUndoCommand {
public:
    EditCommand(PriceBook* book, PriceTable table, int row, int column, QVariant before,
        QVariant after, const QString& text)
        : QUndoCommand(text)
        , m_book(book)
        , m_table(table)
        , m_row(row)
        , m_column(column)
        , m_before(std::move(before))
        , m_after(std::move(after))
        , m_sourceBefore(rowProvenance(book->catalog(), table, static_cast<std::size_t>(row)))
    {
    }
    void undo() override { m_book->apply(m_table, m_row, m_column, m_before, &m_sourceBefore); }
    void redo() override { m_book->apply(m_table, m_row, m_column, m_after); }

private:
    PriceBook* m_book;
    PriceTable m_table;
    int m_row;
    int m_column;
    QVariant m_before;
    QVariant m_after;
    Provenance m_sourceBefore; // the range and note an edit may drop
};

// What a row's source said about its figure, which a new price or a new source no longer
// has: the price's range (the kind's spread then applies, core/uncertainty.h) and the note.
// Review: a vendor's quote typed over a street price had kept the old source's $1,999-3,699
// and its "secondary source (a news blog)" note, in the plan and in the saved table. An
// undated row keeps its note, which the loader requires to say why.
void forgetWhatTheOldSourceSaid(Provenance& p)
{
    p.lowUsd.reset();
    p.highUsd.reset();
    if (p.date != yaml::kUndated)
        p.note.clear();
}

} // namespace

PriceBook::PriceBook(std::shared_ptr<const Catalog> catalog, QObject* parent)
    : QObject(parent)
    , m_catalog(std::make_shared<Catalog>(*catalog))
    , m_undo(new QUndoStack(this))
{
    connect(m_undo, &QUndoStack::cleanChanged, this,
        [this](bool clean) { emit modifiedChanged(!clean); });
}

bool PriceBook::isModified() const
{
    return !m_undo->isClean();
}

void PriceBook::reset(std::shared_ptr<const Catalog> catalog)
{
    m_catalog = std::make_shared<Catalog>(*catalog);
    m_undo->clear();
    emit tablesReset();
    emit catalogChanged();
}

void PriceBook::takeMeasurements(const Catalog& fresh)
{
    m_catalog = std::make_shared<Catalog>(*m_catalog);
    m_catalog->workloads = fresh.workloads;
    m_catalog->measured = fresh.measured;
    emit catalogChanged();
}

void PriceBook::markSaved()
{
    m_undo->setClean();
}

int PriceBook::rowCount(PriceTable table) const
{
    return priceRowCount(*m_catalog, table);
}

int PriceBook::columnCount(PriceTable table) const
{
    return static_cast<int>(priceColumns(table).size());
}

QString PriceBook::header(PriceTable table, int column) const
{
    if (column < 0 || column >= columnCount(table))
        return {};
    return tr(priceColumns(table)[static_cast<std::size_t>(column)].header);
}

bool PriceBook::isEditable(PriceTable table, int column) const
{
    return column >= 0 && column < columnCount(table)
        && priceColumns(table)[static_cast<std::size_t>(column)].kind != CellKind::ReadOnly;
}

QVariant PriceBook::value(PriceTable table, int row, int column) const
{
    if (row < 0 || row >= rowCount(table) || column < 0 || column >= columnCount(table))
        return {};
    return priceColumns(table)[static_cast<std::size_t>(column)].get(
        *m_catalog, static_cast<std::size_t>(row));
}

QString PriceBook::validate(PriceTable table, int row, int column, const QVariant& value) const
{
    const CellKind kind = priceColumns(table)[static_cast<std::size_t>(column)].kind;
    const auto r = static_cast<std::size_t>(row);
    const QString text = value.toString().trimmed();
    // The bounds the YAML readers apply (core/limits.h, core/assumption_table.h), so Save never
    // writes a value the loader would reject.
    auto number = [&](const Bounds& bounds, bool optional, const QString& what) -> QString {
        if (optional && text.isEmpty())
            return {};
        bool ok = false;
        const double v = text.toDouble(&ok);
        if (!ok || !std::isfinite(v))
            return tr("%1 must be a number, not '%2'.").arg(what, text);
        if (v < 0)
            return tr("%1 cannot be negative: %2.").arg(what, text);
        if (v == 0.0 && bounds.positive)
            return tr("%1 cannot be 0: leave it empty when there is none.").arg(what);
        if (!bounds.contains(v))
            return tr("%1 must lie between %2 and %3: %4.")
                .arg(what)
                .arg(bounds.min)
                .arg(bounds.max)
                .arg(text);
        return {};
    };
    switch (kind) {
    case CellKind::ReadOnly:
        return tr("This column cannot be edited.");
    case CellKind::Source:
        return text.isEmpty() ? tr("Every price needs a source (where the figure came from).")
                              : QString();
    case CellKind::Date: {
        // The loader's rule (pricing/yaml_reader.cpp), so Save never meets a date it rejects:
        // "undated" only where the row already has a note saying why (the editor has no notes).
        const bool undatedWithNote = text.toStdString() == yaml::kUndated
            && !rowProvenance(*m_catalog, table, r).note.empty();
        return yaml::isIsoDate(text.toStdString()) || undatedWithNote
            ? QString()
            : tr("The date must be YYYY, YYYY-MM or YYYY-MM-DD (or 'undated' with a note), not "
                 "'%1'.")
                  .arg(text);
    }
    case CellKind::Price:
        return number(limits::kPriceUsd.bounds, table == PriceTable::Gpus, tr("A price"));
    case CellKind::PriceKindChoice:
        // The loader's words (core/provenance.h); empty: the table does not say.
        return text.isEmpty() || priceKindFromString(text.toStdString())
            ? QString()
            : tr("The kind of a price must be quote, list, street or resale (or empty), not "
                 "'%1'.")
                  .arg(text);
    case CellKind::Rate: {
        QString why = number(limits::kHourlyUsd.bounds, true, tr("An hourly rate"));
        if (why.isEmpty() && text.isEmpty()) {
            // Clearing this rate: the offer must keep another one (or a reservation).
            const CloudOffer& o = m_catalog->cloudOffers.at(r);
            const auto columns = priceColumns(table);
            bool otherRate = false;
            for (std::size_t c = 0; c < columns.size(); ++c)
                otherRate |= static_cast<int>(c) != column && columns[c].kind == CellKind::Rate
                    && columns[c].get(*m_catalog, r).isValid();
            if (!otherRate && o.reserved.empty())
                why = tr("An offer needs at least one rate.");
        }
        return why;
    }
    case CellKind::Assumption: {
        const AssumptionSpec& spec = assumptionSpec(electricityRowAssumption(r));
        return number(
            spec.bounds, false, QString::fromUtf8(spec.label.data(), qsizetype(spec.label.size())));
    }
    }
    return {};
}

QString PriceBook::edit(PriceTable table, int row, int column, const QVariant& value)
{
    if (row < 0 || row >= rowCount(table) || column < 0 || column >= columnCount(table))
        return tr("No such cell.");
    const QString why = validate(table, row, column, value);
    if (!why.isEmpty())
        return why;
    const QVariant before = this->value(table, row, column);
    QVariant after = value;
    const CellKind kind = priceColumns(table)[static_cast<std::size_t>(column)].kind;
    if (kind == CellKind::Source || kind == CellKind::Date || kind == CellKind::PriceKindChoice)
        after = value.toString().trimmed();
    else
        after = value.toString().trimmed().isEmpty() ? QVariant()
                                                     : QVariant(value.toString().toDouble());
    if (before == after)
        return {};
    // The editor shows a figure to kTableEditorDecimals: Enter on an untouched 27.44705 had
    // committed 27.4471, a "modified" table and an undo entry for nothing typed.
    if (before.isValid() && after.isValid() && kind != CellKind::Source && kind != CellKind::Date
        && kind != CellKind::PriceKindChoice
        && std::abs(after.toDouble() - before.toDouble())
            < 0.5 * std::pow(10.0, -kTableEditorDecimals))
        return {};
    const QString label
        = tr("Edit %1 of %2").arg(header(table, column), this->value(table, row, 0).toString());
    m_undo->push(new EditCommand(this, table, row, column, before, after, label));
    return {};
}

void PriceBook::apply(
    PriceTable table, int row, int column, const QVariant& value, const Provenance* restore)
{
    // Snapshots already handed to the planner must not change under it: copy, then edit.
    m_catalog = std::make_shared<Catalog>(*m_catalog);
    const PriceColumn& edited = priceColumns(table)[static_cast<std::size_t>(column)];
    const auto r = static_cast<std::size_t>(row);
    edited.set(*m_catalog, r, value);
    if (restore)
        rowProvenance(*m_catalog, table, r) = *restore;
    else if (edited.kind == CellKind::Price || edited.kind == CellKind::Source)
        forgetWhatTheOldSourceSaid(rowProvenance(*m_catalog, table, r));
    emit cellChanged(table, row, column);
    emit catalogChanged();
}

} // namespace gpuplan::gui
