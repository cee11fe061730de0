/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_CONV_ENCODER_BB_H
#define INCLUDED_GPUOFDM_CONV_ENCODER_BB_H

#include <gnuradio/tagged_stream_block.h>
#include <gnuradio/gpuofdm/api.h>

#include <string>

namespace gr {
namespace gpuofdm {

/*!
 * \brief K = 7 convolutional encoder (133/171 octal) with puncturing, of 802.11a
 * (17.3.5.5-6) or 802.16 (8.3.3.2.1, Table 215), on the GPU or on the CPU twin.
 * \ingroup gpuofdm
 *
 * \details
 * Input and output: bits, one per byte (bit 0 of an input byte is read; the output is
 * 0/1). Per input bit the mother code gives two bits, 802.11a A (g0 = 133) then
 * B (g1 = 171), 802.16 X (171) then Y (133), with the polynomial's MSB on the newest
 * input; puncturing keeps those of the standard's pattern (802.11a Figure 17-9 for 2/3
 * and 3/4, the 802.11n pattern for 5/6; 802.16 Table 215), in that order.
 *
 * Two modes:
 * - \p len_tag_key set (default "packet_len"): a tagged-stream block. Each frame (the
 *   items a length tag spans) is encoded from the zero state into output_len(n) bits
 *   (n / rate when n fills whole puncturing periods: 1, 2, 3 or 5 bits), and its output
 *   carries a length tag with that count. A frame must fit in the input buffer.
 * - \p len_tag_key "": a continuous stream. The shift register and the puncturing phase
 *   carry from call to call (GNU Radio's CC_STREAMING); every input bit is encoded, none
 *   is held back at the end of a stream.
 *
 * Tail bits are the caller's: 802.11a appends six zero bits after scrambling
 * (17.3.5.2), 802.16 a 0x00 tail byte per burst (8.3.3.2.1), both before this block;
 * the block itself never adds any. With the tail, a frame ends in the zero state (GNU
 * Radio's CC_TERMINATED).
 *
 * Tags: a tag on input bit i moves to the first output bit of bit i.
 *
 * On the GPU the block encodes up to \p batch input bits per launch; give the block
 * upstream a min_output_buffer of \p batch items for full launches.
 */
class GPUOFDM_API conv_encoder_bb : virtual public gr::tagged_stream_block
{
public:
    typedef std::shared_ptr<conv_encoder_bb> sptr;

    /*!
     * \param standard "802.11a" or "802.16".
     * \param rate "1/2", "2/3", "3/4" or "5/6".
     * \param len_tag_key length tag key of the frames; "" for a continuous stream.
     * \param batch input bits per GPU launch, 0..2^31; 0 picks 2^22.
     * \param device "auto", "cpu", "cuda" or "cuda:N".
     * \throws std::invalid_argument (Python ValueError) naming a bad parameter;
     *         std::runtime_error when "cuda" is asked for and no GPU is usable.
     */
    static sptr make(const std::string& standard = "802.11a",
                     const std::string& rate = "1/2",
                     const std::string& len_tag_key = "packet_len",
                     int batch = 0,
                     const std::string& device = "auto");

    //! The device the block runs on: "cpu" or "cuda:N".
    virtual std::string device() const = 0;
    //! Input bits per GPU launch.
    virtual int batch() const = 0;
    //! Output bits that \p n_in input bits of a frame (from the zero state) become.
    virtual int output_len(int n_in) const = 0;
};

} // namespace gpuofdm
} // namespace gr

#endif /* INCLUDED_GPUOFDM_CONV_ENCODER_BB_H */
