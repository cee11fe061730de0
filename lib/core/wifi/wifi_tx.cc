/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// 802.11a transmitter: the rate table, the training symbols, parameter and request checks,
// the preamble both backends share, and the factory.

#include "wifi/wifi_tx.h"
#include "ofdm/ofdm_stage.h"
#include "wifi/wifi_tx_common.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

namespace {

constexpr size_t max_length = 4095; // LENGTH is 12 bits (17.3.4)
constexpr size_t max_batch_symbols = size_t(1) << 22;

} // namespace

const std::vector<wifi_rate_info>& wifi_rates()
{
    // Table 17-3 (modulation, R, N_BPSC, N_CBPS, N_DBPS) and Table 17-5 (R1..R4).
    static const std::vector<wifi_rate_info> rates = {
        { 6, modulation::bpsk, code_rate::r1_2, 1, 48, 24, 0b1101 },
        { 9, modulation::bpsk, code_rate::r3_4, 1, 48, 36, 0b1111 },
        { 12, modulation::qpsk, code_rate::r1_2, 2, 96, 48, 0b0101 },
        { 18, modulation::qpsk, code_rate::r3_4, 2, 96, 72, 0b0111 },
        { 24, modulation::qam16, code_rate::r1_2, 4, 192, 96, 0b1001 },
        { 36, modulation::qam16, code_rate::r3_4, 4, 192, 144, 0b1011 },
        { 48, modulation::qam64, code_rate::r2_3, 6, 288, 192, 0b0001 },
        { 54, modulation::qam64, code_rate::r3_4, 6, 288, 216, 0b0011 },
    };
    return rates;
}

const wifi_rate_info& wifi_rate(int mbps)
{
    for (const auto& r : wifi_rates())
        if (r.mbps == mbps)
            return r;
    throw std::invalid_argument("rate_mbps: must be 6, 9, 12, 18, 24, 36, 48 or 54, got " +
                                std::to_string(mbps));
}

size_t wifi_n_sym(size_t psdu_len, int rate_mbps)
{
    const size_t n_dbps = size_t(wifi_rate(rate_mbps).n_dbps);
    return (wifi_service_bits + 8 * psdu_len + wifi_tail_bits + n_dbps - 1) / n_dbps;
}

std::vector<cfloat> wifi_short_training_bins()
{
    // Equation 17-4: the nonzero S_k, k a multiple of 4, each sqrt(13/6) (+-(1 + j)).
    const int carrier[12] = { -24, -20, -16, -12, -8, -4, 4, 8, 12, 16, 20, 24 };
    const int sign[12] = { 1, -1, 1, -1, -1, 1, -1, -1, 1, 1, 1, 1 };
    const float a = std::sqrt(13.0f / 6.0f);
    std::vector<cfloat> bins(64);
    for (int i = 0; i < 12; i++)
        bins[wifi_bin(carrier[i])] = cfloat(sign[i] * a, sign[i] * a);
    return bins;
}

std::vector<cfloat> wifi_long_training_bins()
{
    // Equation 17-6: L_-26..26 (L_0 = 0).
    const int l[53] = { 1,  1,  -1, -1, 1,  1, -1, 1,  -1, 1, 1,  1,  1,  1, 1,  -1, -1, 1,
                        1,  -1, 1,  -1, 1,  1, 1,  1,  0,  1, -1, -1, 1,  1, -1, 1,  -1, 1,
                        -1, -1, -1, -1, -1, 1, 1,  -1, -1, 1, -1, 1,  -1, 1, 1,  1,  1 };
    std::vector<cfloat> bins(64);
    for (int c = -26; c <= 26; c++)
        bins[wifi_bin(c)] = cfloat(float(l[c + 26]), 0.0f);
    return bins;
}

int wifi_pilot_polarity(unsigned n)
{
    // Entry 0 of the non-data bins is the pilot at -21, which carries p_n itself.
    return wifi_nondata_value(0, n) > 0 ? 1 : -1;
}

void wifi_tx_params::validate() const
{
    if (max_frames_per_batch < 1 || max_frames_per_batch > max_requests_per_batch)
        throw std::invalid_argument("max_frames_per_batch: must be 1..4096, got " +
                                    std::to_string(max_frames_per_batch));
    if (max_psdu_bytes < 1 || max_psdu_bytes > max_length)
        throw std::invalid_argument("max_psdu_bytes: must be 1..4095 (LENGTH is 12 bits), got " +
                                    std::to_string(max_psdu_bytes));
    // The IFFT runs at scale / 256 or / 64: a subnormal scale would vanish there.
    if (!(std::fabs(scale) >= 1e-30f && std::fabs(scale) <= 1e30f)) {
        char got[32];
        std::snprintf(got, sizeof(got), "%g", double(scale));
        throw std::invalid_argument(std::string("scale: |scale| must be 1e-30..1e30, got ") + got);
    }
    // The longest frame is the longest PSDU at 6 Mb/s; a batch must hold one.
    const size_t longest = wifi_tx::frame_symbols(max_psdu_bytes, 6);
    const size_t symbols = symbols_per_batch();
    if (symbols < longest || symbols > max_batch_symbols)
        throw std::invalid_argument(
            "max_symbols_per_batch: must be 0 (room for max_frames_per_batch longest frames) or " +
            std::to_string(longest) + ".." + std::to_string(max_batch_symbols) +
            " (one frame of max_psdu_bytes at 6 Mb/s at least), got " +
            std::to_string(max_symbols_per_batch));
}

size_t wifi_tx_params::symbols_per_batch() const
{
    return max_symbols_per_batch ? max_symbols_per_batch
                                 : max_frames_per_batch * wifi_tx::frame_symbols(max_psdu_bytes, 6);
}

wifi_tx::wifi_tx(const wifi_tx_params& p) : d_params(p)
{
    p.validate();
    d_max_symbols = p.symbols_per_batch();

    // The preamble (17.3.3), computed once with the CPU OFDM modulator at the output scale
    // (no CP: the fields are cyclic extensions of the 64-sample IFFT outputs).
    ofdm_params op;
    op.fft_len = int(fft_len);
    op.cp_lengths = { 0 };
    op.shift = false;
    op.scale = p.scale / float(fft_len);
    auto ifft = make_ofdm_ifft(op, device_spec{});
    std::vector<cfloat> bins = wifi_short_training_bins();
    const auto ltf = wifi_long_training_bins();
    bins.insert(bins.end(), ltf.begin(), ltf.end());
    std::vector<cfloat> body(2 * fft_len);
    ifft->process(bins.data(), body.data(), 2, 0);
    // Short field: 10 periods of 16 = 2.5 IFFT outputs; long field: GI2 (the last 32
    // samples) and two IFFT outputs; t = 160 is each field's cyclic continuation.
    auto x_s = [&](size_t t) { return body[t % 64]; };
    auto x_l = [&](size_t t) { return body[64 + (t + 32) % 64]; };
    d_preamble.assign(preamble_samples + 1, cfloat());
    for (size_t t = 0; t < 160; t++) {
        d_preamble[t] = x_s(t);
        d_preamble[160 + t] = x_l(t);
    }
    d_preamble[preamble_samples] = x_l(160);
    if (p.window) {
        // Annex G windowing (T_TR = 100 ns): a field's first and continuation samples weigh
        // 1/2 and adjacent fields overlap by that one sample.
        d_preamble[0] = 0.5f * x_s(0);
        d_preamble[160] = 0.5f * x_s(160) + 0.5f * x_l(0);
    }
}

size_t wifi_tx::frame_samples(size_t psdu_len, int rate_mbps) const
{
    if (psdu_len < 1 || psdu_len > d_params.max_psdu_bytes)
        throw std::invalid_argument("len: PSDU length must be 1.." +
                                    std::to_string(d_params.max_psdu_bytes) +
                                    " octets (max_psdu_bytes), got " + std::to_string(psdu_len));
    return preamble_samples + symbol_samples * frame_symbols(psdu_len, rate_mbps) +
           (d_params.window ? 1 : 0);
}

size_t wifi_tx::total_samples(const wifi_frame_request* frames, size_t n_frames) const
{
    validate(frames, n_frames);
    size_t n = 0;
    for (size_t i = 0; i < n_frames; i++)
        n += frame_samples(frames[i].len, frames[i].rate_mbps);
    return n;
}

void wifi_tx::validate(const wifi_frame_request* frames, size_t n_frames) const
{
    if (n_frames > 0 && frames == nullptr)
        throw std::invalid_argument("frames: null pointer with " + std::to_string(n_frames) +
                                    " frames");
    for (size_t i = 0; i < n_frames; i++) {
        const auto& f = frames[i];
        const std::string which = "frame " + std::to_string(i) + ": ";
        if (f.len < 1 || f.len > d_params.max_psdu_bytes)
            throw std::invalid_argument("len: " + which + "PSDU length must be 1.." +
                                        std::to_string(d_params.max_psdu_bytes) +
                                        " octets (max_psdu_bytes), got " + std::to_string(f.len));
        if (f.psdu == nullptr)
            throw std::invalid_argument("psdu: " + which + "null pointer");
        bool known = false;
        for (const auto& r : wifi_rates())
            known = known || r.mbps == f.rate_mbps;
        if (!known)
            throw std::invalid_argument("rate_mbps: " + which +
                                        "must be 6, 9, 12, 18, 24, 36, 48 or 54, got " +
                                        std::to_string(f.rate_mbps));
        if (f.seed < 1 || f.seed > 127)
            throw std::invalid_argument("seed: " + which +
                                        "scrambler seed must be 1..127 (x7..x1, nonzero), got " +
                                        std::to_string(f.seed));
    }
}

std::unique_ptr<wifi_tx> make_wifi_tx(const wifi_tx_params& p, const device_spec& dev)
{
    p.validate();
    if (!dev.is_cuda())
        return make_wifi_tx_cpu(p);
#ifdef GPUOFDM_HAVE_CUDA
    return make_wifi_tx_cuda(p, dev);
#else
    throw std::runtime_error("gr-gpuofdm was built without CUDA (GPUOFDM_CUDA=OFF)");
#endif
}

} // namespace gr::gpuofdm::core
