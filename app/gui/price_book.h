#pragma once

// The price tables being edited: a copy of the catalog, changed only through undoable commands
// (QUndoStack), validated before any change lands. Views show it through PriceTableModel.

#include "app/gui/price_columns.h"
#include "core/catalog.h"

#include <QObject>
#include <QVariant>

#include <memory>

class QUndoStack;

namespace gpuplan::gui {

class PriceBook : public QObject {
    Q_OBJECT

public:
    explicit PriceBook(std::shared_ptr<const Catalog> catalog, QObject* parent = nullptr);

    const Catalog& catalog() const { return *m_catalog; }
    std::shared_ptr<const Catalog> snapshot() const { return m_catalog; }
    QUndoStack* undoStack() const { return m_undo; }
    bool isModified() const;

    // Replaces everything (load, revert, import) and forgets the undo history.
    void reset(std::shared_ptr<const Catalog> catalog);
    void markSaved();
    // Takes the models and measurements of `fresh` (new gpuplan-bench results), keeping the
    // price edits and their undo history.
    void takeMeasurements(const Catalog& fresh);

    int rowCount(PriceTable table) const;
    int columnCount(PriceTable table) const;
    QString header(PriceTable table, int column) const;
    QVariant value(PriceTable table, int row, int column) const;
    bool isEditable(PriceTable table, int column) const;

    // Checks `value`; on success pushes an undoable command and returns an empty string, else
    // returns why it was rejected ("A price cannot be negative: -5").
    QString edit(PriceTable table, int row, int column, const QVariant& value);

    // Used by the undo commands only. A new price or source drops the range and the note the
    // row's source gave for its figure; `restore` (undo) puts the row's provenance back whole.
    void apply(PriceTable table, int row, int column, const QVariant& value,
        const Provenance* restore = nullptr);

signals:
    void cellChanged(gpuplan::gui::PriceTable table, int row, int column);
    void tablesReset();
    void catalogChanged(); // after every edit, undo, redo and reset
    void modifiedChanged(bool modified);

private:
    QString validate(PriceTable table, int row, int column, const QVariant& value) const;

    std::shared_ptr<Catalog> m_catalog; // copy-on-write: snapshots handed out stay unchanged
    QUndoStack* m_undo;
};

} // namespace gpuplan::gui
