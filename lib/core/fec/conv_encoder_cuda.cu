/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CUDA convolutional encoder: one thread per input bit. Its window is the bit and the six
// before it (a halo read from the input, or from the carried register at the batch start),
// and its output position follows from its phase, so no thread waits for another.

#include "fec/conv_encoder.h"
#include "fec/bit_launch.cuh"
#include "runtime/bit_stage_cuda.h"

#include <algorithm>
#include <memory>

namespace gr::gpuofdm::core {

namespace {

// One thread per input bit of a run (blockIdx.y strides over the runs).
__global__ void conv_encode_kernel(const uint8_t* __restrict__ in,
                                   uint8_t* __restrict__ out,
                                   const conv_run* __restrict__ runs,
                                   conv_run one,
                                   unsigned long long n_runs)
{
    for (unsigned long long r = blockIdx.y; r < n_runs; r += gridDim.y) {
        const conv_run run = runs ? runs[r] : one;
        const uint8_t* src = in + run.in_offset;
        uint8_t* dst = out + run.out_offset;
        for (unsigned long long i = blockIdx.x * 256ull + threadIdx.x; i < run.n;
             i += 256ull * gridDim.x) {
            unsigned int window = (src[i] & 1u) << 6;
            for (unsigned int d = 1; d <= 6; d++) {
                // Input i-d sits in window bit 6-d; before the run it is in reg bit 6-(d-i).
                const unsigned int b = i >= d ? (src[i - d] & 1u) : (run.reg >> (6 + i - d)) & 1u;
                window |= b << (6 - d);
            }
            const unsigned int phase = unsigned((run.phase + i) % run.code.period);
            conv_encode_bit(run.code, window, phase, dst + run.code.output_offset(run.phase, i));
        }
    }
}

} // namespace

void launch_conv_encode(const uint8_t* in,
                        uint8_t* out,
                        const conv_run* runs,
                        size_t n_runs,
                        size_t max_n,
                        cudaStream_t stream)
{
    if (n_runs == 0 || max_n == 0)
        return;
    conv_encode_kernel<<<runs_grid(max_n, n_runs), 256, 0, stream>>>(in, out, runs, conv_run{},
                                                                     n_runs);
    GPUOFDM_CUDA_CHECK_LAUNCH(conv_encode_kernel);
}

void launch_conv_encode(const uint8_t* in, uint8_t* out, const conv_run& run, cudaStream_t stream)
{
    if (run.n == 0)
        return;
    conv_encode_kernel<<<runs_grid(run.n, 1), 256, 0, stream>>>(in, out, nullptr, run, 1);
    GPUOFDM_CUDA_CHECK_LAUNCH(conv_encode_kernel);
}

//! CUDA convolutional encoder: one thread per input bit with a six-bit halo.
class conv_encoder_cuda : public conv_encoder
{
public:
    conv_encoder_cuda(const conv_encoder_params& p, const device_spec& dev);
    device_spec device() const override { return d_staging.device(); }
    size_t process(const uint8_t* in,
                   uint8_t* out,
                   size_t n_in,
                   conv_encoder_state& state) override;

private:
    cuda_bit_staging d_staging;
};

conv_encoder_cuda::conv_encoder_cuda(const conv_encoder_params& p, const device_spec& dev)
    : conv_encoder(p), d_staging(dev, d_batch, 2 * d_batch)
{
}

size_t conv_encoder_cuda::process(const uint8_t* in,
                                  uint8_t* out,
                                  size_t n_in,
                                  conv_encoder_state& state)
{
    check_state(state);
    size_t total = 0;
    while (n_in > 0) {
        const size_t n = std::min(n_in, d_batch);
        const size_t n_out = output_len(n, state);
        const conv_encoder_state s0 = state;
        d_staging.run(in, n, out, n_out, [&] {
            conv_run run{};
            run.n = n;
            run.code = d_code;
            run.reg = s0.reg;
            run.phase = s0.phase;
            launch_conv_encode(d_staging.device_in<uint8_t>(), d_staging.device_out<uint8_t>(), run,
                               d_staging.stream());
        });
        // The register is the last six inputs (fewer come from the old register).
        for (size_t i = n > 6 ? n - 6 : 0; i < n; i++)
            state.reg = ((unsigned(in[i] & 1u) << 6) | state.reg) >> 1;
        state.phase = unsigned((state.phase + n) % d_code.period);
        in += n;
        out += n_out;
        total += n_out;
        n_in -= n;
    }
    return total;
}

std::unique_ptr<conv_encoder> make_conv_encoder_cuda(const conv_encoder_params& p,
                                                     const device_spec& dev)
{
    return std::make_unique<conv_encoder_cuda>(p, dev);
}

} // namespace gr::gpuofdm::core
