#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gpuplan::benchview {

// One entry of `gpuplan-bench devices --format json` (docs/results-format.md).
struct BenchDevice {
    int index = -1; // CUDA ordinal; -1 for the CPU
    QString kind; // "cuda" or "cpu"
    QString name;
    QString gpuId; // id in the GPU table; empty when the device is not in it
    qint64 memoryBytes = 0;
    QString computeCapability;
    std::optional<double> bf16PeakTflops; // absent: no peak known

    bool isCuda() const { return kind == QLatin1String("cuda"); }
    QString deviceArgument() const; // for `gpuplan-bench run --device`: "cpu" or "cuda:N"
    QString label() const; // "cuda:0  NVIDIA H100 80GB HBM3, 79.2 GiB"
};

struct DeviceList {
    QList<BenchDevice> devices;
    bool cudaAvailable = false;
    QString libtorch;
    QString blas;
    QStringList warnings;

    bool hasGpu() const;
    const BenchDevice* firstGpu() const;
};

struct DeviceListParse {
    std::optional<DeviceList> list;
    QString error; // why the text is not a device list, when `list` is empty
};

// Anything but a well-formed list (garbage, a crash message, a missing field) gives an error in
// words; a device of a kind this view does not know is an error too, never a guess.
DeviceListParse parseDeviceList(const QByteArray& json);

} // namespace gpuplan::benchview
