/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CUDA mapper: one thread per point, the same map_bits() as the CPU twin (a Gray-to-binary
// step and one multiply, so both give the same floats).

#include "ofdm/mapper.h"
#include "ofdm/map_launch.cuh"
#include "runtime/bit_stage_cuda.h"

#include <algorithm>
#include <memory>

namespace gr::gpuofdm::core {

namespace {

// One thread per point of a run (blockIdx.y strides over the runs).
__global__ void map_kernel(const uint8_t* __restrict__ bits,
                           float2* __restrict__ out,
                           const uint32_t* __restrict__ place,
                           const map_run* __restrict__ runs,
                           map_run one,
                           unsigned long long n_runs)
{
    for (unsigned long long r = blockIdx.y; r < n_runs; r += gridDim.y) {
        const map_run run = runs ? runs[r] : one;
        const unsigned int n = bits_per_symbol(run.mod);
        for (unsigned long long i = blockIdx.x * 256ull + threadIdx.x; i < run.n_points;
             i += 256ull * gridDim.x) {
            float2 v;
            map_bits(bits + run.in_offset + i * n, run.mod, v.x, v.y, run.standard);
            const unsigned long long o =
                run.group ? (i / run.group) * run.out_stride + __ldg(place + i % run.group) : i;
            out[run.out_offset + o] = v;
        }
    }
}

} // namespace

void launch_map(const uint8_t* bits,
                cfloat* out,
                const uint32_t* place,
                const map_run* runs,
                size_t n_runs,
                size_t max_n,
                cudaStream_t stream)
{
    if (n_runs == 0 || max_n == 0)
        return;
    map_kernel<<<runs_grid(max_n, n_runs), 256, 0, stream>>>(bits, reinterpret_cast<float2*>(out),
                                                             place, runs, map_run{}, n_runs);
    GPUOFDM_CUDA_CHECK_LAUNCH(map_kernel);
}

void launch_map(const uint8_t* bits,
                cfloat* out,
                const uint32_t* place,
                const map_run& run,
                cudaStream_t stream)
{
    if (run.n_points == 0)
        return;
    map_kernel<<<runs_grid(run.n_points, 1), 256, 0, stream>>>(bits, reinterpret_cast<float2*>(out),
                                                               place, nullptr, run, 1);
    GPUOFDM_CUDA_CHECK_LAUNCH(map_kernel);
}

//! CUDA mapper: one thread per point.
class mapper_cuda : public mapper
{
public:
    mapper_cuda(const mapper_params& p, const device_spec& dev);
    device_spec device() const override { return d_staging.device(); }
    void process(const uint8_t* bits, cfloat* out, size_t n_points) override;

private:
    cuda_bit_staging d_staging;
};

mapper_cuda::mapper_cuda(const mapper_params& p, const device_spec& dev)
    : mapper(p), d_staging(dev, d_batch * bits_per_point(), d_batch * sizeof(cfloat))
{
}

void mapper_cuda::process(const uint8_t* bits, cfloat* out, size_t n_points)
{
    const unsigned n_bits = bits_per_point();
    while (n_points > 0) {
        const size_t k = std::min(n_points, d_batch);
        d_staging.run(bits, k * n_bits, out, k * sizeof(cfloat), [&] {
            launch_map(d_staging.device_in<uint8_t>(), d_staging.device_out<cfloat>(), nullptr,
                       map_run{ 0, 0, k, d_params.mod, 0, 0, d_params.standard },
                       d_staging.stream());
        });
        bits += k * n_bits;
        out += k;
        n_points -= k;
    }
}

std::unique_ptr<mapper> make_mapper_cuda(const mapper_params& p, const device_spec& dev)
{
    return std::make_unique<mapper_cuda>(p, dev);
}

} // namespace gr::gpuofdm::core
