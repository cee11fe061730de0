/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CUDA soft demapper: one thread per point, demap_point() from demapper.h as in the CPU
// twin (products and differences rounded one by one, so the floats agree).

#include "ofdm/demapper.h"
#include "ofdm/map_launch.cuh"
#include "runtime/cuda_check.h"
#include "runtime/cuda_context.h"

#include <algorithm>
#include <cstring>

namespace gr::gpuofdm::core {

namespace {

__global__ void demap_kernel(const float2* __restrict__ in,
                             const float* __restrict__ gain,
                             float* __restrict__ out,
                             unsigned long long n_points,
                             modulation m,
                             float w,
                             bool hard)
{
    const unsigned n = bits_per_symbol(m);
    for (unsigned long long j = blockIdx.x * 256ull + threadIdx.x; j < n_points;
         j += 256ull * gridDim.x) {
        const float2 y = in[j];
        const float wj = gain ? demap_detail::mul(w, gain[j]) : w;
        float v[6];
        demap_point(y.x, y.y, m, wj, hard, v);
        for (unsigned i = 0; i < n; i++)
            out[j * n + i] = v[i];
    }
}

// One thread per point of a run (blockIdx.y strides over the runs); the same arithmetic
// as demap_kernel and demapper_cpu::run().
__global__ void demap_runs_kernel(const float2* __restrict__ in,
                                  const float* __restrict__ gain,
                                  float* __restrict__ out,
                                  const demap_run* __restrict__ runs,
                                  unsigned long long n_runs,
                                  bool hard)
{
    for (unsigned long long r = blockIdx.y; r < n_runs; r += gridDim.y) {
        const demap_run run = runs[r];
        const unsigned n = bits_per_symbol(run.mod);
        for (unsigned long long j = blockIdx.x * 256ull + threadIdx.x; j < run.n_points;
             j += 256ull * gridDim.x) {
            const float2 y = in[run.in_offset + j];
            const float wj =
                run.gain_period
                    ? demap_detail::mul(run.w, gain[run.gain_offset + j % run.gain_period])
                    : run.w;
            float v[6];
            demap_point(y.x, y.y, run.mod, wj, hard, v);
            for (unsigned i = 0; i < n; i++)
                out[run.out_offset + j * n + i] = v[i];
        }
    }
}

class demapper_cuda : public demapper
{
public:
    demapper_cuda(const demapper_params& p, const device_spec& dev)
        : demapper(p), d_device(activate(dev)), d_in(d_batch), d_gain(d_batch),
          d_out(d_batch * bits_per_point()), d_host_in(d_batch), d_host_gain(d_batch),
          d_host_out(d_batch * bits_per_point())
    {
    }

    device_spec device() const override { return d_device; }

protected:
    void run(const cfloat* in, const float* gain, float* out, size_t n_points, float w) override
    {
        if (n_points == 0)
            return;
        use_device(d_device.cuda_index);
        const size_t n_out = n_points * bits_per_point();
        std::memcpy(d_host_in.get(), in, n_points * sizeof(cfloat));
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_in.get(), d_host_in.get(), n_points * sizeof(cfloat),
                                           cudaMemcpyHostToDevice, d_ctx->stream()));
        if (gain) {
            std::memcpy(d_host_gain.get(), gain, n_points * sizeof(float));
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_gain.get(), d_host_gain.get(),
                                               n_points * sizeof(float), cudaMemcpyHostToDevice,
                                               d_ctx->stream()));
        }
        const size_t blocks = std::min<size_t>((n_points + 255) / 256, 65535 * 16);
        demap_kernel<<<unsigned(blocks), 256, 0, d_ctx->stream()>>>(
            reinterpret_cast<const float2*>(d_in.get()), gain ? d_gain.get() : nullptr, d_out.get(),
            n_points, d_params.mod, w, d_params.hard);
        GPUOFDM_CUDA_CHECK_LAUNCH(demap_kernel);
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_host_out.get(), d_out.get(), n_out * sizeof(float),
                                           cudaMemcpyDeviceToHost, d_ctx->stream()));
        d_ctx->synchronize();
        std::memcpy(out, d_host_out.get(), n_out * sizeof(float));
    }

private:
    static device_spec activate(const device_spec& dev)
    {
        use_device(dev.cuda_index);
        return dev;
    }

    device_spec d_device;
    cuda_context_ptr d_ctx = make_cuda_context(d_device); //!< its own: the stage runs alone
    device_buffer<cfloat> d_in;
    device_buffer<float> d_gain;
    device_buffer<float> d_out;
    pinned_buffer<cfloat> d_host_in;
    pinned_buffer<float> d_host_gain;
    pinned_buffer<float> d_host_out;
};

} // namespace

void launch_demap(const cfloat* in,
                  const float* gain,
                  float* out,
                  const demap_run* runs,
                  size_t n_runs,
                  size_t max_n,
                  bool hard,
                  cudaStream_t stream)
{
    if (n_runs == 0 || max_n == 0)
        return;
    const size_t bx = std::min<size_t>((max_n + 255) / 256, 65535 * 16);
    const size_t by = std::min<size_t>(n_runs, 65535);
    demap_runs_kernel<<<dim3(unsigned(bx), unsigned(by)), 256, 0, stream>>>(
        reinterpret_cast<const float2*>(in), gain, out, runs, n_runs, hard);
    GPUOFDM_CUDA_CHECK_LAUNCH(demap_runs_kernel);
}

std::unique_ptr<demapper> make_demapper_cuda(const demapper_params& p, const device_spec& dev)
{
    return std::make_unique<demapper_cuda>(p, dev);
}

} // namespace gr::gpuofdm::core
