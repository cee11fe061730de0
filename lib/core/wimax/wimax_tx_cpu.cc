/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CPU twin of the 802.16 transmitter: each burst through the CPU stages, then the CPU OFDM
// modulator after the preamble.

#include "fec/conv_encoder.h"
#include "fec/interleaver.h"
#include "fec/reed_solomon.h"
#include "fec/scrambler.h"
#include "ofdm/mapper.h"
#include "ofdm/ofdm_stage.h"
#include "wimax/wimax_tx.h"
#include "wimax/wimax_tx_common.h"

#include <algorithm>
#include <memory>
#include <vector>

namespace gr::gpuofdm::core {

/*!
 * \brief The CPU twin: burst by burst through the CPU stages (make_scrambler,
 * reed_solomon_cpu, make_conv_encoder, make_interleaver, make_mapper with the 802.16
 * labels) and the CPU OFDM modulator (make_ofdm_ifft, 256 bins in IFFT order, CP
 * 256/cp_div, scale params().scale / 256).
 */
class wimax_tx_cpu final : public wimax_tx
{
public:
    explicit wimax_tx_cpu(const wimax_tx_params& p);
    using wimax_tx::process;
    using wimax_tx::process_bins;
    device_spec device() const override { return {}; }
    void process(const wimax_burst_request* bursts, size_t n, cfloat* out) override;
    void process_bins(const wimax_burst_request* bursts, size_t n, cfloat* bins) override;
    void trace(const wimax_burst_request& burst, wimax_burst_trace& out) override;

private:
    //! The bit stages of one burst into d_interleaved (and \p t when not null).
    void burst_bits(const wimax_burst_request& b, wimax_burst_trace* t);
    //! The bins of one burst's data symbols into \p bins (burst_symbols() x 256).
    void burst_bins(const wimax_burst_request& b, cfloat* bins);

    std::vector<std::unique_ptr<reed_solomon>> d_rs;          //!< one per profile
    std::vector<std::unique_ptr<conv_encoder>> d_encoders;    //!< one per profile
    std::vector<std::unique_ptr<interleaver>> d_interleavers; //!< one per profile
    std::vector<std::unique_ptr<mapper>> d_mappers;           //!< one per profile
    std::unique_ptr<ofdm_stage> d_ifft;

    std::vector<uint8_t> d_bits, d_bytes, d_rs_bytes, d_rs_bits, d_coded, d_interleaved;
    std::vector<cfloat> d_points, d_bins, d_time;
};

wimax_tx_cpu::wimax_tx_cpu(const wimax_tx_params& p) : wimax_tx(p)
{
    const device_spec cpu{};
    const auto s16 = phy_standard::ieee80216;
    for (const auto& r : wimax_profiles()) {
        d_rs.push_back(make_reed_solomon(r.rs, cpu));
        d_encoders.push_back(make_conv_encoder({ s16, r.cc_rate, 0 }, cpu));
        d_interleavers.push_back(make_interleaver({ s16, r.n_cbps, r.n_bpsc, 0 }, cpu));
        d_mappers.push_back(make_mapper({ r.mod, 0, s16 }, cpu));
    }
    ofdm_params op;
    op.fft_len = int(fft_len);
    op.cp_lengths = { int(cp_len()) };
    op.shift = false; // the bins are in IFFT order already
    op.scale = p.scale / float(fft_len);
    d_ifft = make_ofdm_ifft(op, cpu);
}

void wimax_tx_cpu::burst_bits(const wimax_burst_request& b, wimax_burst_trace* t)
{
    const size_t ri = size_t(b.rate_id);
    const wimax_profile_info& r = wimax_profiles()[ri];
    const size_t n_blocks = burst_symbols(b.len, b.rate_id);
    const size_t total = n_blocks * r.rs.k; // octets before RS, tail included

    // Data, 0xFF padding, then randomize all but the tail byte (8.3.3.1, 8.3.3.2).
    d_bits.resize(8 * total);
    for (size_t i = 0; i < d_bits.size(); i++)
        d_bits[i] = wimax_source_bit(b.data, b.len, total, i);
    scrambler_params sp;
    sp.standard = phy_standard::ieee80216;
    sp.seed = b.seed;
    auto scr = make_scrambler(sp, device_spec{});
    auto st = scr->initial_state();
    scr->process(d_bits.data(), d_bits.data(), 8 * (total - 1), st);
    d_bytes.assign(total, 0);
    for (size_t i = 0; i < d_bits.size(); i++)
        d_bytes[i >> 3] |= uint8_t(d_bits[i] << (7 - (i & 7)));

    // RS per block of K octets (parity first), then the code over the whole burst from the
    // zero state; the tail byte brings it back to zero (8.3.3.2).
    d_rs_bytes.resize(n_blocks * r.rs.n);
    d_rs[ri]->encode(d_bytes.data(), d_rs_bytes.data(), n_blocks);
    d_rs_bits.resize(8 * d_rs_bytes.size());
    for (size_t i = 0; i < d_rs_bits.size(); i++)
        d_rs_bits[i] = uint8_t((d_rs_bytes[i >> 3] >> (7 - (i & 7))) & 1u);
    d_coded.resize(n_blocks * size_t(r.n_cbps));
    conv_encoder_state es;
    d_encoders[ri]->process(d_rs_bits.data(), d_coded.data(), d_rs_bits.size(), es);

    // One interleaver block of N_cbps per OFDM symbol (8.3.3.3).
    d_interleaved.resize(d_coded.size());
    d_interleavers[ri]->interleave(d_coded.data(), d_interleaved.data(), n_blocks);

    if (t) {
        t->randomized.assign(d_bytes.begin(), d_bytes.end() - 1);
        t->rs_encoded = d_rs_bytes;
        t->cc_encoded = d_coded;
        t->interleaved = d_interleaved;
    }
}

void wimax_tx_cpu::burst_bins(const wimax_burst_request& b, cfloat* bins)
{
    burst_bits(b, nullptr);
    const size_t ri = size_t(b.rate_id);
    const size_t n_sym = burst_symbols(b.len, b.rate_id);
    d_points.resize(n_sym * data_carriers);
    d_mappers[ri]->process(d_interleaved.data(), d_points.data(), d_points.size());

    // Data on -100..100 in increasing order, pilots with k = preamble symbols + j, DC and
    // guards zero (8.3.2.2, 8.3.3.4.2).
    const auto& place = wimax_data_bins();
    const unsigned n_pre = wimax_preamble_symbols(d_params.preamble);
    for (size_t j = 0; j < n_sym; j++) {
        cfloat* s = bins + j * fft_len;
        for (size_t d = 0; d < data_carriers; d++)
            s[place[d]] = d_points[j * data_carriers + d];
        const unsigned w =
            wimax_pilot_w(unsigned((n_pre + j) % wimax_pilot_period), d_params.uplink);
        for (unsigned e = 0; e < wimax_nondata; e++)
            s[wimax_nondata_bin(e)] =
                cfloat(e < 8 ? wimax_pilot_from_w(e, w, d_params.uplink) : 0.0f, 0.0f);
    }
}

void wimax_tx_cpu::trace(const wimax_burst_request& burst, wimax_burst_trace& out)
{
    validate(&burst, 1);
    burst_bits(burst, &out);
}

void wimax_tx_cpu::process_bins(const wimax_burst_request* bursts, size_t n, cfloat* bins)
{
    validate(bursts, n);
    for (size_t i = 0; i < n; i++) {
        burst_bins(bursts[i], bins);
        bins += fft_len * burst_symbols(bursts[i].len, bursts[i].rate_id);
    }
}

void wimax_tx_cpu::process(const wimax_burst_request* bursts, size_t n, cfloat* out)
{
    validate(bursts, n);
    for (size_t i = 0; i < n; i++) {
        const size_t n_sym = burst_symbols(bursts[i].len, bursts[i].rate_id);
        d_bins.resize(n_sym * fft_len);
        burst_bins(bursts[i], d_bins.data());
        out = std::copy(d_preamble.begin(), d_preamble.end(), out);
        d_ifft->process(d_bins.data(), out, n_sym, 0);
        out += n_sym * symbol_samples();
    }
}

std::unique_ptr<wimax_tx> make_wimax_tx_cpu(const wimax_tx_params& p)
{
    return std::make_unique<wimax_tx_cpu>(p);
}

} // namespace gr::gpuofdm::core
