/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CUDA backend of the 802.16 long-preamble synchronizer (wimax_sync). Per detect() call,
// on the synchronizer's context's stream (a receiver's, when it hands one), over the whole buffer (no pieces: the buffer is at most a
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
//   4. the count and the candidates come back and are sorted by sample; then, in groups of
//      gather_batch, window_kernel gathers the clean samples each candidate's fine timing
//      reads ([i - back, i + fwd + 2 L1), about 900 samples) and they come back.
// FINE TIMING RUNS ON THE HOST: wimax_sync::take_candidates, the CPU twin's own code, on the
// copied windows, with the same sequential rule (search resume after a burst), so the
// bursts, their starts and CFOs are the CPU twin's exactly. Candidates are about one per
// burst (noise almost never reaches the plateau), but each one's matched filter over its
// timing window and CFO hypotheses is about a millisecond on one core: take_candidates runs
// them on the host threads.

#include "runtime/cuda_check.h"
#include "runtime/cuda_context.h"
#include "wimax/wimax_sync.h"
#include "wimax/wimax_sync_common.h"

#include <algorithm>
#include <cstring>

namespace gr::gpuofdm::core {

namespace {

namespace sd = wimax_sync_detail;
using sd::cpx;

constexpr unsigned block = 256;
constexpr unsigned gather_batch = 256; //!< candidate windows per device->host copy

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

//! One block per candidate: x[first[c] .. first[c] + len) (0 past n) to out[c len ..].
__global__ void window_kernel(const cpx* __restrict__ x,
                              unsigned long long n,
                              const unsigned long long* __restrict__ first,
                              unsigned len,
                              cpx* __restrict__ out)
{
    const unsigned long long a = first[blockIdx.x];
    cpx* o = out + (unsigned long long)blockIdx.x * len;
    for (unsigned t = threadIdx.x; t < len; t += blockDim.x)
        o[t] = a + t < n ? x[a + t] : cpx{ 0.0f, 0.0f };
}

class wimax_sync_cuda : public wimax_sync
{
public:
    wimax_sync_cuda(const wimax_sync_params& p, const device_spec& dev, const cuda_context_ptr& ctx)
        : wimax_sync(p), d_device(dev), d_ctx(cuda_context::for_stage(dev, ctx)),
          d_win_len(window_len()), d_first(gather_batch), d_win(size_t(gather_batch) * d_win_len),
          d_count(1), h_first(gather_batch), h_win(size_t(gather_batch) * d_win_len), h_count(1)
    {
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
     * stream; the host's fine timing on the gathered windows.
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

        // The windows in groups, and the CPU twin's rule on them in increasing i.
        const long b = back();
        size_t resume = search_from;
        for (size_t g = 0; g < cand.size(); g += gather_batch) {
            const size_t m = std::min<size_t>(gather_batch, cand.size() - g);
            for (size_t k = 0; k < m; k++) {
                const long i = long(cand[g + k].i);
                h_first.get()[k] = (unsigned long long)(std::max(i - b, 0L));
            }
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_first.get(), h_first.get(),
                                               m * sizeof(unsigned long long),
                                               cudaMemcpyHostToDevice, s));
            window_kernel<<<unsigned(m), block, 0, s>>>(x, n, d_first.get(), unsigned(d_win_len),
                                                        d_win.get());
            GPUOFDM_CUDA_CHECK_LAUNCH(window_kernel);
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(
                h_win.get(), d_win.get(), m * d_win_len * sizeof(cpx), cudaMemcpyDeviceToHost, s));
            d_ctx->synchronize();
            std::vector<candidate> c(m);
            std::vector<const cfloat*> w(m);
            std::vector<long> first(m);
            for (size_t k = 0; k < m; k++) {
                const raw_candidate& rc = cand[g + k];
                c[k].i = size_t(rc.i);
                c[k].cr = rc.cr;
                c[k].ci = rc.ci;
                c[k].m = rc.m;
                w[k] = reinterpret_cast<const cfloat*>(h_win.get()) + k * d_win_len;
                first[k] = long(h_first.get()[k]);
            }
            take_candidates(w.data(), first.data(), c.data(), m, resume, out);
        }
        return out;
    }

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
    size_t d_win_len;
    unsigned d_max_cand = 0;
    device_buffer<cpx> d_x; //!< detect()'s upload, grown to the largest n
    device_buffer<unsigned char> d_flag;
    device_buffer<raw_candidate> d_cand;
    device_buffer<unsigned long long> d_first;
    device_buffer<cpx> d_win;
    device_buffer<unsigned> d_count;
    pinned_buffer<unsigned long long> h_first;
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
