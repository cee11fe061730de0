/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CUDA backend of the PRACH front end: the sequence part of every row uploaded in one
// copy (the CP is never sent), one batched cuFFT of all (row, repetition) windows, one
// kernel taking every occasion's L_RA bins, one copy back; or, on device memory, the same
// queued on the context's stream with no copy to or from the host.

#include "prach/prach_frontend.h"
#include "runtime/cuda_context.h"
#include "runtime/cufft_plans.h"

#include <cuComplex.h>

#include <algorithm>
#include <memory>

namespace gr::gpuofdm::core {

namespace {

constexpr int threads = 256;
constexpr unsigned max_grid_y = 65535;

// One thread per output bin k of (row, occasion m, repetition r).
__global__ void extract_kernel(const cuFloatComplex* __restrict__ spec,
                               const int* __restrict__ first_bin,
                               cuFloatComplex* __restrict__ out,
                               size_t out_stride,
                               int n_rows,
                               int rows_per_cell,
                               int n_fd,
                               int reps,
                               int length,
                               int n_fft,
                               float scale)
{
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= length)
        return;
    const int n_items = n_rows * n_fd * reps;
    for (int item = blockIdx.y; item < n_items; item += gridDim.y) {
        const int r = item % reps;
        const int m = (item / reps) % n_fd;
        const int row = item / (reps * n_fd);
        const int first = first_bin[(row / rows_per_cell) * n_fd + m];
        const int b = first + k < n_fft ? first + k : first + k - n_fft;
        const cuFloatComplex v = spec[(size_t(row) * reps + r) * size_t(n_fft) + size_t(b)];
        out[(size_t(row) * n_fd + m) * out_stride + size_t(r) * length + k] =
            make_cuFloatComplex(__fmul_rn(v.x, scale), __fmul_rn(v.y, scale));
    }
}

} // namespace

//! CUDA PRACH front end.
class prach_frontend_cuda : public prach_frontend
{
public:
    prach_frontend_cuda(const prach_frontend_params& p,
                        const device_spec& dev,
                        const cuda_context_ptr& ctx);
    device_spec device() const override { return d_ctx->device(); }

private:
    void run(const cfloat* in, size_t in_stride, cfloat* out, size_t out_stride) override;
    void run_device(const cfloat* d_in,
                    size_t in_stride,
                    cfloat* d_out,
                    size_t out_stride) override;
    //! The sequence parts of the rows at \p src (\p kind: from host or device) into
    //! d_spec, the DFTs, and the bins into \p d_out.
    void enqueue(const cfloat* src,
                 size_t in_stride,
                 cudaMemcpyKind kind,
                 cuFloatComplex* d_out,
                 size_t out_stride);

    cuda_context_ptr d_ctx;
    device_buffer<cuFloatComplex> d_spec; //!< n_rows x repetitions x n_fft
    device_buffer<cuFloatComplex> d_out;  //!< n_outputs x output_bins
    device_buffer<int> d_first;           //!< d_first_bin
    cufft_batch_plans d_plans;
};

prach_frontend_cuda::prach_frontend_cuda(const prach_frontend_params& p,
                                         const device_spec& dev,
                                         const cuda_context_ptr& ctx)
    : prach_frontend(p), d_ctx(cuda_context::for_stage(dev, ctx)),
      d_spec(n_rows() * size_t(d_format.repetitions) * size_t(d_fft)),
      d_out(n_outputs() * output_bins()), d_first(d_first_bin.size()),
      d_plans(size_t(d_fft), n_rows() * size_t(d_format.repetitions), d_ctx->stream())
{
    GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_first.get(), d_first_bin.data(),
                                       d_first_bin.size() * sizeof(int), cudaMemcpyHostToDevice,
                                       d_ctx->stream()));
    d_ctx->synchronize();
}

void prach_frontend_cuda::enqueue(const cfloat* src,
                                  size_t in_stride,
                                  cudaMemcpyKind kind,
                                  cuFloatComplex* d_out,
                                  size_t out_stride)
{
    const cudaStream_t s = d_ctx->stream();
    const int R = d_format.repetitions;
    const int L = d_format.length;
    const int M = d_params.n_fd_occasions;
    const size_t seq_bytes = size_t(R) * size_t(d_fft) * sizeof(cfloat);
    GPUOFDM_CUDA_CHECK(cudaMemcpy2DAsync(d_spec.get(), seq_bytes, src + d_cp,
                                         in_stride * sizeof(cfloat), seq_bytes, n_rows(), kind, s));
    d_plans.exec(d_spec.get(), d_spec.get(), n_rows() * size_t(R), CUFFT_FORWARD);
    const size_t n_items = n_rows() * size_t(M) * size_t(R);
    const dim3 grid(unsigned((L + threads - 1) / threads),
                    unsigned(std::min<size_t>(n_items, max_grid_y)));
    extract_kernel<<<grid, threads, 0, s>>>(
        d_spec.get(), d_first.get(), d_out, out_stride, int(n_rows()),
        d_params.n_antennas * d_params.n_time_occasions, M, R, L, d_fft, d_scale);
    GPUOFDM_CUDA_CHECK_LAUNCH(extract_kernel);
}

void prach_frontend_cuda::run(const cfloat* in, size_t in_stride, cfloat* out, size_t out_stride)
{
    d_ctx->activate();
    enqueue(in, in_stride, cudaMemcpyHostToDevice, d_out.get(), output_bins());
    const size_t out_bytes = output_bins() * sizeof(cfloat);
    GPUOFDM_CUDA_CHECK(cudaMemcpy2DAsync(out, out_stride * sizeof(cfloat), d_out.get(), out_bytes,
                                         out_bytes, n_outputs(), cudaMemcpyDeviceToHost,
                                         d_ctx->stream()));
    d_ctx->synchronize();
}

void prach_frontend_cuda::run_device(const cfloat* d_in,
                                     size_t in_stride,
                                     cfloat* d_out,
                                     size_t out_stride)
{
    d_ctx->activate();
    enqueue(d_in, in_stride, cudaMemcpyDeviceToDevice, reinterpret_cast<cuFloatComplex*>(d_out),
            out_stride);
}

std::unique_ptr<prach_frontend> make_prach_frontend_cuda(const prach_frontend_params& p,
                                                         const device_spec& dev,
                                                         const cuda_context_ptr& ctx)
{
    return std::make_unique<prach_frontend_cuda>(p, dev, ctx);
}

} // namespace gr::gpuofdm::core
