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
#include "runtime/device.h"
#include "runtime/rounded_math.h"

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

namespace demap_detail {

// Every operation rounded on its own, on the host and the device alike (rounded_math.h).
using rounded::mul;
using rounded::sub;

/*!
 * \brief The n = 1..3 bits of one axis: for each bit the smallest squared distance from y
 * to a level labelled 0 and to one labelled 1 (level k * gray_pam_level(label, n)), and
 * out[i] = w (d1 - d0), or +-1 when hard.
 */
GPUOFDM_HD inline void demap_axis(float y, unsigned n, float k, float w, bool hard, float* out)
{
    float d0[3] = { 3.0e38f, 3.0e38f, 3.0e38f };
    float d1[3] = { 3.0e38f, 3.0e38f, 3.0e38f };
    for (unsigned label = 0; label < (1u << n); label++) {
        const float e = sub(y, mul(k, float(gray_pam_level(label, n))));
        const float d = mul(e, e);
        for (unsigned i = 0; i < n; i++) {
            const bool one = (label >> (n - 1 - i)) & 1u; // bit i of the axis, MSB first
            float& m = one ? d1[i] : d0[i];
            if (d < m)
                m = d;
        }
    }
    for (unsigned i = 0; i < n; i++) {
        const float diff = sub(d1[i], d0[i]);
        out[i] = hard ? (diff >= 0.0f ? 1.0f : -1.0f) : mul(w, diff);
    }
}

} // namespace demap_detail

/*!
 * \brief Demaps one point into bits_per_symbol(m) values at out, b0 first.
 * \param w LLR weight: 1 / noise variance (times |H|^2 for a per-carrier gain)
 */
GPUOFDM_HD inline void demap_point(float re, float im, modulation m, float w, bool hard, float* out)
{
    const unsigned n = bits_per_symbol(m);
    const float k = modulation_scale(m);
    if (n == 1) {
        demap_detail::demap_axis(re, 1, k, w, hard, out);
        return;
    }
    demap_detail::demap_axis(re, n / 2, k, w, hard, out);
    demap_detail::demap_axis(im, n / 2, k, w, hard, out + n / 2);
}

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
