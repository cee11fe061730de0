/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_WIFI_TX_H
#define GPUOFDM_CORE_WIFI_TX_H

// The IEEE 802.11a-1999 (clause 17) transmitter: PSDUs in, complex baseband PPDUs at
// 20 Msps out, on the CPU twin (built from the CPU stages) or fused on a CUDA device.

#include "ofdm/constellation.h"
#include "fec/conv_code.h"
#include "runtime/burst_batch.h"
#include "runtime/device.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace gr::gpuofdm::core {

/*!
 * \brief One row of 802.11a Table 17-3 with its SIGNAL RATE bits (Table 17-5).
 */
struct wifi_rate_info {
    int mbps;           //!< 6, 9, 12, 18, 24, 36, 48 or 54
    modulation mod;     //!< BPSK, QPSK, 16-QAM, 64-QAM
    code_rate rate;     //!< 1/2, 2/3 or 3/4
    int n_bpsc;         //!< coded bits per subcarrier
    int n_cbps;         //!< coded bits per OFDM symbol
    int n_dbps;         //!< data bits per OFDM symbol
    unsigned rate_bits; //!< R1..R4 as printed (R1 in bit 3): 36 Mb/s is 1011
};

//! The eight rates of Table 17-3, 6 Mb/s first.
const std::vector<wifi_rate_info>& wifi_rates();
//! The row of \p mbps; throws std::invalid_argument("rate_mbps: ...") for another value.
const wifi_rate_info& wifi_rate(int mbps);
//! N_SYM = ceil((16 + 8 LENGTH + 6) / N_DBPS) (17.3.5.3, Equation 17-11).
size_t wifi_n_sym(size_t psdu_len, int rate_mbps);

//! The 64 bins (IFFT order: DC first, subcarrier -k in bin 64-k) of the short training
//! symbol, sqrt(13/6) S_-26..26 (17.3.3, Equation 17-4; Annex G Table G.2).
std::vector<cfloat> wifi_short_training_bins();
//! The 64 bins of the long training symbol L_-26..26 (17.3.3, Equation 17-6; Table G.5).
std::vector<cfloat> wifi_long_training_bins();
//! Pilot polarity p_n (+1/-1) of 17.3.5.9 Equation 17-25, n taken mod 127.
int wifi_pilot_polarity(unsigned n);

/*!
 * \brief One frame to transmit.
 *
 * \p psdu holds the PSDU as the MAC hands it over, FCS included (this stage adds none),
 * first octet first; each octet goes on air LSB first (17.3.5.2).
 */
struct wifi_frame_request {
    const uint8_t* psdu = nullptr;
    size_t len = 0;    //!< PSDU octets, 1 .. params().max_psdu_bytes (at most 4095)
    int rate_mbps = 6; //!< 6, 9, 12, 18, 24, 36, 48 or 54
    int seed = 93;     //!< scrambler initial state x7..x1, 1 .. 127 (93 = 1011101, Annex G)
};

/*!
 * \brief Transmitter parameters.
 *
 * The CUDA backend allocates once for a batch of max_frames_per_batch frames holding
 * max_symbols_per_batch OFDM symbols (SIGNAL and DATA, preambles not counted); process()
 * cuts longer requests into such batches, so latency grows with the batch.
 */
struct wifi_tx_params {
    size_t max_frames_per_batch = 64; //!< 1 .. max_requests_per_batch (4096)
    size_t max_psdu_bytes = 4095;     //!< 1 .. 4095: the longest PSDU accepted
    //! 0: max_frames_per_batch frames of max_psdu_bytes at 6 Mb/s (always a full batch);
    //! else at least the symbols of one such frame, 1 + wifi_n_sym(max_psdu_bytes, 6).
    size_t max_symbols_per_batch = 0;
    //! Annex G time windowing: the first sample of every field is the half-and-half overlap
    //! with the previous field's cyclic continuation, and the frame ends with one more
    //! sample, the last symbol's half continuation (G.24's 881st sample).
    bool window = true;
    /*!
     * Multiplies the waveform. 1 gives the level of the Annex G tables: every 64-point
     * OFDM symbol is x(t) = (1/64) sum_k X_k e^{j 2 pi k t / 64} with the unit-power
     * constellations of 17.3.5.7 (about 0.113 RMS over a DATA symbol, 52/64^2 power).
     * 64 / sqrt(52) (about 8.875) gives unit average power over SIGNAL and DATA.
     */
    float scale = 1.0f;

    /*!
     * Throws std::invalid_argument naming the first parameter out of its range (the ranges
     * above); make_wifi_tx() calls it.
     */
    void validate() const;
    //! max_symbols_per_batch resolved: the symbols one batch holds.
    size_t symbols_per_batch() const;
};

/*!
 * \brief 802.11a PPDU generator (17.3.2, Figure 17-1; Annex G).
 *
 * Each frame comes out as its PLCP preamble (10 short training periods, 160 samples; GI2
 * and two long training symbols, 160), the SIGNAL symbol (RATE, reserved, LENGTH LSB
 * first, even parity, 6 tail bits; BPSK rate 1/2, not scrambled) and N_SYM DATA symbols
 * (SERVICE 16 zero bits, the PSDU, 6 tail bits and pad bits to N_DBPS; scrambled with the
 * frame's seed, the tail bits zeroed after scrambling, encoded, punctured, interleaved,
 * mapped). Every OFDM symbol carries 48 data subcarriers and pilots (1, 1, 1, -1) p_n at
 * -21, -7, 7, 21, with n = 0 for SIGNAL and n = k + 1 for DATA symbol k; DC and the guards
 * are zero; 16 samples of cyclic prefix; 80 samples per symbol.
 *
 * A frame is frame_samples() = 320 + 80 (1 + N_SYM) samples, plus one when windowing. The
 * Annex G packet (100 octets, 36 Mb/s, seed 93) is the 881 samples of Table G.24.
 */
class wifi_tx
{
public:
    virtual ~wifi_tx() = default;

    const wifi_tx_params& params() const { return d_params; }
    virtual device_spec device() const = 0;

    //! Samples of one frame of \p psdu_len octets at \p rate_mbps (validated).
    size_t frame_samples(size_t psdu_len, int rate_mbps) const;
    //! OFDM symbols after the preamble: 1 (SIGNAL) + N_SYM.
    static size_t frame_symbols(size_t psdu_len, int rate_mbps)
    {
        return 1 + wifi_n_sym(psdu_len, rate_mbps);
    }
    //! Sum of frame_samples() over \p frames: what process() writes.
    size_t total_samples(const wifi_frame_request* frames, size_t n_frames) const;
    size_t total_samples(const std::vector<wifi_frame_request>& frames) const
    {
        return total_samples(frames.data(), frames.size());
    }

    /*!
     * Throws std::invalid_argument, its message starting with the parameter's name
     * ("len: ", "psdu: ", "rate_mbps: ", "seed: ") and naming the frame, when a request
     * is bad: an empty or too long PSDU, a null pointer, an unknown rate, a seed of 0 or
     * above 127.
     */
    void validate(const wifi_frame_request* frames, size_t n_frames) const;

    /*!
     * Writes the frames back to back into \p out (total_samples() samples). Every request
     * is validated before anything is written.
     */
    virtual void process(const wifi_frame_request* frames, size_t n_frames, cfloat* out) = 0;
    void process(const std::vector<wifi_frame_request>& frames, cfloat* out)
    {
        process(frames.data(), frames.size(), out);
    }

    /*!
     * The frequency-domain intermediate: for every frame, frame_symbols() vectors of 64
     * bins (SIGNAL, then the DATA symbols) in IFFT order (bin 0 = DC, subcarrier -k in
     * bin 64 - k), before scaling, as Tables G.11 and G.22 print them.
     */
    virtual void process_bins(const wifi_frame_request* frames, size_t n_frames, cfloat* bins) = 0;
    void process_bins(const std::vector<wifi_frame_request>& frames, cfloat* bins)
    {
        process_bins(frames.data(), frames.size(), bins);
    }

    //! Preamble samples (short + long training) before SIGNAL.
    static constexpr size_t preamble_samples = 320;
    //! Samples per OFDM symbol (16 CP + 64).
    static constexpr size_t symbol_samples = 80;
    static constexpr size_t fft_len = 64;

protected:
    //! Validates \p p (wifi_tx_params::validate()) and makes the preamble.
    explicit wifi_tx(const wifi_tx_params& p);

    wifi_tx_params d_params;
    size_t d_max_symbols; //!< symbols per batch (max_symbols_per_batch resolved)
    //! The windowed (or plain) preamble at d_params.scale, preamble_samples values, and at
    //! [preamble_samples] the long training field's cyclic continuation (times the
    //! scale), the half of it that the SIGNAL symbol's first sample adds when windowing.
    std::vector<cfloat> d_preamble;
};

/*!
 * \brief The CPU twin (the CPU scrambler, encoder, interleaver, mapper and OFDM modulator,
 * frame by frame) or the CUDA backend (all frames of a batch in one device-resident
 * chain). Throws std::invalid_argument for a bad parameter.
 */
std::unique_ptr<wifi_tx> make_wifi_tx(const wifi_tx_params& p, const device_spec& dev);

//! The backends make_wifi_tx() picks from (wifi_tx_cpu.cc, wifi_tx_cuda.cu). The CUDA one
//! is also a device_burst_batch<wifi_frame_request> (runtime/burst_batch.h).
std::unique_ptr<wifi_tx> make_wifi_tx_cpu(const wifi_tx_params& p);
std::unique_ptr<wifi_tx> make_wifi_tx_cuda(const wifi_tx_params& p, const device_spec& dev);

} // namespace gr::gpuofdm::core

#endif
