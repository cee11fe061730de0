/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CUDA backend of the 802.16 long-preamble synchronizer (wimax_sync). Per detect() call,
// on the synchronizer's context's stream (a receiver's, when it hands one), over the whole
// buffer (no pieces: the buffer is at most a
// receiver batch or an ofdm_sync_cc batch, and the device memory grows to the largest n):
//   1. detect(): the samples go up and clean_kernel replaces non-finite ones by 0, in
//      place; detect_device() starts here from the caller's clean device samples (a
//      receiver's batch, uploaded once, on the same stream);
//   2. metric_kernel: one thread per 128 samples (a multiple of W from the buffer's start)
//      computes the exact sums at its first sample and slides them over the other 127,
//      with wimax_sync_common.h's functions, so every flag is the CPU twin's bit for bit;
//   3. candidate_kernel: the samples where the run of flags reaches min_plateau exactly,
//      compacted with an atomic counter (in any order), with c and m computed again there
//      (sums_at: exact from the last multiple of 128, slid to the sample: the same doubles);
//   4. the count and the candidates come back and are sorted by sample; the host takes
//      them in groups of match_batch with wimax_sync::take_candidates, whose matched
//      filter is match() here: the host uploads each candidate's timing window and coarse
//      CFO (-arg(c) / 64, computed on the host as for the CPU twin), match_kernel (one
//      block per candidate and CFO hypothesis) derotates the window into shared memory
//      and gives every start's |C1| + |C2| to one thread, with wimax_sync_common.h's
//      arithmetic (the CPU twin's sums in its order), and reduces to the hypothesis's
//      first maximum; pick_kernel (one block per candidate) picks the hypothesis in the
//      CPU twin's order and gathers the 2 L1 clean samples from the chosen start; those
//      and the starts come back (one wait a group) and the host refines the CFO on them
//      with the CPU twin's code. A candidate the sequential rule clips (a burst before it
//      within its window) is matched again alone. So the bursts, their starts and CFOs
//      are the CPU twin's exactly.

#include "runtime/cuda_check.h"
#include "runtime/cuda_context.h"
#include "wimax/wimax_sync.h"
#include "wimax/wimax_sync_common.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

namespace {

namespace sd = wimax_sync_detail;
using sd::cpx;

constexpr unsigned block = 256;
constexpr unsigned match_batch = 1024; //!< candidates matched a launch (and a wait)

//! A candidate as the compaction kernel writes it.
struct raw_candidate {
    unsigned long long i;
    double cr, ci, m;
};

__global__ void clean_kernel(cpx* __restrict__ x, unsigned long long n)
{
    for (unsigned long long i = blockIdx.x * 256ull + threadIdx.x; i < n; i += 256ull * gridDim.x)
        x[i] = sd::clean(x[i]);
}

//! Flags of [0, n_end): thread j does [128 j, 128 j + 128) sequentially, as the CPU twin.
__global__ void metric_kernel(const cpx* __restrict__ x,
                              long long n_end,
                              unsigned char* __restrict__ flag,
                              double threshold,
                              double min_power)
{
    const long long j = blockIdx.x * (long long)block + threadIdx.x;
    const long long i0 = j * sd::corr_window;
    if (i0 >= n_end)
        return;
    const long long i1 = min(i0 + (long long)sd::corr_window, n_end);
    sd::sums s = sd::exact_sums(x, long(i0));
    flag[i0] = sd::flag(s, threshold, min_power) ? 1 : 0;
    for (long long i = i0 + 1; i < i1; i++) {
        sd::slide(s, x, long(i));
        flag[i] = sd::flag(s, threshold, min_power) ? 1 : 0;
    }
}

//! i is a candidate when flag[i - L + 1 .. i] are set and (i == L - 1 or flag[i - L] clear).
__global__ void candidate_kernel(const unsigned char* __restrict__ flag,
                                 const cpx* __restrict__ x,
                                 long long n_end,
                                 unsigned L,
                                 raw_candidate* __restrict__ out,
                                 unsigned* __restrict__ count,
                                 unsigned max_count)
{
    for (long long i = blockIdx.x * 256ll + threadIdx.x; i < n_end; i += 256ll * gridDim.x) {
        if (!flag[i] || i + 1 < (long long)L)
            continue;
        if (i >= (long long)L && flag[i - L])
            continue;
        bool run = true;
        for (unsigned k = 1; k < L && run; k++)
            run = flag[i - k] != 0;
        if (!run)
            continue;
        const unsigned slot = atomicAdd(count, 1u);
        if (slot < max_count) {
            const sd::sums s = sd::sums_at(x, long(i));
            out[slot] = { (unsigned long long)i, s.cr, s.ci, sd::metric(s) };
        }
    }
}

//! A candidate's timing window for the kernels.
struct dev_job {
    long long lo;
    long long len; //!< starts lo .. lo + len - 1
    double w0;
};

/*!
 * Block (candidate blockIdx.x, hypothesis blockIdx.y) of match_block threads: y, the
 * window derotated by the hypothesis's CFO (len + 2 L1 - 1 samples), in shared memory,
 * then v(j) for every start j, thread t taking j = t, t + match_block, ... in order, and
 * the first maximum over the block to best[blockIdx.x * gridDim.y + blockIdx.y].
 */
constexpr unsigned match_block = 256;
__global__ void match_kernel(const cpx* __restrict__ x,
                             const dev_job* __restrict__ jobs,
                             const cpx* __restrict__ pre,
                             int cfo_search,
                             unsigned cp,
                             unsigned l1,
                             sd::match_best* __restrict__ best)
{
    extern __shared__ cpx y[];
    __shared__ cpx p[512];
    __shared__ sd::match_best red[match_block];
    const dev_job jb = jobs[blockIdx.x];
    const double wh = sd::hypothesis_cfo(jb.w0, int(blockIdx.y) - cfo_search);
    const long long ny = jb.len + 2ll * l1 - 1;
    for (long long t = threadIdx.x; t < ny; t += match_block)
        y[t] = sd::derotate(x[jb.lo + t], wh, long(t));
    for (unsigned k = threadIdx.x; k < 512; k += match_block)
        p[k] = pre[k];
    __syncthreads();
    sd::match_best b{ -1.0, 0 };
    for (long long j = threadIdx.x; j < jb.len; j += match_block) {
        const cpx* y1 = y + j + cp;
        const double v = sd::match_value(y1, y1 + l1, p, p + 256);
        if (v > b.v)
            b = { v, j };
    }
    red[threadIdx.x] = b;
    __syncthreads();
    for (unsigned w = match_block / 2; w > 0; w >>= 1) {
        if (threadIdx.x < w && sd::earlier_max(red[threadIdx.x + w], red[threadIdx.x]))
            red[threadIdx.x] = red[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        best[blockIdx.x * gridDim.y + blockIdx.y] = red[0];
}

/*!
 * One block per candidate: the hypothesis in the CPU twin's order (sd::pick_hypothesis),
 * the start lo + j and hypothesis to start[c], hyp[c], and x[start .. start + span) to
 * win[c span ..].
 */
__global__ void pick_kernel(const cpx* __restrict__ x,
                            const dev_job* __restrict__ jobs,
                            const sd::match_best* __restrict__ best,
                            int n_hyp,
                            unsigned span,
                            long long* __restrict__ start,
                            int* __restrict__ hyp,
                            cpx* __restrict__ win)
{
    __shared__ long long s0;
    const unsigned c = blockIdx.x;
    if (threadIdx.x == 0) {
        long long j = 0;
        const int h = sd::pick_hypothesis(best + (unsigned long long)c * n_hyp, n_hyp, j);
        s0 = jobs[c].lo + j;
        start[c] = s0;
        hyp[c] = h;
    }
    __syncthreads();
    const long long a = s0;
    cpx* o = win + (unsigned long long)c * span;
    for (unsigned t = threadIdx.x; t < span; t += blockDim.x)
        o[t] = x[a + t];
}

class wimax_sync_cuda : public wimax_sync
{
public:
    wimax_sync_cuda(const wimax_sync_params& p, const device_spec& dev, const cuda_context_ptr& ctx)
        : wimax_sync(p), d_device(dev), d_ctx(cuda_context::for_stage(dev, ctx)),
          d_span(2 * symbol_len()), d_n_hyp(2 * p.cfo_search + 1), d_pre(512), d_jobs(match_batch),
          d_best(size_t(match_batch) * size_t(d_n_hyp)), d_start(match_batch), d_hyp(match_batch),
          d_win(size_t(match_batch) * d_span), d_count(1), h_jobs(match_batch),
          h_start(match_batch), h_hyp(match_batch), h_win(size_t(match_batch) * d_span), h_count(1)
    {
        // The preamble symbols' useful parts, P_0 then P_1, for match_kernel.
        std::vector<cfloat> pre(preamble_time(0));
        pre.insert(pre.end(), preamble_time(1).begin(), preamble_time(1).end());
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_pre.get(), pre.data(), 512 * sizeof(cpx),
                                           cudaMemcpyHostToDevice, d_ctx->stream()));
        d_ctx->synchronize(); // pre is a local
    }

    device_spec device() const override { return d_device; }

    std::vector<wimax_sync_result> detect(const cfloat* x, size_t n, size_t search_from) override
    {
        if (!x && n > 0)
            throw std::invalid_argument("x: null pointer with " + std::to_string(n) + " samples");
        if (detect_end(n) <= 0)
            return {};
        use_device(d_device.cuda_index);
        if (d_x.size() < n)
            d_x = device_buffer<cpx>(n);
        cudaStream_t s = d_ctx->stream();
        GPUOFDM_CUDA_CHECK(
            cudaMemcpyAsync(d_x.get(), x, n * sizeof(cfloat), cudaMemcpyHostToDevice, s));
        const size_t clean_blocks = std::min<size_t>((n + 255) / 256, 65535 * 4);
        clean_kernel<<<unsigned(clean_blocks), 256, 0, s>>>(d_x.get(), n);
        GPUOFDM_CUDA_CHECK_LAUNCH(clean_kernel);
        return detect_clean(d_x.get(), n, search_from);
    }

    std::vector<wimax_sync_result> detect_device(const cfloat* d_in,
                                                 size_t n,
                                                 size_t search_from) override
    {
        if (!d_in && n > 0)
            throw std::invalid_argument("x: null pointer with " + std::to_string(n) + " samples");
        if (detect_end(n) <= 0)
            return {};
        use_device(d_device.cuda_index);
        return detect_clean(reinterpret_cast<const cpx*>(d_in), n, search_from);
    }

private:
    /*!
     * Steps 2 to 4 over x[0 .. n), clean device memory, queued after what is on the
     * stream; the fine timing by take_candidates() with match() below.
     */
    std::vector<wimax_sync_result> detect_clean(const cpx* x, size_t n, size_t search_from)
    {
        std::vector<wimax_sync_result> out;
        const long n_end = detect_end(n);
        reserve(size_t(n_end));
        cudaStream_t s = d_ctx->stream();
        GPUOFDM_CUDA_CHECK(cudaMemsetAsync(d_count.get(), 0, sizeof(unsigned), s));
        const size_t chunks = (size_t(n_end) + sd::corr_window - 1) / sd::corr_window;
        metric_kernel<<<unsigned((chunks + block - 1) / block), block, 0, s>>>(
            x, n_end, d_flag.get(), double(d_params.threshold), double(d_params.min_power));
        GPUOFDM_CUDA_CHECK_LAUNCH(metric_kernel);
        const size_t cand_blocks = std::min<size_t>((size_t(n_end) + 255) / 256, 65535 * 4);
        candidate_kernel<<<unsigned(cand_blocks), 256, 0, s>>>(
            d_flag.get(), x, n_end, unsigned(d_params.min_plateau), d_cand.get(), d_count.get(),
            d_max_cand);
        GPUOFDM_CUDA_CHECK_LAUNCH(candidate_kernel);
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(h_count.get(), d_count.get(), sizeof(unsigned),
                                           cudaMemcpyDeviceToHost, s));
        d_ctx->synchronize();
        const unsigned n_cand = std::min(*h_count.get(), d_max_cand);
        if (n_cand == 0)
            return out;
        std::vector<raw_candidate> cand(n_cand);
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(
            cand.data(), d_cand.get(), n_cand * sizeof(raw_candidate), cudaMemcpyDeviceToHost, s));
        d_ctx->synchronize();
        std::sort(cand.begin(), cand.end(),
                  [](const raw_candidate& u, const raw_candidate& v) { return u.i < v.i; });

        // The CPU twin's rule on them in increasing i, in groups; match() reads x.
        d_cur = x;
        size_t resume = search_from;
        for (size_t g = 0; g < cand.size(); g += match_batch) {
            const size_t m = std::min<size_t>(match_batch, cand.size() - g);
            std::vector<candidate> c(m);
            for (size_t k = 0; k < m; k++) {
                const raw_candidate& rc = cand[g + k];
                c[k].i = size_t(rc.i);
                c[k].cr = rc.cr;
                c[k].ci = rc.ci;
                c[k].m = rc.m;
            }
            take_candidates(c.data(), m, resume, out);
        }
        d_cur = nullptr;
        return out;
    }

protected:
    /*!
     * match_kernel and pick_kernel on the jobs (at most match_batch) over d_cur, queued
     * after what is on the stream; one wait for the starts and windows.
     */
    void match(const match_job* jobs, size_t n, long* start, int* hyp, cfloat* win) override
    {
        if (n == 0)
            return;
        if (n > match_batch || !d_cur)
            throw std::logic_error("wimax_sync_cuda::match: " + std::to_string(n) +
                                   " jobs outside detect()");
        cudaStream_t s = d_ctx->stream();
        for (size_t k = 0; k < n; k++)
            h_jobs.get()[k] = { (long long)jobs[k].lo, (long long)(jobs[k].hi - jobs[k].lo + 1),
                                jobs[k].w0 };
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_jobs.get(), h_jobs.get(), n * sizeof(dev_job),
                                           cudaMemcpyHostToDevice, s));
        const size_t shared = window_len() * sizeof(cpx); // the longest window's y
        match_kernel<<<dim3(unsigned(n), unsigned(d_n_hyp)), match_block, shared, s>>>(
            d_cur, d_jobs.get(), d_pre.get(), d_params.cfo_search, unsigned(cp_len()),
            unsigned(symbol_len()), d_best.get());
        GPUOFDM_CUDA_CHECK_LAUNCH(match_kernel);
        pick_kernel<<<unsigned(n), block, 0, s>>>(d_cur, d_jobs.get(), d_best.get(), d_n_hyp,
                                                  unsigned(d_span), d_start.get(), d_hyp.get(),
                                                  d_win.get());
        GPUOFDM_CUDA_CHECK_LAUNCH(pick_kernel);
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(h_start.get(), d_start.get(), n * sizeof(long long),
                                           cudaMemcpyDeviceToHost, s));
        GPUOFDM_CUDA_CHECK(
            cudaMemcpyAsync(h_hyp.get(), d_hyp.get(), n * sizeof(int), cudaMemcpyDeviceToHost, s));
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(h_win.get(), d_win.get(), n * d_span * sizeof(cpx),
                                           cudaMemcpyDeviceToHost, s));
        d_ctx->synchronize();
        for (size_t k = 0; k < n; k++) {
            start[k] = long(h_start.get()[k]);
            hyp[k] = h_hyp.get()[k];
        }
        std::memcpy(win, h_win.get(), n * d_span * sizeof(cpx));
    }

private:
    //! Device memory for the flags and candidates of n_end points.
    void reserve(size_t n_end)
    {
        if (d_flag.size() < n_end)
            d_flag = device_buffer<unsigned char>(n_end);
        // Candidates are at least L + 1 apart.
        const size_t max_cand = n_end / (d_params.min_plateau + 1) + 2;
        if (d_cand.size() < max_cand)
            d_cand = device_buffer<raw_candidate>(max_cand);
        d_max_cand = unsigned(std::min<size_t>(d_cand.size(), 0xffffffffu));
    }

    device_spec d_device;
    cuda_context_ptr d_ctx; //!< made current before the buffers are allocated
    size_t d_span;          //!< the samples a burst's refinement reads: 2 L1
    int d_n_hyp;            //!< CFO hypotheses, 2 cfo_search + 1
    unsigned d_max_cand = 0;
    const cpx* d_cur = nullptr; //!< the clean samples detect_clean() works on
    device_buffer<cpx> d_x;     //!< detect()'s upload, grown to the largest n
    device_buffer<unsigned char> d_flag;
    device_buffer<raw_candidate> d_cand;
    device_buffer<cpx> d_pre;
    device_buffer<dev_job> d_jobs;
    device_buffer<sd::match_best> d_best;
    device_buffer<long long> d_start;
    device_buffer<int> d_hyp;
    device_buffer<cpx> d_win;
    device_buffer<unsigned> d_count;
    pinned_buffer<dev_job> h_jobs;
    pinned_buffer<long long> h_start;
    pinned_buffer<int> h_hyp;
    pinned_buffer<cpx> h_win;
    pinned_buffer<unsigned> h_count;
};

} // namespace

std::unique_ptr<wimax_sync> make_wimax_sync_cuda(const wimax_sync_params& p,
                                                 const device_spec& dev,
                                                 const cuda_context_ptr& ctx)
{
    return std::make_unique<wimax_sync_cuda>(p, dev, ctx);
}

} // namespace gr::gpuofdm::core
