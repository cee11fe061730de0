/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_CELL_SEARCH_H
#define GPUOFDM_CORE_CELL_SEARCH_H

// The cell search at one raster candidate (a channel of the wideband front end): the
// candidate's samples at a low rate (cell_search_layout), unknown timing and frequency.
//
//   1. PSS: correlation with every N_ID^(2) x frequency hypothesis at every timing (FFT,
//      overlap-save), the metric normalised by the local power (1 on average in noise),
//      optionally averaged over several sync periods (along the best drift path the
//      sample-clock offset allows); the strongest peaks per N_ID^(2) above the PSS
//      threshold, one per timing neighbourhood (non-maximum suppression).
//   2. At each peak (LTE / 5GTF: and at its Zadoff-Chu aliases, the best SSS kept): fine
//      CFO from the two halves of the correlation, the channel on the PSS subcarriers,
//      then the SSS in the frequency domain, every N_ID^(1) (and LTE / 5GTF half frame, LTE
//      CP and duplex) at once; the 5GTF ESS symbol index; the NR SSB index from the PBCH
//      DM-RS. A detection is reported when the SSS metric also passes.
//
// Timing: `sample` is the first sample (CP start) of the PSS's OFDM symbol at the
// candidate rate, counted from the candidate stream's start.

#include "runtime/device.h"
#include "runtime/worker_pool.h"
#include "sync/sync_raster.h"
#include "sync/sync_sequences.h"

#include <complex>
#include <cstdint>
#include <memory>
#include <vector>

namespace gr::gpuofdm::core {

//! The candidate rate and where the sync signals sit in it.
struct cell_search_layout {
    int fft_size = 0;          //!< samples of a symbol's useful part at the candidate rate
    double scs_hz = 0;         //!< subcarrier spacing of the sync signals
    double rate_hz = 0;        //!< fft_size x scs_hz
    int cp = 0;                //!< the normal CP at the candidate rate
    int pss_length = 0;        //!< 127 (NR) or 62
    std::vector<int> pss_bins; //!< FFT bin of each PSS element
    std::vector<int> sss_bins; //!< FFT bin of each SSS element
    std::vector<int> ess_bins; //!< 5GTF: FFT bin of each ESS element
};

//! NR: 256 x SSB spacing (3.84 / 7.68 Msps); LTE: 128 x 15 kHz (1.92 Msps); 5GTF: 256 x
//! 75 kHz (19.2 Msps: the PSS, SSS and ESS span -104..+103 subcarriers).
cell_search_layout make_cell_search_layout(cell_standard standard, int scs_khz);

struct cell_search_params {
    cell_standard standard = cell_standard::nr;
    int scs_khz = 30; //!< NR SSB subcarrier spacing 15 or 30 (LTE 15 and 5GTF 75 fixed)
    //! Frequency hypotheses: -range..+range in steps of half a subcarrier (integer
    //! subcarrier offsets included); 0 Hz: +-1 subcarrier spacing, or where
    //! cell_search_stream knows the carrier, default_cfo_range_hz(). Up to 64 subcarriers.
    double cfo_range_hz = 0;
    double pss_threshold = 16; //!< PSS metric (mean 1 in noise) a peak must pass, > 1
    //! SSS metric (mean 1 in noise) a detection must pass, > 1; 0: the standard's own
    //! (default_sss_threshold()). Over combined periods the level on their combined metric
    //! follows from it.
    double sss_threshold = 0;
    int combine_periods = 1; //!< sync periods whose PSS metrics are averaged, 1..16
    //! 5GTF: the PSS and SSS averaged over the 14 sync symbols of each sync subframe too,
    //! for a cell whose sync symbols all reach the receiver (11.5 dB more energy than one
    //! symbol): one detection per sync subframe, at its symbol 0, instead of one per symbol
    //! (beam). Other standards: false.
    bool combine_symbols = false;
    double period_s = 20e-3; //!< NR SSB burst period for combining (LTE, 5GTF: 5 ms fixed)
    //! The sample-clock offset combining allows for, ppm (0..100): the periods' PSS metrics
    //! are added along the best of the drift paths up to +-sro_ppm 1e-6 period samples a
    //! period (cell_search_common.h).
    double sro_ppm = 20;
    int max_peaks = 64; //!< PSS peaks examined per N_ID^(2) per call, 1..1024
    //! Steps of the staircase below the PSS and SSS levels (cell_search::metric_steps()):
    //! step j takes a PSS j lower (in one period's units) with an SSS higher. -1: the
    //! default, 3 where NR's and LTE's periods are combined, none with one period (each step
    //! costs about e times the SSS readings of noise); 0..6 asked for. 5GTF's combined
    //! periods or symbols: -1 or 0.
    int pss_steps = -1;
    //! The channels' frequencies from the capture centre, Hz, channel by channel (or
    //! empty): PSS peaks in channels closer than the PSS's bandwidth and within a symbol
    //! of each other are taken for one cell heard at neighbouring raster points, and only
    //! the strongest that the SSS confirms is reported. cell_search_stream sets them.
    std::vector<double> channel_offsets_hz;
    int ssb_lmax = 8; //!< NR L_max: 4 (the DM-RS also gives the half frame) or 8
    fivegtf_ess_index fivegtf_ess = fivegtf_ess_index::subframe_number;
    fivegtf_long_cp fivegtf_cp = fivegtf_long_cp::symbols_0_and_7;

    //! sss_threshold, or the standard's own where it is 0.
    double sss_level() const;
    void validate() const;
    //! The frequency hypotheses in Hz, from -range to +range.
    std::vector<double> cfo_hypotheses() const;
    //! The combining period in samples at the candidate rate.
    size_t period_samples() const;
    //! The sync symbols averaged in each period: 14 with combine_symbols, else 1.
    int symbols_per_period() const;
    //! Useful start of a period's sync symbol \p l (0 .. symbols_per_period() - 1) minus
    //! that of its first, candidate-rate samples.
    int symbol_offset(int l) const;
    //! How far past a timing the metrics it averages lie: the last period's last symbol at
    //! the largest drift, samples.
    size_t combining_extent() const;
    //! The drift paths combining tries: -slopes..slopes, 0 with one period.
    int drift_slopes() const;
    //! How far period k's PSS may have drifted from k periods after period 0's, samples.
    int drift_reach(int k) const;
};

/*!
 * The SSS threshold of \p standard where cell_search_params::sss_threshold is 0: 14.75 for
 * NR and 5GTF, 13.5 for LTE. Each keeps one period's false alarms at or under 1e-5 per
 * window of noise at the PSS threshold 16 (estimated from the noise windows' PSS peaks and
 * their SSS; docs/CELLSEARCH.md, "Thresholds"): LTE's SSS, 62 subcarriers, has a lighter
 * tail than NR's 127 and its 5 ms windows fewer peaks, which left it 2.2e-6 at 14.75.
 */
double default_sss_threshold(cell_standard standard);

//! Oscillator error the default frequency search allows for, in ppm of the carrier.
constexpr double default_cfo_ppm = 10;

/*!
 * The default frequency search range at carrier \p carrier_hz: +-default_cfo_ppm of it, at
 * least one subcarrier spacing of \p p's standard, at most 64 (the range's limit).
 */
double default_cfo_range_hz(const cell_search_params& p, double carrier_hz);

//! One cell heard at one candidate.
struct cell_detection {
    int channel = 0;    //!< the candidate (row) it was found in
    int64_t sample = 0; //!< CP start of the PSS symbol, candidate-rate samples
    int cell_id = 0, nid1 = 0, nid2 = 0;
    double cfo_hz = 0;     //!< carrier offset from the candidate's frequency
    double pss_metric = 0; //!< mean 1 in noise
    double sss_metric = 0; //!< mean 1 in noise
    double snr_db = 0;     //!< over the PSS's own bandwidth
    double power_db = 0;   //!< the sync signal's power per sample at the candidate rate
    // Per standard (-1 when not applicable or not known):
    int ssb_index = -1;      //!< NR: from the PBCH DM-RS
    int half_frame = -1;     //!< NR with L_max 4: from the DM-RS
    int subframe = -1;       //!< LTE: 0 or 5 (FDD) / 1 or 6 (TDD, the PSS's); 5GTF: 0 or 25
    int extended_cp = -1;    //!< LTE: 1 extended, 0 normal
    int tdd = -1;            //!< LTE: 1 TDD, 0 FDD
    int symbol = -1;         //!< 5GTF: the ESS's OFDM symbol index 0..13
    double dmrs_metric = -1; //!< NR: the PBCH DM-RS at the SSB index found, mean ~1 in noise
};

/*!
 * \brief log P((X_1 + ... + X_m) / m >= t) for iid X, each the largest of h unit
 * exponentials: the law in noise of the PSS metric combined over m periods (or 5GTF's
 * symbols), each term its best of h frequency hypotheses (saddlepoint approximation).
 */
double log_mean_max_exponential_tail(int m, int h, double t);

/*!
 * \brief log P(X_1 + ... + X_m > t) for iid Beta(a, b) variables, m = 1..max_m, tabulated
 * by convolution on a grid at construction: the law in noise of 5GTF's SSS and ESS metrics
 * with the sync symbols combined (cell_search.cc, delay_atoms()).
 */
class beta_sum_tail
{
public:
    beta_sum_tail(int a, int b, int max_m);
    double log_tail(int m, double t) const;
    //! The least t with log_tail(m, t) <= \p log_p.
    double threshold(int m, double log_p) const;

private:
    int d_grid;
    std::vector<std::vector<double>> d_log_tail; //!< [m - 1][j]: at the sum (j + m / 2) / grid
};

/*!
 * \brief The cell search on candidate streams, channel-major (candidate c at x + c*stride).
 *
 * search() looks at PSS timings 0 .. n - lookahead() - 1 of each row (sample i of a row is
 * sample first_sample + i of its stream); earlier timings need history() samples before
 * them (the LTE SSS precedes the PSS). A caller covering a stream in windows overlaps
 * consecutive windows by history() + lookahead() samples.
 */
class cell_search
{
public:
    virtual ~cell_search() = default;

    const cell_search_params& params() const { return d_params; }
    const cell_search_layout& layout() const { return d_layout; }
    //! Where it runs: the CPU twin or a CUDA device.
    const device_spec& device() const { return d_device; }
    size_t history() const;
    size_t lookahead() const;
    //! The levels a detection's PSS and SSS metrics are held to: params()' own with one
    //! period; over combined periods (or 5GTF's symbols) the levels on the combined metrics
    //! that noise passes as rarely (docs/CELLSEARCH.md, "Thresholds" and after).
    double pss_metric_threshold() const { return d_pss_threshold; }
    double sss_metric_threshold() const { return d_sss_threshold; }
    //! A detection's (combined) metrics pass one of these pairs, the first being
    //! pss_metric_threshold() and sss_metric_threshold(); then cell_search_params::pss_steps
    //! more, each with a lower PSS level and a higher SSS one (by default three where NR's
    //! and LTE's periods are combined, their SSS added coherently; none with one period).
    struct metric_step {
        double pss = 0;
        double sss = 0;
    };
    const std::vector<metric_step>& metric_steps() const { return d_metric_steps; }

    //! Samples of the rows, wherever they are: finish() asks for a few windows at once.
    struct window_request {
        int channel = 0;
        size_t from = 0;
    };
    class row_reader
    {
    public:
        virtual ~row_reader() = default;
        //! The windows, \p count samples each, one after another in \p out; non-finite
        //! samples as zeros.
        virtual void read(const std::vector<window_request>& windows,
                          size_t count,
                          std::vector<std::complex<float>>& out) = 0;
    };
    //! A reader of rows in host memory (channel c at x + c * stride).
    static std::unique_ptr<row_reader> host_rows(const std::complex<float>* x, size_t stride);

    virtual std::vector<cell_detection> search(const std::complex<float>* x,
                                               size_t stride,
                                               int channels,
                                               size_t n,
                                               int64_t first_sample) = 0;

    //! The same on rows already in device memory (the CUDA backend; e.g. the wideband
    //! channelizer's capture_device()): only the samples around the peaks come back.
    //! Other backends throw std::logic_error.
    virtual std::vector<cell_detection> search_device(const std::complex<float>* rows,
                                                      size_t stride,
                                                      int channels,
                                                      size_t n,
                                                      int64_t first_sample);

protected:
    explicit cell_search(const cell_search_params& params);

    //! The PSS replica of (N_ID^(2), frequency hypothesis): the symbol's useful part.
    struct pss_replica {
        int nid2 = 0;
        double freq_hz = 0;
        std::vector<std::complex<double>> time;
        double energy = 0;
    };
    //! A timing whose PSS metric (averaged over the periods) passed the threshold and is a
    //! local maximum in time: what a backend hands to finish().
    struct pss_candidate {
        int channel = 0;
        int nid2 = 0;
        size_t u = 0; //!< PSS useful start in the row
        float metric = 0;
        //! Each period's frequency hypothesis: the best at its strongest symbol.
        std::vector<int> hyp;
        //! Period k's symbol l at u + k * period + drift[k] + params().symbol_offset(l).
        std::vector<int> drift;
    };
    //! The order finish() ranks candidates of one cell in: metric, then channel and timing.
    static bool stronger_candidate(const pss_candidate& a, const pss_candidate& b)
    {
        if (a.metric != b.metric) {
            return a.metric > b.metric;
        }
        return a.channel != b.channel ? a.channel < b.channel : a.u < b.u;
    }

    //! The shared end of a search (on the host, for every backend): per channel and
    //! N_ID^(2) the strongest candidates, one per symbol-long neighbourhood, then the SSS
    //! and the rest at each (LTE / 5GTF: also at its Zadoff-Chu aliases), on the windows of
    //! samples around it that \p rows (of \p n samples) gives.
    std::vector<cell_detection> finish(row_reader& rows,
                                       size_t n,
                                       int64_t first_sample,
                                       std::vector<pss_candidate> candidates);
    //! Throws std::invalid_argument where channel_offsets_hz is given but not one a channel.
    void check_channels(int channels) const;
    //! For each of \p kept, the stronger ones that are the same cell heard in another
    //! channel (cell_search_params::channel_offsets_hz), or with 5GTF's symbols combined
    //! in the same channel through another N_ID^(2)'s PSS.
    std::vector<std::vector<size_t>> same_cell_elsewhere(
        const std::vector<const pss_candidate*>& kept) const;
    //! Candidates of one N_ID^(2) closer than this are one (a symbol; with 5GTF's symbols
    //! combined a sync subframe).
    size_t neighbourhood() const;

    cell_search_params d_params;
    cell_search_layout d_layout;
    device_spec d_device; //!< set by a CUDA backend's constructor
    std::vector<double> d_hyp;
    std::vector<pss_replica> d_replicas; //!< N_ID^(2)-major, then hypothesis
    size_t d_period;                     //!< combining period, samples
    float d_pss_threshold = 0;           //!< for the mean over combine_periods
    double d_sss_threshold = 0;
    std::vector<metric_step> d_metric_steps;
    //! The level PSS candidates are gathered from: the last step's.
    float pss_floor() const { return static_cast<float>(d_metric_steps.back().pss); }
    //! 5GTF with its symbols combined: the ESS's law in noise (examine()'s guard).
    std::shared_ptr<const beta_sum_tail> d_ess_tail;

private:
    struct examiner;
    struct pss_window;
    struct reading;
    struct dmrs_reading;
    void read_sss(examiner& ex, const pss_candidate& pk, reading& r);
    //! NR: the PBCH DM-RS's best ibar (SSB index, half frame) for \p cell_id at reading
    //! \p r, and its metric.
    dmrs_reading read_dmrs(examiner& ex, const reading& r, int cell_id);
    //! The candidate's detection from its readings (read_sss() has read them), false if none.
    bool examine(examiner& ex,
                 const std::vector<reading>& readings,
                 const pss_candidate& pk,
                 cell_detection& det);

    std::shared_ptr<examiner> d_examiner;
    //! finish() examines the candidates on these threads, one examiner each (the first is
    //! d_examiner); made at the first call with enough candidates.
    std::unique_ptr<worker_pool> d_pool;
    std::vector<std::shared_ptr<examiner>> d_examiners;
};

std::unique_ptr<cell_search> make_cell_search(const cell_search_params& params,
                                              const device_spec& dev);
std::unique_ptr<cell_search> make_cell_search_cpu(const cell_search_params& params);
std::unique_ptr<cell_search> make_cell_search_cuda(const cell_search_params& params,
                                                   const device_spec& dev,
                                                   const cuda_context_ptr& ctx = nullptr);

} // namespace gr::gpuofdm::core

#endif // GPUOFDM_CORE_CELL_SEARCH_H
