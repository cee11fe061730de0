/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CUDA interleaver: one thread per value; the permutation table sits in device memory
// (up to 2^20 entries, too large for constant memory in general) and is read through the
// read-only cache.

#include "fec/interleaver.h"
#include "fec/bit_launch.cuh"
#include "runtime/bit_stage_cuda.h"

#include <algorithm>
#include <memory>

namespace gr::gpuofdm::core {

namespace {

// One thread per value of a run (blockIdx.y strides over the runs).
template <typename T>
__global__ void permute_kernel(const T* __restrict__ in,
                               T* __restrict__ out,
                               const uint32_t* __restrict__ perm,
                               const permute_run* __restrict__ runs,
                               permute_run one,
                               unsigned long long n_runs,
                               bool inverse)
{
    for (unsigned long long r = blockIdx.y; r < n_runs; r += gridDim.y) {
        const permute_run run = runs ? runs[r] : one;
        const T* src = in + run.in_offset;
        T* dst = out + run.out_offset;
        const uint32_t* table = perm + run.perm_offset;
        for (unsigned long long i = blockIdx.x * 256ull + threadIdx.x; i < run.n;
             i += 256ull * gridDim.x) {
            const unsigned long long base = i - i % run.n_cbps;
            const unsigned long long j = base + __ldg(table + i % run.n_cbps);
            if (inverse)
                dst[i] = src[j];
            else
                dst[j] = src[i];
        }
    }
}

template <typename T>
void launch_permute_runs(const T* in,
                         T* out,
                         const uint32_t* perm,
                         const permute_run* runs,
                         const permute_run& one,
                         size_t n_runs,
                         size_t max_n,
                         bool inverse,
                         cudaStream_t stream)
{
    if (n_runs == 0 || max_n == 0)
        return;
    permute_kernel<T>
        <<<runs_grid(max_n, n_runs), 256, 0, stream>>>(in, out, perm, runs, one, n_runs, inverse);
    GPUOFDM_CUDA_CHECK_LAUNCH(permute_kernel);
}

} // namespace

void launch_permute(const uint8_t* in,
                    uint8_t* out,
                    const uint32_t* perm,
                    const permute_run* runs,
                    size_t n_runs,
                    size_t max_n,
                    bool inverse,
                    cudaStream_t stream)
{
    launch_permute_runs(in, out, perm, runs, permute_run{}, n_runs, max_n, inverse, stream);
}

void launch_permute(const float* in,
                    float* out,
                    const uint32_t* perm,
                    const permute_run* runs,
                    size_t n_runs,
                    size_t max_n,
                    bool inverse,
                    cudaStream_t stream)
{
    launch_permute_runs(in, out, perm, runs, permute_run{}, n_runs, max_n, inverse, stream);
}

void launch_permute(const uint8_t* in,
                    uint8_t* out,
                    const uint32_t* perm,
                    const permute_run& run,
                    bool inverse,
                    cudaStream_t stream)
{
    launch_permute_runs(in, out, perm, nullptr, run, 1, run.n, inverse, stream);
}

void launch_permute(const float* in,
                    float* out,
                    const uint32_t* perm,
                    const permute_run& run,
                    bool inverse,
                    cudaStream_t stream)
{
    launch_permute_runs(in, out, perm, nullptr, run, 1, run.n, inverse, stream);
}

//! CUDA interleaver: one thread per value through the permutation table.
class interleaver_cuda : public interleaver
{
public:
    interleaver_cuda(const interleaver_params& p, const device_spec& dev);
    device_spec device() const override { return d_staging.device(); }
    void interleave(const uint8_t* in, uint8_t* out, size_t n_symbols) override;
    void deinterleave(const uint8_t* in, uint8_t* out, size_t n_symbols) override;
    void deinterleave(const float* in, float* out, size_t n_symbols) override;

private:
    template <typename T>
    void run(const T* in, T* out, size_t n_symbols, bool inverse);

    cuda_bit_staging d_staging;
    device_buffer<uint32_t> d_dev_perm;
};

interleaver_cuda::interleaver_cuda(const interleaver_params& p, const device_spec& dev)
    : interleaver(p),
      d_staging(
          dev, d_batch * d_perm.size() * sizeof(float), d_batch * d_perm.size() * sizeof(float)),
      d_dev_perm(d_perm.size())
{
    GPUOFDM_CUDA_CHECK(cudaMemcpy(d_dev_perm.get(), d_perm.data(), d_perm.size() * sizeof(uint32_t),
                                  cudaMemcpyHostToDevice));
}

template <typename T>
void interleaver_cuda::run(const T* in, T* out, size_t n_symbols, bool inverse)
{
    const size_t n_cbps = d_perm.size();
    while (n_symbols > 0) {
        const size_t k = std::min(n_symbols, d_batch);
        const size_t n = k * n_cbps;
        d_staging.run(in, n * sizeof(T), out, n * sizeof(T), [&] {
            launch_permute(d_staging.device_in<T>(), d_staging.device_out<T>(), d_dev_perm.get(),
                           permute_run{ 0, 0, n, 0, unsigned(n_cbps) }, inverse,
                           d_staging.stream());
        });
        in += n;
        out += n;
        n_symbols -= k;
    }
}

void interleaver_cuda::interleave(const uint8_t* in, uint8_t* out, size_t n_symbols)
{
    run(in, out, n_symbols, false);
}

void interleaver_cuda::deinterleave(const uint8_t* in, uint8_t* out, size_t n_symbols)
{
    run(in, out, n_symbols, true);
}

void interleaver_cuda::deinterleave(const float* in, float* out, size_t n_symbols)
{
    run(in, out, n_symbols, true);
}

std::unique_ptr<interleaver> make_interleaver_cuda(const interleaver_params& p,
                                                   const device_spec& dev)
{
    return std::make_unique<interleaver_cuda>(p, dev);
}

} // namespace gr::gpuofdm::core
