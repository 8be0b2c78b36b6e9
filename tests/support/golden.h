#pragma once

// What the golden-folder tests share: tests/<area>/data/<case>/{input..., expected...}, one
// data row per case folder, and GPUPLAN_UPDATE_GOLDEN=1 to rewrite the expected files from the
// current output (on purpose only: review the diff).

#include <QByteArray>
#include <QString>
#include <QtTest>

namespace gpuplan::testing {

QByteArray readAll(const QString& path);

// One QTest row per sub-folder of `dir` (column "folder": its path); fails the test when
// fewer than `minimum` cases are found, so a moved folder cannot pass silently.
void addGoldenRows(const QString& dir, int minimum);

// Under GPUPLAN_UPDATE_GOLDEN=1, writes `actual` to `expectedPath`; returns what the expected
// file holds then.
QByteArray expectedGolden(const QByteArray& actual, const QString& expectedPath);

} // namespace gpuplan::testing

// QCOMPARE of `actual` against the golden file at `expectedPath`.
#define GPUPLAN_COMPARE_GOLDEN(actual, expectedPath)                                               \
    do {                                                                                           \
        const QByteArray goldenActual_ = (actual);                                                 \
        QCOMPARE(goldenActual_, ::gpuplan::testing::expectedGolden(goldenActual_, expectedPath));  \
    } while (false)
