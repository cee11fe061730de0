/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_OFDM_FFT_H
#define INCLUDED_GPUOFDM_OFDM_FFT_H

#include <gnuradio/block.h>
#include <gnuradio/gpuofdm/api.h>

#include <string>
#include <vector>

namespace gr {
namespace gpuofdm {

/*!
 * \brief OFDM demodulator: removes each symbol's cyclic prefix and takes its FFT, on the
 * GPU (batched cuFFT) or on the CPU twin (FFTW).
 * \ingroup gpuofdm
 *
 * \details
 * Input: complex samples, symbol after symbol, each fft_len samples preceded by its CP.
 * Output: one vector of fft_len bins per symbol,
 * \f[ Y[k] = \mathrm{scale} \sum_{t=0}^{N-1} x[t] e^{-j 2\pi k t / N}, \f]
 * fftshifted when \p shift is true (DC at bin N/2, as fft.fft_vcc with shift=True).
 *
 * The CP lengths repeat: symbol i of the stream has cp_lengths[i % len(cp_lengths)]
 * samples of prefix (802.11a: [16]; 802.16 OFDM-256 1/4: [64]; LTE normal CP at 2048:
 * [160, 144, 144, 144, 144, 144, 144]). A stream tag on any sample of a symbol moves to
 * that symbol's output vector.
 *
 * On the GPU the block transforms up to \p batch symbols per launch; it runs fastest
 * when its input buffer holds a whole batch, so give the block upstream a
 * min_output_buffer of batch * (fft_len + cp) samples. Complete symbols are never held
 * back: a short last batch at the end of a stream is processed.
 */
class GPUOFDM_API ofdm_fft : virtual public gr::block
{
public:
    typedef std::shared_ptr<ofdm_fft> sptr;

    /*!
     * \param fft_len FFT size, 1..2^20 (any size cuFFT and FFTW take).
     * \param cp_lengths CP length of each symbol, used round robin; each 0..fft_len.
     * \param shift true: DC in the middle of the output vector.
     * \param scale multiplies every output bin (finite, nonzero).
     * \param batch symbols per GPU launch; 0 picks max(1, 2^18 / fft_len).
     * \param device "auto", "cpu", "cuda" or "cuda:N".
     * \throws std::invalid_argument (Python ValueError) naming a bad parameter;
     *         std::runtime_error when "cuda" is asked for and no GPU is usable.
     */
    static sptr make(int fft_len,
                     const std::vector<int>& cp_lengths,
                     bool shift = true,
                     float scale = 1.0f,
                     int batch = 0,
                     const std::string& device = "auto");

    //! The device the block runs on: "cpu" or "cuda:N".
    virtual std::string device() const = 0;
    //! Symbols per GPU launch.
    virtual int batch() const = 0;
};

} // namespace gpuofdm
} // namespace gr

#endif /* INCLUDED_GPUOFDM_OFDM_FFT_H */
