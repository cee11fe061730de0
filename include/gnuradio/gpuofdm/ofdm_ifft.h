/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_OFDM_IFFT_H
#define INCLUDED_GPUOFDM_OFDM_IFFT_H

#include <gnuradio/block.h>
#include <gnuradio/gpuofdm/api.h>

#include <string>
#include <vector>

namespace gr {
namespace gpuofdm {

/*!
 * \brief OFDM modulator: inverse FFT of each vector of bins and a cyclic prefix in front,
 * on the GPU (batched cuFFT) or on the CPU twin (FFTW).
 * \ingroup gpuofdm
 *
 * \details
 * Input: one vector of fft_len frequency-domain items per symbol (DC at bin N/2 when
 * \p shift is true, as fft.fft_vcc with shift=True takes them).
 * Output: complex samples, each symbol
 * \f[ x[t] = \mathrm{scale} \sum_{k=0}^{N-1} X[k] e^{+j 2\pi k t / N}, \f]
 * (not divided by N, as fft_vcc; use scale = 1/sqrt(N) for unit power) preceded by its
 * last cp samples, as digital.ofdm_cyclic_prefixer without rolloff does.
 *
 * The CP lengths repeat: symbol i of the stream has cp_lengths[i % len(cp_lengths)]
 * samples of prefix. A stream tag on an input vector moves to the first sample (the
 * start of the CP) of that symbol.
 *
 * On the GPU the block transforms up to \p batch symbols per launch; it runs fastest
 * when its input buffer holds a whole batch, so give the block upstream a
 * min_output_buffer of batch vectors.
 */
class GPUOFDM_API ofdm_ifft : virtual public gr::block
{
public:
    typedef std::shared_ptr<ofdm_ifft> sptr;

    /*!
     * \param fft_len FFT size, 1..2^20 (any size cuFFT and FFTW take).
     * \param cp_lengths CP length of each symbol, used round robin; each 0..fft_len.
     * \param shift true: the input vectors have DC in the middle.
     * \param scale multiplies every output sample (finite, nonzero).
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

#endif /* INCLUDED_GPUOFDM_OFDM_IFFT_H */
