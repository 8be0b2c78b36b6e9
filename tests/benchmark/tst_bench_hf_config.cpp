// Hugging Face config.json files: what a valid one gives, and the message each bad one gets
// (file:line:column, never a crash).

#include "benchmark/hf_config.h"

#include <QTemporaryDir>
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

    void mambaFields()
    {
        const auto load = loadHfConfig(GPUPLAN_TEST_DATA "/data/tiny-mamba/config.json");
        QVERIFY2(load.spec.has_value(), load.error.c_str());
        const ModelSpec& s = *load.spec;
        QVERIFY(s.architecture == Architecture::Mamba);
        QCOMPARE(s.intermediateSize, std::int64_t(128)); // expand 2
        QCOMPARE(s.stateSize, 16);
        QCOMPARE(s.convKernel, 4);
        QCOMPARE(s.timeStepRank, 4); // "auto": ceil(64 / 16)
        QVERIFY(!s.projectionBias);
        QVERIFY(s.convBias);
        QVERIFY(s.tieEmbeddings);
        QCOMPARE(trainedPositions(s, 129), 128);
    }

    // state-spaces/mamba-2.8b-hf's config.json (its architecture fields) gives the shipped
    // model's count; absent fields take transformers' MambaConfig defaults.
    void mambaPublishedConfig()
    {
        const auto load = parseHfConfig(
            R"({"architectures": ["MambaForCausalLM"], "model_type": "mamba",
                "hidden_size": 2560, "intermediate_size": 5120, "num_hidden_layers": 64,
                "state_size": 16, "expand": 2, "conv_kernel": 4, "time_step_rank": 160,
                "use_bias": false, "use_conv_bias": true, "vocab_size": 50280,
                "layer_norm_epsilon": 1e-05, "hidden_act": "silu", "rms_norm": true,
                "residual_in_fp32": true, "pad_vocab_size_multiple": 8})",
            "mamba-2.8b-hf/config.json");
        QVERIFY2(load.spec.has_value(), load.error.c_str());
        QCOMPARE(parameterCount(*load.spec), parameterCount(*shippedModelSpec("mamba-2.8b")));
        const auto defaults = parseHfConfig(
            R"({"model_type": "mamba", "hidden_size": 768, "num_hidden_layers": 2,
                "vocab_size": 100})",
            "config.json");
        QVERIFY2(defaults.spec.has_value(), defaults.error.c_str());
        QCOMPARE(defaults.spec->intermediateSize, std::int64_t(1536));
        QCOMPARE(defaults.spec->timeStepRank, 48);
        QCOMPARE(defaults.spec->stateSize, 16);
        QVERIFY(defaults.spec->projectionBias); // transformers' default use_bias=True
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
            << "{\"model_type\": \"bert\", " + base + "}"
            << "config.json:1:16: model_type \"bert\" is not supported (gpt_neox, llama or mamba)";
        const QString mamba = "{\"model_type\": \"mamba\", \"hidden_size\": 64, "
                              "\"num_hidden_layers\": 2, \"vocab_size\": 512";
        QTest::newRow("mamba without layers")
            << "{\"model_type\": \"mamba\", \"hidden_size\": 64, \"vocab_size\": 512}"
            << "missing \"num_hidden_layers\"";
        QTest::newRow("mamba time_step_rank neither auto nor a number")
            << mamba + ", \"time_step_rank\": \"half\"}"
            << "\"time_step_rank\" must be a number";
        QTest::newRow("mamba activation") << mamba + ", \"hidden_act\": \"gelu\"}"
                                          << "hidden_act \"gelu\" is not supported";
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
        QTest::newRow("llama head_dim narrower than hidden / heads")
            << "{\"model_type\": \"llama\", \"head_dim\": 8, " + base + "}"
            << "config.json:1:37: head_dim 8 is not hidden_size / num_attention_heads (16): not "
               "supported";
        QTest::newRow("llama attention bias")
            << "{\"model_type\": \"llama\", \"attention_bias\": true, " + base + "}"
            << "attention_bias true is not supported";
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
        QCOMPARE(load.error,
            std::string("/nonexistent/config.json: cannot open the file: it does not exist"));
        const std::string folder = GPUPLAN_TEST_DATA "/data/tiny-neox";
        QCOMPARE(loadHfConfig(folder).error,
            folder + ": is a folder; --config names a model's config.json");
    }

    // The wrong file is refused before it is read: a device (/dev/zero was read until memory
    // ran out), the weights (a 2 GB model.safetensors was read whole), a binary file.
    void wrongFilesAreRefusedUnread()
    {
        QCOMPARE(loadHfConfig("/dev/zero").error, std::string("/dev/zero: not a regular file"));
        QTemporaryDir dir;
        const QString weights = dir.filePath("model.safetensors");
        {
            QFile file(weights);
            QVERIFY(file.open(QIODevice::WriteOnly));
            QVERIFY(file.resize(2LL * 1024 * 1024 * 1024)); // sparse: no disk used
        }
        QCOMPARE(loadHfConfig(weights.toStdString()).error,
            weights.toStdString()
                + ": the file is 2147483648 bytes (2048 MiB), more than the 1 MiB a model's "
                  "config.json may have (the weights rather than the config?)");
        const QString binary = dir.filePath("config.json");
        {
            QFile file(binary);
            QVERIFY(file.open(QIODevice::WriteOnly));
            // Built as a std::string: QByteArray::append(const char*), inline in Qt 6, would be
            // exported from this test and taken by the Qt 5 that LibTorch loads (a crash under
            // ASan at start-up, where it is not inlined).
            std::string text = "{\"model_type\": \"llama\",\n  \"x\": \"";
            text.push_back('\0');
            text += "\"}";
            file.write(text.data(), static_cast<qint64>(text.size()));
        }
        const std::string error = loadHfConfig(binary.toStdString()).error;
        QVERIFY2(QString::fromStdString(error).startsWith(binary + ":2:9: "), error.c_str());
        QVERIFY2(error.find("binary file") != std::string::npos, error.c_str());
        QVERIFY(error.find('\0') == std::string::npos);
    }

    // The weights' half precision is the precision the model trains in; fp32 or nothing leaves
    // the recipe's; a head_dim equal to hidden / heads (Llama 3's explicit one) is accepted.
    void trainingPrecisionFromTorchDtype()
    {
        const QString base
            = "{\"model_type\": \"llama\", \"hidden_size\": 64, \"num_hidden_layers\": 2, "
              "\"num_attention_heads\": 4, \"intermediate_size\": 256, \"vocab_size\": 512, "
              "\"head_dim\": 16, \"attention_bias\": false";
        const auto precisionOf = [&](const QString& dtype) {
            const auto load = parseHfConfig(
                (base + (dtype.isEmpty() ? "" : ", \"torch_dtype\": \"" + dtype + "\"") + "}")
                    .toStdString(),
                "config.json");
            [&] { QVERIFY2(load.spec.has_value(), load.error.c_str()); }();
            return load.precision;
        };
        QVERIFY(precisionOf("bfloat16") == gpuplan::Precision::BF16);
        QVERIFY(precisionOf("float16") == gpuplan::Precision::FP16);
        QVERIFY(!precisionOf("float32"));
        QVERIFY(!precisionOf(""));
        QVERIFY(loadHfConfig(GPUPLAN_TEST_DATA "/data/tiny-neox/config.json").precision
            == gpuplan::Precision::FP16);
    }
};

QTEST_GUILESS_MAIN(TestBenchHfConfig)
#include "tst_bench_hf_config.moc"
