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

constexpr size_t max_psdu = 4095; // LENGTH is 12 bits (17.3.4)
constexpr int max_gap = 1 << 24;
constexpr int max_batch = 4096;
constexpr size_t typical_psdu = 1500; // sizes the output buffer

const pmt::pmt_t& pdus_port()
{
    static const pmt::pmt_t p = pmt::mp("pdus");
    return p;
}

const pmt::pmt_t& start_key()
{
    static const pmt::pmt_t k = pmt::mp("wifi_start");
    return k;
}

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
    if (gap_samples < 0 || gap_samples > max_gap)
        throw std::invalid_argument("gap_samples: must be 0.." + std::to_string(max_gap) +
                                    ", got " + std::to_string(gap_samples));
    if (!std::isfinite(scale) || scale == 0.0f)
        throw std::invalid_argument("scale: must be finite and nonzero, got " +
                                    std::to_string(scale));
    if (max_frames_per_batch < 1 || max_frames_per_batch > max_batch)
        throw std::invalid_argument("max_frames_per_batch: must be 1.." +
                                    std::to_string(max_batch) + ", got " +
                                    std::to_string(max_frames_per_batch));
    return gnuradio::make_block_sptr<wifi_tx_impl>(
        wifi_tx_config{ rate, seed, gap_samples, scale, max_frames_per_batch }, device);
}

namespace {

std::unique_ptr<core::wifi_tx> make_core(const wifi_tx_config& cfg, const std::string& device)
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
    return core::make_wifi_tx(p, core::resolve_device(device));
}

} // namespace

wifi_tx_impl::wifi_tx_impl(const wifi_tx_config& cfg, const std::string& device)
    : gr::block("wifi_tx",
                gr::io_signature::make(0, 0, 0),
                gr::io_signature::make(1, 1, sizeof(gr_complex))),
      d_tx(make_core(cfg, device)), d_gap(size_t(cfg.gap_samples)),
      d_max_batch(size_t(cfg.max_frames_per_batch)), d_rate(cfg.rate), d_seed(cfg.seed),
      d_queue(d_gap, d_max_batch)
{
    message_port_register_in(pdus_port());
    set_msg_handler(pdus_port(), [this](const pmt::pmt_t& msg) { handle_pdu(msg); });

    // Output buffer: two batches of 1500-octet frames at the default rate on the GPU, four
    // such frames on the CPU. Longer frames still go out (over several calls).
    const size_t typical = d_tx->frame_samples(typical_psdu, cfg.rate) + d_gap;
    const size_t frames = d_tx->device().is_cuda() ? 2 * d_max_batch : 4;
    set_min_output_buffer(0, long(std::min(frames * typical, size_t(1) << 23)));

    if (d_tx->device().is_cuda())
        d_logger->debug("on {}, up to {} frames per launch", d_tx->device().to_string(),
                        d_max_batch);
    else
        d_logger->debug("on the CPU twin");
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

void wifi_tx_impl::drop(const std::string& why)
{
    const uint64_t n = ++d_pdus_dropped;
    d_logger->warn("dropped PDU ({} so far): {}", n, why);
}

void wifi_tx_impl::handle_pdu(const pmt::pmt_t& msg)
{
    pmt::pmt_t meta, data;
    const std::string bad = unpack_pdu(msg, max_psdu, "PSDU", meta, data);
    if (!bad.empty())
        return drop(bad);
    const size_t len = pmt::length(data);

    long rate = d_rate.load();
    if (pmt::dict_has_key(meta, pmt::mp("rate"))) {
        const pmt::pmt_t v = pmt::dict_ref(meta, pmt::mp("rate"), pmt::PMT_NIL);
        if (!pmt_integer(v, rate) || !known_rate(rate))
            return drop("metadata rate " + pmt::write_string(v) +
                        " is not 6, 9, 12, 18, 24, 36, 48 or 54 (Mb/s)");
    }
    long seed = -1;
    if (pmt::dict_has_key(meta, pmt::mp("seed"))) {
        const pmt::pmt_t v = pmt::dict_ref(meta, pmt::mp("seed"), pmt::PMT_NIL);
        if (!pmt_integer(v, seed) || seed < 1 || seed > 127)
            return drop("metadata seed " + pmt::write_string(v) + " is not 1..127");
    }

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
    if (!d_queue.push(std::move(f)))
        return drop(std::to_string(queue::limit) + " PDUs already waiting");
    if (next_seed)
        d_next_seed = d_next_seed == 127 ? 1 : d_next_seed + 1;
}

int wifi_tx_impl::general_work(int noutput_items,
                               gr_vector_int&,
                               gr_vector_const_void_star&,
                               gr_vector_void_star& output_items)
{
    // Nothing to write returns 0: the scheduler then sleeps until a message arrives (a
    // block without stream inputs waits as if blocked on input), or ends the block when
    // its PDU senders are done.
    return int(d_queue.write(
        static_cast<gr_complex*>(output_items[0]), size_t(noutput_items), nitems_written(0),
        [this](const core::wifi_frame_request* r, size_t n, gr_complex* out) {
            d_tx->process(r, n, out);
        },
        [this](uint64_t offset, const pmt::pmt_t& value) {
            add_item_tag(0, offset, start_key(), value, alias_pmt());
        }));
}

} // namespace gpuofdm
} // namespace gr
