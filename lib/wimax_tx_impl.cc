/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "wimax_tx_impl.h"

#include <gnuradio/io_signature.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpuofdm {

namespace {

constexpr size_t max_psdu = 4095;     // the longest burst the block accepts
constexpr size_t typical_psdu = 1499; // sizes the output buffer

bool known_rate(long rate_id) { return rate_id >= 0 && rate_id <= 6; }

void check_rate(int rate_id)
{
    if (!known_rate(rate_id))
        throw std::invalid_argument("rate_id: must be 0..6 (BPSK 1/2, QPSK 1/2, QPSK 3/4, "
                                    "16-QAM 1/2, 16-QAM 3/4, 64-QAM 2/3, 64-QAM 3/4), got " +
                                    std::to_string(rate_id));
}

void check_seed(int seed)
{
    if (seed < 1 || seed > 32767)
        throw std::invalid_argument(
            "seed: must be 1..32767 (randomizer register reg1..reg15, nonzero), got " +
            std::to_string(seed));
}

core::wimax_preamble parse_preamble(const std::string& p)
{
    if (p == "long")
        return core::wimax_preamble::long_dl;
    if (p == "short")
        return core::wimax_preamble::short_ul;
    if (p == "none")
        return core::wimax_preamble::none;
    throw std::invalid_argument("preamble: must be \"long\", \"short\" or \"none\", got \"" + p +
                                "\"");
}

} // namespace

wimax_tx::sptr wimax_tx::make(int rate_id,
                              int cp_div,
                              const std::string& preamble,
                              bool uplink,
                              bool pad,
                              int seed,
                              int gap_samples,
                              float scale,
                              int max_bursts_per_batch,
                              const std::string& device)
{
    check_rate(rate_id);
    check_seed(seed);
    const core::wimax_preamble pre = parse_preamble(preamble);
    check_gap_samples(gap_samples);
    non_negative(max_bursts_per_batch, "max_bursts_per_batch");
    const wimax_tx_config cfg{ rate_id,     cp_div, pre,
                               uplink,      pad,    seed,
                               gap_samples, scale,  max_bursts_per_batch };
    wimax_tx_impl::core_params(cfg)
        .validate(); // cp_div, scale, the batch: before GNU Radio's base class
    return gnuradio::make_block_sptr<wimax_tx_impl>(cfg, device);
}

core::wimax_tx_params wimax_tx_impl::core_params(const wimax_tx_config& cfg)
{
    core::wimax_tx_params p;
    p.max_bursts_per_batch = size_t(cfg.max_bursts_per_batch);
    p.max_burst_bytes = max_psdu;
    // Room for max_bursts_per_batch bursts of 1500 octets at QPSK 1/2 (63 symbols) and up
    // (the CUDA backend cuts a longer request into batches), and always for one longest
    // burst (4095 octets at BPSK 1/2, 342 symbols).
    const size_t longest = (max_psdu + 1 + 11) / 12;
    p.max_symbols_per_batch =
        std::clamp(size_t(cfg.max_bursts_per_batch) * 64, longest, size_t(1) << 18);
    p.cp_div = cfg.cp_div;
    p.preamble = cfg.preamble;
    p.uplink = cfg.uplink;
    p.pad = cfg.pad;
    p.scale = cfg.scale;
    return p;
}

wimax_tx_impl::wimax_tx_impl(const wimax_tx_config& cfg, const std::string& device)
    : gr::block("wimax_tx",
                gr::io_signature::make(0, 0, 0),
                gr::io_signature::make(1, 1, sizeof(gr_complex))),
      pdu_burst_block(core::make_wimax_tx(core_params(cfg), core::resolve_device(device)),
                      size_t(cfg.gap_samples),
                      size_t(cfg.max_bursts_per_batch),
                      "wimax_start",
                      "bursts"),
      d_rate(cfg.rate_id), d_seed(cfg.seed)
{
    // Two batches of 1500-octet bursts at QPSK 1/2 on the GPU, four on the CPU.
    size_output_buffer(d_tx->preamble_samples() +
                       (typical_psdu + 1 + 23) / 24 * d_tx->symbol_samples());
}

void wimax_tx_impl::set_rate_id(int rate_id)
{
    check_rate(rate_id);
    d_rate = rate_id;
}

void wimax_tx_impl::set_seed(int seed)
{
    check_seed(seed);
    d_seed = seed;
}

void wimax_tx_impl::handle_pdu(const pmt::pmt_t& msg)
{
    pmt::pmt_t meta, data;
    const std::string bad = unpack_pdu(msg, max_psdu, "burst", meta, data);
    if (!bad.empty())
        return drop(bad);
    const size_t len = pmt::length(data);

    long rate = d_rate.load();
    std::string bad_meta = metadata_integer(meta, "rate_id", rate, known_rate, "not 0..6");
    long seed = d_seed.load();
    if (bad_meta.empty())
        bad_meta = metadata_integer(
            meta, "seed", seed, [](long v) { return v >= 1 && v <= 32767; }, "not 1..32767");
    if (!bad_meta.empty())
        return drop(bad_meta);

    queue::burst f;
    f.rate = int(rate);
    size_t n_symbols = 0;
    try {
        n_symbols = d_tx->burst_symbols(len, f.rate);
    } catch (const std::invalid_argument& e) {
        return drop(e.what()); // a partial block without pad
    }
    size_t io = 0;
    const uint8_t* p = pmt::u8vector_elements(data, io);
    f.data.assign(p, p + len);
    f.n_samples = d_tx->burst_samples(len, f.rate);
    f.seed = int(seed);
    pmt::pmt_t tag = pmt::make_dict();
    tag = pmt::dict_add(tag, pmt::mp("profile"), pmt::from_long(f.rate));
    tag = pmt::dict_add(tag, pmt::mp("n_bytes"), pmt::from_long(long(len)));
    tag = pmt::dict_add(tag, pmt::mp("n_symbols"), pmt::from_long(long(n_symbols)));
    tag = pmt::dict_add(tag, pmt::mp("seed"), pmt::from_long(f.seed));
    tag = pmt::dict_add(tag, pmt::mp("n_samples"), pmt::from_long(long(f.n_samples)));
    f.tag = tag;
    queue_burst(std::move(f));
}

} // namespace gpuofdm
} // namespace gr
