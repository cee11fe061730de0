/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_OFDM_STAGE_H
#define GPUOFDM_CORE_OFDM_STAGE_H

#include "runtime/device.h"
#include "ofdm/ofdm_layout.h"

#include <memory>

namespace gr::gpuofdm::core {

/*!
 * \brief An OFDM modulation or demodulation stage over a batch of symbols.
 *
 * ofdm_fft (receive side): in holds layout().samples(first, n) time samples, CP included;
 * out gets n vectors of fft_len bins, out[k] = scale * sum_t x[t] e^{-j2 pi k t / N}
 * (fftshifted when shift is set, so DC sits at bin N/2).
 *
 * ofdm_ifft (transmit side): in holds n vectors of fft_len bins (DC at N/2 when shift
 * is set); out gets the samples, each symbol x[t] = scale * sum_k X[k] e^{+j2 pi k t / N}
 * (not divided by N, as fft_vcc) preceded by its cyclic prefix.
 *
 * \p first is the index of the first symbol in the stream; it picks the CP lengths.
 * process() takes any n and splits it into launches of layout().batch() symbols.
 */
class ofdm_stage
{
public:
    virtual ~ofdm_stage() = default;

    const ofdm_layout& layout() const { return d_layout; }
    virtual device_spec device() const = 0;
    virtual void process(const cfloat* in, cfloat* out, size_t n_symbols, uint64_t first) = 0;

    /*!
     * \brief Lets the GPU backend DMA straight to and from a host range (a GNU Radio
     * buffer) by page-locking it, instead of staging through its own pinned buffers.
     *
     * Only speed depends on it: process() checks each call whether its pointers lie in
     * a pinned range and stages otherwise. Returns false where there is nothing to gain
     * (the CPU twin) or the driver refuses the range.
     */
    virtual bool pin_host_range(const void* /*p*/, size_t /*bytes*/) { return false; }
    //! Undoes every pin_host_range() of this stage (before the memory goes away).
    virtual void unpin_host_ranges() {}

protected:
    explicit ofdm_stage(const ofdm_params& p) : d_layout(p) {}
    ofdm_layout d_layout;
};

//! CP removal and forward FFT, on the CPU twin or a CUDA device.
std::unique_ptr<ofdm_stage> make_ofdm_fft(const ofdm_params& p, const device_spec& dev);
//! Inverse FFT and CP insertion, on the CPU twin or a CUDA device.
std::unique_ptr<ofdm_stage> make_ofdm_ifft(const ofdm_params& p, const device_spec& dev);

//! The backends the factories pick (ofdm_fft_cpu.cc, ofdm_fft_cuda.cu, ...); callers use
//! make_ofdm_fft() / make_ofdm_ifft(). The CUDA classes derive from ofdm_cuda_stage
//! (ofdm_stage_cuda.h), whose launch() works on device-resident data.
std::unique_ptr<ofdm_stage> make_ofdm_fft_cpu(const ofdm_params& p);
std::unique_ptr<ofdm_stage> make_ofdm_ifft_cpu(const ofdm_params& p);
#ifdef GPUOFDM_HAVE_CUDA
std::unique_ptr<ofdm_stage> make_ofdm_fft_cuda(const ofdm_params& p, const device_spec& dev);
std::unique_ptr<ofdm_stage> make_ofdm_ifft_cuda(const ofdm_params& p, const device_spec& dev);
#endif

//! Index of the bin that holds frequency bin k of the unshifted transform when shifted.
inline size_t shifted_bin(size_t k, size_t n) { return (k + n / 2) % n; }

} // namespace gr::gpuofdm::core

#endif
