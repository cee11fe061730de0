/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CPU twin of the 802.11a transmitter: each frame through the CPU stages, then the CPU
// OFDM modulator and the Annex G windowing.

#include "fec/conv_encoder.h"
#include "fec/interleaver.h"
#include "fec/scrambler.h"
#include "ofdm/mapper.h"
#include "ofdm/ofdm_stage.h"
#include "wifi/wifi_tx.h"
#include "wifi/wifi_tx_common.h"

#include <algorithm>
#include <memory>
#include <vector>

namespace gr::gpuofdm::core {

/*!
 * \brief The CPU twin: frame by frame through the CPU stages (make_scrambler,
 * make_conv_encoder, make_interleaver, make_mapper with the CPU device) and the CPU OFDM
 * modulator (make_ofdm_ifft, 64 bins in IFFT order, CP 16, scale params().scale / 64).
 */
class wifi_tx_cpu final : public wifi_tx
{
public:
    explicit wifi_tx_cpu(const wifi_tx_params& p);
    using wifi_tx::process;
    using wifi_tx::process_bins;
    device_spec device() const override { return {}; }
    void process(const wifi_frame_request* frames, size_t n_frames, cfloat* out) override;
    void process_bins(const wifi_frame_request* frames, size_t n_frames, cfloat* bins) override;

private:
    //! Index of the rate in wifi_rates().
    static size_t rate_index(int mbps);
    //! The bins of one frame's SIGNAL and DATA symbols into \p bins (frame_symbols() x 64).
    void frame_bins(const wifi_frame_request& f, cfloat* bins);

    std::unique_ptr<conv_encoder> d_signal_encoder;           //!< rate 1/2 for SIGNAL
    std::unique_ptr<interleaver> d_signal_interleaver;        //!< 48 bits, BPSK
    std::unique_ptr<mapper> d_signal_mapper;                  //!< BPSK
    std::vector<std::unique_ptr<conv_encoder>> d_encoders;    //!< one per rate
    std::vector<std::unique_ptr<interleaver>> d_interleavers; //!< one per rate
    std::vector<std::unique_ptr<mapper>> d_mappers;           //!< one per rate
    std::unique_ptr<ofdm_stage> d_ifft;

    std::vector<uint8_t> d_bits;
    std::vector<uint8_t> d_coded;
    std::vector<uint8_t> d_interleaved;
    std::vector<cfloat> d_points;
    std::vector<cfloat> d_bins;
    std::vector<cfloat> d_time;
};

wifi_tx_cpu::wifi_tx_cpu(const wifi_tx_params& p) : wifi_tx(p)
{
    const device_spec cpu{};
    const auto std80211a = phy_standard::ieee80211a;
    // SIGNAL: BPSK, rate 1/2, N_CBPS = 48 (17.3.4).
    d_signal_encoder = make_conv_encoder({ std80211a, code_rate::r1_2, 0 }, cpu);
    d_signal_interleaver = make_interleaver({ std80211a, 48, 1, 0 }, cpu);
    d_signal_mapper = make_mapper({ modulation::bpsk, 0 }, cpu);
    for (const auto& r : wifi_rates()) {
        d_encoders.push_back(make_conv_encoder({ std80211a, r.rate, 0 }, cpu));
        d_interleavers.push_back(make_interleaver({ std80211a, r.n_cbps, r.n_bpsc, 0 }, cpu));
        d_mappers.push_back(make_mapper({ r.mod, 0 }, cpu));
    }
    ofdm_params op;
    op.fft_len = int(fft_len);
    op.cp_lengths = { 16 };
    op.shift = false; // the bins are in IFFT order already
    op.scale = p.scale / float(fft_len);
    d_ifft = make_ofdm_ifft(op, cpu);
}

size_t wifi_tx_cpu::rate_index(int mbps)
{
    const auto& rates = wifi_rates();
    for (size_t i = 0; i < rates.size(); i++)
        if (rates[i].mbps == mbps)
            return i;
    return rates.size(); // not reached: requests are validated first
}

void wifi_tx_cpu::frame_bins(const wifi_frame_request& f, cfloat* bins)
{
    const size_t ri = rate_index(f.rate_mbps);
    const wifi_rate_info& r = wifi_rates()[ri];
    const size_t n_sym = wifi_n_sym(f.len, f.rate_mbps);
    const size_t n_data = n_sym * size_t(r.n_dbps);
    const size_t n_coded = n_sym * size_t(r.n_cbps);

    // Bits: SIGNAL's 24, then SERVICE + PSDU + tail + pad.
    d_bits.resize(wifi_signal_bits + n_data);
    for (unsigned b = 0; b < wifi_signal_bits; b++)
        d_bits[b] = wifi_signal_bit(r.rate_bits, unsigned(f.len), b);
    uint8_t* data = d_bits.data() + wifi_signal_bits;
    for (size_t d = 0; d < n_data; d++)
        data[d] = wifi_data_bit(f.psdu, f.len, d);

    // Scramble DATA only, then zero the six tail bits after the PSDU (17.3.5.2).
    scrambler_params sp;
    sp.standard = phy_standard::ieee80211a;
    sp.seed = f.seed;
    auto scr = make_scrambler(sp, device_spec{});
    auto st = scr->initial_state();
    scr->process(data, data, n_data, st);
    std::fill(data + wifi_service_bits + 8 * f.len,
              data + wifi_service_bits + 8 * f.len + wifi_tail_bits, uint8_t(0));

    // Encode each field from the zero state; SIGNAL at rate 1/2 (17.3.5.5).
    d_coded.resize(2 * wifi_signal_bits + n_coded);
    conv_encoder_state es;
    d_signal_encoder->process(d_bits.data(), d_coded.data(), wifi_signal_bits, es);
    es = conv_encoder_state{};
    d_encoders[ri]->process(data, d_coded.data() + 2 * wifi_signal_bits, n_data, es);

    // Interleave and map per symbol (17.3.5.6, 17.3.5.7).
    d_interleaved.resize(d_coded.size());
    d_signal_interleaver->interleave(d_coded.data(), d_interleaved.data(), 1);
    d_interleavers[ri]->interleave(d_coded.data() + 48, d_interleaved.data() + 48, n_sym);
    d_points.resize(wifi_data_carriers * (1 + n_sym));
    d_signal_mapper->process(d_interleaved.data(), d_points.data(), wifi_data_carriers);
    d_mappers[ri]->process(d_interleaved.data() + 48, d_points.data() + wifi_data_carriers,
                           wifi_data_carriers * n_sym);

    // Subcarriers (17.3.5.9): data, pilots (1, 1, 1, -1) p_j, DC and guards zero.
    for (size_t j = 0; j < 1 + n_sym; j++) {
        cfloat* b = bins + j * fft_len;
        for (unsigned k = 0; k < wifi_data_carriers; k++)
            b[wifi_bin(wifi_data_subcarrier(k))] = d_points[j * wifi_data_carriers + k];
        for (unsigned i = 0; i < fft_len - wifi_data_carriers; i++)
            b[wifi_nondata_bin(i)] = cfloat(wifi_nondata_value(i, j), 0.0f);
    }
}

void wifi_tx_cpu::process_bins(const wifi_frame_request* frames, size_t n_frames, cfloat* bins)
{
    validate(frames, n_frames);
    for (size_t i = 0; i < n_frames; i++) {
        frame_bins(frames[i], bins);
        bins += fft_len * frame_symbols(frames[i].len, frames[i].rate_mbps);
    }
}

void wifi_tx_cpu::process(const wifi_frame_request* frames, size_t n_frames, cfloat* out)
{
    validate(frames, n_frames);
    const bool window = d_params.window;
    for (size_t i = 0; i < n_frames; i++) {
        const size_t n_symbols = frame_symbols(frames[i].len, frames[i].rate_mbps);
        d_bins.resize(n_symbols * fft_len);
        frame_bins(frames[i], d_bins.data());
        d_time.resize(n_symbols * symbol_samples);
        d_ifft->process(d_bins.data(), d_time.data(), n_symbols, 0);

        // Preamble, then the symbols; with windowing each symbol's first sample is the
        // half-and-half overlap with the previous field's continuation (its sample 16 for
        // an OFDM symbol: body sample 0), and one half continuation closes the frame.
        std::copy(d_preamble.begin(), d_preamble.begin() + preamble_samples, out);
        cfloat* sym = out + preamble_samples;
        std::copy(d_time.begin(), d_time.end(), sym);
        if (window) {
            for (size_t j = 0; j < n_symbols; j++) {
                const cfloat prev =
                    j == 0 ? d_preamble[preamble_samples] : d_time[(j - 1) * symbol_samples + 16];
                sym[j * symbol_samples] = 0.5f * d_time[j * symbol_samples] + 0.5f * prev;
            }
            sym[n_symbols * symbol_samples] = 0.5f * d_time[(n_symbols - 1) * symbol_samples + 16];
        }
        out += frame_samples(frames[i].len, frames[i].rate_mbps);
    }
}

std::unique_ptr<wifi_tx> make_wifi_tx_cpu(const wifi_tx_params& p)
{
    return std::make_unique<wifi_tx_cpu>(p);
}

} // namespace gr::gpuofdm::core
