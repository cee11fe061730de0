/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_VITERBI_DECODER_FB_H
#define INCLUDED_GPUOFDM_VITERBI_DECODER_FB_H

#include <gnuradio/tagged_stream_block.h>
#include <gnuradio/gpuofdm/api.h>

#include <string>

namespace gr {
namespace gpuofdm {

/*!
 * \brief Soft-decision K = 7 Viterbi decoder (133/171 octal) of 802.11a (17.3.5.5) or
 * 802.16 (8.3.3.2), any punctured rate, on the GPU or on the CPU twin (the same bits).
 * \ingroup gpuofdm
 *
 * \details
 * Input: float LLRs of the transmitted (punctured) coded bits, in the order the encoder
 * (conv_encoder_bb) sends them; a positive value means bit 0, its size the confidence,
 * 0 no information. Hard decisions go in as +1 (bit 0) / -1 (bit 1), as demapper_cf
 * with hard=True gives them. The block depunctures (erasures as 0) and decodes the
 * rate-1/2 mother code: 802.11a A (133) then B (171), 802.16 X (171) then Y (133).
 * Output: one decoded bit (0/1 byte) per trellis step, tail bits included. Input is taken
 * in whole puncturing periods (2, 4, 6 or 10 mother bits: 2, 3, 4 or 6 LLRs).
 *
 * The decoder cuts the trellis into chunks of 256 steps, each decoded from a 40-step
 * (rate 1/2) to 128-step (5/6) warm-up before it to a traceback tail of the same length
 * after it; the chunks are independent, so the GPU decodes all of a call's at once. The
 * result does not depend on how the stream is cut into calls.
 *
 * Two modes:
 * - \p mode "stream": a continuous stream from the zero state (GNU Radio's CC_STREAMING).
 *   A bit comes out once the traceback tail after its chunk has arrived; at the end of the
 *   stream the rest is decoded, so every input period gives its bits (the last ones traced
 *   back from the best state). \p len_tag_key is not used. A tag on input LLR i moves to
 *   the bit of its trellis step.
 * - \p mode "frame": a tagged stream (\p len_tag_key). Each frame is a terminated code word
 *   (zero start and end state, CC_TERMINATED: 802.11a's six tail bits, 802.16's 0x00 tail
 *   byte) of n LLRs, n a positive multiple of the period's LLR count; it decodes into
 *   n / rate bits, tail included, with a length tag of that count. Other tags move to the
 *   bit of their trellis step. A frame of a wrong length is dropped with a warning.
 *
 * Buffers and speed (stream mode): the block keeps no copy of its input; it consumes
 * LLRs only up to the warm-up of the next chunk, so GNU Radio's input buffer is the
 * decoder's window. On the GPU, \p batch trellis steps at most go in one launch, and the
 * block page-locks its input and output buffers in start() so transfers go straight
 * between them and the device (GPUOFDM_PIN_BUFFERS=0 in the environment turns that off).
 * It asks for an output buffer of two launches and an output multiple of about a quarter
 * launch, which makes GNU Radio give the upstream buffer at least half a launch of LLRs;
 * for full launches give the block upstream a min_output_buffer of about 2 batch / rate
 * items. The CPU twin decodes chunks on every core (output multiple 8 chunks per core).
 */
class GPUOFDM_API viterbi_decoder_fb : virtual public gr::tagged_stream_block
{
public:
    typedef std::shared_ptr<viterbi_decoder_fb> sptr;

    /*!
     * \param standard "802.11a" or "802.16".
     * \param rate "1/2", "2/3", "3/4" or "5/6".
     * \param mode "stream" or "frame".
     * \param len_tag_key length tag key of the frames (mode "frame"; must not be empty then).
     * \param batch trellis steps per launch: 0 (2^20), or from a chunk and its two overlaps
     *        (336, 384, 416, 512 at 1/2, 2/3, 3/4, 5/6) to 2^26
     *        (core::depuncturing_decoder_params::validate()).
     * \param device "auto", "cpu", "cuda" or "cuda:N".
     * \throws std::invalid_argument (Python ValueError) naming a bad parameter;
     *         std::runtime_error when "cuda" is asked for and no GPU is usable.
     */
    static sptr make(const std::string& standard = "802.11a",
                     const std::string& rate = "1/2",
                     const std::string& mode = "stream",
                     const std::string& len_tag_key = "packet_len",
                     int batch = 0,
                     const std::string& device = "auto");

    //! The device the block runs on: "cpu" or "cuda:N".
    virtual std::string device() const = 0;
    //! Trellis steps per launch.
    virtual int batch() const = 0;
    //! Mother-code steps per puncturing period (1, 2, 3 or 5).
    virtual int period_steps() const = 0;
    //! LLRs per puncturing period (2, 3, 4 or 6).
    virtual int period_llrs() const = 0;
};

} // namespace gpuofdm
} // namespace gr

#endif /* INCLUDED_GPUOFDM_VITERBI_DECODER_FB_H */
