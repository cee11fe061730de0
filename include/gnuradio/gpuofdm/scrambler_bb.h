/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_SCRAMBLER_BB_H
#define INCLUDED_GPUOFDM_SCRAMBLER_BB_H

#include <gnuradio/sync_block.h>
#include <gnuradio/gpuofdm/api.h>

#include <string>

namespace gr {
namespace gpuofdm {

/*!
 * \brief Additive scrambler / descrambler of 802.11a (x^7 + x^4 + 1, 17.3.5.4) or the
 * 802.16 randomizer (1 + x^14 + x^15, 8.3.3.1), on the GPU or on the CPU twin.
 * \ingroup gpuofdm
 *
 * \details
 * Input and output: bits, one per byte (only bit 0 of an input byte is read; the output
 * is 0 or 1). Each output bit is the input bit XOR the next bit of the LFSR sequence,
 * \f[ y[n] = x[n] \oplus s[n], \qquad s[n] = s[n-4] \oplus s[n-7] \;(802.11a),\quad
 * s[n] = s[n-14] \oplus s[n-15] \;(802.16), \f]
 * so the same block descrambles. The register starts from \p seed at the first item.
 *
 * When \p reset_tag_key is not empty, a stream tag with that key restarts the register
 * from the seed at the item it sits on (a frame or burst start); its value is not read.
 * Tags pass through unchanged (one in, one out). The 802.11a tail zeroing after
 * scrambling is the caller's.
 *
 * On the GPU the block scrambles up to \p batch bits per launch (split at reset tags);
 * give the block upstream a min_output_buffer of \p batch items for full launches.
 */
class GPUOFDM_API scrambler_bb : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<scrambler_bb> sptr;

    /*!
     * \param standard "802.11a" or "802.16".
     * \param seed the register at a frame start, as the standard prints it, first
     *        register bit as the MSB: 802.11a x7..x1, 1..127 (93 = 1011101, the Annex G
     *        seed); 802.16 reg1..reg15, 1..32767 (0x4A80 = 100101010000000, 8.3.3.1).
     *        Negative: the standard's default (those two values).
     * \param reset_tag_key key of the tags that restart the register; "" for none.
     * \param batch bits per GPU launch, 0..2^31; 0 picks 2^22.
     * \param device "auto", "cpu", "cuda" or "cuda:N".
     * \throws std::invalid_argument (Python ValueError) naming a bad parameter;
     *         std::runtime_error when "cuda" is asked for and no GPU is usable.
     */
    static sptr make(const std::string& standard = "802.11a",
                     int seed = -1,
                     const std::string& reset_tag_key = "",
                     int batch = 0,
                     const std::string& device = "auto");

    //! The device the block runs on: "cpu" or "cuda:N".
    virtual std::string device() const = 0;
    //! Bits per GPU launch.
    virtual int batch() const = 0;
    //! Restarts the register from the seed at the next item the block processes.
    virtual void reset() = 0;
};

} // namespace gpuofdm
} // namespace gr

#endif /* INCLUDED_GPUOFDM_SCRAMBLER_BB_H */
