/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_WIDEBAND_CHANNELIZER_COMMON_H
#define GPUOFDM_CORE_WIDEBAND_CHANNELIZER_COMMON_H

// The per-bin and per-output arithmetic of the wideband channelizer, written once for the
// CPU twin and the CUDA kernels.

#include "runtime/host_device.h"
#include "sync/wideband_channelizer.h"

#include <cmath>
#include <complex>

namespace gr::gpuofdm::core {

struct channel_geometry {
    long long fft_in, fft_out, hop_in, overlap_in;

    static channel_geometry of(const channelizer_plan& p)
    {
        return { static_cast<long long>(p.fft_in), static_cast<long long>(p.fft_out),
                 static_cast<long long>(p.hop_in), static_cast<long long>(p.overlap_in) };
    }

    //! The capture bin that output bin b (FFT order) of a channel centred on \p center reads.
    GPUOFDM_HD size_t input_bin(int center, size_t b) const
    {
        const long long sb = static_cast<long long>(b) < fft_out / 2
                                 ? static_cast<long long>(b)
                                 : static_cast<long long>(b) - fft_out;
        return static_cast<size_t>((center + sb + fft_in) % fft_in);
    }

    /*!
     * \brief Output \p v of a block's inverse FFT as a stream sample: scaled by 1 / L, the
     * phase the block's FFT measured from its start (block x hop - overlap / 2) turned back
     * to the stream's, and the offset left over from the nearest bin removed.
     */
    template <typename C>
    GPUOFDM_HD C output(C v,
                        int center,
                        size_t block,
                        double residual_hz,
                        size_t out_index,
                        double output_rate) const
    {
        const long long start = static_cast<long long>(block) * hop_in - overlap_in / 2;
        const double block_cycles =
            -static_cast<double>((center * start) % fft_in) / static_cast<double>(fft_in);
        const double residual_cycles = -residual_hz * static_cast<double>(out_index) / output_rate;
        double cycles = block_cycles + residual_cycles;
        cycles -= floor(cycles);
        const double scale = 1.0 / static_cast<double>(fft_in);
        const double c = cos(2 * M_PI * cycles) * scale, s = sin(2 * M_PI * cycles) * scale;
        const double re = static_cast<double>(v.real()) * c - static_cast<double>(v.imag()) * s;
        const double im = static_cast<double>(v.real()) * s + static_cast<double>(v.imag()) * c;
        return C(static_cast<float>(re), static_cast<float>(im));
    }
};

} // namespace gr::gpuofdm::core

#endif // GPUOFDM_CORE_WIDEBAND_CHANNELIZER_COMMON_H
