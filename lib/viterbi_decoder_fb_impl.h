/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_VITERBI_DECODER_FB_IMPL_H
#define INCLUDED_GPUOFDM_VITERBI_DECODER_FB_IMPL_H

#include "core/depuncture.h"
#include "core/viterbi.h"
#include <gr-gpuofdm/viterbi_decoder_fb.h>

#include <memory>
#include <vector>

namespace gr {
namespace gpuofdm {

/*!
 * One class for both modes, as conv_encoder_bb: with mode "frame" the tagged_stream_block
 * machinery frames the input; with "stream" forecast() and general_work() run the
 * continuous stream (the core's process() and flush()).
 */
class viterbi_decoder_fb_impl : public viterbi_decoder_fb
{
public:
    viterbi_decoder_fb_impl(std::unique_ptr<core::viterbi_decoder> dec,
                            const core::depuncture_pattern& pattern,
                            bool frames,
                            const std::string& len_tag_key);

    std::string device() const override { return d_dec->device().to_string(); }
    int batch() const override { return int(d_dec->params().max_steps); }
    int period_steps() const override { return int(d_pat.period); }
    int period_llrs() const override { return int(d_pat.kept); }

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
    //! Trellis steps held in the stream state.
    uint64_t held_steps() const;
    //! True when the upstream is done and every item it wrote is in \p n_avail.
    bool input_final(int n_avail);
    //! Depunctures n_periods periods of in into d_mother.
    void depuncture(const float* in, size_t n_periods);
    //! Trellis step of the LLR \p i items into a stream (or frame).
    uint64_t step_of(uint64_t i) const;
    //! Stream mode: queues the tags of the first n_in items, emits those now written.
    void queue_tags(size_t n_in);
    void emit_tags(uint64_t written_end, bool all);

    std::unique_ptr<core::viterbi_decoder> d_dec; //!< CPU twin or CUDA backend
    core::depuncture_pattern d_pat;
    const bool d_frames;
    pmt::pmt_t d_len_key;
    core::viterbi_stream_state d_state;  //!< stream mode
    std::vector<float> d_mother;         //!< depunctured LLR pairs, reused
    std::vector<tag_t> d_pending;        //!< stream mode: tags at steps not yet written
    bool d_flushed = false;              //!< stream mode: end of stream decoded
};

} // namespace gpuofdm
} // namespace gr

#endif
