/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_WIFI_DECODE_H
#define GPUOFDM_CORE_WIFI_DECODE_H

// The 802.11a (clause 17) DATA-field decoder: equalized data carriers in, PSDUs out, on
// the CPU twin (built from the CPU stages) or the CUDA backend (the stages' device entry
// points over many frames at once).

#include "ofdm/constellation.h"
#include "runtime/device.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace gr::gpuofdm::core {

/*!
 * \brief One received DATA field to decode, with what SIGNAL said (RATE, LENGTH).
 *
 * \p symbols holds the equalized DATA symbols, 48 values a symbol, symbol after symbol;
 * value k of a symbol is data carrier k, on subcarrier M(k) of 17.3.5.9 Equation 17-23
 * (-26 .. 26 without the pilots and DC, in increasing order): the order in which wifi_tx
 * maps the points. Only the first wifi_n_sym(len, rate_mbps) symbols are read.
 */
struct wifi_rx_frame {
    const cfloat* symbols = nullptr;
    size_t n_symbols = 0; //!< symbols held at \p symbols, at least wifi_n_sym(len, rate)
    /*!
     * nullptr, or 48 channel gains |H_k|^2 >= 0 of the equalized carriers (the same for every
     * symbol of the frame): the LLRs of carrier k are scaled by gain[k] (0: no information).
     */
    const float* gain = nullptr;
    float noise_var = 1.0f; //!< noise variance per equalized point (before the gains)
    int rate_mbps = 6;      //!< SIGNAL RATE: 6, 9, 12, 18, 24, 36, 48 or 54
    size_t len = 1;         //!< SIGNAL LENGTH: PSDU octets, 1 .. 4095
};

//! What one frame decodes to.
struct wifi_rx_result {
    //! The len PSDU octets, first on air first (each octet LSB first on air, 17.3.5.2).
    std::vector<uint8_t> psdu;
    /*!
     * The scrambler's initial state recovered from the first 7 SERVICE bits (17.3.5.5), in
     * the convention of wifi_frame_request::seed (93 = 1011101 in Annex G); 0 when those
     * bits decoded as all zero (no scrambler state gives that: the frame is not valid).
     */
    unsigned seed = 0;
    //! The last 4 PSDU octets are the CRC-32 of the others (802.11-2020 9.2.4.8), and
    //! seed != 0. False when len < 4.
    bool fcs_ok = false;
};

/*!
 * \brief Decoder parameters. The CUDA backend allocates once for a batch of at most
 * max_frames_per_batch frames of at most max_symbols_per_batch DATA symbols in all;
 * process() cuts longer requests into such batches.
 */
struct wifi_decode_params {
    size_t max_frames_per_batch = 64; //!< 1 .. 65535
    //! 1366 (one 4095-octet frame at 6 Mb/s) .. 2^20
    size_t max_symbols_per_batch = 16384;

    //! The ranges above; throws std::invalid_argument("name: range, got value").
    void validate() const;
};

/*!
 * \brief 802.11a DATA-field decoder (17.3.5): per frame, max-log soft demapping
 * (17.3.5.7, demapper.h), deinterleaving (17.3.5.6), depuncturing (17.3.5.6), Viterbi
 * decoding of the terminated code (17.3.5.5: the 6 tail bits after the PSDU are zeroed
 * after scrambling, so the encoder is in state 0 after them; the pad bits that follow are
 * not decoded), descrambling from the seed that the first 7 SERVICE bits give (17.3.5.4),
 * the PSDU octets LSB first, and the FCS check.
 *
 * The Viterbi decoder runs on the first 16 + 8 len + 6 trellis steps of the frame as one
 * terminated frame (viterbi_decoder::decode_frames with the overlaps of
 * viterbi_params::for_protocol("80211a", rate)). Both backends give the same octets, seeds
 * and flags: the CUDA stages are bit-exact with their CPU twins.
 */
class wifi_decoder
{
public:
    virtual ~wifi_decoder() = default;

    const wifi_decode_params& params() const { return d_params; }
    virtual device_spec device() const = 0;

    /*!
     * Throws std::invalid_argument, its message starting with the parameter's name
     * ("rate_mbps: ", "len: ", "n_symbols: ", "symbols: ", "noise_var: ") and naming the
     * frame: an unknown rate, a length of 0 or above 4095, fewer symbols than the length
     * needs, a null pointer, a noise variance that is not finite and > 0.
     */
    void validate(const wifi_rx_frame* frames, size_t n_frames) const;

    //! Decodes n_frames frames into out[0 .. n_frames); validates every frame first.
    void process(const wifi_rx_frame* frames, size_t n_frames, wifi_rx_result* out);
    std::vector<wifi_rx_result> process(const std::vector<wifi_rx_frame>& frames)
    {
        std::vector<wifi_rx_result> out(frames.size());
        process(frames.data(), frames.size(), out.data());
        return out;
    }

    /*!
     * \brief As process(), but every frame's symbols and gains are device memory of this
     * decoder's GPU (a fused receiver's equalizer output): all frames' symbols in one
     * allocation, all gains in another, so only the decoded bits cross PCIe. The work is
     * queued on the decoder's stream after what the caller queued there (a chain whose
     * stages share one cuda_context: its equalizer need not be waited for); it returns
     * once the decoded bits are back. The CUDA backend only; the CPU twin throws
     * std::logic_error.
     */
    void process_device(const wifi_rx_frame* frames, size_t n_frames, wifi_rx_result* out);

    //! Trellis steps decoded for a PSDU of \p len octets: SERVICE, PSDU, tail.
    static size_t decoded_steps(size_t len) { return 16 + 8 * len + 6; }

    /*!
     * \brief The last step, shared by the backends: descrambles the decoded_steps(len) bits
     * (one per byte, first in time first), packs the PSDU and checks the FCS.
     */
    static void finish_frame(const uint8_t* bits, size_t len, wifi_rx_result& r);

protected:
    //! Checks every parameter; throws std::invalid_argument naming the bad one.
    explicit wifi_decoder(const wifi_decode_params& p);
    //! Backend: a batch of validated frames (at most max_frames_per_batch frames of at most
    //! max_symbols_per_batch symbols).
    virtual void run(const wifi_rx_frame* frames, size_t n_frames, wifi_rx_result* out) = 0;
    //! Backend: as run(), the symbols and gains on the device (see process_device()).
    virtual void run_device(const wifi_rx_frame* frames, size_t n_frames, wifi_rx_result* out);

    wifi_decode_params d_params;

private:
    void process_batches(const wifi_rx_frame* frames,
                         size_t n_frames,
                         wifi_rx_result* out,
                         bool on_device);
};

//! The CPU twin or the CUDA backend ("cpu" / "cuda:N" resolved; on \p ctx, the chain's
//! context, when given); throws std::invalid_argument for a bad parameter.
std::unique_ptr<wifi_decoder> make_wifi_decoder(const wifi_decode_params& p,
                                                const device_spec& dev,
                                                const cuda_context_ptr& ctx = nullptr);

//! CPU twin (wifi_decode_cpu.cc).
std::unique_ptr<wifi_decoder> make_wifi_decoder_cpu(const wifi_decode_params& p);

#ifdef GPUOFDM_HAVE_CUDA
//! CUDA backend (wifi_decode_cuda.cu).
std::unique_ptr<wifi_decoder> make_wifi_decoder_cuda(const wifi_decode_params& p,
                                                     const device_spec& dev,
                                                     const cuda_context_ptr& ctx = nullptr);
#endif

} // namespace gr::gpuofdm::core

#endif
