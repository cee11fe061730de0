/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// 802.16 OFDM-256 transmitter: the burst profiles, the randomizer seed, pilots and
// preamble, parameter and request checks, the preamble both backends share, the factory.

#include "wimax/wimax_tx.h"
#include "ofdm/ofdm_stage.h"
#include "wimax/wimax_tx_common.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

namespace {

constexpr size_t max_length = 65535;
constexpr size_t max_batch_symbols = size_t(1) << 22;

/*
 * P_ALL(-100..100) of 8.3.3.6 (Equation 113 ff.), two characters per subcarrier, -100
 * first: the signs of the real and imaginary parts ("+-" is 1 - j); "00" at DC.
 * Transcribed from the open 802.16d model github.com/phthinh/OFDM_802_16
 * (MATLAB/preamble_802_16.m); the standard's table was not at hand. All 201 values agree
 * with two independent open implementations (the test vectors' p_all.txt names them;
 * lib/tests/wimax/test_wimax_tables.cc checks the preambles against it), and P_ALL, P_EVEN
 * and P_4x64 all have the designed PAPR of 3.0 dB (random QPSK: about 7 dB). P_4x64 =
 * 2 conj(P_ALL) in every source; P_EVEN = sqrt(2) P_ALL in three, sqrt(2) conj(P_ALL) in one:
 * that conjugate stays open.
 */
const char p_all_signs[] =
    "+-+---+++-+--++-+-+-++--++++--++----+--++-+---+++-+--++-+-+-++--++++--++----+--++-+---+"
    "++-+--++-+-+-++--++++--++----+--++++++--+++++--++++++-++--+-++--++-+-++-------++-----++"
    "------+--++-+--++--+-+--++00--++-+-+--++++++--+++-+-+--+-+-+-++------++-++++-++-+-+--++"
    "-------++++++++---+-+++--+-+-++------++---+-+-++-+-+-+--+++++--++-+-+--++++++--+++-+-+-"
    "-+-+-+-++-----+--+----+--+-+-++--+++++++--------+++-+-";

cfloat p_all(int k)
{
    const char* c = p_all_signs + 2 * (k + 100);
    if (c[0] == '0')
        return {};
    return { c[0] == '+' ? 1.0f : -1.0f, c[1] == '+' ? 1.0f : -1.0f };
}

unsigned bin_of(int c) { return unsigned((c + 256) % 256); }

} // namespace

const int wimax_pilot_carriers[8] = { -88, -63, -38, -13, 13, 38, 63, 88 };

const std::vector<wimax_profile_info>& wimax_profiles()
{
    // 8.3.3.2 Table 215 (RS code, CC rate per modulation) and the Rate_ID of 8.3.3.4.3.
    static const std::vector<wimax_profile_info> p = {
        { 0, "BPSK 1/2", modulation::bpsk, { 12, 12, 0 }, code_rate::r1_2, 1, 192 },
        { 1, "QPSK 1/2", modulation::qpsk, { 32, 24, 4 }, code_rate::r2_3, 2, 384 },
        { 2, "QPSK 3/4", modulation::qpsk, { 40, 36, 2 }, code_rate::r5_6, 2, 384 },
        { 3, "16-QAM 1/2", modulation::qam16, { 64, 48, 8 }, code_rate::r2_3, 4, 768 },
        { 4, "16-QAM 3/4", modulation::qam16, { 80, 72, 4 }, code_rate::r5_6, 4, 768 },
        { 5, "64-QAM 2/3", modulation::qam64, { 108, 96, 6 }, code_rate::r3_4, 6, 1152 },
        { 6, "64-QAM 3/4", modulation::qam64, { 120, 108, 6 }, code_rate::r5_6, 6, 1152 },
    };
    return p;
}

const wimax_profile_info& wimax_profile(int rate_id)
{
    if (rate_id < 0 || rate_id >= int(wimax_profiles().size()))
        throw std::invalid_argument("rate_id: must be 0..6 (BPSK 1/2, QPSK 1/2, QPSK 3/4, "
                                    "16-QAM 1/2, 16-QAM 3/4, 64-QAM 2/3, 64-QAM 3/4), got " +
                                    std::to_string(rate_id));
    return wimax_profiles()[size_t(rate_id)];
}

int wimax_randomizer_seed(unsigned bsid, unsigned iuc, unsigned frame_number)
{
    if (iuc > 15)
        throw std::invalid_argument("iuc: DIUC/UIUC must be 0..15, got " + std::to_string(iuc));
    // b1 is the MSB (bit 14) of the seed integer.
    return int(((bsid & 0xFu) << 11) | (0x3u << 9) | (iuc << 5) | (1u << 4) |
               (frame_number & 0xFu));
}

std::vector<cfloat> wimax_preamble_bins(wimax_preamble p)
{
    const unsigned n = wimax_preamble_symbols(p);
    std::vector<cfloat> bins(n * wimax_tx::fft_len);
    const float r2 = std::sqrt(2.0f);
    cfloat* even = bins.data() + (n == 2 ? wimax_tx::fft_len : 0);
    for (int k = -100; k <= 100; k++) {
        if (n == 2 && k % 4 == 0)
            bins[bin_of(k)] = r2 * r2 * std::conj(p_all(k));
        if (n >= 1 && k % 2 == 0)
            even[bin_of(k)] = r2 * p_all(k);
    }
    return bins;
}

unsigned wimax_pilot_w(unsigned k, bool uplink)
{
    // r1..r11 in bits 0..10.
    unsigned r = uplink ? 0b10101010101u : 0x7FFu;
    k %= wimax_pilot_period;
    for (unsigned i = 0; i < k; i++) {
        const unsigned fb = ((r >> 8) ^ (r >> 10)) & 1u;
        r = ((r << 1) | fb) & 0x7FFu;
    }
    return (r >> 10) & 1u;
}

int wimax_pilot_value(unsigned i, unsigned k, bool uplink)
{
    if (i >= 8)
        throw std::invalid_argument("i: pilot index must be 0..7, got " + std::to_string(i));
    return wimax_pilot_from_w(i, wimax_pilot_w(k, uplink), uplink) > 0 ? 1 : -1;
}

const std::vector<uint32_t>& wimax_data_bins()
{
    static const std::vector<uint32_t> bins = [] {
        std::vector<uint32_t> b;
        for (int c = -100; c <= 100; c++) {
            bool pilot = c == 0;
            for (int p : wimax_pilot_carriers)
                pilot = pilot || c == p;
            if (!pilot)
                b.push_back(bin_of(c));
        }
        return b;
    }();
    return bins;
}

void wimax_tx_params::validate() const
{
    if (max_bursts_per_batch < 1 || max_bursts_per_batch > max_requests_per_batch)
        throw std::invalid_argument("max_bursts_per_batch: must be 1..4096, got " +
                                    std::to_string(max_bursts_per_batch));
    if (max_burst_bytes < 1 || max_burst_bytes > max_length)
        throw std::invalid_argument("max_burst_bytes: must be 1..65535, got " +
                                    std::to_string(max_burst_bytes));
    if (cp_div != 4 && cp_div != 8 && cp_div != 16 && cp_div != 32)
        throw std::invalid_argument("cp_div: 1/G must be 4, 8, 16 or 32 (8.3.2.3), got " +
                                    std::to_string(cp_div));
    if (preamble != wimax_preamble::long_dl && preamble != wimax_preamble::short_ul &&
        preamble != wimax_preamble::none)
        throw std::invalid_argument("preamble: must be long_dl, short_ul or none");
    // The IFFT runs at scale / 256 or / 64: a subnormal scale would vanish there.
    if (!(std::fabs(scale) >= 1e-30f && std::fabs(scale) <= 1e30f)) {
        char got[32];
        std::snprintf(got, sizeof(got), "%g", double(scale));
        throw std::invalid_argument(std::string("scale: |scale| must be 1e-30..1e30, got ") + got);
    }
    // The longest burst is the longest at BPSK 1/2 (12-byte blocks); a batch must hold one.
    const size_t longest = (max_burst_bytes + 1 + 11) / 12;
    const size_t symbols = symbols_per_batch();
    if (symbols < longest || symbols > max_batch_symbols)
        throw std::invalid_argument(
            "max_symbols_per_batch: must be 0 (room for max_bursts_per_batch longest bursts) or " +
            std::to_string(longest) + ".." + std::to_string(max_batch_symbols) +
            " (one burst of max_burst_bytes at BPSK 1/2 at least), got " +
            std::to_string(max_symbols_per_batch));
}

size_t wimax_tx_params::symbols_per_batch() const
{
    return max_symbols_per_batch ? max_symbols_per_batch
                                 : max_bursts_per_batch * ((max_burst_bytes + 1 + 11) / 12);
}

wimax_tx::wimax_tx(const wimax_tx_params& p) : d_params(p)
{
    p.validate();
    d_max_symbols = p.symbols_per_batch();

    // The preamble with its cyclic prefixes, at the output scale, by the CPU modulator.
    const unsigned n_pre = wimax_preamble_symbols(p.preamble);
    if (n_pre > 0) {
        ofdm_params op;
        op.fft_len = int(fft_len);
        op.cp_lengths = { int(cp_len()) };
        op.shift = false;
        op.scale = p.scale / float(fft_len);
        auto ifft = make_ofdm_ifft(op, device_spec{});
        const auto bins = wimax_preamble_bins(p.preamble);
        d_preamble.resize(n_pre * symbol_samples());
        ifft->process(bins.data(), d_preamble.data(), n_pre, 0);
    }
}

size_t wimax_tx::burst_symbols(size_t len, int rate_id) const
{
    const size_t k = wimax_profile(rate_id).rs.k;
    if (len < 1 || len > d_params.max_burst_bytes)
        throw std::invalid_argument("len: burst must be 1.." +
                                    std::to_string(d_params.max_burst_bytes) +
                                    " octets (max_burst_bytes), got " + std::to_string(len));
    if (!d_params.pad && (len + 1) % k != 0)
        throw std::invalid_argument("len: the burst and its tail byte must fill whole blocks of " +
                                    std::to_string(k) + " octets (" + wimax_profile(rate_id).name +
                                    "): len + 1 a multiple of " + std::to_string(k) + ", got " +
                                    std::to_string(len) + " (or set pad)");
    return (len + 1 + k - 1) / k;
}

size_t wimax_tx::total_samples(const wimax_burst_request* bursts, size_t n) const
{
    validate(bursts, n);
    size_t s = 0;
    for (size_t i = 0; i < n; i++)
        s += burst_samples(bursts[i].len, bursts[i].rate_id);
    return s;
}

void wimax_tx::validate(const wimax_burst_request* bursts, size_t n) const
{
    if (n > 0 && bursts == nullptr)
        throw std::invalid_argument("bursts: null pointer with " + std::to_string(n) + " bursts");
    for (size_t i = 0; i < n; i++) {
        const auto& b = bursts[i];
        const std::string which = "burst " + std::to_string(i) + ": ";
        if (b.rate_id < 0 || b.rate_id >= int(wimax_profiles().size()))
            throw std::invalid_argument("rate_id: " + which + "must be 0..6, got " +
                                        std::to_string(b.rate_id));
        try {
            burst_symbols(b.len, b.rate_id);
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument("len: " + which + (std::string(e.what()).substr(5)));
        }
        if (b.data == nullptr)
            throw std::invalid_argument("data: " + which + "null pointer");
        if (b.seed < 1 || b.seed > 32767)
            throw std::invalid_argument(
                "seed: " + which + "randomizer seed must be 1..32767 (reg1..reg15, nonzero), got " +
                std::to_string(b.seed));
    }
}

std::unique_ptr<wimax_tx> make_wimax_tx(const wimax_tx_params& p, const device_spec& dev)
{
    p.validate();
    if (!dev.is_cuda())
        return make_wimax_tx_cpu(p);
#ifdef GPUOFDM_HAVE_CUDA
    return make_wimax_tx_cuda(p, dev);
#else
    throw std::runtime_error("gr-gpuofdm was built without CUDA (GPUOFDM_CUDA=OFF)");
#endif
}

} // namespace gr::gpuofdm::core
