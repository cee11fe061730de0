/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CUDA polyphase timing recovery: one warp per loop (a channel, or a chunk of one). The 32
// lanes compute the filter dot products (lane l takes taps l, l+32, ..., then a butterfly
// of shuffles), and every lane runs the loop's scalar update on the same floats, lane 0
// writing; the loop itself stays on the device.
//
// A call's samples are cut along time into spans (pfb_timing_params::overlap_pieces) so the
// copies and the loops overlap: span t is uploaded on a copy stream while the loops run
// through span t-1 on the context's stream, each loop stopping where its samples end and
// going on in the next launch (timing_run_job resumes a job), and the symbols every row
// holds after launch t are downloaded on another copy stream while launch t+1 runs. Events
// order the streams; no two of them touch the same bytes at once.
//
// Chunked calls keep their rows on the device: a warp a job sums up its symbols for the
// host's stitching (timing_chunk_summary), and the ranges the host takes are gathered on
// the device and copied back as one range a row.

#include "runtime/cuda_context.h"
#include "runtime/cuda_pinned.h"
#include "timing/pfb_timing_sync.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace gr::gpuofdm::core {

namespace {

constexpr int warps_per_block = 4;
constexpr size_t max_spans = 16; //!< pfb_timing_params::overlap_pieces' upper bound

/*!
 * Runs the jobs of \p jobs_in over the samples of window indices below \p n_in_limit (the
 * spans uploaded so far) and writes them, advanced, to \p jobs_out.
 */
__global__ void timing_jobs_kernel(timing_loop_consts c,
                                   const float* __restrict__ bank,
                                   const float* __restrict__ dbank,
                                   const rounded::cpx* __restrict__ in,
                                   size_t in_stride,
                                   const timing_event* __restrict__ events,
                                   const timing_job* __restrict__ jobs_in,
                                   timing_job* __restrict__ jobs_out,
                                   unsigned n_jobs,
                                   long long n_in_limit,
                                   timing_job_outputs o)
{
    const unsigned warp = blockIdx.x * warps_per_block + threadIdx.x / 32;
    const int lane = int(threadIdx.x & 31);
    if (warp >= n_jobs)
        return; // the whole warp: blocks are whole warps
    timing_job job = jobs_in[warp];
    const int64_t n_in = job.n_in;
    job.n_in = n_in < n_in_limit ? n_in : int64_t(n_in_limit);
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
    if (lane == 0) {
        job.n_in = n_in;
        jobs_out[warp] = job;
    }
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

/*!
 * chunked: warp w sums up job w's symbols (timing_chunk_summary, as timing_summarize_host()
 * does): 32 symbols a step, the first reaching the job's end and the last close to the one
 * before it found by ballots.
 */
__global__ void timing_summary_kernel(const timing_job* __restrict__ jobs,
                                      unsigned n_jobs,
                                      const int64_t* __restrict__ pos,
                                      const float* __restrict__ phase_k,
                                      unsigned long long cap,
                                      float nfilts,
                                      double half,
                                      timing_chunk_summary* __restrict__ sums)
{
    const unsigned warp = blockIdx.x * warps_per_block + threadIdx.x / 32;
    const int lane = int(threadIdx.x & 31);
    if (warp >= n_jobs)
        return; // the whole warp: blocks are whole warps
    const timing_job job = jobs[warp];
    const int64_t* p = pos + size_t(warp) * cap;
    const float* k = phase_k + size_t(warp) * cap;
    const uint64_t n = job.n_out;
    const double stop = double(job.stop_pos);
    uint64_t end = n, regular = 1;
    for (uint64_t q0 = 0; q0 < n; q0 += 32) {
        const uint64_t q = q0 + uint64_t(lane);
        bool reach = false, close = false;
        if (q < n) {
            const int64_t pq = p[q];
            const float kq = k[q];
            reach = timing_symbol_time(pq, kq, nfilts) >= stop;
            close = q >= 1 && timing_symbol_close(pq, kq, p[q - 1], k[q - 1], nfilts, half);
        }
        const unsigned reached = __ballot_sync(0xffffffffu, reach);
        unsigned closes = __ballot_sync(0xffffffffu, close);
        if (reached) {
            const int first = __ffs(int(reached)) - 1;
            end = q0 + uint64_t(first);
            closes &= (1u << first) - 1u; // only those before the end count
        }
        if (closes)
            regular = q0 + uint64_t(31 - __clz(int(closes))) + 1;
        if (reached)
            break;
    }
    timing_chunk_summary* m = sums + warp;
    if (lane < timing_summary_head) {
        const bool have = uint64_t(lane) < n;
        m->head_pos[lane] = have ? p[lane] : 0;
        m->head_k[lane] = have ? k[lane] : 0.0f;
    }
    if (lane == 0) {
        m->end = end;
        m->regular = regular;
        m->last_pos = end > 0 ? p[end - 1] : 0;
        m->last_k = end > 0 ? k[end - 1] : 0.0f;
    }
}

/*!
 * chunked: block t copies take t's symbols (and err/rate/phase, pos where asked) from its
 * job's rows to the gathered rows, from symbol `at` on.
 */
__global__ void timing_gather_kernel(const timing_take* __restrict__ takes,
                                     int osps,
                                     unsigned long long cap,
                                     unsigned long long stride,
                                     const rounded::cpx* __restrict__ out,
                                     const float* __restrict__ aux,
                                     size_t aux_plane,
                                     const int64_t* __restrict__ pos,
                                     rounded::cpx* __restrict__ g_out,
                                     float* __restrict__ g_aux,
                                     size_t g_plane,
                                     int64_t* __restrict__ g_pos)
{
    const timing_take t = takes[blockIdx.x];
    const size_t items = size_t(t.count) * size_t(osps);
    const size_t src = size_t(t.job) * stride + size_t(t.from) * size_t(osps);
    const size_t dst = size_t(t.at) * size_t(osps);
    for (size_t i = threadIdx.x; i < items; i += blockDim.x) {
        g_out[dst + i] = out[src + i];
        if (g_aux)
            for (int a = 0; a < 3; a++)
                g_aux[a * g_plane + dst + i] = aux[a * aux_plane + src + i];
    }
    if (g_pos)
        for (size_t i = threadIdx.x; i < size_t(t.count); i += blockDim.x)
            g_pos[size_t(t.at) + i] = pos[size_t(t.job) * cap + size_t(t.from) + i];
}

// Grows \p b to \p n items, zeroed on \p s before anything queued after: the rows are
// copied back whole up to the longest job, so the tails of shorter jobs are read without
// being written (compute-sanitizer's initcheck would say so).
template <typename T>
void reserve(device_buffer<T>& b, size_t n, cudaStream_t s)
{
    if (b.size() < n) {
        b = device_buffer<T>(n);
        GPUOFDM_CUDA_CHECK(cudaMemsetAsync(b.get(), 0, n * sizeof(T), s));
    }
}

//! An event that times (cuda_event does not): the launches' durations.
class timed_event
{
public:
    timed_event() { GPUOFDM_CUDA_CHECK(cudaEventCreate(&d_event)); }
    ~timed_event() { cudaEventDestroy(d_event); }
    timed_event(const timed_event&) = delete;
    timed_event& operator=(const timed_event&) = delete;

    cudaEvent_t get() const { return d_event; }

private:
    cudaEvent_t d_event = nullptr;
};

} // namespace

class pfb_timing_sync_cuda : public pfb_timing_sync
{
public:
    pfb_timing_sync_cuda(const pfb_timing_params& p, const device_spec& dev, cuda_context_ptr ctx)
        : pfb_timing_sync(p), d_ctx(cuda_context::for_stage(dev, ctx)),
          d_pinned(d_ctx->device().cuda_index), d_in(p.n_channels * p.max_input_samples),
          d_bank(d_bank_flat.size()), d_dbank(d_dbank_flat.size())
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
        unpin_host_ranges();
        cudaEventDestroy(d_t0);
        cudaEventDestroy(d_t1);
    }
    device_spec device() const override { return d_ctx->device(); }
    double kernel_seconds() const override { return d_kernel_s; }
    bool pin_host_range(const void* p, size_t bytes) override { return d_pinned.pin(p, bytes); }
    void unpin_host_ranges() override { d_pinned.clear(); }

protected:
    void run_jobs(const pfb_timing_io& io,
                  std::vector<timing_job>& jobs,
                  const std::vector<timing_event>& events,
                  const timing_job_outputs& o) override
    {
        guarded([&] { run_spans(io, jobs, events, o, o.err != nullptr, o.pos != nullptr); });
    }

    // chunked: the rows stay on the device; the host gets the jobs' summaries, the symbol
    // times it asks for, and the symbols it takes, gathered into one range a row.
    void run_chunk_jobs(const pfb_timing_io& io,
                        std::vector<timing_job>& jobs,
                        const std::vector<timing_event>& events,
                        uint64_t cap,
                        bool aux,
                        std::vector<timing_chunk_summary>& sums) override
    {
        const size_t J = jobs.size();
        if (J == 0)
            return;
        guarded([&] {
            timing_job_outputs rows; // no host rows: nothing downloaded
            rows.cap = cap;
            rows.stride = cap * uint64_t(d_consts.osps);
            run_spans(io, jobs, events, rows, aux, true);
            d_rows_cap = cap;
            d_rows_jobs = J;
            d_rows_aux = aux;
            const cudaStream_t s = d_ctx->stream();
            reserve(d_sums, J, s);
            if (d_sums_host.size() < J)
                d_sums_host = pinned_buffer<timing_chunk_summary>(J);
            const unsigned blocks = unsigned((J + warps_per_block - 1) / warps_per_block);
            timing_summary_kernel<<<blocks, 32 * warps_per_block, 0, s>>>(
                d_final_jobs, unsigned(J), d_pos.get(), d_k.get(), (unsigned long long)cap,
                float(d_consts.nfilts), d_params.sps / 2.0, d_sums.get());
            GPUOFDM_CUDA_CHECK_LAUNCH(timing_summary_kernel);
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_sums_host.get(), d_sums.get(),
                                               J * sizeof(timing_chunk_summary),
                                               cudaMemcpyDeviceToHost, s));
            d_ctx->synchronize();
            std::copy(d_sums_host.get(), d_sums_host.get() + J, sums.begin());
        });
    }

    void chunk_symbol_times(
        size_t job, uint64_t from, uint64_t count, int64_t* pos, float* k) override
    {
        guarded([&] {
            const cudaStream_t s = d_ctx->stream();
            const size_t a = size_t(job * d_rows_cap + from);
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(
                pos, d_pos.get() + a, size_t(count) * sizeof(int64_t), cudaMemcpyDeviceToHost, s));
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(k, d_k.get() + a, size_t(count) * sizeof(float),
                                               cudaMemcpyDeviceToHost, s));
            d_ctx->synchronize();
        });
    }

    void gather_chunk_symbols(const pfb_timing_io& io,
                              const std::vector<timing_take>& takes) override
    {
        if (takes.empty())
            return;
        guarded([&] {
            const cudaStream_t s = d_ctx->stream();
            const size_t T = takes.size(), osps = size_t(d_consts.osps);
            const uint64_t total = takes.back().at + takes.back().count;
            const size_t items = size_t(total) * osps;
            const size_t slots = d_rows_jobs * size_t(d_rows_cap);
            const bool aux = io.err != nullptr && d_rows_aux;
            const bool pos = io.symbol_pos != nullptr;
            reserve(d_takes, T, s);
            reserve(d_gathered, items, s);
            if (aux)
                reserve(d_gathered_aux, 3 * items, s);
            if (pos)
                reserve(d_gathered_pos, size_t(total), s);
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_takes.get(), takes.data(), T * sizeof(timing_take),
                                               cudaMemcpyHostToDevice, s));
            timing_gather_kernel<<<unsigned(T), 256, 0, s>>>(
                d_takes.get(), int(osps), (unsigned long long)d_rows_cap,
                (unsigned long long)(d_rows_cap * osps), d_out.get(), aux ? d_aux.get() : nullptr,
                slots * osps, d_pos.get(), d_gathered.get(), aux ? d_gathered_aux.get() : nullptr,
                items, pos ? d_gathered_pos.get() : nullptr);
            GPUOFDM_CUDA_CHECK_LAUNCH(timing_gather_kernel);
            // A row's takes follow one another both in the gathered rows and in its output
            // row: one copy a row (and a plane).
            const size_t cpx = sizeof(rounded::cpx), f = sizeof(float);
            for (size_t i = 0; i < T;) {
                size_t e = i;
                while (e + 1 < T && takes[e + 1].row == takes[i].row)
                    e++;
                const size_t from = size_t(takes[i].at) * osps;
                const size_t n = size_t(takes[e].at + takes[e].count) * osps - from;
                const size_t dst =
                    size_t(takes[i].row) * io.out_stride + size_t(takes[i].dst) * osps;
                GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(static_cast<void*>(io.out + dst),
                                                   d_gathered.get() + from, n * cpx,
                                                   cudaMemcpyDeviceToHost, s));
                if (aux) {
                    float* planes[3] = { io.err, io.rate, io.phase };
                    for (size_t a = 0; a < 3; a++)
                        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(planes[a] + dst,
                                                           d_gathered_aux.get() + a * items + from,
                                                           n * f, cudaMemcpyDeviceToHost, s));
                }
                i = e + 1;
            }
            if (pos) {
                const size_t before = io.symbol_pos->size();
                io.symbol_pos->resize(before + size_t(total));
                GPUOFDM_CUDA_CHECK(
                    cudaMemcpyAsync(io.symbol_pos->data() + before, d_gathered_pos.get(),
                                    size_t(total) * sizeof(int64_t), cudaMemcpyDeviceToHost, s));
            }
            d_ctx->synchronize();
        });
    }

    //! Runs \p f; on an error, nothing queued may still read or write the caller's memory
    //! once it returns.
    template <typename F>
    void guarded(F f)
    {
        try {
            f();
        } catch (...) {
            for (const cudaStream_t q :
                 { d_ctx->stream(), d_upload.get(), d_download.get(), d_snapshot.get() })
                cudaStreamSynchronize(q);
            throw;
        }
    }

    //! run_jobs() in spans (see the top of this file).
    //! \p o: the host rows the symbols go to (none: out null), with or without \p aux
    //! (err/rate/phase) and \p pos (pos/k) rows on the device.
    void run_spans(const pfb_timing_io& io,
                   std::vector<timing_job>& jobs,
                   const std::vector<timing_event>& events,
                   const timing_job_outputs& o,
                   bool aux,
                   bool pos)
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
        if (J == 0)
            return;
        const size_t slots = J * o.cap;
        // Chunked loops lie one after another along a row: cut in time, a launch would hold
        // only the loops of its span (a sixteenth of them), so they run as one span.
        const size_t spans = J > C ? 1 : span_count(C, width);
        reserve(d_jobs, 2 * J, s); // two sets: a launch reads one and writes the other
        reserve(d_events, std::max<size_t>(events.size(), 1), s);
        reserve(d_out, slots * osps, s);
        reserve(d_pos, pos ? slots : 0, s);
        reserve(d_k, pos ? slots : 0, s);
        reserve(d_aux, aux ? 3 * slots * osps : 0, s);
        if (d_snap.size() < spans * J)
            d_snap = pinned_buffer<timing_job>(spans * J);

        timing_job_outputs dev;
        dev.out = d_out.get();
        if (aux) {
            dev.err = d_aux.get();
            dev.rate = dev.err + slots * osps;
            dev.phase = dev.rate + slots * osps;
        }
        if (pos) {
            dev.pos = d_pos.get();
            dev.k = d_k.get();
        }
        dev.cap = o.cap;
        dev.stride = o.cap * uint64_t(osps); // the device rows; the host's may be wider

        // The jobs and events on the context's stream, after what the caller queued there;
        // the copy streams start from that point.
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_jobs.get(), jobs.data(), J * sizeof(timing_job),
                                           cudaMemcpyHostToDevice, s));
        if (!events.empty())
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_events.get(), events.data(),
                                               events.size() * sizeof(timing_event),
                                               cudaMemcpyHostToDevice, s));
        d_ctx->record(d_fork);
        for (const cuda_stream* side : { &d_upload, &d_download, &d_snapshot })
            GPUOFDM_CUDA_CHECK(cudaStreamWaitEvent(side->get(), d_fork.get(), 0));

        // Symbols [from, to) of every job's row: final once every row holds `to` of them,
        // and never written again (a launch writes a row after its n_out symbols only).
        const size_t cpx = sizeof(rounded::cpx), f = sizeof(float);
        const cudaStream_t down = d_download.get();
        const auto download = [&](uint64_t from, uint64_t to) {
            if (to <= from || !o.out)
                return;
            const size_t a = size_t(from) * size_t(osps), n = size_t(to - from) * size_t(osps);
            const auto rows = [&](void* dst, size_t dst_row, const void* src, size_t src_row,
                                  size_t item) {
                GPUOFDM_CUDA_CHECK(
                    cudaMemcpy2DAsync(static_cast<char*>(dst) + a * item, dst_row * item,
                                      static_cast<const char*>(src) + a * item, src_row * item,
                                      n * item, J, cudaMemcpyDeviceToHost, down));
            };
            rows(o.out, o.stride, dev.out, dev.stride, cpx);
            if (o.err) {
                rows(o.err, o.stride, dev.err, dev.stride, f);
                rows(o.rate, o.stride, dev.rate, dev.stride, f);
                rows(o.phase, o.stride, dev.phase, dev.stride, f);
            }
            if (o.pos) {
                const size_t b = size_t(from), m = size_t(to - from);
                GPUOFDM_CUDA_CHECK(cudaMemcpy2DAsync(
                    o.pos + b, o.cap * sizeof(int64_t), dev.pos + b, o.cap * sizeof(int64_t),
                    m * sizeof(int64_t), J, cudaMemcpyDeviceToHost, down));
                GPUOFDM_CUDA_CHECK(cudaMemcpy2DAsync(o.k + b, o.cap * f, dev.k + b, o.cap * f,
                                                     m * f, J, cudaMemcpyDeviceToHost, down));
            }
        };
        uint64_t downloaded = 0; //!< symbols of every row queued for download
        // After launch t: the symbols every row holds go down while the next launch runs.
        const auto collect = [&](size_t t) {
            GPUOFDM_CUDA_CHECK(cudaEventSynchronize(d_snapped[t].get()));
            const timing_job* snap = d_snap.get() + t * J;
            uint64_t least = snap[0].n_out;
            for (size_t j = 1; j < J; j++)
                least = std::min(least, snap[j].n_out);
            GPUOFDM_CUDA_CHECK(cudaStreamWaitEvent(down, d_ran[t].get(), 0));
            download(downloaded, least);
            downloaded = std::max(downloaded, least);
        };

        const size_t row_bytes = P * cpx, src_row = io.in_stride * cpx;
        const unsigned blocks = unsigned((J + warps_per_block - 1) / warps_per_block);
        for (size_t t = 0; t < spans; t++) {
            const size_t c0 = width * t / spans, c1 = width * (t + 1) / spans;
            if (c1 > c0) {
                const auto* src = reinterpret_cast<const char*>(io.in) + c0 * cpx;
                char* dst = reinterpret_cast<char*>(d_in.get()) + c0 * cpx;
                if (C == 1)
                    GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(dst, src, (c1 - c0) * cpx,
                                                       cudaMemcpyHostToDevice, d_upload.get()));
                else
                    GPUOFDM_CUDA_CHECK(cudaMemcpy2DAsync(dst, row_bytes, src, src_row,
                                                         (c1 - c0) * cpx, C, cudaMemcpyHostToDevice,
                                                         d_upload.get()));
            }
            GPUOFDM_CUDA_CHECK(cudaEventRecord(d_uploaded[t].get(), d_upload.get()));
            GPUOFDM_CUDA_CHECK(cudaStreamWaitEvent(s, d_uploaded[t].get(), 0));
            // Launch t writes the job set launch t-2 wrote: snapshot t-2 must have read it.
            if (t >= 2)
                GPUOFDM_CUDA_CHECK(cudaStreamWaitEvent(s, d_snapped[t - 2].get(), 0));
            const timing_job* jobs_in = d_jobs.get() + (t % 2) * J;
            timing_job* jobs_out = d_jobs.get() + ((t + 1) % 2) * J;
            GPUOFDM_CUDA_CHECK(cudaEventRecord(d_launched[t].get(), s));
            timing_jobs_kernel<<<blocks, 32 * warps_per_block, 0, s>>>(
                d_consts, d_bank.get(), d_dbank.get(), d_in.get(), P, d_events.get(), jobs_in,
                jobs_out, unsigned(J), (long long)c1, dev);
            GPUOFDM_CUDA_CHECK_LAUNCH(timing_jobs_kernel);
            GPUOFDM_CUDA_CHECK(cudaEventRecord(d_ran[t].get(), s));
            // The jobs after launch t, for the host: how far every row has got.
            GPUOFDM_CUDA_CHECK(cudaStreamWaitEvent(d_snapshot.get(), d_ran[t].get(), 0));
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_snap.get() + t * J, jobs_out,
                                               J * sizeof(timing_job), cudaMemcpyDeviceToHost,
                                               d_snapshot.get()));
            GPUOFDM_CUDA_CHECK(cudaEventRecord(d_snapped[t].get(), d_snapshot.get()));
            // One launch behind: span t's upload and launch are queued before the host
            // waits for launch t-1.
            if (t >= 1)
                collect(t - 1);
        }
        collect(spans - 1);
        std::memcpy(static_cast<void*>(jobs.data()), d_snap.get() + (spans - 1) * J,
                    J * sizeof(timing_job));
        d_final_jobs = d_jobs.get() + (spans % 2) * J; // what launch spans - 1 wrote
        // What only some rows hold: up to the longest row (the rest of the shorter rows
        // comes back as the device holds it, as the caller's rows are that wide).
        uint64_t most = 0;
        for (const timing_job& j : jobs)
            most = std::max(most, j.n_out);
        download(downloaded, most);
        GPUOFDM_CUDA_CHECK(cudaEventRecord(d_downloaded.get(), down));
        d_ctx->wait(d_downloaded);
        if (o.out)
            d_ctx->synchronize();

        double seconds = 0.0;
        for (size_t t = 0; t < spans; t++) {
            float ms = 0.0f;
            GPUOFDM_CUDA_CHECK(cudaEventElapsedTime(&ms, d_launched[t].get(), d_ran[t].get()));
            seconds += double(ms) * 1e-3;
        }
        d_kernel_s = seconds;
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
        reserve(d_gy, items, s);
        reserve(d_gd, items, s);
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
    //! Spans a call of \p rows rows of \p width samples is cut into (at least one sample each).
    size_t span_count(size_t rows, size_t width) const
    {
        size_t n = d_params.overlap_pieces;
        if (n == 0)
            n = rows * width * sizeof(rounded::cpx) / (size_t(2) << 20);
        return std::clamp<size_t>(std::min(n, width), 1, max_spans);
    }

    cuda_context_ptr d_ctx;
    pinned_ranges d_pinned; //!< caller memory the copies go straight from / to
    cuda_stream d_upload;   //!< the spans' samples, host to device
    cuda_stream d_download; //!< the symbols, device to host
    cuda_stream d_snapshot; //!< the jobs after each launch, device to host
    cuda_event d_fork;
    cuda_event d_downloaded;
    std::array<cuda_event, max_spans> d_uploaded;         //!< span t on the device
    std::array<cuda_event, max_spans> d_snapped;          //!< the jobs after launch t on the host
    std::array<timed_event, max_spans> d_launched, d_ran; //!< launch t's start and end
    pinned_buffer<timing_job> d_snap;                     //!< [span][job]
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
    // chunked: the rows of the last run (jobs, symbols a job), their summaries, the takes
    // and the symbols they gather
    const timing_job* d_final_jobs = nullptr;
    uint64_t d_rows_cap = 0;
    size_t d_rows_jobs = 0;
    bool d_rows_aux = false;
    device_buffer<timing_chunk_summary> d_sums;
    pinned_buffer<timing_chunk_summary> d_sums_host;
    device_buffer<timing_take> d_takes;
    device_buffer<rounded::cpx> d_gathered;
    device_buffer<float> d_gathered_aux;
    device_buffer<int64_t> d_gathered_pos;
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
