#pragma once

// The free lunch's parts, each a switch of its own (training_setup.cpp sets them), so that a
// run can withhold some (--free-lunch-without) and measure what each is worth: an ablation on
// the same build, machine and model, instead of comparing runs of different code.

#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::bench {

enum class FreeLunchPart {
    FusedAttention, // scaled_dot_product_attention instead of explicit softmax
    FusedRotary, // GPT-NeoX's query-key-value split and rotation as one node (rotary_qkv_op.h)
    ChunkedLmHead, // LM head and cross-entropy in chunks (models/lm_loss.h)
    FusedScan, // Mamba: the fused selective scan (kernels/selective_scan_op.h)
    ChannelsLast, // convolutional models in NHWC on CUDA
    DepthwiseKernel, // ConvNeXt: the depthwise 7x7 convolution in our kernels (depthwise_conv_op.h)
    KeptCasts, // one low-precision copy of each weight per optimizer step
    FusedAdam, // Adam(W) as LibTorch's fused kernel, where it has one
    Tf32, // TF32 matrix products and convolutions
    CudnnBenchmark, // cuDNN's autotuner
    CudaGraph, // the micro-step replayed as a CUDA graph
};

// "fused-attention", "fused-rotary", ... (the names --free-lunch-without takes).
std::string_view toString(FreeLunchPart part);

struct FreeLunchPartsParse {
    std::vector<FreeLunchPart> parts; // in the order given, without repeats
    std::string error; // empty when every name is known
};

// A comma-separated list of part names; the error names the unknown one and the known ones.
FreeLunchPartsParse parseFreeLunchParts(std::string_view list);

// "fused-rotary,chunked-lm-head": the parts' names joined by commas.
std::string joinedNames(const std::vector<FreeLunchPart>& parts);

} // namespace gpuplan::bench
