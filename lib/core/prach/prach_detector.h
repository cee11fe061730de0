/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_PRACH_DETECTOR_H
#define GPUOFDM_CORE_PRACH_DETECTOR_H

// The PRACH detector on frequency-domain bins: the L_RA bins of every repetition of
// every (cell, antenna, occasion), as the front end extracts them or an O-RAN 7.2 radio
// unit delivers them.
//
// Per (cell, occasion), for every root the cell's 64 preambles use:
//   1. coherent sum over the repetitions, per antenna: z_a(k) = sum_r X_a,r(k);
//   2. correlation with the root: z_a(k) conj(y_u(k)) / sqrt(L), zero-padded to N bins;
//   3. inverse DFT of size N (the power delay profile's resolution 1 / (N Delta f_RA));
//   4. non-coherent sum over antennas: PDP(n) = sum_a |c_a(n)|^2 / (A R^2 L^2), scaled so
//      a preamble received with per-bin power P on every antenna peaks at P, and noise of
//      per-bin power s^2 has mean s^2 / (R L);
//   5. per preamble v, the window of its zero-correlation zone: PDP samples
//      [N ((L - C_v) mod L) / L, N ((L - C_v + N_CS) mod L) / L) (rounded), where a
//      preamble delayed by t sequence samples peaks at the start + N t / L. For the
//      restricted sets the window is combined sample by sample with its images at
//      +-d_u (type A) and also +-2 d_u (type B), where a frequency offset of one or two
//      subcarriers moves the peak;
//   6. the floor per root: noise common to the cell's roots plus, on each root, the
//      flat cross-correlation of the strong preambles of its other roots (1/L of their
//      power). The strong preambles are the windows above the threshold on the mean
//      over all windows; the noise is the mean over the other windows less that leakage
//      (where all are strong: over the samples beyond two sequence samples of the peaks);
//   7. a detection for every window whose peak exceeds threshold x images x floor, unless
//      it lies within the sidelobe envelope 4 / (pi d)^2 (d sequence samples away) of a
//      stronger detection of the same root: a delay off the PDP grid spreads a peak as
//      sin(pi d) / (pi d), which reaches the neighbouring windows.
//
// The threshold is set from the target false-alarm probability per (cell, occasion) in
// closed form: a PDP sample of noise is (with the floor known) Gamma(K, 1) / K times the
// floor, K = antennas x combined windows; the per-sample probability p solves
// 1 - (1 - p)^M = false_alarm over the M samples the windows hold. The samples of the
// zero-padded PDP are correlated (fewer alarms) and the floor is estimated (more): in
// 4000 noise-only trials 0.13 % (format 0, 2 antennas) and 0.1 % (B4, 4 antennas) at a
// 0.1 % target, 9.8 % and 8.6 % at 10 %. Where prach_calibration.h's Monte Carlo table has
// the (format, subcarrier spacing, antennas, zone), the target is first mapped to the
// closed-form target measured to give it (params.calibrated, the default).
//
// Input layout (docs/DESIGN.md, the channel dimension): channel
// c = (cell * n_antennas + antenna) * n_occasions + occasion at bins + c * stride holds
// the repetitions one after the other, L_RA bins each (bin k of the sequence first:
// subcarrier k-bar + k of the allocation), stride >= repetitions * L_RA.

#include "ofdm/ofdm_layout.h"
#include "prach/prach_detector_common.h"
#include "prach/prach_preamble.h"
#include "prach/prach_tables.h"
#include "runtime/device.h"

#include <memory>
#include <vector>

namespace gr::gpuofdm::core {

//! One cell's PRACH configuration.
struct prach_cell_params {
    int logical_root = 0;          //!< prach-RootSequenceIndex: 0..837 (839), 0..137 (139)
    int zero_correlation_zone = 0; //!< zeroCorrelationZoneConfig: 0..15 (fewer for A/B)
    prach_restricted_set set = prach_restricted_set::unrestricted; //!< A/B: long formats only
};

//! The detector's parameters; every cell shares the format, antennas and occasions.
struct prach_detector_params {
    prach_format format = prach_format::f0;
    int mu = 0; //!< short formats: 0..3 (15, 30, 60, 120 kHz); 0 for the long ones
    std::vector<prach_cell_params> cells = { prach_cell_params{} }; //!< 1..1024 cells
    int n_antennas = 1;                                             //!< 1..64
    int n_occasions = 1;       //!< occasions per cell per call, 1..64
    int idft_size = 0;         //!< 0: 1024 (L_RA 839) or 256 (139); else a power of two
                               //!< >= L_RA, up to 4096
    double false_alarm = 1e-3; //!< target per (cell, occasion), in (0, 0.5]
    //! Use the Monte Carlo calibration (prach_calibration.h) where it has the configuration.
    bool calibrated = true;
    double sample_rate = 30.72e6; //!< Hz: the rate of prach_detection::delay_samples, > 0

    //! The ranges above; throws std::invalid_argument("name: range, got value").
    void validate() const;
};

//! One preamble found.
struct prach_detection {
    int cell = 0;
    int occasion = 0;
    int preamble = 0;         //!< 0..63
    int logical_root = 0;     //!< the logical root its sequence comes from
    int u = 0;                //!< physical root
    int delay_bins = 0;       //!< peak position in its window, in PDP samples
    double delay_us = 0;      //!< delay_bins / (N Delta f_RA), in microseconds
    double delay_samples = 0; //!< the same delay in samples at params.sample_rate
    float power = 0;          //!< per-bin received power of the preamble (input units), per antenna
    float noise = 0;          //!< per-bin noise power of one repetition (input units)
    float metric = 0;         //!< peak / (images x floor): the statistic compared with threshold
    float threshold = 0;
};

/*!
 * \brief PRACH detector (see the top of this file): every preamble present in each
 * (cell, occasion), with delay, power and metric.
 */
class prach_detector
{
public:
    virtual ~prach_detector() = default;

    const prach_detector_params& params() const { return d_params; }
    const prach_format_info& format() const { return d_format; }
    virtual device_spec device() const = 0;

    int idft_size() const { return d_idft; }
    //! The 64 preambles of \p cell.
    const std::vector<prach_preamble_id>& preambles(int cell) const;
    //! Roots (correlations) \p cell uses.
    int n_roots(int cell) const;
    //! The metric above which a window is a detection, for \p cell.
    float threshold(int cell) const;
    //! Channels of the input: cells x antennas x occasions.
    size_t n_channels() const;
    //! Bins each channel holds: repetitions x L_RA.
    size_t channel_bins() const;

    /*!
     * \brief Detects the preambles of every (cell, occasion) in \p bins (layout at the top
     * of this file). Throws std::invalid_argument for a null pointer, stride <
     * channel_bins(), or non-finite values in the bins (named by cell and occasion).
     * Detections come in (cell, occasion, preamble) order.
     */
    std::vector<prach_detection> detect(const cfloat* bins, size_t stride);

    /*!
     * \brief As detect(), but \p d_bins is device memory of this detector's GPU (the front
     * end's output, prach_frontend::process_device()): nothing is uploaded; the work is
     * queued on the detector's stream after what the caller queued there, and it returns
     * once the preambles found are back. The CUDA backend only; the CPU twin throws
     * std::logic_error.
     */
    std::vector<prach_detection> detect_device(const cfloat* d_bins, size_t stride);

    /*!
     * \brief As detect(), the bins as 16-bit integer I/Q (as an O-RAN 7.2 radio unit sends
     * them uncompressed): each part times \p scale is the input. Half the bytes of
     * detect()'s: the CUDA backend uploads them so and converts on the device. Throws
     * std::invalid_argument also for \p scale not finite and > 0.
     */
    std::vector<prach_detection> detect_cs16(const std::complex<int16_t>* bins,
                                             size_t stride,
                                             float scale);

    /*!
     * \brief The power delay profiles of the last detect(): rows of idft_size() samples,
     * row (cell, occasion, root) = first_row(cell) + occasion * n_roots(cell) + root.
     */
    virtual std::vector<float> power_delay_profiles() = 0;
    size_t first_row(int cell) const { return d_row_offset[size_t(cell)]; }
    size_t n_rows() const { return d_n_rows; }

protected:
    explicit prach_detector(const prach_detector_params& p);

    //! Backend: fills d_found with the preambles of every (cell, occasion) in the input
    //! (the decisions of prach_detector_common.h on each one's window scans), in any order.
    virtual void scan(const cfloat* bins, size_t stride) = 0;
    //! As scan(), the input on the device (detect_device()); by default throws.
    virtual void scan_device(const cfloat* d_bins, size_t stride);
    //! As scan(), from detect_cs16()'s bins; by default converted on the host, then scan().
    virtual void scan_cs16(const std::complex<int16_t>* bins, size_t stride, float scale);

    prach_detector_params d_params;
    prach_format_info d_format;
    int d_idft = 0;
    std::vector<std::vector<prach_preamble_id>> d_preambles; //!< per cell
    std::vector<int> d_cell_roots;                           //!< roots per cell
    std::vector<size_t> d_row_offset;                        //!< first PDP row per cell
    size_t d_n_rows = 0;
    //! conj(y_u(k)) / sqrt(L) of every (cell, root), L_RA each, cell by cell.
    std::vector<cfloat> d_refs;
    std::vector<size_t> d_ref_offset; //!< first reference of each cell
    std::vector<float> d_thresholds;  //!< per cell
    float d_scale = 0;                //!< 1 / (A R^2 L^2)
    //! The windows of every cell's 64 preambles (prach_detector_common.h), cell by cell.
    std::vector<prach_window> d_windows;
    //! The scan's decisions.
    std::vector<prach_found> d_found;

private:
    std::vector<cfloat> d_converted; //!< scan_cs16()'s bins as floats
    void check_input(const void* bins, size_t stride) const;
    //! d_found as detections, in (cell, occasion, preamble) order; throws for bad input.
    std::vector<prach_detection> report();
};

/*!
 * \brief Per-sample factor t with P(Gamma(K, 1) / K > t) = p: the threshold on a sample
 * that sums K exponential powers, relative to its mean.
 */
double prach_gamma_threshold(int k, double p);

//! The CPU twin or the CUDA backend (on \p ctx, the chain's context, when given); throws
//! std::invalid_argument for a bad parameter.
std::unique_ptr<prach_detector> make_prach_detector(const prach_detector_params& p,
                                                    const device_spec& dev,
                                                    const cuda_context_ptr& ctx = nullptr);

//! The backends make_prach_detector() picks (prach_detector_cpu.cc, prach_detector_cuda.cu).
std::unique_ptr<prach_detector> make_prach_detector_cpu(const prach_detector_params& p);
#ifdef GPUOFDM_HAVE_CUDA
std::unique_ptr<prach_detector> make_prach_detector_cuda(const prach_detector_params& p,
                                                         const device_spec& dev,
                                                         const cuda_context_ptr& ctx = nullptr);
#endif

} // namespace gr::gpuofdm::core

#endif
