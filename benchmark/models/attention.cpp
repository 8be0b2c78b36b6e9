#include "benchmark/models/attention.h"

#include "benchmark/kernels/short_attention_op.h"
#include "benchmark/models/attention_choice.h"
#include "benchmark/torch_compat.h"

#include <cmath>

namespace gpuplan::bench {

torch::Tensor attend(
    const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, bool causal, bool fused)
{
    if (!fused)
        return attendExplicit(q, k, v, causal);
    switch (chooseAttention(q, k, v, causal)) {
    case AttentionPath::Fused:
        return attendFused(q, k, v, causal);
    case AttentionPath::ShortKernel:
        return shortAttention(q, k, v);
    case AttentionPath::Explicit:
        break;
    }
    return attendExplicit(q, k, v, causal);
}

torch::Tensor attendFused(
    const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, bool causal)
{
    return compat::fusedAttention(q, k, v, causal);
}

torch::Tensor attendExplicit(
    const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, bool causal)
{
    // The scale on the queries, not the scores: one pass over b x heads x n x d values each way
    // instead of over b x heads x n x n (ViT-L, 197 positions of head size 64: a third of the
    // bytes). Exact where the scale is a power of two (head sizes 64 and 256: Pythia-160M, 410M
    // and 1B, ViT-L, RoBERTa-L); elsewhere one rounding moves from the scores to the queries.
    const double scale = 1.0 / std::sqrt(static_cast<double>(q.size(-1)));
    auto scores = torch::matmul(q * scale, k.transpose(-2, -1));
    if (causal) {
        const auto positions = q.size(-2);
        auto future = torch::ones(
            { positions, positions }, torch::TensorOptions().dtype(torch::kBool).device(q.device()))
                          .triu(1);
        scores = scores.masked_fill(future, -std::numeric_limits<float>::infinity());
    }
    return torch::matmul(torch::softmax(scores, -1).to(v.scalar_type()), v);
}

RotaryTables rotaryTables(int positions, int rotaryDims, double base, const torch::Device& device)
{
    const auto f32 = torch::TensorOptions().dtype(torch::kFloat).device(device);
    auto invFreq = 1.0 / torch::pow(base, torch::arange(0, rotaryDims, 2, f32) / rotaryDims);
    auto angles = torch::outer(torch::arange(positions, f32), invFreq);
    auto both = torch::cat({ angles, angles }, -1);
    return { both.cos(), both.sin() };
}

const RotaryTables& refreshedRotaryTables(
    RotaryTables& tables, int positions, int rotaryDims, double base, const torch::Device& device)
{
    if (!tables.cos.defined() || tables.cos.size(0) != positions || tables.cos.device() != device)
        tables = rotaryTables(positions, rotaryDims, base, device);
    return tables;
}

torch::Tensor applyRotary(const torch::Tensor& x, const RotaryTables& tables)
{
    const auto dims = tables.cos.size(-1);
    auto rotated = x.narrow(-1, 0, dims);
    const auto half = dims / 2;
    auto x1 = rotated.narrow(-1, 0, half);
    auto x2 = rotated.narrow(-1, half, half);
    auto turned = torch::cat({ -x2, x1 }, -1);
    // In the input's precision (bf16/fp16 under autocast): the tables are cast, not the input.
    const auto cos = tables.cos.to(x.scalar_type()), sin = tables.sin.to(x.scalar_type());
    auto out = rotated * cos + turned * sin;
    if (dims == x.size(-1))
        return out;
    return torch::cat({ out, x.narrow(-1, dims, x.size(-1) - dims) }, -1);
}

torch::Tensor crossEntropy(const torch::Tensor& logits, const torch::Tensor& targets)
{
    return torch::nn::functional::cross_entropy(
        logits.reshape({ -1, logits.size(-1) }).to(torch::kFloat), targets.reshape({ -1 }),
        torch::nn::functional::CrossEntropyFuncOptions().ignore_index(-100));
}

} // namespace gpuplan::bench
