/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// 802.11a DATA-field decoder: parameter and frame checks, batching, the descrambling /
// packing / FCS step both backends share, and the factory.

#include "wifi/wifi_decode.h"

#include "fec/scrambler.h"
#include "wifi/wifi_rx_bits.h"
#include "wifi/wifi_tx.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

void wifi_decode_params::validate() const
{
    if (max_frames_per_batch < 1 || max_frames_per_batch > 65535)
        throw std::invalid_argument("max_frames_per_batch: must be 1..65535, got " +
                                    std::to_string(max_frames_per_batch));
    const size_t min_symbols = wifi_n_sym(4095, 6);
    if (max_symbols_per_batch < min_symbols || max_symbols_per_batch > (size_t(1) << 20))
        throw std::invalid_argument("max_symbols_per_batch: must be " +
                                    std::to_string(min_symbols) + "..2^20, got " +
                                    std::to_string(max_symbols_per_batch));
}

wifi_decoder::wifi_decoder(const wifi_decode_params& p) : d_params(p) { d_params.validate(); }

void wifi_decoder::validate(const wifi_rx_frame* frames, size_t n_frames) const
{
    if (n_frames > 0 && !frames)
        throw std::invalid_argument("frames: null with n_frames = " + std::to_string(n_frames));
    for (size_t i = 0; i < n_frames; i++) {
        const wifi_rx_frame& f = frames[i];
        const std::string where = " (frame " + std::to_string(i) + ")";
        try {
            wifi_rate(f.rate_mbps);
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument(e.what() + where);
        }
        if (f.len < 1 || f.len > 4095)
            throw std::invalid_argument("len: must be 1..4095 octets, got " +
                                        std::to_string(f.len) + where);
        const size_t need = wifi_n_sym(f.len, f.rate_mbps);
        if (f.n_symbols < need)
            throw std::invalid_argument("n_symbols: " + std::to_string(f.len) + " octets at " +
                                        std::to_string(f.rate_mbps) + " Mb/s need " +
                                        std::to_string(need) + " DATA symbols, got " +
                                        std::to_string(f.n_symbols) + where);
        if (!f.symbols)
            throw std::invalid_argument("symbols: null" + where);
        if (!(f.noise_var > 0.0f) || !std::isfinite(f.noise_var))
            throw std::invalid_argument("noise_var: must be finite and > 0, got " +
                                        std::to_string(f.noise_var) + where);
    }
}

void wifi_decoder::process(const wifi_rx_frame* frames, size_t n_frames, wifi_rx_result* out)
{
    process_batches(frames, n_frames, out, false);
}

void wifi_decoder::process_device(const wifi_rx_frame* frames, size_t n_frames, wifi_rx_result* out)
{
    process_batches(frames, n_frames, out, true);
}

void wifi_decoder::run_device(const wifi_rx_frame*, size_t, wifi_rx_result*)
{
    throw std::logic_error("wifi_decoder: device-resident input needs the CUDA backend");
}

void wifi_decoder::process_batches(const wifi_rx_frame* frames,
                                   size_t n_frames,
                                   wifi_rx_result* out,
                                   bool on_device)
{
    validate(frames, n_frames);
    if (n_frames > 0 && !out)
        throw std::invalid_argument("out: null with n_frames = " + std::to_string(n_frames));
    size_t first = 0;
    while (first < n_frames) {
        // As many frames as the batch holds (always at least one: any frame fits).
        size_t k = 0;
        size_t symbols = 0;
        while (first + k < n_frames && k < d_params.max_frames_per_batch) {
            const wifi_rx_frame& f = frames[first + k];
            const size_t s = wifi_n_sym(f.len, f.rate_mbps);
            if (symbols + s > d_params.max_symbols_per_batch)
                break;
            symbols += s;
            k++;
        }
        if (on_device)
            run_device(frames + first, k, out + first);
        else
            run(frames + first, k, out + first);
        first += k;
    }
}

void wifi_decoder::finish_frame(const uint8_t* bits, size_t len, wifi_rx_result& r)
{
    // 17.3.5.4: the descrambler is the scrambler from the same initial state, whose output
    // repeats every 127 bits: per seed and phase, the next 8 bits of that sequence as an
    // octet (LSB first), made once from the scrambler itself, so a PSDU octet is its 8
    // decoded bits packed and XORed with one table entry.
    static const std::vector<uint8_t> octets = [] {
        std::vector<uint8_t> t(128 * 127, 0);
        std::vector<uint8_t> zeros(127, 0), seq(127);
        for (int seed = 1; seed < 128; seed++) {
            scrambler_params sp;
            sp.standard = phy_standard::ieee80211a;
            sp.seed = seed;
            auto s = make_scrambler(sp, device_spec{});
            scrambler_state st = s->initial_state();
            s->process(zeros.data(), seq.data(), 127, st);
            for (size_t phase = 0; phase < 127; phase++) {
                unsigned v = 0;
                for (size_t k = 0; k < 8; k++)
                    v |= unsigned(seq[(phase + k) % 127] & 1u) << k;
                t[127 * size_t(seed) + phase] = uint8_t(v);
            }
        }
        return t;
    }();
    r.seed = wifi_scrambler_seed_from_service(bits);
    // (seed 0: no scrambler state emits seven zeros; the bits are left as decoded.)
    const uint8_t* row = octets.data() + 127 * size_t(r.seed);
    r.psdu.resize(len);
    const uint8_t* in = bits + 16; // the PSDU starts after the 16 SERVICE bits
    size_t phase = 16 % 127;
    for (size_t i = 0; i < len; i++, in += 8) {
        unsigned v = 0;
        for (unsigned k = 0; k < 8; k++)
            v |= unsigned(in[k] & 1u) << k; // LSB first, 17.3.5.2
        r.psdu[i] = uint8_t(v ^ row[phase]);
        phase += 8;
        if (phase >= 127)
            phase -= 127;
    }
    r.fcs_ok = r.seed != 0 && wifi_fcs_ok(r.psdu.data(), len);
}

std::unique_ptr<wifi_decoder> make_wifi_decoder(const wifi_decode_params& p,
                                                const device_spec& dev,
                                                const cuda_context_ptr& ctx)
{
    p.validate();
    if (!dev.is_cuda())
        return make_wifi_decoder_cpu(p);
#ifdef GPUOFDM_HAVE_CUDA
    return make_wifi_decoder_cuda(p, dev, ctx);
#else
    (void)ctx;
    throw std::runtime_error("gr-gpuofdm was built without CUDA (GPUOFDM_CUDA=OFF)");
#endif
}

} // namespace gr::gpuofdm::core
