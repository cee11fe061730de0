/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CUDA scrambler: jump-ahead through the period table, so every bit is independent.
// Bit i of a batch that starts at cycle index s takes table bit (s + i) mod period.

#include "fec/scrambler.h"
#include "fec/bit_launch.cuh"
#include "runtime/bit_stage_cuda.h"

#include <algorithm>
#include <memory>

namespace gr::gpuofdm::core {

namespace {

// One thread per bit of a run (blockIdx.y strides over the runs). in and out may alias
// (the stage scrambles in place), hence no __restrict__ on them.
__global__ void scramble_kernel(const uint8_t* in,
                                uint8_t* out,
                                const uint8_t* __restrict__ seq,
                                unsigned int period,
                                const scramble_run* __restrict__ runs,
                                scramble_run one,
                                unsigned long long n_runs)
{
    for (unsigned long long r = blockIdx.y; r < n_runs; r += gridDim.y) {
        const scramble_run run = runs ? runs[r] : one;
        for (unsigned long long i = blockIdx.x * 256ull + threadIdx.x; i < run.n;
             i += 256ull * gridDim.x) {
            const unsigned long long k = run.offset + i;
            uint8_t v = uint8_t((in[k] & 1u) ^ __ldg(seq + (run.start + i % period) % period));
            if (i >= run.zero_from && i - run.zero_from < run.n_zero)
                v = 0;
            out[k] = v;
        }
    }
}

} // namespace

void launch_scramble(const uint8_t* in,
                     uint8_t* out,
                     const uint8_t* seq,
                     unsigned period,
                     const scramble_run* runs,
                     size_t n_runs,
                     size_t max_n,
                     cudaStream_t stream)
{
    if (n_runs == 0 || max_n == 0)
        return;
    scramble_kernel<<<runs_grid(max_n, n_runs), 256, 0, stream>>>(in, out, seq, period, runs,
                                                                  scramble_run{}, n_runs);
    GPUOFDM_CUDA_CHECK_LAUNCH(scramble_kernel);
}

void launch_scramble(const uint8_t* in,
                     uint8_t* out,
                     const uint8_t* seq,
                     unsigned period,
                     const scramble_run& run,
                     cudaStream_t stream)
{
    if (run.n == 0)
        return;
    scramble_kernel<<<runs_grid(run.n, 1), 256, 0, stream>>>(in, out, seq, period, nullptr, run, 1);
    GPUOFDM_CUDA_CHECK_LAUNCH(scramble_kernel);
}

//! CUDA scrambler: every bit indexes the LFSR's period table (jump-ahead).
class scrambler_cuda : public scrambler
{
public:
    scrambler_cuda(const scrambler_params& p, const device_spec& dev);
    device_spec device() const override { return d_staging.device(); }
    void process(const uint8_t* in, uint8_t* out, size_t n_bits, scrambler_state& state) override;

private:
    lfsr_period_table d_table;
    cuda_bit_staging d_staging;
    device_buffer<uint8_t> d_seq; //!< d_table.bits() on the device
};

scrambler_cuda::scrambler_cuda(const scrambler_params& p, const device_spec& dev)
    : scrambler(p), d_table(d_spec), d_staging(dev, d_batch, d_batch), d_seq(d_table.period())
{
    GPUOFDM_CUDA_CHECK(
        cudaMemcpy(d_seq.get(), d_table.bits().data(), d_table.period(), cudaMemcpyHostToDevice));
}

void scrambler_cuda::process(const uint8_t* in, uint8_t* out, size_t n_bits, scrambler_state& state)
{
    check_state(state);
    while (n_bits > 0) {
        const size_t n = std::min(n_bits, d_batch);
        const unsigned int start = d_table.index_of(state.reg);
        d_staging.run(in, n, out, n, [&] {
            launch_scramble(d_staging.device_in<uint8_t>(), d_staging.device_out<uint8_t>(),
                            d_seq.get(), d_table.period(), scramble_run{ 0, n, start, 0, 0 },
                            d_staging.stream());
        });
        state.reg = d_table.advance(state.reg, n);
        in += n;
        out += n;
        n_bits -= n;
    }
}

std::unique_ptr<scrambler> make_scrambler_cuda(const scrambler_params& p, const device_spec& dev)
{
    return std::make_unique<scrambler_cuda>(p, dev);
}

} // namespace gr::gpuofdm::core
