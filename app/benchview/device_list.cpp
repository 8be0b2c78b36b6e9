#include "app/benchview/device_list.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace gpuplan::benchview {

namespace {
constexpr double kBytesPerGiB = 1024.0 * 1024.0 * 1024.0;

DeviceListParse failure(const QString& why)
{
    return { std::nullopt, why };
}

std::optional<BenchDevice> readDevice(const QJsonObject& o, QString& error)
{
    BenchDevice d;
    d.kind = o.value(QStringLiteral("kind")).toString();
    d.name = o.value(QStringLiteral("name")).toString();
    if (d.kind != QLatin1String("cuda") && d.kind != QLatin1String("cpu")) {
        error = QStringLiteral("kind must be \"cuda\" or \"cpu\", not \"%1\"").arg(d.kind);
        return std::nullopt;
    }
    if (d.name.isEmpty()) {
        error = QStringLiteral("it has no name");
        return std::nullopt;
    }
    const QJsonValue index = o.value(QStringLiteral("index"));
    if (!index.isDouble()) {
        error = QStringLiteral("it has no index");
        return std::nullopt;
    }
    d.index = index.toInt(-1);
    if (d.isCuda() && d.index < 0) {
        error = QStringLiteral("a CUDA device needs an index of 0 or more");
        return std::nullopt;
    }
    d.gpuId = o.value(QStringLiteral("gpu_id")).toString();
    const double memory = o.value(QStringLiteral("memory_bytes")).toDouble(0.0);
    d.memoryBytes = std::isfinite(memory) && memory > 0.0 ? static_cast<qint64>(memory) : 0;
    d.computeCapability = o.value(QStringLiteral("compute_capability")).toString();
    const QJsonValue bf16
        = o.value(QStringLiteral("peak_tflops")).toObject().value(QStringLiteral("bf16"));
    if (bf16.isDouble() && std::isfinite(bf16.toDouble()) && bf16.toDouble() > 0.0)
        d.bf16PeakTflops = bf16.toDouble();
    return d;
}
} // namespace

QString BenchDevice::deviceArgument() const
{
    return isCuda() ? QStringLiteral("cuda:%1").arg(index) : QStringLiteral("cpu");
}

QString BenchDevice::label() const
{
    QString text = deviceArgument() + QStringLiteral("  ") + name;
    if (memoryBytes > 0)
        text += QStringLiteral(", %1 GiB")
                    .arg(static_cast<double>(memoryBytes) / kBytesPerGiB, 0, 'f', 1);
    return text;
}

bool DeviceList::hasGpu() const
{
    return firstGpu() != nullptr;
}

const BenchDevice* DeviceList::firstGpu() const
{
    for (const auto& d : devices)
        if (d.isCuda())
            return &d;
    return nullptr;
}

DeviceListParse parseDeviceList(const QByteArray& json)
{
    QJsonParseError error {};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        return failure(QStringLiteral("the device list is not JSON (%1 at byte %2)")
                           .arg(error.errorString())
                           .arg(error.offset));
    if (!doc.isObject() || !doc.object().value(QStringLiteral("devices")).isArray())
        return failure(QStringLiteral("the device list has no \"devices\" array"));
    const QJsonObject root = doc.object();
    DeviceList list;
    const QJsonArray devices = root.value(QStringLiteral("devices")).toArray();
    for (qsizetype i = 0; i < devices.size(); ++i) {
        QString why;
        const auto device = readDevice(devices.at(i).toObject(), why);
        if (!device)
            return failure(
                QStringLiteral("device %1 of the device list is unusable: %2").arg(i + 1).arg(why));
        list.devices << *device;
    }
    if (list.devices.isEmpty())
        return failure(QStringLiteral("the device list is empty (not even the CPU)"));
    list.cudaAvailable = root.value(QStringLiteral("cuda_available")).toBool(false);
    list.libtorch = root.value(QStringLiteral("libtorch")).toString();
    list.blas = root.value(QStringLiteral("blas")).toString();
    for (const auto& w : root.value(QStringLiteral("warnings")).toArray())
        if (w.isString() && !w.toString().isEmpty())
            list.warnings << w.toString();
    return { std::move(list), {} };
}

} // namespace gpuplan::benchview
