/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CPU twin of the 802.11a DATA-field decoder: the CPU stages, frame by frame.

#include "ofdm/demapper.h"
#include "fec/depuncture.h"
#include "fec/interleaver.h"
#include "fec/viterbi.h"
#include "wifi/wifi_decode.h"
#include "wifi/wifi_tx.h"

#include <string>

namespace gr::gpuofdm::core {

namespace {

class wifi_decoder_cpu : public wifi_decoder
{
public:
    explicit wifi_decoder_cpu(const wifi_decode_params& p) : wifi_decoder(p)
    {
        // One demapper, interleaver, depuncturer and Viterbi decoder per rate of Table 17-3.
        for (const auto& r : wifi_rates()) {
            demapper_params dp;
            dp.mod = r.mod;
            d_demappers.push_back(make_demapper(dp, device_spec{}));
            interleaver_params ip;
            ip.standard = phy_standard::ieee80211a;
            ip.n_cbps = r.n_cbps;
            ip.n_bpsc = r.n_bpsc;
            d_interleavers.push_back(make_interleaver(ip, device_spec{}));
            d_depuncturers.emplace_back("80211a", to_string(r.rate));
            d_viterbi.push_back(make_viterbi_decoder(
                viterbi_params::for_protocol("80211a", to_string(r.rate)), device_spec{}));
        }
    }

    device_spec device() const override { return {}; }

protected:
    void run(const wifi_rx_frame* frames, size_t n_frames, wifi_rx_result* out) override
    {
        for (size_t i = 0; i < n_frames; i++)
            decode(frames[i], out[i]);
    }

private:
    void decode(const wifi_rx_frame& f, wifi_rx_result& r)
    {
        size_t ri = 0;
        while (wifi_rates()[ri].mbps != f.rate_mbps)
            ri++;
        const wifi_rate_info& rate = wifi_rates()[ri];
        const size_t n_sym = wifi_n_sym(f.len, f.rate_mbps);
        const size_t n_points = 48 * n_sym;
        const size_t n_coded = size_t(rate.n_cbps) * n_sym;

        // 17.3.5.7: LLRs weighted by 1 / noise_var and the carrier's gain.
        const float* gain = nullptr;
        if (f.gain) {
            d_gain.resize(n_points);
            for (size_t j = 0; j < n_points; j++)
                d_gain[j] = f.gain[j % 48];
            gain = d_gain.data();
        }
        d_llr.resize(n_coded);
        d_demappers[ri]->process(f.symbols, d_llr.data(), n_points, f.noise_var, gain);
        // 17.3.5.6: the inverse permutation, symbol by symbol.
        d_deint.resize(n_coded);
        d_interleavers[ri]->deinterleave(d_llr.data(), d_deint.data(), n_sym);
        // 17.3.5.6: erasures where bits were stolen; whole periods per symbol.
        d_mother.resize(d_depuncturers[ri].output_len(n_coded));
        d_depuncturers[ri].process(d_deint.data(), n_coded, d_mother.data());
        // 17.3.5.5: the trellis is in state 0 after the tail; the pad bits are not decoded.
        const size_t steps = decoded_steps(f.len);
        d_bits.resize(steps);
        d_viterbi[ri]->decode_frames(d_mother.data(), 2 * steps, steps, d_bits.data());
        finish_frame(d_bits.data(), f.len, r);
    }

    std::vector<std::unique_ptr<demapper>> d_demappers;
    std::vector<std::unique_ptr<interleaver>> d_interleavers;
    std::vector<depuncturer> d_depuncturers;
    std::vector<std::unique_ptr<viterbi_decoder>> d_viterbi;
    std::vector<float> d_gain, d_llr, d_deint, d_mother;
    std::vector<uint8_t> d_bits;
};

} // namespace

std::unique_ptr<wifi_decoder> make_wifi_decoder_cpu(const wifi_decode_params& p)
{
    return std::make_unique<wifi_decoder_cpu>(p);
}

} // namespace gr::gpuofdm::core
