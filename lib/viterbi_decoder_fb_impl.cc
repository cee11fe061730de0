/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "viterbi_decoder_fb_impl.h"
#include "bit_block_util.h"
#include "block_pin_util.h"
#include "work_guard.h"

#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>
#include <gnuradio/io_signature.h>

#include <algorithm>
#include <thread>

namespace gr {
namespace gpuofdm {

viterbi_decoder_fb::sptr viterbi_decoder_fb::make(const std::string& standard,
                                                  const std::string& rate,
                                                  const std::string& mode,
                                                  const std::string& len_tag_key,
                                                  int batch,
                                                  const std::string& device)
{
    // Every parameter is checked before GNU Radio sees the block.
    core::depuncturing_decoder_params p;
    p.standard = core::parse_phy_standard(standard);
    p.rate = parse_rate(rate);
    const std::string m = detail::canonical(mode);
    if (m != "STREAM" && m != "FRAME")
        throw std::invalid_argument("mode: must be \"stream\" or \"frame\", got \"" + mode + "\"");
    const bool frames = m == "FRAME";
    if (frames && len_tag_key.empty())
        throw std::invalid_argument("len_tag_key: mode \"frame\" needs a length tag key");
    p.batch = checked_batch(batch);
    p.cpu_threads = 0; // CPU twin: chunks on every core (the bits do not depend on it)
    p.validate();      // the batch's range (depuncturing_decoder_params::validate())
    auto dec = core::make_depuncturing_decoder(p, core::resolve_device(device));
    return gnuradio::make_block_sptr<viterbi_decoder_fb_impl>(std::move(dec), frames,
                                                              frames ? len_tag_key : std::string());
}

viterbi_decoder_fb_impl::viterbi_decoder_fb_impl(std::unique_ptr<core::depuncturing_decoder> dec,
                                                 bool frames,
                                                 const std::string& len_tag_key)
    : gr::tagged_stream_block("viterbi_decoder_fb",
                              gr::io_signature::make(1, 1, sizeof(float)),
                              gr::io_signature::make(1, 1, sizeof(uint8_t)),
                              len_tag_key),
      d_dec(std::move(dec)), d_pat(d_dec->pattern()), d_frames(frames),
      d_len_key(frames ? pmt::intern(len_tag_key) : pmt::PMT_NIL)
{
    set_relative_rate(d_pat.period, d_pat.kept);
    set_tag_propagation_policy(TPP_DONT); // tags are moved to their trellis step here
    const core::viterbi_decoder& decoder = d_dec->decoder();
    const auto& p = decoder.params();
    // One call decodes at most one launch's worth of bits; it reads their warm-up and
    // traceback tail too, plus up to a chunk and a period of rounding.
    const size_t per_launch = decoder.stream_bits_per_launch();
    d_max_steps_call = per_launch + p.warmup + p.traceback + p.chunk_len + 2 * d_pat.period;
    if (d_frames && decoder.device().is_cuda())
        set_min_output_buffer(0, long(2 * p.max_steps)); // two launches of frames
    if (!d_frames) {
        // process() writes whole chunks. The output multiple also sizes the upstream
        // buffer: GNU Radio gives it at least 2 * multiple / relative_rate items, so on the
        // GPU a quarter launch per multiple lets the decoder see large batches (the header
        // asks for more). The output buffer holds two launches.
        size_t multiple = p.chunk_len;
        if (decoder.device().is_cuda()) {
            multiple = std::max<size_t>(p.chunk_len, per_launch / 4 / p.chunk_len * p.chunk_len);
            set_min_output_buffer(0, long(2 * per_launch));
        } else {
            // Enough chunks for every thread of the twin (8 each).
            const size_t threads = std::max(8u, std::thread::hardware_concurrency());
            multiple = std::min<size_t>(per_launch, 8 * threads * p.chunk_len);
        }
        set_output_multiple(int(multiple));
        d_dec->reserve(d_max_steps_call / d_pat.period + 1); // no allocation in work
    }
    log_bit_device(d_logger, decoder.device(), p.max_steps, "trellis steps");
}

bool viterbi_decoder_fb_impl::start()
{
    if (d_dec->decoder().device().is_cuda())
        pin_block_buffers(
            *this, d_logger, sizeof(float), sizeof(uint8_t),
            [this](const void* p, size_t n) { return d_dec->decoder().pin_host_range(p, n); });
    return block::start();
}

bool viterbi_decoder_fb_impl::stop()
{
    d_dec->decoder().unpin_host_ranges();
    return block::stop();
}

bool viterbi_decoder_fb_impl::input_final(int n_avail)
{
    auto reader = detail()->input(0);
    // done() first: once it is set, items_available() counts everything written.
    return reader->done() && reader->items_available() == n_avail;
}

uint64_t viterbi_decoder_fb_impl::step_of(uint64_t i) const
{
    return (i / d_pat.kept) * d_pat.period + (i % d_pat.kept) * d_pat.period / d_pat.kept;
}

int viterbi_decoder_fb_impl::calculate_output_stream_length(const gr_vector_int& ninput_items)
{
    return ninput_items[0] / int(d_pat.kept) * int(d_pat.period);
}

void viterbi_decoder_fb_impl::forecast(int noutput_items, gr_vector_int& ninput_items_required)
{
    if (d_frames) {
        ninput_items_required[0] = int(d_frame_need); // the next frame, whole
        return;
    }
    if (detail()->input(0)->done()) {
        ninput_items_required[0] = 1; // whatever is left: general_work decodes the rest
        return;
    }
    // Exact: the steps that make noutput_items bits ready (their chunks' traceback tails
    // included) from the first unconsumed one, plus the one period held back until the end
    // of the stream is known.
    const uint64_t T = d_dec->decoder().params().traceback;
    const uint64_t want = d_next_out + uint64_t(noutput_items) + T;
    const uint64_t steps = want > d_base ? want - d_base : 0;
    const uint64_t periods = (steps + d_pat.period - 1) / d_pat.period + 1;
    ninput_items_required[0] = int(std::min<uint64_t>(periods * d_pat.kept, 1u << 30));
}

int viterbi_decoder_fb_impl::general_work(int noutput_items,
                                          gr_vector_int& ninput_items,
                                          gr_vector_const_void_star& input_items,
                                          gr_vector_void_star& output_items)
{
    return stop_on_error(d_logger, [&]() -> int {
        if (d_frames)
            return frames_work(noutput_items, ninput_items[0],
                               static_cast<const float*>(input_items[0]),
                               static_cast<uint8_t*>(output_items[0]));

        const int n_avail = ninput_items[0];
        const uint64_t avail_periods = uint64_t(n_avail) / d_pat.kept;
        const core::viterbi_decoder& dec = d_dec->decoder();
        const uint64_t P = d_pat.period, L = dec.params().chunk_len, T = dec.params().traceback;
        const float* in = static_cast<const float*>(input_items[0]);
        uint8_t* out = static_cast<uint8_t*>(output_items[0]);
        const uint64_t read = nitems_read(0);

        if (d_flushed) { // input after the end of a stream: never expected, so drop it
            consume(0, n_avail);
            return 0;
        }
        // End of stream: decode everything when it fits, flush, and stop.
        if (input_final(n_avail)) {
            const uint64_t end = d_base + avail_periods * P;
            if (end - d_next_out <= uint64_t(noutput_items) &&
                avail_periods * P <= d_max_steps_call) {
                const size_t n =
                    d_dec->decode_window(in, d_base, size_t(avail_periods), d_next_out, true, true,
                                         false, out, size_t(noutput_items));
                if (n_avail % d_pat.kept)
                    d_logger->warn("end of stream: {} LLRs short of a whole puncturing period "
                                   "dropped",
                                   n_avail % d_pat.kept);
                queue_tags(read + uint64_t(n_avail));
                emit_tags(nitems_written(0) + n, true);
                consume(0, n_avail);
                d_next_out += n;
                d_flushed = true;
                return int(n);
            }
        }
        // Otherwise as many periods as one launch's output takes, one held back: then some
        // input is always left for the call that sees the end of the stream.
        const uint64_t room =
            std::min<uint64_t>(uint64_t(noutput_items), dec.stream_bits_per_launch()) / L * L;
        const uint64_t limit = d_next_out + room + L + T - 1; // largest step count to look at
        uint64_t m = (limit - d_base) / P;
        m = std::min<uint64_t>(m, avail_periods > 0 ? avail_periods - 1 : 0);
        if (m == 0)
            return 0;
        const size_t n = d_dec->decode_window(in, d_base, size_t(m), d_next_out, true, false, false,
                                              out, size_t(room));
        d_next_out += n;
        queue_tags(read + m * d_pat.kept);
        emit_tags(nitems_written(0) + n, false);
        // Consume up to the warm-up of the next chunk (whole periods): the rest stays in the
        // buffer as the next call's window.
        const uint64_t keep = std::max(d_base, dec.window_begin(d_next_out) / P * P);
        consume(0, int((keep - d_base) / P * d_pat.kept));
        d_base = keep;
        return int(n);
    });
}

void viterbi_decoder_fb_impl::queue_tags(uint64_t in_end)
{
    if (in_end <= d_tags_to)
        return;
    const uint64_t read = nitems_read(0);
    get_tags_in_window(d_tags, 0, d_tags_to - read, in_end - read);
    for (auto& tag : d_tags) {
        tag.offset = step_of(tag.offset);
        d_pending.push_back(tag);
    }
    d_tags_to = in_end;
}

void viterbi_decoder_fb_impl::emit_tags(uint64_t written_end, bool all)
{
    size_t kept = 0;
    for (auto& tag : d_pending) {
        if (tag.offset < written_end || all) {
            if (tag.offset >= written_end)
                tag.offset = written_end > 0 ? written_end - 1 : 0;
            add_item_tag(0, tag);
        } else {
            d_pending[kept++] = tag;
        }
    }
    d_pending.resize(kept);
}

bool viterbi_decoder_fb_impl::frame_length(uint64_t offset, size_t& len)
{
    // As tagged_stream_block: the last length tag on the item wins. A zero length has no
    // items to decode, so it is skipped (with a warning) for a later tag on the same item.
    get_tags_in_range(d_tags, 0, offset, offset + 1, d_len_key);
    bool found = false;
    for (const auto& tag : d_tags) {
        const long v = pmt::to_long(tag.value);
        if (v > 0) {
            len = size_t(v);
            found = true;
        } else if (offset != d_zero_warned) {
            d_logger->warn("empty frame (length tag {}) at item {} skipped", v, offset);
            d_zero_warned = offset;
        }
    }
    return found;
}

int viterbi_decoder_fb_impl::frames_work(int noutput_items,
                                         int n_avail,
                                         const float* in,
                                         uint8_t* out)
{
    // Every whole frame that is here and fits the output: runs of frames of one length go
    // to decode_frames() together, which puts as many in a launch as max_steps holds.
    const uint64_t read = nitems_read(0), written = nitems_written(0);
    const size_t max_steps = d_dec->decoder().params().max_steps;
    size_t pos = 0, produced = 0;
    d_frame_need = 1;
    while (pos < size_t(n_avail)) {
        size_t len = 0;
        if (!frame_length(read + pos, len))
            throw std::runtime_error("viterbi_decoder_fb: missing a length tag (" +
                                     pmt::symbol_to_string(d_len_key) + ") at item " +
                                     std::to_string(read + pos));
        if (pos + len > size_t(n_avail)) {
            d_frame_need = std::min<size_t>(len, 1u << 30); // after consuming pos items
            break;
        }
        const size_t steps = len / d_pat.kept * d_pat.period;
        if (len % d_pat.kept != 0 || steps > max_steps) {
            d_logger->warn("frame of {} LLRs dropped: it must be a positive multiple of {} "
                           "LLRs and at most {} trellis steps",
                           len, d_pat.kept, max_steps);
            pos += len;
            continue;
        }
        if (produced + steps > size_t(noutput_items))
            break; // no room: the next call
        // The run of frames of this length that is here and fits.
        size_t k = 1;
        size_t next_len = 0;
        while (pos + (k + 1) * len <= size_t(n_avail) &&
               produced + (k + 1) * steps <= size_t(noutput_items) &&
               frame_length(read + pos + k * len, next_len) && next_len == len)
            k++;
        d_dec->decode_frames(in + pos, k * len, steps, out + produced);
        // Tags: each frame's new length, the others to the bit of their trellis step.
        get_tags_in_window(d_tags, 0, pos, pos + k * len);
        for (size_t f = 0; f < k; f++)
            add_item_tag(0, written + produced + f * steps, d_len_key, pmt::from_long(long(steps)));
        for (auto& tag : d_tags) {
            if (pmt::eqv(tag.key, d_len_key))
                continue;
            const uint64_t rel = tag.offset - (read + pos);
            tag.offset = written + produced + (rel / len) * steps + step_of(rel % len);
            add_item_tag(0, tag);
        }
        pos += k * len;
        produced += k * steps;
    }
    consume(0, int(pos));
    return int(produced);
}

int viterbi_decoder_fb_impl::work(int noutput_items,
                                  gr_vector_int& ninput_items,
                                  gr_vector_const_void_star& input_items,
                                  gr_vector_void_star& output_items)
{
    // One whole terminated frame (not called: general_work() batches frames itself).
    const size_t n = size_t(ninput_items[0]);
    const size_t steps = n / d_pat.kept * d_pat.period;
    const size_t max_steps = d_dec->decoder().params().max_steps;
    if (n == 0 || n % d_pat.kept != 0 || steps > max_steps) {
        d_logger->warn("frame of {} LLRs dropped: it must be a positive multiple of {} LLRs "
                       "and at most {} trellis steps",
                       n, d_pat.kept, max_steps);
        return 0;
    }
    if (steps > size_t(noutput_items))
        return 0; // not reached: tagged_stream_block checked the space
    d_dec->decode_frames(static_cast<const float*>(input_items[0]), n, steps,
                         static_cast<uint8_t*>(output_items[0]));
    get_tags_in_window(d_tags, 0, 0, n);
    for (auto& tag : d_tags) {
        if (pmt::eqv(tag.key, d_len_key))
            continue; // tagged_stream_block writes the frame's new length
        tag.offset = nitems_written(0) + step_of(tag.offset - nitems_read(0));
        add_item_tag(0, tag);
    }
    return int(steps);
}

} // namespace gpuofdm
} // namespace gr
