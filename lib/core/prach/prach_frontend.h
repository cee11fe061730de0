/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_PRACH_FRONTEND_H
#define GPUOFDM_CORE_PRACH_FRONTEND_H

// The PRACH front end: from time-domain samples at the carrier's rate to the L_RA bins of
// every repetition of every frequency occasion, the detector's input (prach_detector.h).
//
// Per input row (one antenna of one cell, one time occasion, starting at the first
// sample of the preamble's cyclic prefix): drop the CP (N_CP^RA + extra_cp_kappa, in
// kappa T_c scaled to the rate), one DFT of n_fft = sample_rate / Delta f_RA samples per
// repetition (one sequence period, so the repetitions stay phase-coherent), scaled by
// 1 / sqrt(n_fft) (white noise of variance s^2 per sample gives s^2 per bin), and for
// each frequency occasion m the L_RA bins from the one holding sequence bin 0:
// offset_hz of the cell + m * occasion_spacing_hz from the capture's centre. Offsets are
// whole multiples of Delta f_RA (38.211 5.3.2 places the sequence at (k + K k1 + k-bar)
// Delta f_RA), so no mixing is needed: the shift to the PRACH band is a choice of bins.
//
// Layout: input row i = (cell * n_antennas + antenna) * n_time_occasions + t at
// in + i * in_stride (in_stride >= samples_per_row()); output channel i * n_fd_occasions + m
// at out + channel * out_stride, repetitions one after the other (out_stride >=
// repetitions * L_RA): with n_occasions = n_time_occasions * n_fd_occasions, the
// detector's channel (cell * n_antennas + antenna) * n_occasions + occasion.

#include "ofdm/ofdm_layout.h"
#include "prach/prach_tables.h"
#include "runtime/device.h"

#include <memory>
#include <vector>

namespace gr::gpuofdm::core {

//! The front end's parameters; cells share everything but their band's position.
struct prach_frontend_params {
    prach_format format = prach_format::f0;
    int mu = 0; //!< short formats: 0..3; 0 for the long ones
    double sample_rate =
        30.72e6; //!< Hz, <= 491.52e6; a multiple of 30.72 MHz / 2^k giving whole CPs
    std::vector<double> offset_hz = { 0.0 }; //!< per cell (1..1024): sequence bin 0
    double occasion_spacing_hz = 0;          //!< between FD occasions (N_RB * 12 * scs)
    int n_antennas = 1;                      //!< 1..64
    int n_time_occasions = 1;                //!< rows per (cell, antenna), 1..64
    int n_fd_occasions = 1;                  //!< msg1-FDM: 1, 2, 4 or 8
    int extra_cp_kappa = 0; //!< 16 kappa per 0.5 ms boundary crossed (5.3.2): 0..64, x16

    //! The ranges above (and that every band fits the capture); throws
    //! std::invalid_argument("name: range, got value").
    void validate() const;
};

/*!
 * \brief The bin offset of sequence bin 0 from the carrier's centre, in Delta f_RA, for
 * the PRACH of 38.211 5.3.2: K k1 + k-bar with K = Delta f / Delta f_RA and
 * k1 = (N_BWP^start + n_RA^start) N_sc^RB - N_grid^size N_sc^RB / 2 (k0 = 0: the carrier's
 * grid of the PUSCH numerology centred on the capture). \p msg1_frequency_start is
 * n_RA^start, in resource blocks from the BWP's start.
 */
long prach_bin0_offset(const prach_format_info& fmt,
                       double scs_pusch_hz,
                       int grid_size_rb,
                       int bwp_start_rb,
                       int msg1_frequency_start);

/*!
 * \brief PRACH front end (see the top of this file).
 */
class prach_frontend
{
public:
    virtual ~prach_frontend() = default;

    const prach_frontend_params& params() const { return d_params; }
    const prach_format_info& format() const { return d_format; }
    virtual device_spec device() const = 0;

    int fft_size() const { return d_fft; }
    //! Samples of the cyclic prefix dropped at the start of a row.
    int cp_samples() const { return d_cp; }
    //! Samples a row must hold: the CP and the repetitions.
    size_t samples_per_row() const;
    size_t n_rows() const;
    size_t n_outputs() const;   //!< output channels: n_rows() x n_fd_occasions
    size_t output_bins() const; //!< repetitions x L_RA

    /*!
     * \brief The bins of every output channel (layout at the top of this file). Throws
     * std::invalid_argument for null pointers or strides below samples_per_row() /
     * output_bins().
     */
    void process(const cfloat* in, size_t in_stride, cfloat* out, size_t out_stride);

    /*!
     * \brief As process(), \p d_in and \p d_out device memory of this front end's GPU: queued
     * on its context's stream after what the caller queued there, returning at once (hand
     * d_out to prach_detector::detect_device() of a detector on the same context). The
     * CUDA backend only; the CPU twin throws std::logic_error.
     */
    void process_device(const cfloat* d_in, size_t in_stride, cfloat* d_out, size_t out_stride);

protected:
    explicit prach_frontend(const prach_frontend_params& p);
    virtual void run(const cfloat* in, size_t in_stride, cfloat* out, size_t out_stride) = 0;
    //! As run(), on device memory (process_device()); by default throws.
    virtual void run_device(const cfloat* d_in, size_t in_stride, cfloat* d_out, size_t out_stride);

    prach_frontend_params d_params;
    prach_format_info d_format;
    int d_fft = 0;
    int d_cp = 0;
    float d_scale = 0;
    //! FFT bin of sequence bin 0 per (cell, FD occasion), in 0..n_fft-1.
    std::vector<int> d_first_bin;

private:
    void check(const cfloat* in, size_t in_stride, const cfloat* out, size_t out_stride) const;
};

//! The CPU twin or the CUDA backend (on \p ctx when given).
std::unique_ptr<prach_frontend> make_prach_frontend(const prach_frontend_params& p,
                                                    const device_spec& dev,
                                                    const cuda_context_ptr& ctx = nullptr);

std::unique_ptr<prach_frontend> make_prach_frontend_cpu(const prach_frontend_params& p);
#ifdef GPUOFDM_HAVE_CUDA
std::unique_ptr<prach_frontend> make_prach_frontend_cuda(const prach_frontend_params& p,
                                                         const device_spec& dev,
                                                         const cuda_context_ptr& ctx = nullptr);
#endif

} // namespace gr::gpuofdm::core

#endif
