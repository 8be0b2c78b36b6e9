#include "app/benchrun/progress_line.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace gpuplan::benchrun {

std::optional<ProgressLine> parseProgressLine(const QByteArray& line)
{
    QJsonParseError error {};
    const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return std::nullopt;
    const QJsonObject o = doc.object();
    const auto phase
        = progressPhaseFromString(o.value(QStringLiteral("phase")).toString().toStdString());
    if (!phase)
        return std::nullopt;
    ProgressLine p;
    p.phase = *phase;
    p.configuration = o.value(QStringLiteral("configuration")).toString();
    p.message = o.value(QStringLiteral("message")).toString();
    const QJsonValue batch = o.value(QStringLiteral("micro_batch_size"));
    if (batch.isDouble())
        p.microBatchSize = static_cast<qint64>(batch.toDouble());
    const double percent = o.value(QStringLiteral("percent")).toDouble(0.0);
    p.percent = std::isfinite(percent) ? std::clamp(percent, 0.0, 100.0) : 0.0;
    return p;
}

} // namespace gpuplan::benchrun
