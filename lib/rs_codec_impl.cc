/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "rs_codec_impl.h"
#include "work_guard.h"
#include "bit_block_util.h" // checked_batch()

#include <gnuradio/io_signature.h>
#include <pmt/pmt.h>

#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gpuofdm {

namespace {

// Validates in the core (reed_solomon_params::validate()) before GNU Radio sees a size; the
// codec is built after.
core::reed_solomon_params make_params(int n, int k, int t, int batch)
{
    if (n < 0 || k < 0 || t < 0)
        throw std::invalid_argument("profile: n, k and t must not be negative");
    core::reed_solomon_params p{ { unsigned(n), unsigned(k), unsigned(t) }, checked_batch(batch) };
    p.validate();
    return p;
}

} // namespace

rs_encoder_bb::sptr rs_encoder_bb::make(int n, int k, int t, int batch, const std::string& device)
{
    return gnuradio::make_block_sptr<rs_encoder_bb_impl>(make_params(n, k, t, batch), device);
}

rs_decoder_bb::sptr rs_decoder_bb::make(int n, int k, int t, int batch, const std::string& device)
{
    return gnuradio::make_block_sptr<rs_decoder_bb_impl>(make_params(n, k, t, batch), device);
}

rs_encoder_bb_impl::rs_encoder_bb_impl(const core::reed_solomon_params& params,
                                       const std::string& device)
    : gr::block("rs_encoder_bb",
                gr::io_signature::make(1, 1, sizeof(uint8_t)),
                gr::io_signature::make(1, 1, sizeof(uint8_t))),
      d_codec(core::make_reed_solomon(params, core::resolve_device(device))),
      d_chunk(params.codewords_per_launch())
{
    set_output_multiple(int(params.profile.n));
    set_relative_rate(params.profile.n, params.profile.k);
}

void rs_encoder_bb_impl::forecast(int noutput_items, gr_vector_int& ninput_items_required)
{
    const auto& p = d_codec->profile();
    ninput_items_required[0] = int(size_t(noutput_items) / p.n * p.k);
}

int rs_encoder_bb_impl::general_work(int noutput_items,
                                     gr_vector_int& ninput_items,
                                     gr_vector_const_void_star& input_items,
                                     gr_vector_void_star& output_items)
{
    return stop_on_error(d_logger, [&]() -> int {
        const auto& p = d_codec->profile();
        const size_t n_cw =
            std::min({ size_t(ninput_items[0]) / p.k, size_t(noutput_items) / p.n, d_chunk });
        d_codec->encode(static_cast<const uint8_t*>(input_items[0]),
                        static_cast<uint8_t*>(output_items[0]), n_cw);
        consume(0, int(n_cw * p.k));
        return int(n_cw * p.n);
    });
}

rs_decoder_bb_impl::rs_decoder_bb_impl(const core::reed_solomon_params& params,
                                       const std::string& device)
    : gr::block("rs_decoder_bb",
                gr::io_signature::make(1, 1, sizeof(uint8_t)),
                gr::io_signature::make(1, 1, sizeof(uint8_t))),
      d_codec(core::make_reed_solomon(params, core::resolve_device(device))),
      d_chunk(params.codewords_per_launch()), d_status(d_chunk)
{
    set_output_multiple(int(params.profile.k));
    set_relative_rate(params.profile.k, params.profile.n);
}

void rs_decoder_bb_impl::forecast(int noutput_items, gr_vector_int& ninput_items_required)
{
    const auto& p = d_codec->profile();
    ninput_items_required[0] = int(size_t(noutput_items) / p.k * p.n);
}

int rs_decoder_bb_impl::general_work(int noutput_items,
                                     gr_vector_int& ninput_items,
                                     gr_vector_const_void_star& input_items,
                                     gr_vector_void_star& output_items)
{
    return stop_on_error(d_logger, [&]() -> int {
        const auto& p = d_codec->profile();
        const size_t n_cw =
            std::min({ size_t(ninput_items[0]) / p.n, size_t(noutput_items) / p.k, d_chunk });
        d_codec->decode(static_cast<const uint8_t*>(input_items[0]),
                        static_cast<uint8_t*>(output_items[0]), d_status.data(), n_cw);
        static const pmt::pmt_t key = pmt::intern("rs_uncorrectable");
        for (size_t i = 0; i < n_cw; i++) {
            if (d_status[i] == core::reed_solomon::uncorrectable) {
                add_item_tag(0, nitems_written(0) + i * p.k, key,
                             pmt::from_uint64(d_codewords + i));
                d_uncorrectable++;
            } else {
                d_corrected += uint64_t(d_status[i]);
            }
        }
        d_codewords += n_cw;
        consume(0, int(n_cw * p.n));
        return int(n_cw * p.k);
    });
}

} // namespace gpuofdm
} // namespace gr
