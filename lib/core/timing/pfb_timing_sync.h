/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_PFB_TIMING_SYNC_H
#define GPUOFDM_CORE_PFB_TIMING_SYNC_H

#include "runtime/device.h"
#include "timing/pfb_timing_sync_common.h"

#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gr::gpuofdm::core {

/*!
 * \brief How the loop runs over a stream.
 *
 * sequential: one loop per channel with GNU Radio's pfb_clock_sync_ccf update rules, its
 * state carried across calls (the same symbols however the stream is cut into calls).
 *
 * chunked: the stream of a channel cut into chunks of chunk_samples on a grid fixed at the
 * stream start; each chunk runs its own loop from warmup_samples before the chunk start
 * (the first chunk from the stream start, as the sequential loop), and the chunks are
 * stitched by symbol time: a chunk's symbols are taken from the first one later than half a
 * symbol after the last symbol taken, up to the chunk end. The chunks run in parallel.
 *
 * hybrid: the sequential loop, with the matched and derivative filters' outputs for every
 * filter at every input sample computed first as one grid (on CUDA by the GPU, then copied
 * to the host), and the loop walked on the host through that grid: the partition of Kim et
 * al., "GPU-based acceleration of symbol timing recovery" (the filter banks on the GPU, the
 * loop on the CPU). The same symbols as sequential, bit for bit; one channel.
 */
enum class timing_mode { sequential, chunked, hybrid };

std::string to_string(timing_mode m);
//! "sequential" | "chunked" | "hybrid"; throws std::invalid_argument("mode: ...") otherwise.
timing_mode parse_timing_mode(const std::string& s);

/*!
 * \brief Parameters of the polyphase timing recovery (those of pfb_clock_sync_ccf, plus the
 * mode, the chunk geometry and the channel count).
 */
struct pfb_timing_params {
    double sps = 2.0;                 //!< input samples per symbol, 1..256 (fractional allowed)
    float loop_bw = 0.0628318530718f; //!< loop bandwidth, 0..1 (2*pi/100 typical)
    std::vector<float> taps;          //!< prototype at nfilts*sps, 3..65536 taps
    unsigned nfilts = 32;             //!< filters in the bank (filter_size), 1..1024
    float init_phase = 16.0f;         //!< initial phase in filter units, -1e6..1e6
    float max_rate_deviation = 1.5f;  //!< rate clip in filter units per sample, 0..nfilts
    int osps = 1;                     //!< output samples per symbol, 1..floor(sps)
    timing_mode mode = timing_mode::sequential;
    size_t chunk_samples = 16384;        //!< chunked: chunk length, 64*sps..2^24 samples
    size_t warmup_samples = 4096;        //!< chunked: loop start before a chunk, 0..2^24
    size_t n_channels = 1;               //!< independent channels per call, 1..65536
    size_t max_input_samples = 1u << 16; //!< samples a channel hands one call, 1024..2^24
    /*!
     * CUDA: a call's samples are cut along time into this many spans, each uploaded, run
     * and downloaded while its neighbours are, 0..16 (0: about 2 MiB of input a span, at
     * most 16; 1: one upload, one launch, one download). The symbols do not depend on it.
     * Chunked calls run as one span (their loops lie along the row, not across rows).
     */
    size_t overlap_pieces = 0;

    //! The ranges above; throws std::invalid_argument("name: range, got value").
    void validate() const;

    int sps_int() const { return int(sps); }
    size_t taps_per_filter() const { return (taps.size() + nfilts - 1) / nfilts; }
    /*!
     * Samples of pfb_clock_sync_ccf's history: taps_per_filter + 2*floor(sps). The stream
     * is read as if history - 1 zeros preceded its first sample, as GNU Radio does.
     */
    size_t history() const { return taps_per_filter() + 2 * size_t(sps_int()); }
};

/*!
 * \brief The banks pfb_clock_sync_ccf builds from a prototype: filter i holds
 * taps[i + j*nfilts], j < taps_per_filter (zero-padded), and the derivative bank the same
 * partition of dtaps = [0, taps[i+2]-taps[i] (i < ntaps-2), 0] * nfilts / sum|dtaps|.
 */
struct pfb_timing_banks {
    unsigned nfilts = 0;
    size_t taps_per_filter = 0;
    std::vector<std::vector<float>> filters;      //!< [nfilts][taps_per_filter]
    std::vector<std::vector<float>> diff_filters; //!< [nfilts][taps_per_filter]
};
//! Throws std::invalid_argument("taps: ...") when the derivative is all zero.
pfb_timing_banks make_pfb_timing_banks(const std::vector<float>& taps, unsigned nfilts);

//! The loop's gains as pfb_clock_sync_ccf computes them (damping 2*nfilts).
timing_loop_consts make_timing_loop_consts(const pfb_timing_params& p);

/*!
 * \brief What a channel carries between calls.
 *
 * Positions are sample indices of the stream as GNU Radio's block reads it (history() - 1
 * zeros, then the first sample at index history() - 1). window_pos is the index of the
 * first sample of the window the next call gets; a call reads its window from there.
 */
struct pfb_timing_state {
    timing_loop_state loop; //!< sequential: the loop; chunked: unused
    int64_t window_pos = 0; //!< stream index of in[0] of the next call
    int64_t chunk_pos = 0;  //!< chunked: start of the next chunk to run
    int64_t last_pos = 0;   //!< chunked: the last symbol taken (sample, after the wrap)
    float last_k = 0.0f;    //!< chunked: its filter phase
    bool have_last = false; //!< chunked: a symbol has been taken
};

//! A time_est tag: at stream index pos, the symbol centre is \p center samples later.
struct timing_event_in {
    size_t channel = 0;
    int64_t pos = 0;
    float center = 0.0f;
};

/*!
 * \brief One call: channel c reads in[c*in_stride + i], i < n_in[c] (the samples from its
 * state's window_pos) and writes up to max_symbols symbols (osps outputs each) to
 * out[c*out_stride + ...]; err/rate/phase (optional, same layout) get GNU Radio's per-symbol
 * error, rate and phase, repeated for the osps outputs of a symbol.
 */
struct pfb_timing_io {
    const std::complex<float>* in = nullptr;
    size_t in_stride = 0;
    const size_t* n_in = nullptr; //!< n_channels counts, each <= in_stride
    std::complex<float>* out = nullptr;
    size_t out_stride = 0; //!< >= max_symbols * osps
    float* err = nullptr;
    float* rate = nullptr;
    float* phase = nullptr;
    size_t max_symbols = 0;
    size_t* n_symbols = nullptr; //!< out: symbols written per channel
    std::vector<int64_t>* symbol_pos =
        nullptr;                             //!< optional, out: per channel, each symbol's sample
    const timing_event_in* events = nullptr; //!< sorted by (channel, pos)
    size_t n_events = 0;
    bool finish = false; //!< the stream ends with this call: chunked runs its last, short chunk
};

/*!
 * \brief Polyphase matched-filter symbol timing recovery: the banks and loop of GNU Radio's
 * pfb_clock_sync_ccf (maximum-likelihood detector y * dy averaged over I and Q, the
 * proportional-integral loop with alpha = 4*zeta*bw/d, beta = 4*bw^2/d,
 * d = 1 + 2*zeta*bw + bw^2, zeta = 2*nfilts, the rate clipped to +-max_rate_deviation),
 * for n_channels independent channels per call.
 *
 * Both backends run the same per-symbol arithmetic (pfb_timing_sync_common.h), the dot
 * products summed in the order of a 32-lane warp, so the CPU twin and CUDA give the same
 * floats. GNU Radio's VOLK dot products sum in another order: the symbols agree within
 * float rounding as long as the two phases fall in the same filter.
 */
class pfb_timing_sync
{
public:
    virtual ~pfb_timing_sync() = default;

    const pfb_timing_params& params() const { return d_params; }
    const pfb_timing_banks& banks() const { return d_banks; }
    const timing_loop_consts& loop_consts() const { return d_consts; }
    virtual device_spec device() const = 0;
    //! Seconds the last call spent in the loops (CUDA: the kernel alone, no transfers).
    virtual double kernel_seconds() const = 0;

    //! The state at the stream start, window_pos = history() - 1.
    pfb_timing_state initial_state() const;

    //! Runs one call; \p states holds n_channels states, advanced in place.
    void process(const pfb_timing_io& io, pfb_timing_state* states);

    /*!
     * Samples at the window start the channel no longer needs: the caller drops them and
     * calls advance(); the next call's window then starts window_pos later.
     */
    size_t consumable(const pfb_timing_state& s, size_t n_in) const;

    /*!
     * Page-locks caller memory process() reads or writes (a block's rows), so the CUDA
     * backend's copies go straight between it and the device, overlapped with the loops;
     * false where that is refused or there is no GPU (it only costs speed).
     * unpin_host_ranges() undoes it before the memory goes away.
     */
    virtual bool pin_host_range(const void* /*p*/, size_t /*bytes*/) { return false; }
    virtual void unpin_host_ranges() {}
    static void advance(pfb_timing_state& s, size_t n) { s.window_pos += int64_t(n); }

protected:
    explicit pfb_timing_sync(const pfb_timing_params& p);

    /*!
     * Runs the loops of \p jobs over the rows of io.in (job.row, n_in samples each), with
     * \p events, into \p o (host memory, job j's symbols from j * o.cap), and sets each job's
     * results (st, event_begin, n_out, status).
     */
    virtual void run_jobs(const pfb_timing_io& io,
                          std::vector<timing_job>& jobs,
                          const std::vector<timing_event>& events,
                          const timing_job_outputs& o) = 0;

    /*!
     * chunked: runs the loops of \p jobs as run_jobs() does, job j writing at most \p cap
     * symbols (and their pos/k; err/rate/phase where \p aux) where the backend keeps them,
     * and sets \p sums[j] (timing_chunk_summary). The default: run_jobs() into host rows.
     */
    virtual void run_chunk_jobs(const pfb_timing_io& io,
                                std::vector<timing_job>& jobs,
                                const std::vector<timing_event>& events,
                                uint64_t cap,
                                bool aux,
                                std::vector<timing_chunk_summary>& sums);
    //! chunked: pos/k of symbols [from, from + count) of job \p job of the last run.
    virtual void chunk_symbol_times(
        size_t job, uint64_t from, uint64_t count, int64_t* pos, float* k);
    /*!
     * chunked: copies the symbols of \p takes (in row order, each row's in symbol order) of
     * the last run to the caller's rows, and their pos to io.symbol_pos where asked.
     */
    virtual void gather_chunk_symbols(const pfb_timing_io& io,
                                      const std::vector<timing_take>& takes);

    /*!
     * hybrid: both banks' outputs for every filter f at every window index i0 + s,
     * s < count, of \p row (n_in samples, negative indices zero): y[s*nfilts + f] (matched
     * filter) and d[s*nfilts + f] (derivative), the same floats as the loops' dot products.
     */
    virtual void compute_grid(const std::complex<float>* row,
                              int64_t n_in,
                              int64_t i0,
                              size_t count,
                              rounded::cpx* y,
                              rounded::cpx* d) = 0;

    pfb_timing_params d_params;
    pfb_timing_banks d_banks;
    timing_loop_consts d_consts;
    std::vector<float> d_bank_flat;  //!< [nfilts][T], each filter reversed (GNU Radio's order)
    std::vector<float> d_dbank_flat; //!< the derivative bank, the same layout

private:
    void process_sequential(const pfb_timing_io& io, pfb_timing_state* states);
    void process_chunked(const pfb_timing_io& io, pfb_timing_state* states);
    //! chunked: symbol q's pos/k of job \p ji (from its summary's head, else the backend).
    void chunk_symbol(size_t ji, uint64_t q, int64_t& pos, float& k);
    //! hybrid: the grid (compute_grid()), then the loop of each job on the host through it.
    void run_jobs_hybrid(const pfb_timing_io& io, const timing_job_outputs& o);

    std::vector<timing_job> d_jobs;
    std::vector<timing_event> d_events;
    std::vector<timing_chunk_summary> d_sums;
    std::vector<timing_take> d_takes;
    //! chunked: symbols of one job the stitching fetched past its summary's head
    size_t d_fetched_job = SIZE_MAX;
    uint64_t d_fetched_from = 0;
    std::vector<int64_t> d_fetched_pos;
    std::vector<float> d_fetched_k;
    //! The rows of the host runs (sequential: pos/k; chunked, default backend: all), grown only
    std::vector<std::complex<float>> d_chunk_out;
    std::vector<float> d_chunk_aux;
    std::vector<int64_t> d_chunk_pos;
    std::vector<float> d_chunk_k;
    uint64_t d_chunk_cap = 0;
    std::vector<rounded::cpx> d_grid_y, d_grid_d;
};

std::unique_ptr<pfb_timing_sync> make_pfb_timing_sync(const pfb_timing_params& p,
                                                      const device_spec& dev,
                                                      cuda_context_ptr ctx = nullptr);

//! The backends make_pfb_timing_sync() picks; callers use make_pfb_timing_sync().
std::unique_ptr<pfb_timing_sync> make_pfb_timing_sync_cpu(const pfb_timing_params& p);
#ifdef GPUOFDM_HAVE_CUDA
std::unique_ptr<pfb_timing_sync> make_pfb_timing_sync_cuda(const pfb_timing_params& p,
                                                           const device_spec& dev,
                                                           cuda_context_ptr ctx);
#endif

} // namespace gr::gpuofdm::core

#endif
