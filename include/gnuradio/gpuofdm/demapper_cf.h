/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_DEMAPPER_CF_H
#define INCLUDED_GPUOFDM_DEMAPPER_CF_H

#include <gnuradio/sync_interpolator.h>
#include <gnuradio/gpuofdm/api.h>

#include <string>

namespace gr {
namespace gpuofdm {

/*!
 * \brief Max-log soft demapper of the 802.11a Gray constellations (17.3.5.7: BPSK, QPSK,
 * 16-QAM, 64-QAM, unit average power), on the GPU or on the CPU twin.
 * \ingroup gpuofdm
 *
 * \details
 * Input: equalised complex points. Output: N_BPSC floats per point (1, 2, 4, 6), b0 first,
 * \f[ \mathrm{LLR}_i = \frac{1}{\sigma^2}\Big(\min_{s:\,b_i(s)=1}|y-s|^2
 *     - \min_{s:\,b_i(s)=0}|y-s|^2\Big), \f]
 * positive meaning bit 0 (the sign convention of viterbi_decoder_fb), sigma^2 = noise_var
 * (the noise power per complex point, E|n|^2, at the demapper's input). With hard = true
 * the output is +1 (bit 0) or -1 (bit 1), the bits of the nearest point.
 *
 * The constellation is 802.11a's labelling; 802.16's Figure 203 labels are the 802.11a
 * points of the complemented bits on each axis (see lib/core/ofdm/constellation.h).
 *
 * Tags move with the rate change (GNU Radio's automatic propagation): a tag on point j
 * lands on its first output value.
 */
class GPUOFDM_API demapper_cf : virtual public gr::sync_interpolator
{
public:
    typedef std::shared_ptr<demapper_cf> sptr;

    /*!
     * \param modulation "BPSK", "QPSK", "16QAM" or "64QAM".
     * \param noise_var noise variance per complex point, finite and > 0.
     * \param hard true: +1/-1 decisions instead of LLRs.
     * \param batch points per GPU launch, 0 (2^20) or 1..2^26.
     * \param device "auto", "cpu", "cuda" or "cuda:N".
     * \throws std::invalid_argument (Python ValueError) naming a bad parameter;
     *         std::runtime_error when "cuda" is asked for and no GPU is usable.
     */
    static sptr make(const std::string& modulation = "QPSK",
                     float noise_var = 1.0f,
                     bool hard = false,
                     int batch = 0,
                     const std::string& device = "auto");

    virtual std::string device() const = 0;
    virtual int batch() const = 0;
    virtual float noise_var() const = 0;
    //! Sets the noise variance (finite, > 0) from the next work() call on.
    virtual void set_noise_var(float noise_var) = 0;
};

} // namespace gpuofdm
} // namespace gr

#endif /* INCLUDED_GPUOFDM_DEMAPPER_CF_H */
