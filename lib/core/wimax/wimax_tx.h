/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_WIMAX_TX_H
#define GPUOFDM_CORE_WIMAX_TX_H

// The IEEE 802.16-2004 WirelessMAN-OFDM (OFDM-256, clause 8.3) burst transmitter: data
// bursts in, complex baseband out (preamble + OFDM symbols), on the CPU twin (built from
// the CPU stages) or fused on a CUDA device.

#include "ofdm/constellation.h"
#include "fec/conv_code.h"
#include "runtime/burst_batch.h"
#include "runtime/device.h"
#include "fec/reed_solomon.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace gr::gpuofdm::core {

/*!
 * \brief One mandatory burst profile: 8.3.3.2 Table 215 (modulation, uncoded and coded
 * block bytes, RS code, CC rate) with its Rate_ID (8.3.3.4.3). With all 16 subchannels one
 * RS-CC block fills exactly one OFDM symbol (N_cbps = 192 N_bpsc coded bits).
 */
struct wimax_profile_info {
    int rate_id;      //!< 0..6
    const char* name; //!< "BPSK 1/2" .. "64-QAM 3/4"
    modulation mod;
    rs_profile rs;     //!< (N, K, T): K uncoded bytes per block, N after RS
    code_rate cc_rate; //!< the convolutional code's rate after puncturing
    int n_bpsc;        //!< coded bits per subcarrier
    int n_cbps;        //!< coded bits per OFDM symbol (192 n_bpsc)
};

//! The seven profiles, Rate_ID 0 (BPSK 1/2) first.
const std::vector<wimax_profile_info>& wimax_profiles();
//! The profile of \p rate_id; throws std::invalid_argument("rate_id: ...") otherwise.
const wimax_profile_info& wimax_profile(int rate_id);

/*!
 * \brief The randomizer initialisation vector of 8.3.3.1 Figure 204 (downlink bursts
 * 2..N; DIUC) / Figure 205 (uplink; UIUC), as the scrambler's seed integer (reg1 in the
 * MSB, bit 14): b1..b4 the 4 LSBs of the BSID, b5 b6 = 1 1, b7..b10 the DIUC/UIUC, b11 = 1,
 * b12..b15 the 4 LSBs of the frame number, each field MSB first.
 *
 * The 8.3.3.5.1 example starts from 000111011110001 = wimax_randomizer_seed(1, 7, 1).
 * Throws std::invalid_argument ("iuc: ...") for an IUC above 15.
 */
int wimax_randomizer_seed(unsigned bsid, unsigned iuc, unsigned frame_number);

//! The default seed 100101010000000 (8.3.3.1: the downlink frame start, burst 1).
constexpr int wimax_default_seed = 0x4A80;

//! Which preamble goes before a burst (8.3.3.6).
enum class wimax_preamble {
    long_dl,  //!< two symbols: P_4x64 (4 x 64 samples) and P_EVEN (2 x 128), each with CP
    short_ul, //!< one symbol: P_EVEN (the uplink / short preamble)
    none      //!< no preamble (the burst's OFDM symbols only)
};

//! Preamble OFDM symbols: 2, 1 or 0.
inline unsigned wimax_preamble_symbols(wimax_preamble p)
{
    return p == wimax_preamble::long_dl ? 2u : p == wimax_preamble::short_ul ? 1u : 0u;
}

/*!
 * \brief The frequency-domain preamble: wimax_preamble_symbols(p) vectors of 256 bins in
 * IFFT order (bin 0 = DC, subcarrier -k in bin 256 - k), from P_ALL(-100..100) of 8.3.3.6
 * (Equation 113 ff.): P_4x64(k) = sqrt(2) sqrt(2) conj(P_ALL(k)) for k mod 4 = 0, else 0;
 * P_EVEN(k) = sqrt(2) P_ALL(k) for k mod 2 = 0, else 0.
 */
std::vector<cfloat> wimax_preamble_bins(wimax_preamble p);

//! The 8 pilot subcarriers -88, -63, -38, -13, 13, 38, 63, 88 (8.3.2.2/8.3.2.3).
extern const int wimax_pilot_carriers[8];

/*!
 * \brief w_k of 8.3.3.4.2: the PRBS X^11 + X^9 + 1 (register r1..r11, w_k = r11, then
 * r1 <- r9 ^ r11 and shift) from 11111111111 (downlink) or 10101010101 (uplink), k
 * taken mod 2047.
 */
unsigned wimax_pilot_w(unsigned k, bool uplink);

/*!
 * \brief Pilot i (at wimax_pilot_carriers[i]) of the OFDM symbol with index k (the first
 * preamble symbol is k = 0), 8.3.3.4.2: downlink c_-88 = c_-38 = c_63 = c_88 = 1 - 2 w_k,
 * c_-63 = c_-13 = c_13 = c_38 = 1 - 2 (1 - w_k); uplink c_-88 = c_-38 = c_13 = c_38 = c_63
 * = c_88 = 1 - 2 w_k, c_-63 = c_-13 = 1 - 2 (1 - w_k).
 */
int wimax_pilot_value(unsigned i, unsigned k, bool uplink);

/*!
 * \brief One burst to transmit: \p len data octets, first octet first, each octet MSB
 * first (8.3.3.5.1 prints them so).
 *
 * The burst is randomized, a 0x00 tail byte appended, and cut into RS-CC blocks of K
 * bytes: len + 1 must be a multiple of the profile's K, unless params().pad, which fills
 * with 0xFF before randomization (8.3.3.1).
 */
struct wimax_burst_request {
    const uint8_t* data = nullptr;
    size_t len = 0;
    int rate_id = 1;               //!< 0..6 (wimax_profiles())
    int seed = wimax_default_seed; //!< randomizer initial register reg1..reg15, 1..32767
};

/*!
 * \brief Transmitter parameters. The CUDA backend allocates once for max_bursts_per_batch
 * bursts holding max_symbols_per_batch OFDM data symbols; process() cuts longer requests.
 */
struct wimax_tx_params {
    size_t max_bursts_per_batch = 64; //!< 1 .. max_requests_per_batch (4096)
    size_t max_burst_bytes = 4095;    //!< 1 .. 65535: the longest burst accepted
    //! 0: max_bursts_per_batch bursts of max_burst_bytes at BPSK 1/2; else at least one such.
    size_t max_symbols_per_batch = 0;
    int cp_div = 4; //!< 1/G: 4, 8, 16 or 32 (CP = 256 / cp_div samples)
    wimax_preamble preamble = wimax_preamble::long_dl;
    bool uplink = false; //!< pilot PRBS initialisation and polarity (8.3.3.4.2)
    bool pad = false;    //!< fill a short last block with 0xFF (else: error)
    /*!
     * Multiplies the waveform. 1: every symbol is x(t) = (1/256) sum_k X_k e^{j 2 pi k t /
     * 256} with the unit-power constellations (200/256^2 power over a data symbol);
     * 256 / sqrt(200) (about 18.1) gives unit average power over the data symbols.
     */
    float scale = 1.0f;

    /*!
     * Throws std::invalid_argument naming the first parameter out of its range (the ranges
     * above); make_wimax_tx() calls it.
     */
    void validate() const;
    //! max_symbols_per_batch resolved: the data symbols one batch holds.
    size_t symbols_per_batch() const;
};

//! Intermediate outputs of one burst, for tests against 8.3.3.5.1.
struct wimax_burst_trace {
    std::vector<uint8_t> randomized;  //!< octets after the randomizer (data and pad, no tail)
    std::vector<uint8_t> rs_encoded;  //!< octets: per block 2T parity, K data (tail last)
    std::vector<uint8_t> cc_encoded;  //!< bits (0/1) after the punctured code
    std::vector<uint8_t> interleaved; //!< bits (0/1) after the interleaver
};

/*!
 * \brief 802.16-2004 OFDM-256 burst generator.
 *
 * Each burst: its preamble (wimax_preamble_symbols() symbols, params().preamble), then one
 * OFDM symbol per RS-CC block: the 192 data subcarriers (-100..100 without DC and pilots,
 * in increasing order, first point at the lowest subcarrier), the 8 BPSK pilots of
 * wimax_pilot_value() with k = preamble symbols + symbol index, DC and the 28 + 27 guard
 * subcarriers zero; IFFT 256, cyclic prefix 256/cp_div. A burst is burst_samples() long.
 */
class wimax_tx
{
public:
    virtual ~wimax_tx() = default;

    const wimax_tx_params& params() const { return d_params; }
    virtual device_spec device() const = 0;

    //! Cyclic prefix samples (256 / cp_div).
    size_t cp_len() const { return fft_len / size_t(d_params.cp_div); }
    size_t symbol_samples() const { return fft_len + cp_len(); }
    size_t preamble_samples() const
    {
        return wimax_preamble_symbols(d_params.preamble) * symbol_samples();
    }
    //! RS-CC blocks (= OFDM data symbols) of a burst of \p len octets (validated).
    size_t burst_symbols(size_t len, int rate_id) const;
    size_t burst_samples(size_t len, int rate_id) const
    {
        return preamble_samples() + burst_symbols(len, rate_id) * symbol_samples();
    }
    size_t total_samples(const wimax_burst_request* bursts, size_t n) const;
    size_t total_samples(const std::vector<wimax_burst_request>& b) const
    {
        return total_samples(b.data(), b.size());
    }

    /*!
     * Throws std::invalid_argument, its message starting with the parameter ("len: ",
     * "data: ", "rate_id: ", "seed: ") and naming the burst: an empty, too long or (without
     * pad) partial-block burst, a null pointer, an unknown profile, a seed outside 1..32767.
     */
    void validate(const wimax_burst_request* bursts, size_t n) const;

    //! Writes the bursts back to back into \p out (total_samples()); validates first.
    virtual void process(const wimax_burst_request* bursts, size_t n, cfloat* out) = 0;
    void process(const std::vector<wimax_burst_request>& b, cfloat* out)
    {
        process(b.data(), b.size(), out);
    }

    //! The bins (256 per data symbol, IFFT order, unscaled) of every burst, preambles not
    //! included: the frequency-domain intermediate.
    virtual void process_bins(const wimax_burst_request* bursts, size_t n, cfloat* bins) = 0;
    void process_bins(const std::vector<wimax_burst_request>& b, cfloat* bins)
    {
        process_bins(b.data(), b.size(), bins);
    }

    //! The bit-stage intermediates of one burst.
    virtual void trace(const wimax_burst_request& burst, wimax_burst_trace& out) = 0;

    static constexpr size_t fft_len = 256;
    static constexpr size_t data_carriers = 192;

protected:
    //! Validates \p p (wimax_tx_params::validate()) and makes the preamble.
    explicit wimax_tx(const wimax_tx_params& p);

    wimax_tx_params d_params;
    size_t d_max_symbols;           //!< data symbols per batch
    std::vector<cfloat> d_preamble; //!< the preamble's samples, scaled, CP included
};

//! The bin (0..255) of data subcarrier d = 0..191 (-100..100 without DC and pilots).
const std::vector<uint32_t>& wimax_data_bins();

/*!
 * \brief The CPU twin (the CPU randomizer, RS encoder, convolutional encoder, interleaver,
 * mapper and OFDM modulator, burst by burst) or the CUDA backend (all bursts of a batch in
 * one device-resident chain). Throws std::invalid_argument for a bad parameter.
 */
std::unique_ptr<wimax_tx> make_wimax_tx(const wimax_tx_params& p, const device_spec& dev);

//! The backends make_wimax_tx() picks from (wimax_tx_cpu.cc, wimax_tx_cuda.cu). The CUDA
//! one is also a device_burst_batch<wimax_burst_request> (runtime/burst_batch.h).
std::unique_ptr<wimax_tx> make_wimax_tx_cpu(const wimax_tx_params& p);
std::unique_ptr<wimax_tx> make_wimax_tx_cuda(const wimax_tx_params& p, const device_spec& dev);

} // namespace gr::gpuofdm::core

#endif
