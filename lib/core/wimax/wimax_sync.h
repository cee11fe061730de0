/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_WIMAX_SYNC_H
#define GPUOFDM_CORE_WIMAX_SYNC_H

// The IEEE 802.16-2004 OFDM-256 long-preamble synchronizer: where bursts start and their
// CFO. The receiver (wimax_rx.h) and ofdm_sync_cc use it.

#include "ofdm/constellation.h"
#include "runtime/device.h"
#include "runtime/worker_pool.h"

#include <cstddef>
#include <memory>
#include <vector>

namespace gr::gpuofdm::core {

/*!
 * \brief Synchronizer parameters (802.16 long preamble). cp_div and hold are the
 * receiver's to set (from wimax_rx_params) when it builds its synchronizer.
 */
struct wimax_sync_params {
    int cp_div = 4; //!< 1/G: 4, 8, 16 or 32
    /*!
     * Detection threshold on m[n] = |c[n]| / p[n] with c[n] = sum_{k<128} x[n+k]
     * conj(x[n+k+64]) and p[n] the larger of the two windows' powers (m <= 1; see
     * wifi_sync_params::threshold for why the larger): about SNR / (1 + SNR) on the first
     * preamble symbol (period 64), about 0 on noise, data and the second symbol.
     * 0.2 .. 0.8.
     */
    float threshold = 0.5f;
    //! Consecutive samples with m > threshold that make a detection point: 16 .. 96.
    size_t min_plateau = 32;
    //! p[n] below this is never a detection (digital silence): >= 0, finite.
    float min_power = 1e-12f;
    /*!
     * A detection whose preamble matched filter (preamble_metric, 0 .. 1: the mean of the
     * two symbols' normalized correlations at the chosen timing and CFO) is below this is
     * dropped: bursts give about sqrt(SNR / (1 + SNR)) times the main tap's share of a
     * dispersive channel, noise about 0.1. 0 .. 1 (1 excluded).
     */
    float min_preamble_metric = 0.4f;
    /*!
     * The delay-64 phase gives the CFO modulo 2 pi / 64 rad/sample (Fs / 64: 62.5 kHz at
     * 4 Msps); the matched filter then tries the coarse value plus h 2 pi / 64 for
     * |h| <= cfo_search and keeps the best: CFOs up to (cfo_search + 1/2) Fs / 64 are
     * found (+-156 kHz at 4 Msps with 2). 0 .. 4.
     */
    int cfo_search = 2;
    /*!
     * Samples a burst occupies from its start: detections before start + hold belong to it
     * (0: the preamble, 2 symbols). The receiver sets the burst's length.
     */
    size_t hold = 0;

    //! The ranges above; throws std::invalid_argument("name: range, got value").
    void validate() const;
};

//! One detected burst.
struct wimax_sync_result {
    size_t start = 0;    //!< first sample of the preamble (its first cyclic prefix)
    float cfo = 0.0f;    //!< radians per sample; derotate sample i by exp(-j cfo i)
    float metric = 0.0f; //!< m at the detection point
    float preamble_metric = 0.0f;
};

/*!
 * \brief 802.16 OFDM-256 long-preamble synchronizer: make_wimax_sync gives the CPU twin
 * (wimax_sync_cpu.cc) or the CUDA backend (wimax_sync_cuda.cu); the same bursts, starts
 * and CFOs from both (wimax_sync_common.h: the detection metric and the matched filter;
 * the CFO refinement below runs on the host for both).
 *
 * The first preamble symbol repeats every 64 samples (cyclic prefix included: 256 / cp_div
 * <= 64), the second every 128. A detection point is the first sample n where the run of
 * m[k] > threshold (p[k] >= min_power) reaches min_plateau; the coarse CFO is
 * -arg(c[n]) / 64. Fine timing: for each CFO hypothesis (coarse + h 2 pi / 64, |h| <=
 * cfo_search) the time-domain useful parts of both preamble symbols are matched over every
 * start that puts the plateau's run around n (back() samples before n to fwd() after), the
 * joint |C1| + |C2| maximized (the first maximum on a tie; wimax_sync_common.h). The CFO is then refined on the
 * found burst: the delay-64 phase over the first symbol (all 256 / cp_div + 192 pairs),
 * unwrapped to the hypothesis, then the delay-128 phase over the second symbol (+-pi / 128
 * around it). After a burst the search resumes at start + hold. Non-finite samples count
 * as 0. The detection metric's window sums are exact at every multiple of 128 samples
 * from the buffer's start and slid by one sample between (wimax_sync_common.h).
 */
class wimax_sync
{
public:
    virtual ~wimax_sync() = default;

    const wimax_sync_params& params() const { return d_params; }
    //! Where the detection metric runs.
    virtual device_spec device() const = 0;

    /*!
     * Bursts in x[0 .. n) with start >= search_from whose detection point has its whole
     * timing window in the buffer; a burst before search_from is not returned but holds
     * the search until start + hold. Throws std::invalid_argument ("x: ") for a null
     * pointer with n > 0.
     */
    virtual std::vector<wimax_sync_result> detect(const cfloat* x,
                                                  size_t n,
                                                  size_t search_from = 0) = 0;
    /*!
     * \brief As detect(), but \p d_x is device memory of this synchronizer's GPU holding
     * samples already free of non-finite values (a receiver's uploaded batch), so nothing
     * is copied in. The work is queued on the synchronizer's stream after what the caller
     * queued there (a chain whose stages share one cuda_context: the upload need not be
     * waited for); it returns once the bursts are found. The CUDA backend only; the CPU
     * twin throws std::logic_error.
     */
    virtual std::vector<wimax_sync_result> detect_device(const cfloat* d_x,
                                                         size_t n,
                                                         size_t search_from = 0);

    //! Samples before a buffer's end in which a burst may start but not be found yet.
    size_t lookback() const;
    //! Cyclic prefix and preamble symbol length (256 + CP).
    size_t cp_len() const { return 256 / size_t(d_params.cp_div); }
    size_t symbol_len() const { return 256 + cp_len(); }

    //! The time-domain useful parts (256 samples each) of the two preamble symbols, at the
    //! level of wimax_tx with scale 1.
    const std::vector<cfloat>& preamble_time(int symbol) const { return d_time[symbol & 1]; }

protected:
    //! Validates \p p and builds the preamble tables.
    explicit wimax_sync(const wimax_sync_params& p);

    //! A detection point: its sample, the sums' c there and m (wimax_sync_common.h).
    struct candidate {
        size_t i = 0;
        double cr = 0.0, ci = 0.0;
        double m = 0.0;
    };

    int back() const;
    int fwd() const;
    //! Detection points lie in [0, detect_end(n)) (<= 0: none): their timing window fits.
    long detect_end(size_t n) const;
    //! The clean samples a candidate i's fine timing reads: [i - back(), i + fwd() + 2 L1).
    size_t window_len() const { return size_t(back() + fwd()) + 2 * symbol_len(); }
    /*!
     * The rule for candidates cand[0 .. n), in increasing i: fine timing from search
     * position \p resume on, the preamble metric check; a burst is appended to \p out and
     * moves resume to its start + hold. The matched filter (match()) runs for all
     * candidates at once, as if no burst came before; a candidate whose window the rule
     * then clips is matched again alone, so the result is the sequential rule's.
     */
    void take_candidates(const candidate* cand,
                         size_t n,
                         size_t& resume,
                         std::vector<wimax_sync_result>& out);

    //! A candidate's matched filter: starts [lo, hi], coarse CFO w0 (radians per sample).
    struct match_job {
        long lo = 0, hi = 0;
        double w0 = 0.0;
    };
    /*!
     * Backend: the matched filter of jobs[0 .. n) (each with lo <= hi, its samples lo ..
     * hi + 2 symbol_len() - 1 in the buffer) over the clean samples of the buffer
     * detect() is working on (wimax_sync_common.h's fine timing arithmetic): each one's
     * chosen start, hypothesis (0 .. 2 cfo_search) and the 2 symbol_len() clean samples
     * from that start on, to win + k 2 symbol_len(). Both backends override it; here it
     * throws std::logic_error (a synchronizer that never calls take_candidates()).
     */
    virtual void match(const match_job* jobs, size_t n, long* start, int* hyp, cfloat* win);
    /*!
     * The CPU twin's matched filter of one job over the clean samples c[j] (the same
     * arithmetic as the CUDA match kernel); its start and hypothesis.
     */
    void match_host(const cfloat* c, const match_job& job, long& start, int& hyp) const;

    wimax_sync_params d_params;
    std::vector<cfloat> d_time[2];
    double d_energy[2] = { 0.0, 0.0 };
    std::unique_ptr<worker_pool> d_pool = make_worker_pool(8);

private:
    //! A burst's start, CFO and preamble metric.
    struct fine_result {
        long s = 0;
        double cfo = 0.0;
        double q = 0.0;
    };
    /*!
     * The CFO refined on the burst matched at start s with hypothesis CFO \p w_hyp, and
     * the preamble metric there; w[t] is the clean sample s + t, t < 2 symbol_len().
     */
    fine_result refine(const cfloat* w, long s, double w_hyp) const;
    //! The coarse CFO of a candidate, -arg(c) / 64.
    static double coarse_cfo(const candidate& c);
};

/*!
 * \brief The CPU twin or the CUDA backend (detection metric, candidates and the matched
 * filter on the device, the CFO refinement on the host: wimax_sync_cuda.cu) for dev.
 * Throws std::invalid_argument for a bad parameter, std::runtime_error for a CUDA device
 * on a build without CUDA. On CUDA, \p ctx is the chain's context to enqueue on (null:
 * one of its own).
 */
std::unique_ptr<wimax_sync> make_wimax_sync(const wimax_sync_params& p,
                                            const device_spec& dev,
                                            const cuda_context_ptr& ctx = nullptr);
//! The backends make_wimax_sync() picks (wimax_sync_cpu.cc, wimax_sync_cuda.cu); callers
//! use make_wimax_sync().
std::unique_ptr<wimax_sync> make_wimax_sync_cpu(const wimax_sync_params& p);
#ifdef GPUOFDM_HAVE_CUDA
std::unique_ptr<wimax_sync> make_wimax_sync_cuda(const wimax_sync_params& p,
                                                 const device_spec& dev,
                                                 const cuda_context_ptr& ctx = nullptr);
#endif

} // namespace gr::gpuofdm::core

#endif
