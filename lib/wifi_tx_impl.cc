/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "wifi_tx_impl.h"

#include <gnuradio/io_signature.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpuofdm {

namespace {

constexpr size_t max_psdu = 4095;     // LENGTH is 12 bits (17.3.4)
constexpr size_t typical_psdu = 1500; // sizes the output buffer

bool known_rate(long mbps)
{
    for (const auto& r : core::wifi_rates())
        if (r.mbps == mbps)
            return true;
    return false;
}

void check_rate(int rate)
{
    if (!known_rate(rate))
        throw std::invalid_argument("rate: must be 6, 9, 12, 18, 24, 36, 48 or 54 (Mb/s), got " +
                                    std::to_string(rate));
}

void check_seed(int seed)
{
    if (seed < 0 || seed > 127)
        throw std::invalid_argument(
            "seed: must be 1..127 (scrambler state x7..x1) or 0 (a new seed every frame), got " +
            std::to_string(seed));
}

} // namespace

wifi_tx::sptr wifi_tx::make(int rate,
                            int seed,
                            int gap_samples,
                            float scale,
                            int max_frames_per_batch,
                            const std::string& device)
{
    check_rate(rate);
    check_seed(seed);
    check_gap_samples(gap_samples);
    non_negative(max_frames_per_batch, "max_frames_per_batch");
    const wifi_tx_config cfg{ rate, seed, gap_samples, scale, max_frames_per_batch };
    wifi_tx_impl::core_params(cfg).validate(); // before GNU Radio's base class sees a size
    return gnuradio::make_block_sptr<wifi_tx_impl>(cfg, device);
}

core::wifi_tx_params wifi_tx_impl::core_params(const wifi_tx_config& cfg)
{
    core::wifi_tx_params p;
    p.max_frames_per_batch = size_t(cfg.max_frames_per_batch);
    p.max_psdu_bytes = max_psdu;
    // Room for max_frames_per_batch frames of 1500 octets at 24 Mb/s (127 symbols) and up
    // (the CUDA backend cuts a longer request into batches), and always for one longest
    // frame (4095 octets at 6 Mb/s, 1367 symbols).
    const size_t longest = core::wifi_tx::frame_symbols(max_psdu, 6);
    p.max_symbols_per_batch =
        std::clamp(size_t(cfg.max_frames_per_batch) * 128, longest, size_t(1) << 18);
    p.window = true;
    p.scale = cfg.scale;
    return p;
}

wifi_tx_impl::wifi_tx_impl(const wifi_tx_config& cfg, const std::string& device)
    : gr::block("wifi_tx",
                gr::io_signature::make(0, 0, 0),
                gr::io_signature::make(1, 1, sizeof(gr_complex))),
      pdu_burst_block(core::make_wifi_tx(core_params(cfg), core::resolve_device(device)),
                      size_t(cfg.gap_samples),
                      size_t(cfg.max_frames_per_batch),
                      "wifi_start",
                      "frames"),
      d_rate(cfg.rate), d_seed(cfg.seed)
{
    // Two batches of 1500-octet frames at the default rate on the GPU, four on the CPU.
    size_output_buffer(d_tx->frame_samples(typical_psdu, cfg.rate));
}

void wifi_tx_impl::set_rate(int rate)
{
    check_rate(rate);
    d_rate = rate;
}

void wifi_tx_impl::set_seed(int seed)
{
    check_seed(seed);
    d_seed = seed;
}

void wifi_tx_impl::handle_pdu(const pmt::pmt_t& msg)
{
    pmt::pmt_t meta, data;
    const std::string bad = unpack_pdu(msg, max_psdu, "PSDU", meta, data);
    if (!bad.empty())
        return drop(bad);
    const size_t len = pmt::length(data);

    long rate = d_rate.load();
    std::string bad_meta = metadata_integer(meta, "rate", rate, known_rate,
                                            "not 6, 9, 12, 18, 24, 36, 48 or 54 (Mb/s)");
    long seed = -1;
    if (bad_meta.empty())
        bad_meta = metadata_integer(
            meta, "seed", seed, [](long v) { return v >= 1 && v <= 127; }, "not 1..127");
    if (!bad_meta.empty())
        return drop(bad_meta);

    queue::burst f;
    size_t io = 0;
    const uint8_t* p = pmt::u8vector_elements(data, io);
    f.data.assign(p, p + len);
    f.rate = int(rate);
    f.n_samples = d_tx->frame_samples(len, f.rate);
    const bool next_seed = seed < 0 && d_seed.load() == 0;
    f.seed = int(seed >= 0 ? seed : next_seed ? d_next_seed : d_seed.load());
    pmt::pmt_t tag = pmt::make_dict();
    tag = pmt::dict_add(tag, pmt::mp("rate"), pmt::from_long(f.rate));
    tag = pmt::dict_add(tag, pmt::mp("psdu_len"), pmt::from_long(long(len)));
    tag = pmt::dict_add(tag, pmt::mp("seed"), pmt::from_long(f.seed));
    tag = pmt::dict_add(tag, pmt::mp("n_samples"), pmt::from_long(long(f.n_samples)));
    f.tag = tag;
    if (!queue_burst(std::move(f)))
        return;
    if (next_seed)
        d_next_seed = d_next_seed == 127 ? 1 : d_next_seed + 1;
}

} // namespace gpuofdm
} // namespace gr
