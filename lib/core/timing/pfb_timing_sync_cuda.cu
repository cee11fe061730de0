/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CUDA polyphase timing recovery: one warp per loop (a channel, or a chunk of one). The 32
// lanes compute the filter dot products (lane l takes taps l, l+32, ..., then a butterfly
// of shuffles), and every lane runs the loop's scalar update on the same floats, lane 0
// writing; the loop itself stays on the device, so a call is one upload, one launch and
// one download however many symbols and channels it holds.

#include "runtime/cuda_context.h"
#include "timing/pfb_timing_sync.h"

#include <algorithm>

namespace gr::gpuofdm::core {

namespace {

constexpr int warps_per_block = 4;

__global__ void timing_jobs_kernel(timing_loop_consts c,
                                   const float* __restrict__ bank,
                                   const float* __restrict__ dbank,
                                   const rounded::cpx* __restrict__ in,
                                   size_t in_stride,
                                   const timing_event* __restrict__ events,
                                   timing_job* jobs,
                                   unsigned n_jobs,
                                   timing_job_outputs o)
{
    const unsigned warp = blockIdx.x * warps_per_block + threadIdx.x / 32;
    const int lane = int(threadIdx.x & 31);
    if (warp >= n_jobs)
        return; // the whole warp: blocks are whole warps
    timing_job job = jobs[warp];
    const rounded::cpx* row = in + size_t(job.row) * in_stride;
    const int T = c.taps_per_filter;
    const auto dot = [row, T, lane](const float* h, int64_t i) {
        float ar = 0.0f, ai = 0.0f;
        for (int j = lane; j < T; j += 32) {
            const int64_t n = i + j;
            const rounded::cpx v = n < 0 ? rounded::cpx{ 0.0f, 0.0f } : row[n];
            const float t = __ldg(h + j);
            ar = __fadd_rn(ar, __fmul_rn(v.re, t));
            ai = __fadd_rn(ai, __fmul_rn(v.im, t));
        }
        for (int off = 16; off >= 1; off >>= 1) {
            ar = __fadd_rn(ar, __shfl_xor_sync(0xffffffffu, ar, off));
            ai = __fadd_rn(ai, __shfl_xor_sync(0xffffffffu, ai, off));
        }
        return rounded::cpx{ ar, ai };
    };
    // Both filters on the same samples: one load of each sample, two independent sums.
    const auto dot2 = [row, T, lane](const float* h1, const float* h2, int64_t i, rounded::cpx& y1,
                                     rounded::cpx& y2) {
        float ar = 0.0f, ai = 0.0f, br = 0.0f, bi = 0.0f;
        for (int j = lane; j < T; j += 32) {
            const int64_t n = i + j;
            const rounded::cpx v = n < 0 ? rounded::cpx{ 0.0f, 0.0f } : row[n];
            const float t1 = __ldg(h1 + j), t2 = __ldg(h2 + j);
            ar = __fadd_rn(ar, __fmul_rn(v.re, t1));
            ai = __fadd_rn(ai, __fmul_rn(v.im, t1));
            br = __fadd_rn(br, __fmul_rn(v.re, t2));
            bi = __fadd_rn(bi, __fmul_rn(v.im, t2));
        }
        for (int off = 16; off >= 1; off >>= 1) {
            ar = __fadd_rn(ar, __shfl_xor_sync(0xffffffffu, ar, off));
            ai = __fadd_rn(ai, __shfl_xor_sync(0xffffffffu, ai, off));
            br = __fadd_rn(br, __shfl_xor_sync(0xffffffffu, br, off));
            bi = __fadd_rn(bi, __shfl_xor_sync(0xffffffffu, bi, off));
        }
        y1 = rounded::cpx{ ar, ai };
        y2 = rounded::cpx{ br, bi };
    };
    timing_run_job(c, bank, dbank, events, job, warp, o, dot, dot2, lane == 0);
    if (lane == 0)
        jobs[warp] = job;
}

// hybrid: warp w computes both banks' filter f = w % nfilts at window index i0 + w / nfilts,
// the sums in the order of the loops' dot products.
__global__ void timing_grid_kernel(int taps,
                                   unsigned nfilts,
                                   const float* __restrict__ bank,
                                   const float* __restrict__ dbank,
                                   const rounded::cpx* __restrict__ row,
                                   long long i0,
                                   unsigned long long n_items,
                                   rounded::cpx* y,
                                   rounded::cpx* d)
{
    const unsigned long long w =
        (unsigned long long)blockIdx.x * warps_per_block + threadIdx.x / 32;
    const int lane = int(threadIdx.x & 31);
    if (w >= n_items)
        return;
    const unsigned f = unsigned(w % nfilts);
    const long long i = i0 + (long long)(w / nfilts);
    const float* h1 = bank + size_t(f) * taps;
    const float* h2 = dbank + size_t(f) * taps;
    float ar = 0.0f, ai = 0.0f, br = 0.0f, bi = 0.0f;
    for (int j = lane; j < taps; j += 32) {
        const long long n = i + j;
        const rounded::cpx v = n < 0 ? rounded::cpx{ 0.0f, 0.0f } : row[n];
        const float t1 = __ldg(h1 + j), t2 = __ldg(h2 + j);
        ar = __fadd_rn(ar, __fmul_rn(v.re, t1));
        ai = __fadd_rn(ai, __fmul_rn(v.im, t1));
        br = __fadd_rn(br, __fmul_rn(v.re, t2));
        bi = __fadd_rn(bi, __fmul_rn(v.im, t2));
    }
    for (int off = 16; off >= 1; off >>= 1) {
        ar = __fadd_rn(ar, __shfl_xor_sync(0xffffffffu, ar, off));
        ai = __fadd_rn(ai, __shfl_xor_sync(0xffffffffu, ai, off));
        br = __fadd_rn(br, __shfl_xor_sync(0xffffffffu, br, off));
        bi = __fadd_rn(bi, __shfl_xor_sync(0xffffffffu, bi, off));
    }
    if (lane == 0) {
        y[w] = rounded::cpx{ ar, ai };
        d[w] = rounded::cpx{ br, bi };
    }
}

// Grows \p b to \p n items, zeroed: the rows are copied back whole up to the longest job,
// so the tails of shorter jobs are read without being written (compute-sanitizer's
// initcheck would say so).
template <typename T>
void reserve(device_buffer<T>& b, size_t n)
{
    if (b.size() < n) {
        b = device_buffer<T>(n);
        GPUOFDM_CUDA_CHECK(cudaMemset(b.get(), 0, n * sizeof(T)));
    }
}

} // namespace

class pfb_timing_sync_cuda : public pfb_timing_sync
{
public:
    pfb_timing_sync_cuda(const pfb_timing_params& p, const device_spec& dev, cuda_context_ptr ctx)
        : pfb_timing_sync(p), d_ctx(cuda_context::for_stage(dev, ctx)),
          d_in(p.n_channels * p.max_input_samples), d_bank(d_bank_flat.size()),
          d_dbank(d_dbank_flat.size())
    {
        GPUOFDM_CUDA_CHECK(cudaMemcpy(d_bank.get(), d_bank_flat.data(),
                                      d_bank_flat.size() * sizeof(float), cudaMemcpyHostToDevice));
        GPUOFDM_CUDA_CHECK(cudaMemcpy(d_dbank.get(), d_dbank_flat.data(),
                                      d_dbank_flat.size() * sizeof(float), cudaMemcpyHostToDevice));
        GPUOFDM_CUDA_CHECK(cudaEventCreate(&d_t0));
        GPUOFDM_CUDA_CHECK(cudaEventCreate(&d_t1));
    }
    ~pfb_timing_sync_cuda() override
    {
        cudaEventDestroy(d_t0);
        cudaEventDestroy(d_t1);
    }
    device_spec device() const override { return d_ctx->device(); }
    double kernel_seconds() const override { return d_kernel_s; }

protected:
    void run_jobs(const pfb_timing_io& io,
                  std::vector<timing_job>& jobs,
                  const std::vector<timing_event>& events,
                  const timing_job_outputs& o) override
    {
        d_ctx->activate();
        const cudaStream_t s = d_ctx->stream();
        const size_t C = d_params.n_channels;
        const size_t P = d_params.max_input_samples;
        const int osps = d_consts.osps;
        size_t width = 0;
        for (size_t c = 0; c < C; c++)
            width = std::max(width, std::min(io.n_in[c], P));
        const size_t J = jobs.size();
        const size_t slots = J * o.cap;
        reserve(d_jobs, J);
        reserve(d_events, std::max<size_t>(events.size(), 1));
        reserve(d_out, slots * osps);
        reserve(d_pos, o.pos ? slots : 0);
        reserve(d_k, o.pos ? slots : 0);
        reserve(d_aux, o.err ? 3 * slots * osps : 0);

        if (width > 0) {
            if (C == 1)
                GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_in.get(), io.in, width * sizeof(rounded::cpx),
                                                   cudaMemcpyHostToDevice, s));
            else
                GPUOFDM_CUDA_CHECK(cudaMemcpy2DAsync(d_in.get(), P * sizeof(rounded::cpx), io.in,
                                                     io.in_stride * sizeof(rounded::cpx),
                                                     width * sizeof(rounded::cpx), C,
                                                     cudaMemcpyHostToDevice, s));
        }
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_jobs.get(), jobs.data(), J * sizeof(timing_job),
                                           cudaMemcpyHostToDevice, s));
        if (!events.empty())
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_events.get(), events.data(),
                                               events.size() * sizeof(timing_event),
                                               cudaMemcpyHostToDevice, s));
        timing_job_outputs dev;
        dev.out = d_out.get();
        if (o.err) {
            dev.err = d_aux.get();
            dev.rate = dev.err + slots * osps;
            dev.phase = dev.rate + slots * osps;
        }
        if (o.pos) {
            dev.pos = d_pos.get();
            dev.k = d_k.get();
        }
        dev.cap = o.cap;
        dev.stride = o.cap * uint64_t(osps); // the device rows; the host's may be wider
        const unsigned blocks = unsigned((J + warps_per_block - 1) / warps_per_block);
        GPUOFDM_CUDA_CHECK(cudaEventRecord(d_t0, s));
        timing_jobs_kernel<<<blocks, 32 * warps_per_block, 0, s>>>(
            d_consts, d_bank.get(), d_dbank.get(), d_in.get(), P, d_events.get(), d_jobs.get(),
            unsigned(J), dev);
        GPUOFDM_CUDA_CHECK_LAUNCH(timing_jobs_kernel);
        GPUOFDM_CUDA_CHECK(cudaEventRecord(d_t1, s));
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(jobs.data(), d_jobs.get(), J * sizeof(timing_job),
                                           cudaMemcpyDeviceToHost, s));
        d_ctx->synchronize();
        float ms = 0.0f;
        GPUOFDM_CUDA_CHECK(cudaEventElapsedTime(&ms, d_t0, d_t1));
        d_kernel_s = ms * 1e-3;

        // Only the symbols written come back: the rows up to the longest job's count.
        uint64_t most = 0;
        for (const timing_job& j : jobs)
            most = std::max(most, j.n_out);
        if (most == 0)
            return;
        const auto back = [&](void* dst, size_t dst_row, const void* src, size_t src_row,
                              size_t width) {
            GPUOFDM_CUDA_CHECK(
                cudaMemcpy2DAsync(dst, dst_row, src, src_row, width, J, cudaMemcpyDeviceToHost, s));
        };
        const size_t cpx = sizeof(rounded::cpx), f = sizeof(float);
        const size_t per = size_t(most) * size_t(osps);
        back(o.out, o.stride * cpx, dev.out, dev.stride * cpx, per * cpx);
        if (o.err) {
            back(o.err, o.stride * f, dev.err, dev.stride * f, per * f);
            back(o.rate, o.stride * f, dev.rate, dev.stride * f, per * f);
            back(o.phase, o.stride * f, dev.phase, dev.stride * f, per * f);
        }
        if (o.pos) {
            back(o.pos, o.cap * sizeof(int64_t), dev.pos, o.cap * sizeof(int64_t),
                 most * sizeof(int64_t));
            back(o.k, o.cap * f, dev.k, o.cap * f, most * f);
        }
        d_ctx->synchronize();
    }

    void compute_grid(const std::complex<float>* row,
                      int64_t n_in,
                      int64_t i0,
                      size_t count,
                      rounded::cpx* y,
                      rounded::cpx* d) override
    {
        d_ctx->activate();
        const cudaStream_t s = d_ctx->stream();
        const size_t n = size_t(std::min<int64_t>(n_in, int64_t(d_params.max_input_samples)));
        const size_t items = count * d_params.nfilts;
        reserve(d_gy, items);
        reserve(d_gd, items);
        GPUOFDM_CUDA_CHECK(
            cudaMemcpyAsync(d_in.get(), row, n * sizeof(rounded::cpx), cudaMemcpyHostToDevice, s));
        GPUOFDM_CUDA_CHECK(cudaEventRecord(d_t0, s));
        const unsigned blocks = unsigned((items + warps_per_block - 1) / warps_per_block);
        timing_grid_kernel<<<blocks, 32 * warps_per_block, 0, s>>>(
            d_consts.taps_per_filter, d_params.nfilts, d_bank.get(), d_dbank.get(), d_in.get(),
            (long long)i0, (unsigned long long)items, d_gy.get(), d_gd.get());
        GPUOFDM_CUDA_CHECK_LAUNCH(timing_grid_kernel);
        GPUOFDM_CUDA_CHECK(cudaEventRecord(d_t1, s));
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(y, d_gy.get(), items * sizeof(rounded::cpx),
                                           cudaMemcpyDeviceToHost, s));
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d, d_gd.get(), items * sizeof(rounded::cpx),
                                           cudaMemcpyDeviceToHost, s));
        d_ctx->synchronize();
        float ms = 0.0f;
        GPUOFDM_CUDA_CHECK(cudaEventElapsedTime(&ms, d_t0, d_t1));
        d_kernel_s = ms * 1e-3;
    }

private:
    cuda_context_ptr d_ctx;
    device_buffer<rounded::cpx> d_in;
    device_buffer<float> d_bank;
    device_buffer<float> d_dbank;
    device_buffer<timing_job> d_jobs;
    device_buffer<timing_event> d_events;
    device_buffer<rounded::cpx> d_out;
    device_buffer<float> d_aux;
    device_buffer<int64_t> d_pos;
    device_buffer<float> d_k;
    device_buffer<rounded::cpx> d_gy, d_gd; //!< hybrid: the grid of both banks
    cudaEvent_t d_t0 = nullptr;
    cudaEvent_t d_t1 = nullptr;
    double d_kernel_s = 0.0;
};

std::unique_ptr<pfb_timing_sync> make_pfb_timing_sync_cuda(const pfb_timing_params& p,
                                                           const device_spec& dev,
                                                           cuda_context_ptr ctx)
{
    return std::make_unique<pfb_timing_sync_cuda>(p, dev, std::move(ctx));
}

} // namespace gr::gpuofdm::core
