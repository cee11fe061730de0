/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_PFB_TIMING_SYNC_COMMON_H
#define GPUOFDM_CORE_PFB_TIMING_SYNC_COMMON_H

// The per-symbol arithmetic of the polyphase timing loop, shared by the CPU twin and the
// CUDA kernel: GNU Radio's pfb_clock_sync_ccf general_work() rules, one rounding per
// operation (runtime/rounded_math.h), and the filter dot products summed as a 32-lane warp
// sums them (lane l takes taps l, l+32, ...; then a butterfly over 16, 8, 4, 2, 1 lanes).

#include "runtime/host_device.h"
#include "runtime/rounded_math.h"

#include <cstddef>
#include <cstdint>

namespace gr::gpuofdm::core {

//! The loop's constants, as pfb_clock_sync_ccf derives them from its parameters.
struct timing_loop_consts {
    int nfilts = 32;
    int taps_per_filter = 0;
    int sps = 2; //!< floor(sps)
    int osps = 1;
    float alpha = 0.0f;
    float beta = 0.0f;
    float max_dev = 1.5f;
    float rate_i = 0.0f;  //!< floor((sps - floor(sps)) * nfilts)
    float rate_f0 = 0.0f; //!< the fractional rest: the rate at the start
    float init_phase = 0.0f;
};

//! The loop between symbols: phase k (filter units), rate, last error, next symbol start.
struct timing_loop_state {
    float k = 0.0f;
    float rate_f = 0.0f;
    float error = 0.0f;
    int64_t pos = 0; //!< stream index of the next symbol's first sample, before the wrap
};

//! A time_est tag in a job's terms.
struct timing_event {
    int64_t pos;
    float center;
};

//! Why a job's loop stopped.
enum timing_job_status : int { timing_stopped = 0, timing_need_data = 1, timing_full = 2 };

/*!
 * \brief One loop over one window: the samples of stream indices window_pos ..
 * window_pos + n_in - 1 of an input row (indices below window_pos read as zero), symbols
 * starting before stop_pos, those starting at or after emit_from written (at most cap).
 */
struct timing_job {
    uint32_t row = 0; //!< input row (channel)
    int64_t window_pos = 0;
    int64_t n_in = 0;
    timing_loop_state st; //!< in: the start; out: where it stopped
    int64_t stop_pos = INT64_MAX;
    int64_t emit_from = INT64_MIN;
    uint32_t event_begin = 0; //!< in: first event; out: first event not yet applied
    uint32_t event_end = 0;
    uint64_t n_out = 0; //!< in: symbols already written (a job resumed); out: symbols written
    int status = timing_stopped;
};

//! Where a job writes: symbol s of job j at [j*stride + s*osps + o]; pos/k at [j*cap + s].
struct timing_job_outputs {
    rounded::cpx* out = nullptr;
    float* err = nullptr; //!< optional (err/rate/phase together)
    float* rate = nullptr;
    float* phase = nullptr;
    int64_t* pos = nullptr; //!< optional (pos/k together): the symbol's sample after the wrap
    float* k = nullptr;
    uint64_t cap = 0;    //!< symbols a job may write
    uint64_t stride = 0; //!< out/err/rate/phase items from one job's row to the next
};

/*!
 * \brief chunked: a symbol's time in samples (\p pos after the wrap, phase \p k), as the
 * stitching compares it with a chunk's end.
 */
GPUOFDM_HD inline double timing_symbol_time(int64_t pos, float k, float nfilts)
{
    return double(pos) + double(k) / double(nfilts);
}

//! chunked: whether a symbol lies at most \p half samples after another (it is not taken).
GPUOFDM_HD inline bool timing_symbol_close(
    int64_t pos, float k, int64_t prev_pos, float prev_k, float nfilts, double half)
{
    return double(pos - prev_pos) + double(k - prev_k) / double(nfilts) <= half;
}

//! chunked: the symbols at a job's start the stitching reads from its summary.
constexpr int timing_summary_head = 8;

/*!
 * \brief chunked: what the stitching needs of a job's symbols, computed where they lie.
 * end: the symbols before the first whose time reaches the job's stop_pos (the chunk end);
 * regular: from there to end, each symbol lies more than half a symbol after the one
 * before, so once the symbol before is taken, all are.
 */
struct timing_chunk_summary {
    uint64_t end = 0;
    uint64_t regular = 1;
    int64_t last_pos = 0; //!< symbol end - 1 (when end > 0)
    float last_k = 0.0f;
    int64_t head_pos[timing_summary_head] = {}; //!< symbols 0.. (those the job has)
    float head_k[timing_summary_head] = {};
};

//! chunked: symbols [from, from + count) of job `job` go to symbol dst of row `row`.
struct timing_take {
    uint32_t job = 0;
    uint32_t row = 0;
    uint64_t from = 0;
    uint64_t count = 0;
    uint64_t dst = 0;
    uint64_t at = 0; //!< the symbols of the takes before this one (a call's gathered order)
};

/*!
 * \brief The summary of a job that wrote n_out symbols with times \p pos, \p k (its row).
 */
inline timing_chunk_summary timing_summarize_host(
    const timing_job& job, const int64_t* pos, const float* k, float nfilts, double half)
{
    timing_chunk_summary m;
    m.end = job.n_out;
    for (uint64_t q = 0; q < job.n_out; q++) {
        if (timing_symbol_time(pos[q], k[q], nfilts) >= double(job.stop_pos)) {
            m.end = q;
            break;
        }
        if (q >= 1 && timing_symbol_close(pos[q], k[q], pos[q - 1], k[q - 1], nfilts, half))
            m.regular = q + 1;
    }
    if (m.end > 0) {
        m.last_pos = pos[m.end - 1];
        m.last_k = k[m.end - 1];
    }
    for (uint64_t q = 0; q < job.n_out && q < uint64_t(timing_summary_head); q++) {
        m.head_pos[q] = pos[q];
        m.head_k[q] = k[q];
    }
    return m;
}

GPUOFDM_HD inline float timing_clip(float x, float clip)
{
    // gr::branchless_clip: 0.5 * (|x + clip| - |x - clip|)
    return rounded::mul(0.5f,
                        rounded::sub(fabsf(rounded::add(x, clip)), fabsf(rounded::sub(x, clip))));
}

/*!
 * \brief Reduces 32 lane partial sums as the warp butterfly does, for lane 0: after the
 * step over `off` lanes, lane l holds p[l] + p[l ^ off].
 */
GPUOFDM_HD inline float timing_lane_reduce(float* p)
{
    for (int off = 16; off >= 1; off >>= 1)
        for (int l = 0; l < off; l++)
            p[l] = rounded::add(p[l], p[l + off]);
    return p[0];
}

/*!
 * \brief The host's dot product in the warp's order: filter \p h (reversed, T taps) against
 * x[i .. i+T-1] of a window whose negative indices read zero.
 */
inline rounded::cpx timing_dot_host(const float* h, int taps, const rounded::cpx* x, int64_t i)
{
    float re[32], im[32];
    for (int l = 0; l < 32; l++) {
        float ar = 0.0f, ai = 0.0f;
        for (int j = l; j < taps; j += 32) {
            const int64_t n = i + j;
            const rounded::cpx v = n < 0 ? rounded::cpx{ 0.0f, 0.0f } : x[n];
            ar = rounded::add(ar, rounded::mul(v.re, h[j]));
            ai = rounded::add(ai, rounded::mul(v.im, h[j]));
        }
        re[l] = ar;
        im[l] = ai;
    }
    return { timing_lane_reduce(re), timing_lane_reduce(im) };
}

/*!
 * \brief Runs a job's loop with GNU Radio's update rules. \p dot(filter, window index) is
 * the backend's dot product (the same sums on both), \p dot2(f1, f2, i, y1, y2) two of them
 * on the same samples (the same sums as two dot() calls); \p writer says whether this caller
 * writes the outputs (lane 0 of a warp; every lane runs the loop on the same floats).
 *
 * Per symbol: a time_est event in [pos, pos + sps) sets k = nfilts*(center + event - pos);
 * for each of the osps outputs the phase wraps into [0, nfilts) moving pos by whole samples,
 * the output is filter floor(k) at pos + o, and k += rate_i + rate_f; then the error
 * (Re y Re dy + Im y Im dy)/2 of the first output against the derivative filter at pos, sps
 * steps of rate_f += beta*e, k += rate_f + alpha*e, the rate clip, and pos += sps. A symbol
 * whose samples the window does not hold is not started: the loop stops before it, with
 * its state as it was, so the job run again with more samples (a larger n_in, the same
 * window) goes on from there and writes after its n_out symbols: the symbols of one run.
 * A non-finite or runaway phase (non-finite input) restarts the loop at its initial phase.
 */
template <typename Dot, typename Dot2>
GPUOFDM_HD inline void timing_run_job(const timing_loop_consts& c,
                                      const float* bank,
                                      const float* dbank,
                                      const timing_event* events,
                                      timing_job& job,
                                      uint64_t job_index,
                                      const timing_job_outputs& o,
                                      Dot dot,
                                      Dot2 dot2,
                                      bool writer)
{
    timing_loop_state st = job.st;
    uint32_t ev = job.event_begin;
    uint64_t n = job.n_out;
    const int T = c.taps_per_filter;
    int status = timing_stopped;
    for (;;) {
        if (st.pos >= job.stop_pos) {
            status = timing_stopped;
            break;
        }
        int64_t pos = st.pos;
        float k = st.k;
        float rate_f = st.rate_f;
        uint32_t e = ev;
        while (e < job.event_end && events[e].pos < pos)
            e++;
        if (e < job.event_end && events[e].pos < pos + c.sps) {
            k = rounded::mul(float(c.nfilts),
                             rounded::add(events[e].center, float(events[e].pos - pos)));
            e++;
        }
        const bool emit = pos >= job.emit_from;
        if (emit && n >= o.cap) {
            status = timing_full;
            break;
        }
        rounded::cpx first{ 0.0f, 0.0f };
        rounded::cpx d{ 0.0f, 0.0f }; //!< the derivative filter's output
        int64_t first_pos = 0;
        float first_k = 0.0f;
        int filtnum = 0;
        bool ok = true;
        for (int out_idx = 0; out_idx < c.osps; out_idx++) {
            if (!(fabsf(k) < 16777216.0f)) {
                k = c.init_phase;
                rate_f = c.rate_f0;
                st.error = 0.0f;
            }
            filtnum = int(floorf(k));
            if (filtnum >= c.nfilts || filtnum < 0) {
                const int wraps =
                    filtnum >= 0 ? filtnum / c.nfilts : -((-filtnum - 1) / c.nfilts) - 1;
                k = rounded::sub(k, float(wraps * c.nfilts));
                filtnum -= wraps * c.nfilts;
                pos += wraps;
            }
            const int64_t i = pos + out_idx - job.window_pos;
            if (i + T > job.n_in) {
                ok = false;
                break;
            }
            // One output a symbol: the derivative filter reads the same samples with the
            // same filter number, so both dot products share their loads (dot2).
            rounded::cpx y;
            if (c.osps == 1) {
                dot2(bank + size_t(filtnum) * T, dbank + size_t(filtnum) * T, i, y, d);
            } else {
                y = dot(bank + size_t(filtnum) * T, i);
            }
            if (out_idx == 0) {
                first = y;
                first_pos = pos;
                first_k = k;
            }
            if (emit && writer)
                o.out[job_index * o.stride + n * c.osps + out_idx] = y;
            k = rounded::add(rounded::add(k, c.rate_i), rate_f);
        }
        if (!ok) {
            status = timing_need_data;
            break;
        }
        if (emit && writer) {
            const uint64_t s = job_index * o.cap + n;
            if (o.err) {
                const uint64_t a = job_index * o.stride + n * c.osps;
                for (int out_idx = 0; out_idx < c.osps; out_idx++) {
                    o.err[a + out_idx] = st.error;
                    o.rate[a + out_idx] = rate_f;
                    o.phase[a + out_idx] = k;
                }
            }
            if (o.pos) {
                o.pos[s] = first_pos;
                o.k[s] = first_k;
            }
        }
        if (c.osps > 1)
            d = dot(dbank + size_t(filtnum) * T, pos - job.window_pos);
        const float error_r = rounded::mul(first.re, d.re);
        const float error_i = rounded::mul(first.im, d.im);
        const float error = rounded::mul(rounded::add(error_i, error_r), 0.5f);
        for (int s = 0; s < c.sps; s++) {
            rate_f = rounded::add(rate_f, rounded::mul(c.beta, error));
            k = rounded::add(rounded::add(k, rate_f), rounded::mul(c.alpha, error));
        }
        rate_f = timing_clip(rate_f, c.max_dev);
        st.k = k;
        st.rate_f = rate_f;
        st.error = error;
        st.pos = pos + c.sps;
        ev = e;
        if (emit)
            n++;
    }
    if (writer) {
        job.st = st;
        job.event_begin = ev;
        job.n_out = n;
        job.status = status;
    }
}

} // namespace gr::gpuofdm::core

#endif
