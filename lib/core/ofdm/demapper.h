/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_DEMAPPER_H
#define GPUOFDM_CORE_DEMAPPER_H

// Max-log soft demapper for the Gray constellations of constellation.h (802.11a 17.3.5.7).
//
// For bit i of a received point y with weight w (1 / noise variance, times a per-point
// channel gain |H|^2 where given):
//   LLR_i = w * ( min_{s: b_i(s) = 1} |y - s|^2  -  min_{s: b_i(s) = 0} |y - s|^2 ),
// positive meaning bit 0, as the Viterbi decoder takes it. The labelling puts the first
// half of the bits on I and the second half on Q, each half a Gray PAM level, so the
// minimum over the whole constellation splits into a minimum over the levels of one axis
// (the other axis' distance is common to both sets and cancels); demap_point() does that
// per axis, which is the exact max-log value, not an approximation of it.
//
// The arithmetic is written once here and run by the CPU twin (g++) and the kernel
// (nvcc). On the device every product and sum is rounded on its own (__fmul_rn,
// __fadd_rn), as on the host, so the two backends give the same floats.

#include "ofdm/constellation.h"
#include "ofdm/demapper_common.h"
#include "runtime/device.h"

#include <cstddef>
#include <cstdint>
#include <memory>


namespace gr::gpuofdm::core {

//! Demapper parameters.
struct demapper_params {
    modulation mod = modulation::qam16;
    bool hard = false; //!< true: +1 (bit 0) / -1 (bit 1) instead of LLRs: nearest-point bits
    size_t batch = 0;  //!< points per CUDA launch, 0 (2^20) or 1..2^26

    //! The ranges above; throws std::invalid_argument("name: range, got value").
    void validate() const;
};

//! \p noise_var when it is finite and > 0 (what demapper::process() takes); else throws
//! std::invalid_argument("noise_var: ...").
float checked_noise_var(float noise_var);

/*!
 * \brief Max-log soft demapper (BPSK, QPSK, 16-QAM, 64-QAM; 802.11a Gray labels, unit
 * average power), on the CPU twin or a CUDA device, the same floats on both.
 */
class demapper
{
public:
    virtual ~demapper() = default;

    const demapper_params& params() const { return d_params; }
    unsigned bits_per_point() const { return bits_per_symbol(d_params.mod); }
    size_t batch() const { return d_batch; }
    virtual device_spec device() const = 0;

    /*!
     * \brief Demaps n_points points to n_points * bits_per_point() values.
     * \param noise_var noise variance per complex point (E|n|^2), finite and > 0; the LLRs
     *        are scaled by 1 / noise_var (ignored when hard)
     * \param gain nullptr, or n_points channel gains |H|^2 (>= 0) of equalised points: the
     *        LLR of point j is further scaled by gain[j] (0: no information, LLR 0)
     * \throws std::invalid_argument for a bad noise_var
     */
    void process(const cfloat* in,
                 float* out,
                 size_t n_points,
                 float noise_var = 1.0f,
                 const float* gain = nullptr);

protected:
    explicit demapper(const demapper_params& p);
    //! Backend: at most batch() points; w = 1 / noise_var.
    virtual void run(const cfloat* in, const float* gain, float* out, size_t n_points, float w) = 0;

    demapper_params d_params;
    size_t d_batch; //!< points per launch
};

//! The CPU twin or the CUDA backend ("cpu" / "cuda:N" resolved).
std::unique_ptr<demapper> make_demapper(const demapper_params& p, const device_spec& dev);

//! The backends make_demapper() picks (demapper_cpu.cc, demapper_cuda.cu); callers use
//! make_demapper().
std::unique_ptr<demapper> make_demapper_cpu(const demapper_params& p);
#ifdef GPUOFDM_HAVE_CUDA
std::unique_ptr<demapper> make_demapper_cuda(const demapper_params& p, const device_spec& dev);

#endif

} // namespace gr::gpuofdm::core

#endif
