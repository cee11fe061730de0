/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CUDA backend of the 802.11a synchronizer, batch-parallel over the buffer. Per piece of
// at most max_samples_per_batch samples, on the stage's context's stream (a receiver's,
// shared with the stages before and after it, when it hands one):
//   1. clean_kernel: non-finite samples -> 0, in place (after the pinned H2D copy);
//   2. metric_kernel: c[n], p[n], m[n] and the flag of every n (only the flag is kept), one thread per n, q and e
//      of the block's 256 + 64 samples in shared memory, the 48-term sums direct and in
//      the CPU twin's order (wifi_sync_common.h), so the flags are the twin's bit for bit;
//   3. candidate_kernel: n where the run of flags reaches min_plateau exactly, compacted
//      with an atomic counter (in any order), with c[n] and m[n] computed again there;
//   4. ltf_kernel: one block per candidate (grid-stride over the device-side count): the
//      derotated window in shared memory, one thread per offset for the joint T1 + T2
//      metric, thread 0 takes the first maximum and the fine CFO;
//   5. the count and the candidates' results come back (a few bytes each); the host sorts
//      them by n and wifi_sync::detect applies the same rule as for the CPU twin.
// A piece with candidates [a, b) holds the samples [a - L, b - 1 + cand_span): the flags
// from a - L decide the candidates at a exactly as over the whole buffer, and every
// candidate's fine timing is inside the piece, so no frame is lost at a piece edge.

#include "runtime/cuda_check.h"
#include "runtime/cuda_context.h"
#include "wifi/wifi_sync_common.h"

#include <algorithm>
#include <cstring>

namespace gr::gpuofdm::core {

namespace {

using sync_detail::cpx;

constexpr unsigned metric_block = 256;
constexpr unsigned ltf_block = 256;
static_assert(ltf_block >= sync_detail::ltf_window, "one thread per offset");

//! A candidate as the compaction kernel writes it (index in the piece).
struct raw_candidate {
    unsigned long long i;
    cpx c;
    float m;
    float pad;
};

//! The time-domain long training symbol, passed by value to the kernel.
struct ltf_ref {
    cpx l[sync_detail::ltf_len];
    float energy;
};

__global__ void clean_kernel(cpx* __restrict__ x, unsigned long long n)
{
    for (unsigned long long i = blockIdx.x * 256ull + threadIdx.x; i < n; i += 256ull * gridDim.x)
        x[i] = sync_detail::clean(x[i]);
}

__global__ void metric_kernel(const cpx* __restrict__ x,
                              unsigned long long n_x,
                              unsigned long long n_metric,
                              unsigned char* __restrict__ flag_out,
                              float threshold,
                              float min_power)
{
    constexpr unsigned span = metric_block + sync_detail::metric_span; // 320 samples
    constexpr unsigned nq = metric_block + sync_detail::window;        // 304 q and e
    __shared__ cpx xs[span];
    __shared__ cpx qs[nq];
    __shared__ float es[nq]; //!< |x|^2 of the later window's samples
    __shared__ float ea[nq]; //!< |x|^2 of the earlier window's samples
    const unsigned long long i0 = blockIdx.x * (unsigned long long)metric_block;
    for (unsigned t = threadIdx.x; t < span; t += metric_block)
        xs[t] = i0 + t < n_x ? x[i0 + t] : cpx{ 0.0f, 0.0f };
    __syncthreads();
    for (unsigned t = threadIdx.x; t < nq; t += metric_block) {
        qs[t] = sync_detail::mul_conj(xs[t], xs[t + sync_detail::delay]);
        es[t] = sync_detail::norm2(xs[t + sync_detail::delay]);
        ea[t] = sync_detail::norm2(xs[t]);
    }
    __syncthreads();
    const unsigned j = threadIdx.x;
    if (i0 + j >= n_metric)
        return;
    cpx c = { 0.0f, 0.0f };
    float pb = 0.0f, pa = 0.0f;
    for (unsigned k = 0; k < sync_detail::window; k++) {
        c.re = sync_detail::add(c.re, qs[j + k].re);
        c.im = sync_detail::add(c.im, qs[j + k].im);
        pb = sync_detail::add(pb, es[j + k]);
        pa = sync_detail::add(pa, ea[j + k]);
    }
    const float p = sync_detail::window_power(pa, pb);
    const float m = sync_detail::metric(c, p);
    flag_out[i0 + j] = sync_detail::flag(m, p, threshold, min_power) ? 1 : 0;
}

// Index i (in the piece, from `first`) is a candidate when flag[i - L + 1 .. i] are set and
// flag[i - L] is clear, or i = L - 1 at the start of the buffer (the piece then starts
// at 0; elsewhere first >= L). Its c and m are computed again, directly (metric_at: the
// same floats as the tiled sums), so no per-sample c or m is stored.
__global__ void candidate_kernel(const unsigned char* __restrict__ flag,
                                 const cpx* __restrict__ x,
                                 unsigned long long first,
                                 unsigned long long n_metric,
                                 unsigned L,
                                 raw_candidate* __restrict__ out,
                                 unsigned* __restrict__ count,
                                 unsigned max_count)
{
    for (unsigned long long i = first + blockIdx.x * 256ull + threadIdx.x; i < n_metric;
         i += 256ull * gridDim.x) {
        if (!flag[i] || i + 1 < L)
            continue;
        if (i >= L && flag[i - L])
            continue;
        bool run = true;
        for (unsigned k = 1; k < L && run; k++)
            run = flag[i - k] != 0;
        if (!run)
            continue;
        const unsigned slot = atomicAdd(count, 1u);
        if (slot < max_count) {
            cpx c;
            float p;
            sync_detail::metric_at(x + i, &c, &p);
            out[slot] = { i, c, sync_detail::metric(c, p), 0.0f };
        }
    }
}

__global__ void ltf_kernel(const cpx* __restrict__ x,
                           const raw_candidate* __restrict__ cand,
                           const unsigned* __restrict__ count,
                           unsigned long long base,
                           ltf_ref ref,
                           wifi_sync_candidate* __restrict__ out)
{
    __shared__ cpx y[sync_detail::ltf_span];
    __shared__ cpx l[sync_detail::ltf_len];
    __shared__ float v[sync_detail::ltf_window];
    for (unsigned k = threadIdx.x; k < sync_detail::ltf_len; k += ltf_block)
        l[k] = ref.l[k];
    const unsigned n_cand = *count;
    for (unsigned ci = blockIdx.x; ci < n_cand; ci += gridDim.x) {
        const raw_candidate rc = cand[ci];
        const double w = sync_detail::coarse_cfo(rc.c);
        const cpx* xw = x + rc.i + sync_detail::ltf_lo;
        __syncthreads(); // l loaded; y and v of the previous candidate read
        for (unsigned j = threadIdx.x; j < sync_detail::ltf_span; j += ltf_block)
            y[j] = sync_detail::mul_c(xw[j], sync_detail::derotation(w, j));
        __syncthreads();
        if (threadIdx.x < sync_detail::ltf_window)
            v[threadIdx.x] = sync_detail::ltf_joint(y + threadIdx.x, l);
        __syncthreads();
        if (threadIdx.x == 0) {
            unsigned best = 0;
            float best_v = 0.0f;
            for (unsigned j = 0; j < sync_detail::ltf_window; j++) {
                if (j == 0 || v[j] > best_v) {
                    best = j;
                    best_v = v[j];
                }
            }
            wifi_sync_candidate r;
            r.n = base + rc.i;
            r.ltf_start = r.n + sync_detail::ltf_lo + best;
            r.metric = rc.m;
            const float c1 = sync_detail::mag(sync_detail::ltf_corr(y + best, l));
            r.ltf_metric =
                sync_detail::ltf_quality(c1, sync_detail::energy64(y + best), ref.energy);
            cpx a = { 0.0f, 0.0f };
            const cpx* s = xw + best;
            for (unsigned k = 0; k < sync_detail::ltf_len; k++) {
                const cpx q = sync_detail::mul_conj(s[k], s[k + sync_detail::ltf_len]);
                a.re = sync_detail::add(a.re, q.re);
                a.im = sync_detail::add(a.im, q.im);
            }
            r.cfo = sync_detail::fine_cfo(w, a);
            r.pad = 0.0f;
            out[ci] = r;
        }
    }
}

class wifi_sync_cuda : public wifi_sync
{
public:
    wifi_sync_cuda(const wifi_sync_params& p, const device_spec& dev, const cuda_context_ptr& ctx)
        : wifi_sync(p), d_device(dev), d_ctx(cuda_context::for_stage(dev, ctx)),
          d_samples(p.max_samples_per_batch),
          // Candidates of one piece are at least L + 1 apart.
          d_max_cand(unsigned(p.max_samples_per_batch / (p.min_plateau + 1) + 2)), d_x(d_samples),
          d_flag(d_samples), d_cand(d_max_cand), d_res(d_max_cand), d_count(1), h_x(d_samples),
          h_res(d_max_cand), h_count(1)
    {
        for (unsigned k = 0; k < sync_detail::ltf_len; k++)
            d_ref.l[k] = d_ltf[k];
        d_ref.energy = d_ltf_energy;
    }

    device_spec device() const override { return d_device; }

protected:
    void find_candidates(const cfloat* x,
                         size_t n_samples,
                         size_t n_end,
                         std::vector<wifi_sync_candidate>& out) override
    {
        pieces(x, n_samples, n_end, false, out);
    }

    void find_candidates_device(const cfloat* x,
                                size_t n_samples,
                                size_t n_end,
                                std::vector<wifi_sync_candidate>& out) override
    {
        pieces(x, n_samples, n_end, true, out);
    }

private:
    void pieces(const cfloat* x,
                size_t n_samples,
                size_t n_end,
                bool on_device,
                std::vector<wifi_sync_candidate>& out)
    {
        use_device(d_device.cuda_index);
        const size_t L = d_params.min_plateau;
        const size_t per_piece = d_samples - L - sync_detail::cand_span + 1;
        for (size_t a = 0; a < n_end; a += per_piece) {
            const size_t b = std::min(n_end, a + per_piece);
            const size_t base = a >= L ? a - L : 0;
            const size_t n_x = std::min(n_samples, b - 1 + sync_detail::cand_span) - base;
            run_piece(x + base, n_x, base, a - base, b - base, on_device, out);
        }
    }

    //! Candidates i in [first, n_metric) of the piece x[0 .. n_x) at buffer index base.
    void run_piece(const cfloat* x,
                   size_t n_x,
                   size_t base,
                   size_t first,
                   size_t n_metric,
                   bool on_device,
                   std::vector<wifi_sync_candidate>& out)
    {
        cudaStream_t s = d_ctx->stream();
        // The piece on the device: the caller's clean samples, or uploaded and cleaned here.
        const cpx* xd = reinterpret_cast<const cpx*>(x);
        if (!on_device) {
            std::memcpy(h_x.get(), x, n_x * sizeof(cfloat));
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_x.get(), h_x.get(), n_x * sizeof(cfloat),
                                               cudaMemcpyHostToDevice, s));
            const size_t clean_blocks = std::min<size_t>((n_x + 255) / 256, 65535 * 4);
            clean_kernel<<<unsigned(clean_blocks), 256, 0, s>>>(d_x.get(), n_x);
            GPUOFDM_CUDA_CHECK_LAUNCH(clean_kernel);
            xd = d_x.get();
        }
        GPUOFDM_CUDA_CHECK(cudaMemsetAsync(d_count.get(), 0, sizeof(unsigned), s));
        const size_t metric_blocks = (n_metric + metric_block - 1) / metric_block;
        metric_kernel<<<unsigned(metric_blocks), metric_block, 0, s>>>(
            xd, n_x, n_metric, d_flag.get(), d_params.threshold, d_params.min_power);
        GPUOFDM_CUDA_CHECK_LAUNCH(metric_kernel);
        const size_t cand_blocks = std::min<size_t>((n_metric - first + 255) / 256, 65535 * 4);
        candidate_kernel<<<unsigned(cand_blocks), 256, 0, s>>>(
            d_flag.get(), xd, first, n_metric, unsigned(d_params.min_plateau), d_cand.get(),
            d_count.get(), d_max_cand);
        GPUOFDM_CUDA_CHECK_LAUNCH(candidate_kernel);
        const unsigned ltf_blocks = std::min(d_max_cand, 1024u);
        ltf_kernel<<<ltf_blocks, ltf_block, 0, s>>>(xd, d_cand.get(), d_count.get(), base, d_ref,
                                                    d_res.get());
        GPUOFDM_CUDA_CHECK_LAUNCH(ltf_kernel);
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(h_count.get(), d_count.get(), sizeof(unsigned),
                                           cudaMemcpyDeviceToHost, s));
        d_ctx->synchronize();
        const unsigned n_cand = std::min(*h_count.get(), d_max_cand);
        if (n_cand == 0)
            return;
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(h_res.get(), d_res.get(),
                                           n_cand * sizeof(wifi_sync_candidate),
                                           cudaMemcpyDeviceToHost, s));
        d_ctx->synchronize();
        const size_t at = out.size();
        out.insert(out.end(), h_res.get(), h_res.get() + n_cand);
        std::sort(
            out.begin() + at, out.end(),
            [](const wifi_sync_candidate& u, const wifi_sync_candidate& v) { return u.n < v.n; });
    }

    device_spec d_device;
    cuda_context_ptr d_ctx; //!< made current before the buffers are allocated
    size_t d_samples;
    unsigned d_max_cand;
    device_buffer<cpx> d_x;
    device_buffer<unsigned char> d_flag;
    device_buffer<raw_candidate> d_cand;
    device_buffer<wifi_sync_candidate> d_res;
    device_buffer<unsigned> d_count;
    pinned_buffer<cfloat> h_x;
    pinned_buffer<wifi_sync_candidate> h_res;
    pinned_buffer<unsigned> h_count;
    ltf_ref d_ref{};
};

} // namespace

std::unique_ptr<wifi_sync> make_wifi_sync_cuda(const wifi_sync_params& p,
                                               const device_spec& dev,
                                               const cuda_context_ptr& ctx)
{
    return std::make_unique<wifi_sync_cuda>(p, dev, ctx);
}

} // namespace gr::gpuofdm::core
