/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_VITERBI_DECODER_FB_IMPL_H
#define INCLUDED_GPUOFDM_VITERBI_DECODER_FB_IMPL_H

#include "fec/depuncture.h"
#include "fec/viterbi.h"
#include <gnuradio/gpuofdm/viterbi_decoder_fb.h>

#include <memory>
#include <vector>

namespace gr {
namespace gpuofdm {

/*!
 * One class for both modes, as conv_encoder_bb. With mode "frame" general_work() reads
 * the length tags itself (as tagged_stream_block would) so that it can hand many frames to
 * one launch; with "stream" forecast() and general_work() run the continuous stream (the
 * core's decode_window()).
 */
class viterbi_decoder_fb_impl : public viterbi_decoder_fb
{
public:
    //! \p dec from core::make_depuncturing_decoder() (its parameters validated).
    viterbi_decoder_fb_impl(std::unique_ptr<core::depuncturing_decoder> dec,
                            bool frames,
                            const std::string& len_tag_key);

    std::string device() const override { return d_dec->decoder().device().to_string(); }
    int batch() const override { return int(d_dec->decoder().params().max_steps); }
    int period_steps() const override { return int(d_pat.period); }
    int period_llrs() const override { return int(d_pat.kept); }

    bool start() override;
    bool stop() override;
    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override;
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;
    int work(int noutput_items,
             gr_vector_int& ninput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

protected:
    int calculate_output_stream_length(const gr_vector_int& ninput_items) override;

private:
    //! True when the upstream is done and every item it wrote is in \p n_avail.
    bool input_final(int n_avail);
    //! Trellis step of the LLR \p i items into a stream (or frame).
    uint64_t step_of(uint64_t i) const;
    //! Frame mode: the length on the length tag(s) at absolute input item offset.
    bool frame_length(uint64_t offset, size_t& len);
    //! Frame mode: decodes every whole frame here that fits the output, runs of equal
    //! length together (many frames per launch); writes the length tags itself.
    int frames_work(int noutput_items, int n_avail, const float* in, uint8_t* out);
    //! Stream mode: queues the tags of the input items up to \p in_end (absolute), once.
    void queue_tags(uint64_t in_end);
    void emit_tags(uint64_t written_end, bool all);

    std::unique_ptr<core::depuncturing_decoder> d_dec; //!< CPU twin or CUDA, punctured input
    const core::depuncture_pattern d_pat;
    const bool d_frames;
    pmt::pmt_t d_len_key;
    // Stream mode. The block holds no LLRs: it consumes its input only up to the warm-up of
    // the next chunk, so GNU Radio's buffer is the decoder's window (no copy at rate 1/2,
    // and the CUDA backend DMAs straight from the page-locked buffer).
    uint64_t d_next_out = 0;               //!< stream step of the next bit to decode
    uint64_t d_base = 0;                   //!< stream step of input item nitems_read(0)
    uint64_t d_tags_to = 0;                //!< input items whose tags are queued
    size_t d_max_steps_call;               //!< most steps one general_work() call looks at
    std::vector<tag_t> d_pending;          //!< tags at steps not yet written
    std::vector<tag_t> d_tags;             //!< get_tags_in_window() scratch, reused
    bool d_flushed = false;                //!< end of stream decoded
    size_t d_frame_need = 1;               //!< frame mode: input items the next frame needs
    uint64_t d_zero_warned = ~uint64_t(0); //!< frame mode: item of the last empty-frame warning
};

} // namespace gpuofdm
} // namespace gr

#endif
