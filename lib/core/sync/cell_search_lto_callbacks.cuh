/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_CELL_SEARCH_LTO_CALLBACKS_CUH
#define GPUOFDM_CORE_CELL_SEARCH_LTO_CALLBACKS_CUH

// The PSS correlation's inverse FFTs with their ends fused in (cuFFT LTO callbacks): the
// load forms the product of a block spectrum and a replica spectrum as the FFT reads it,
// the store turns each kept output into its PSS metric (cell_search_common.h), so the
// products and the complex correlations never pass through device memory. lib/core's
// CMakeLists compiles this file with GPUOFDM_LTO_CALLBACKS to LTO IR, which
// cell_search_cuda.cu hands to cufftXtSetJITCallback; the CUDA backend includes it for
// the layout below.
//
// The FFTs of one call run in pieces of a fixed batch over a scratch buffer the callbacks
// never touch: element `offset` of a piece is element first + offset of the whole,
// ((channel * blocks + block) * replicas + replica) * block_size + t.

#include <cuda_runtime.h>

namespace gr::gpuofdm::core {

struct pss_callback_info {
    const float2* spectra;         //!< block spectra, [channel * blocks + block][t]
    const float2* replica_spectra; //!< conj(replica spectrum), [replica][t]
    const double* energy;          //!< window energy, [channel][timing]
    const double* replica_energy;  //!< [replica]
    float* metric;                 //!< [(channel - channel_lo) * replicas + replica][timing]
    unsigned long long first;      //!< the piece's first element in the whole
    unsigned long long block, hop, blocks, replicas, count, fft;
    unsigned long long channel_lo, channel_hi; //!< the channels the metric buffer holds
};

} // namespace gr::gpuofdm::core

#ifdef GPUOFDM_LTO_CALLBACKS

#include "sync/cell_search_common.h"

#include <cufftXt.h>

using gr::gpuofdm::core::pss_callback_info;

extern "C" __device__ cufftComplex cell_search_product_load(void*,
                                                            unsigned long long offset,
                                                            void* caller_info,
                                                            void*)
{
    const auto& p = *static_cast<const pss_callback_info*>(caller_info);
    const unsigned long long g = p.first + offset;
    const unsigned long long t = g % p.block, tr = g / p.block;
    const unsigned long long r = tr % p.replicas, cb = tr / p.replicas;
    if (cb / p.blocks >= p.channel_hi) {
        return make_cuComplex(0.0f, 0.0f); // past the call's last block
    }
    const float2 a = p.spectra[cb * p.block + t];
    const float2 b = p.replica_spectra[r * p.block + t];
    return make_cuComplex(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

extern "C" __device__ void cell_search_metric_store(
    void*, unsigned long long offset, cufftComplex v, void* caller_info, void*)
{
    const auto& p = *static_cast<const pss_callback_info*>(caller_info);
    const unsigned long long g = p.first + offset;
    const unsigned long long t = g % p.block, tr = g / p.block;
    if (t >= p.hop) {
        return; // overlap-save: the wrapped part
    }
    const unsigned long long r = tr % p.replicas, cb = tr / p.replicas;
    const unsigned long long c = cb / p.blocks, u = (cb % p.blocks) * p.hop + t;
    if (u >= p.count || c < p.channel_lo || c >= p.channel_hi) {
        return;
    }
    p.metric[((c - p.channel_lo) * p.replicas + r) * p.count + u] = gr::gpuofdm::core::pss_metric(
        v.x, v.y, p.block, p.fft, p.replica_energy[r], p.energy[c * p.count + u]);
}

#endif // GPUOFDM_LTO_CALLBACKS

#endif // GPUOFDM_CORE_CELL_SEARCH_LTO_CALLBACKS_CUH
