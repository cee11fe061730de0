/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_MAP_LAUNCH_CUH
#define GPUOFDM_CORE_MAP_LAUNCH_CUH

// The launches of the mapper's and the demapper's kernels (mapper_cuda.cu,
// demapper_cuda.cu), which the transmitters and receivers also call on their own device
// buffers: each takes device pointers and a stream, enqueues its kernel there and returns
// (no copy, no sync). A "runs" form processes many independent runs (the frames of a fused
// transmitter or receiver, each with its own start state, code or table) in one launch;
// the single-run form is what the stage classes call. Offsets and counts are in items (points or values).

#include "ofdm/constellation.h"
#include "runtime/bit_stage_cuda.h"

namespace gr::gpuofdm::core {

/*!
 * \brief One run of launch_map(): n_points points of \p mod from the bits at
 * bits[in_offset] (bits_per_symbol(mod) per point, labelled per standard). With group = 0 point i goes to
 * out[out_offset + i]; else to out[out_offset + (i / group) out_stride + place[i % group]]
 * (placing each OFDM symbol's data points on their subcarriers).
 */
struct map_run {
    unsigned long long in_offset;
    unsigned long long out_offset;
    unsigned long long n_points;
    modulation mod;
    unsigned int group;
    unsigned int out_stride;
    //! Whose labels (constellation.h); 802.11a when left out.
    phy_standard standard = phy_standard::ieee80211a;
};

//! Maps every run of the device array \p runs (max_n: the most points of a run);
//! \p place: a device table of the largest group (may be null when every group is 0).
void launch_map(const uint8_t* bits,
                cfloat* out,
                const uint32_t* place,
                const map_run* runs,
                size_t n_runs,
                size_t max_n,
                cudaStream_t stream);
//! One run, passed by value.
void launch_map(const uint8_t* bits,
                cfloat* out,
                const uint32_t* place,
                const map_run& run,
                cudaStream_t stream);

/*!
 * \brief One run of launch_demap(): n_points points of \p mod from in[in_offset] to
 * bits_per_symbol(mod) values a point at out[out_offset], with weight w (1 / noise_var)
 * times, when gain_period > 0, gain[gain_offset + j % gain_period] for point j (the
 * per-carrier gains of OFDM symbols), as demapper::process() computes it.
 */
struct demap_run {
    unsigned long long in_offset;  //!< first point in in
    unsigned long long out_offset; //!< first value in out
    unsigned long long n_points;
    unsigned long long gain_offset; //!< first gain in gain
    unsigned int gain_period;       //!< 0: no gain
    modulation mod;
    float w;
};

//! Demaps every run of the device array \p runs (max_n: the most points of a run);
//! \p gain may be null when no run has a gain.
void launch_demap(const cfloat* in,
                  const float* gain,
                  float* out,
                  const demap_run* runs,
                  size_t n_runs,
                  size_t max_n,
                  bool hard,
                  cudaStream_t stream);

} // namespace gr::gpuofdm::core

#endif
