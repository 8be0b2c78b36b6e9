#pragma once

// Price tables > Import cloud catalog…: the options of one catalog CSV (format, provider, the
// date of its prices, regions) and a preview of what the import would do, the offers it would
// write and every row it would drop with the reason, before anything changes. The import runs
// in pricing/catalog_import, off the GUI thread; a preview made for options since changed is
// dropped. Accepting leaves writing to the caller (MainWindow::importCatalog).

#include "app/gui/import_preview_model.h"

#include <QDialog>

#include <memory>
#include <set>
#include <string>

class QComboBox;
class QDateEdit;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QTabWidget;

namespace gpuplan::gui {

class CatalogImportDialog : public QDialog {
    Q_OBJECT

public:
    // `text`: the file's contents (read with catalog_import::readCatalogFile, size checked);
    // `knownGpuIds`: the GPUs of the loaded price tables.
    CatalogImportDialog(const QString& path, std::shared_ptr<const std::string> text,
        std::set<std::string> knownGpuIds, QWidget* parent = nullptr);

    QComboBox* formatBox() const { return m_format; }
    QLineEdit* providerEdit() const { return m_provider; }
    QDateEdit* dateEdit() const { return m_date; }
    QComboBox* regionBox() const { return m_regions; } // every / cheapest / median / one region
    ImportPreviewModel* model(ImportPreviewModel::Kind kind) const;
    QString summaryText() const; // what the status lines say
    bool canImport() const; // a current, clean preview with offers

    // What accepting imports: the options and the preview they gave.
    catalog_import::ImportOptions options() const;
    std::shared_ptr<const catalog_import::CatalogImport> preview() const { return m_preview; }
    std::string yamlText() const;
    QString fileName() const; // the user file's name (catalog_import::importedFileName)

signals:
    void previewShown(); // a preview for the current options is in the models

private:
    void schedulePreview();
    void showPreview(std::shared_ptr<const catalog_import::CatalogImport> result, int generation);
    void fillRegions(const std::vector<std::string>& regions);

    QString m_path;
    std::shared_ptr<const std::string> m_text;
    std::set<std::string> m_knownGpuIds;
    QComboBox* m_format = nullptr;
    QLineEdit* m_provider = nullptr;
    QDateEdit* m_date = nullptr;
    QComboBox* m_regions = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_problems = nullptr;
    QTabWidget* m_tabs = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    ImportPreviewModel* m_offers = nullptr;
    ImportPreviewModel* m_dropped = nullptr;
    ImportPreviewModel* m_adjusted = nullptr;
    std::shared_ptr<const catalog_import::CatalogImport> m_preview;
    int m_generation = 0; // of the options; a preview of an older generation is dropped
    int m_shownGeneration = -1;
    bool m_regionsFilled = false;
};

} // namespace gpuplan::gui
