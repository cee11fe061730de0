/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "interleaver_impl.h"
#include "bit_block_util.h"
#include "work_guard.h"

#include <gnuradio/io_signature.h>

#include <algorithm>
#include <type_traits>

namespace gr {
namespace gpuofdm {

namespace {

// The core checks every parameter before GNU Radio sees the block.
std::unique_ptr<core::interleaver> make_stage(
    const std::string& standard, int n_cbps, int n_bpsc, int batch, const std::string& device)
{
    core::interleaver_params p;
    p.standard = core::parse_phy_standard(standard);
    p.n_cbps = n_cbps;
    p.n_bpsc = n_bpsc;
    p.batch = checked_batch(batch);
    return core::make_interleaver(p, core::resolve_device(device));
}

} // namespace

interleaver_bb::sptr interleaver_bb::make(const std::string& standard,
                                          int n_cbps,
                                          int n_bpsc,
                                          bool deinterleave,
                                          int batch,
                                          const std::string& device)
{
    return gnuradio::make_block_sptr<interleaver_bb_impl>(
        make_stage(standard, n_cbps, n_bpsc, batch, device), deinterleave);
}

interleaver_ff::sptr interleaver_ff::make(const std::string& standard,
                                          int n_cbps,
                                          int n_bpsc,
                                          bool deinterleave,
                                          int batch,
                                          const std::string& device)
{
    if (!deinterleave)
        throw std::invalid_argument("deinterleave: must be true: soft values are only "
                                    "deinterleaved (use interleaver_bb to interleave bits)");
    return gnuradio::make_block_sptr<interleaver_ff_impl>(
        make_stage(standard, n_cbps, n_bpsc, batch, device), deinterleave);
}

template <typename T, typename Base>
interleaver_impl<T, Base>::interleaver_impl(std::unique_ptr<core::interleaver> stage,
                                            bool deinterleave)
    : gr::sync_block(std::is_same_v<T, float> ? "interleaver_ff" : "interleaver_bb",
                     gr::io_signature::make(1, 1, sizeof(T)),
                     gr::io_signature::make(1, 1, sizeof(T))),
      d_stage(std::move(stage)), d_deinterleave(deinterleave)
{
    const size_t n_cbps = d_stage->n_cbps();
    // The core's default: about 2^20 values per launch.
    d_batch = d_stage->params().batch ? d_stage->params().batch
                                      : std::max<size_t>(1, (core::default_bit_batch / 4) / n_cbps);
    this->set_output_multiple(int(n_cbps));
    if (d_stage->device().is_cuda())
        this->set_min_output_buffer(0, long(d_batch * n_cbps) * 2);
    log_bit_device(this->d_logger, d_stage->device(), d_batch, "symbols");
}

template <typename T, typename Base>
std::vector<int> interleaver_impl<T, Base>::permutation() const
{
    const auto& perm = d_stage->permutation();
    return std::vector<int>(perm.begin(), perm.end());
}

template <typename T, typename Base>
int interleaver_impl<T, Base>::work(int noutput_items,
                                    gr_vector_const_void_star& input_items,
                                    gr_vector_void_star& output_items)
{
    return stop_on_error(this->d_logger, [&]() -> int {
        const size_t n_symbols = size_t(noutput_items) / d_stage->n_cbps();
        const auto* in = static_cast<const T*>(input_items[0]);
        auto* out = static_cast<T*>(output_items[0]);
        if (d_deinterleave)
            d_stage->deinterleave(in, out, n_symbols);
        else if constexpr (std::is_same_v<T, uint8_t>)
            d_stage->interleave(in, out, n_symbols);
        return int(n_symbols * d_stage->n_cbps());
    });
}

template class interleaver_impl<uint8_t, interleaver_bb>;
template class interleaver_impl<float, interleaver_ff>;

} // namespace gpuofdm
} // namespace gr
