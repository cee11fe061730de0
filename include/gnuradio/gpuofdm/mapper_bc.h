/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_MAPPER_BC_H
#define INCLUDED_GPUOFDM_MAPPER_BC_H

#include <gnuradio/sync_decimator.h>
#include <gnuradio/gpuofdm/api.h>

#include <string>
#include <vector>

namespace gr {
namespace gpuofdm {

/*!
 * \brief Gray mapper of 802.11a (17.3.5.7, Tables 17-8 .. 17-11): BPSK, QPSK, 16-QAM,
 * 64-QAM, normalised to unit average power, on the GPU or on the CPU twin.
 * \ingroup gpuofdm
 *
 * \details
 * Input: bits, one per byte (bit 0 read). Output: one complex point per N_BPSC = 1, 2,
 * 4 or 6 input bits (the block decimates by N_BPSC). The bits b0 b1 ... of a point, b0
 * first in time: BPSK puts b0 on I; the others put the first half on I and the second
 * half on Q, each half a Gray-coded level (1 bit: 0 -> -1, 1 -> +1; 2 bits: 00 -> -3,
 * 01 -> -1, 11 -> +1, 10 -> +3; 3 bits: 000 -> -7, 001 -> -5, 011 -> -3, 010 -> -1,
 * 110 -> +1, 111 -> +3, 101 -> +5, 100 -> +7), and the point is
 * \f[ d = K_{MOD} (I + jQ), \quad K_{MOD} = 1, 1/\sqrt{2}, 1/\sqrt{10}, 1/\sqrt{42}. \f]
 *
 * This is the 802.11a labelling. 802.16 (8.3.3.4, Figure 203) uses the same levels and
 * normalisation with the bits of each axis complemented; see the core's constellation.h.
 *
 * Tags: a tag on input bit i moves to point floor(i / N_BPSC). Trailing bits that do not
 * fill a point at the end of a stream are dropped.
 *
 * On the GPU the block maps up to \p batch points per launch; give the block upstream a
 * min_output_buffer of batch * N_BPSC items for full launches.
 */
class GPUOFDM_API mapper_bc : virtual public gr::sync_decimator
{
public:
    typedef std::shared_ptr<mapper_bc> sptr;

    /*!
     * \param modulation "BPSK", "QPSK", "16QAM" or "64QAM" (any case; "16-QAM" too).
     * \param batch points per GPU launch, 0..2^28; 0 picks 2^20.
     * \param device "auto", "cpu", "cuda" or "cuda:N".
     * \throws std::invalid_argument (Python ValueError) naming a bad parameter;
     *         std::runtime_error when "cuda" is asked for and no GPU is usable.
     */
    static sptr make(const std::string& modulation = "16QAM",
                     int batch = 0,
                     const std::string& device = "auto");

    //! The device the block runs on: "cpu" or "cuda:N".
    virtual std::string device() const = 0;
    //! Points per GPU launch.
    virtual int batch() const = 0;
    //! N_BPSC: input bits per output point (1, 2, 4 or 6).
    virtual int bits_per_point() const = 0;
    //! Every point, indexed by the label b0 b1 ... read as a binary number, b0 the MSB.
    virtual std::vector<gr_complex> points() const = 0;
};

} // namespace gpuofdm
} // namespace gr

#endif /* INCLUDED_GPUOFDM_MAPPER_BC_H */
