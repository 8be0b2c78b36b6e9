#include "app/document/scenario_document.h"

#include "app/common/saved_file.h"
#include "pricing/text_file.h"
#include "pricing/yaml_reader.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QSettings>

namespace gpuplan::document {

namespace {

const QString kRecentKey = QStringLiteral("recentScenarios");
const QString kLastScenarioKey = QStringLiteral("lastScenario");

QString issueText(const std::vector<LoadIssue>& issues)
{
    return QString::fromStdString(formatIssues(issues)).trimmed();
}

QByteArray digestOf(QByteArrayView bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256);
}

} // namespace

ScenarioView captureView(const Results& results, const ViewSelection& s)
{
    ScenarioView view;
    view.logAxes = s.logAxes;
    view.buyMonths = s.monthsAxis;
    if (s.machine && *s.machine < results.options.size()) {
        view.buyGpuId = results.options[*s.machine].gpu->id;
        view.buyGpuCount = results.options[*s.machine].gpuCount;
    }
    if (s.offers) {
        std::vector<ScenarioCloudChoice> offers;
        for (const std::size_t i : *s.offers)
            if (i < results.cloud.size())
                offers.push_back({ results.cloud[i].offer->id, results.cloud[i].gpuCount });
        view.buyOffers = std::move(offers);
    }
    if (s.budget && s.budget->kind == BudgetTarget::Kind::Owned
        && s.budget->index < results.options.size()) {
        view.budgetGpuId = results.options[s.budget->index].gpu->id;
        view.budgetGpuCount = results.options[s.budget->index].gpuCount;
    } else if (s.budget && s.budget->kind == BudgetTarget::Kind::Rented
        && s.budget->index < results.cloud.size()) {
        const CloudOption& rental = results.cloud[s.budget->index];
        view.budgetOffer = ScenarioCloudChoice { rental.offer->id, rental.gpuCount };
        view.budgetReservedTerms = s.budget->reservedTerms;
    }
    return view;
}

ViewSelection resolveView(const ScenarioView& view, const Results& results)
{
    ViewSelection s;
    s.logAxes = view.logAxes;
    s.monthsAxis = view.buyMonths;
    if (view.buyGpuId && view.buyGpuCount)
        for (std::size_t i = 0; i < results.options.size(); ++i)
            if (results.options[i].gpu->id == *view.buyGpuId
                && results.options[i].gpuCount == *view.buyGpuCount)
                s.machine = i;
    if (s.machine && view.buyOffers) {
        std::vector<std::size_t> chosen;
        for (std::size_t i = 0; i < results.cloud.size(); ++i)
            for (const auto& offer : *view.buyOffers)
                if (results.cloud[i].offer->id == offer.offerId
                    && results.cloud[i].gpuCount == offer.gpuCount)
                    chosen.push_back(i);
        s.offers = std::move(chosen);
    }
    for (std::size_t i = 0; i < results.options.size(); ++i)
        if (view.budgetGpuId && view.budgetGpuCount
            && results.options[i].gpu->id == *view.budgetGpuId
            && results.options[i].gpuCount == *view.budgetGpuCount)
            s.budget = BudgetTarget { BudgetTarget::Kind::Owned, i };
    for (std::size_t i = 0; i < results.cloud.size(); ++i)
        if (view.budgetOffer && results.cloud[i].offer->id == view.budgetOffer->offerId
            && results.cloud[i].gpuCount == view.budgetOffer->gpuCount)
            // By its terms only where that is a choice of its own: an offer of terms only is
            // budgeted by them anyway, and one without terms has none to budget.
            s.budget = BudgetTarget { BudgetTarget::Kind::Rented, i,
                view.budgetReservedTerms && offersReservedTermsToChoose(results, i) };
    return s;
}

ScenarioDocument::ScenarioDocument(QObject* parent)
    : QObject(parent)
{
}

QString ScenarioDocument::displayName() const
{
    return m_path.isEmpty() ? tr("Untitled scenario") : QFileInfo(m_path).fileName();
}

std::optional<ScenarioDocument::Opened> ScenarioDocument::read(
    const QString& path, const Catalog& catalog, QString* error) const
{
    // Checked before it is read, as every data file: a pipe or a device would block the window.
    std::vector<LoadIssue> issues;
    const auto text = readTextFile(
        path.toStdString(), issues, yaml::kMaxFileBytes, "a gpuplan scenario may have");
    if (!text) {
        *error = issueText(issues);
        return std::nullopt;
    }
    const ScenarioRead read = readScenario(*text, path.toStdString(), catalog.defaults, &catalog);
    if (!read.scenario) {
        *error = issueText(read.issues);
        return std::nullopt;
    }
    return Opened { *read.scenario, read.view, read.grant, read.priceSet, issueText(read.issues),
        digestOf(QByteArrayView(text->data(), static_cast<qsizetype>(text->size()))) };
}

void ScenarioDocument::adopt(const QString& path, const QByteArray& digest)
{
    setPath(path);
    m_digest = digest;
    addRecent(path);
}

bool ScenarioDocument::save(const QString& path, const Scenario& scenario, const ScenarioView& view,
    const std::optional<ScenarioGrant>& grant, QString* error)
{
    const std::string text = writeScenario(scenario, view, grant);
    const QByteArray bytes = QByteArray::fromStdString(text);
    if (!views::saveWholeFile(path, bytes, error))
        return false;
    setPath(path);
    m_digest = digestOf(bytes);
    addRecent(path);
    return true;
}

void ScenarioDocument::clear()
{
    setPath(QString());
    m_digest.clear();
}

bool ScenarioDocument::changedOnDisk() const
{
    if (m_path.isEmpty() || m_digest.isEmpty())
        return false;
    QFile file(m_path);
    // Bounded as every read of a data file: past the bound it is not what was saved here.
    if (!QFileInfo(m_path).isFile() || !file.open(QIODevice::ReadOnly))
        return false;
    const QByteArray bytes = file.read(static_cast<qint64>(yaml::kMaxFileBytes) + 1);
    return digestOf(bytes) != m_digest;
}

QStringList ScenarioDocument::recentFiles() const
{
    return QSettings().value(kRecentKey).toStringList();
}

QString ScenarioDocument::lastScenario() const
{
    const QString path = QSettings().value(kLastScenarioKey).toString();
    return !path.isEmpty() && QFileInfo::exists(path) ? path : QString();
}

void ScenarioDocument::rememberAsLast() const
{
    QSettings().setValue(kLastScenarioKey, m_path);
}

void ScenarioDocument::setPath(const QString& path)
{
    // Absolute: the path is remembered for the next start, which may run in another folder.
    const QString absolute = path.isEmpty() ? path : QFileInfo(path).absoluteFilePath();
    if (absolute == m_path)
        return;
    m_path = absolute;
    emit pathChanged();
}

void ScenarioDocument::addRecent(const QString& path)
{
    QSettings settings;
    QStringList recent = settings.value(kRecentKey).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecentFiles)
        recent.removeLast();
    settings.setValue(kRecentKey, recent);
    emit recentFilesChanged();
}

} // namespace gpuplan::document
