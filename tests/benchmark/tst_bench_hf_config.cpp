// Hugging Face config.json files: what a valid one gives, and the message each bad one gets
// (file:line:column, never a crash).

#include "benchmark/hf_config.h"

#include <QTest>

using namespace gpuplan::bench;

class TestBenchHfConfig : public QObject {
    Q_OBJECT

private slots:
    void gptNeoxFields()
    {
        const auto load = loadHfConfig(GPUPLAN_TEST_DATA "/data/tiny-neox/config.json");
        QVERIFY2(load.spec.has_value(), load.error.c_str());
        const ModelSpec& s = *load.spec;
        QVERIFY(s.architecture == Architecture::GptNeoX);
        QCOMPARE(s.id, std::string("custom:tiny-neox"));
        QCOMPARE(s.hiddenSize, 64);
        QCOMPARE(s.layers, 2);
        QCOMPARE(s.heads, 4);
        QCOMPARE(s.intermediateSize, std::int64_t(256));
        QCOMPARE(s.vocabSize, 512);
        QCOMPARE(s.maxPositions, 128);
        QCOMPARE(s.rotaryPct, 0.25);
        QVERIFY(s.parallelResidual);
        QVERIFY(!s.tieEmbeddings);
        // 2 x 512 x 64 embeddings + 2 layers x (12 x 64^2 + 13 x 64) + final LayerNorm
        QCOMPARE(
            parameterCount(s), std::int64_t(2 * 512 * 64 + 2 * (12 * 64 * 64 + 13 * 64) + 2 * 64));
    }

    void llamaFields()
    {
        const auto load = loadHfConfig(GPUPLAN_TEST_DATA "/data/tiny-llama/config.json");
        QVERIFY2(load.spec.has_value(), load.error.c_str());
        QVERIFY(load.spec->architecture == Architecture::Llama);
        QCOMPARE(load.spec->kvHeads, 2);
        QCOMPARE(load.spec->rotaryPct, 1.0);
    }

    void badConfigs_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        const QString base
            = "\"hidden_size\": 64, \"num_hidden_layers\": 2, \"num_attention_heads\": 4, "
              "\"intermediate_size\": 256, \"vocab_size\": 512";
        QTest::newRow("not json") << "{\"model_type\": \"gpt_neox\",\n  \"hidden_size\": [1,}"
                                  << "config.json:2:";
        QTest::newRow("not an object") << "[1, 2]"
                                       << "config.json:1:1: expected a JSON object";
        QTest::newRow("no model_type") << "{" + base + "}"
                                       << "missing \"model_type\"";
        QTest::newRow("unsupported type")
            << "{\"model_type\": \"mamba\", " + base + "}"
            << "config.json:1:16: model_type \"mamba\" is not supported";
        QTest::newRow("missing field")
            << "{\"model_type\": \"gpt_neox\", \"hidden_size\": 64, \"num_hidden_layers\": 2, "
               "\"num_attention_heads\": 4, \"vocab_size\": 512}"
            << "missing \"intermediate_size\"";
        QTest::newRow("string for a number")
            << "{\"model_type\": \"gpt_neox\",\n"
                + QString(base).replace("\"hidden_size\": 64", "\"hidden_size\": \"wide\"") + "}"
            << "config.json:2:16: \"hidden_size\" must be a number";
        QTest::newRow("negative size")
            << "{\"model_type\": \"gpt_neox\", "
                + QString(base).replace("\"num_hidden_layers\": 2", "\"num_hidden_layers\": -2")
                + "}"
            << "\"num_hidden_layers\" must be a whole number from 1 to 1024";
        QTest::newRow("absurd size") << "{\"model_type\": \"gpt_neox\", "
                + QString(base).replace("\"vocab_size\": 512", "\"vocab_size\": 1e12") + "}"
                                     << "\"vocab_size\" must be a whole number from 1 to";
        QTest::newRow("heads do not divide")
            << "{\"model_type\": \"gpt_neox\", "
                + QString(base).replace("\"num_attention_heads\": 4", "\"num_attention_heads\": 5")
                + "}"
            << "hidden_size 64 is not divisible by num_attention_heads 5";
        QTest::newRow("kv heads do not divide")
            << "{\"model_type\": \"llama\", \"num_key_value_heads\": 3, " + base + "}"
            << "num_attention_heads 4 is not divisible by num_key_value_heads 3";
        QTest::newRow("rotary_pct out of range")
            << "{\"model_type\": \"gpt_neox\", \"rotary_pct\": 1.5, " + base + "}"
            << "\"rotary_pct\" must be between 0 and 1";
        QTest::newRow("duplicate key")
            << "{\"model_type\": \"gpt_neox\", \"hidden_size\": 32, " + base + "}"
            << "duplicate key \"hidden_size\"";
        QTest::newRow("flag not boolean")
            << "{\"model_type\": \"gpt_neox\", \"use_parallel_residual\": \"yes please\", " + base
                + "}"
            << "\"use_parallel_residual\" must be true or false";
    }
    void badConfigs()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const auto load = parseHfConfig(text.toStdString(), "config.json");
        QVERIFY(!load.spec.has_value());
        QVERIFY2(QString::fromStdString(load.error).contains(expected),
            qPrintable("got: " + QString::fromStdString(load.error)));
        QVERIFY(QString::fromStdString(load.error).startsWith("config.json:"));
    }

    void missingFile()
    {
        const auto load = loadHfConfig("/nonexistent/config.json");
        QVERIFY(!load.spec.has_value());
        QCOMPARE(load.error, std::string("/nonexistent/config.json: cannot open the file"));
    }
};

QTEST_GUILESS_MAIN(TestBenchHfConfig)
#include "tst_bench_hf_config.moc"
