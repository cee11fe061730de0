/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_BIT_LAUNCH_CUH
#define GPUOFDM_CORE_BIT_LAUNCH_CUH

// The launches of the bit stages' kernels (scrambler_cuda.cu, conv_encoder_cuda.cu,
// interleaver_cuda.cu), which the transmitters and receivers also call on their own device
// buffers: each takes device pointers and a stream, enqueues its kernel there and returns
// (no copy, no sync). A "runs" form processes many independent runs (the frames of a fused
// transmitter or receiver, each with its own start state, code or table) in one launch;
// the single-run form is what the stage classes call. Offsets and counts are in items (bits or values).

#include "fec/conv_code.h"
#include "runtime/bit_stage_cuda.h"

namespace gr::gpuofdm::core {

/*!
 * \brief One run of launch_scramble(): out[offset + i] = in[offset + i] ^ seq[(start + i)
 * mod period], then run bits zero_from .. zero_from + n_zero - 1 set to 0 (the 802.11a
 * tail bits, zeroed after scrambling, 17.3.5.2; n_zero = 0 for none).
 */
struct scramble_run {
    unsigned long long offset; //!< first bit of the run in in and out
    unsigned long long n;      //!< bits in the run
    unsigned int start;        //!< period-table index of the run's first scrambling bit
    unsigned int zero_from;
    unsigned int n_zero;
};

//! Scrambles every run of the device array \p runs (max_n: the longest run); \p seq is
//! the LFSR's period table (lfsr_period_table::bits()) on the device. in may equal out.
void launch_scramble(const uint8_t* in,
                     uint8_t* out,
                     const uint8_t* seq,
                     unsigned period,
                     const scramble_run* runs,
                     size_t n_runs,
                     size_t max_n,
                     cudaStream_t stream);
//! One run, passed by value.
void launch_scramble(const uint8_t* in,
                     uint8_t* out,
                     const uint8_t* seq,
                     unsigned period,
                     const scramble_run& run,
                     cudaStream_t stream);

/*!
 * \brief One run of launch_conv_encode(): n input bits from in[in_offset] encoded with
 * \p code from the state (reg, phase) into out[out_offset ...], code.output_offset(phase,
 * n) bits.
 */
struct conv_run {
    unsigned long long in_offset;
    unsigned long long out_offset;
    unsigned long long n;
    conv_code code;
    unsigned int reg;   //!< the six inputs before the run, newest in bit 5
    unsigned int phase; //!< puncturing phase of the run's first bit
};

//! Encodes every run of the device array \p runs (max_n: the longest run, in input bits).
void launch_conv_encode(const uint8_t* in,
                        uint8_t* out,
                        const conv_run* runs,
                        size_t n_runs,
                        size_t max_n,
                        cudaStream_t stream);
//! One run, passed by value.
void launch_conv_encode(const uint8_t* in, uint8_t* out, const conv_run& run, cudaStream_t stream);

/*!
 * \brief One run of launch_permute(): n values (whole symbols of n_cbps) from
 * in[in_offset] to out[out_offset] through the table perm[perm_offset .. + n_cbps)
 * (interleaver::permutation()): out[s N + perm[k]] = in[s N + k], or the inverse.
 */
struct permute_run {
    unsigned long long in_offset;
    unsigned long long out_offset;
    unsigned long long n;
    unsigned int perm_offset;
    unsigned int n_cbps;
};

//! Interleaves (inverse = false) or deinterleaves every run of the device array \p runs.
void launch_permute(const uint8_t* in,
                    uint8_t* out,
                    const uint32_t* perm,
                    const permute_run* runs,
                    size_t n_runs,
                    size_t max_n,
                    bool inverse,
                    cudaStream_t stream);
void launch_permute(const float* in,
                    float* out,
                    const uint32_t* perm,
                    const permute_run* runs,
                    size_t n_runs,
                    size_t max_n,
                    bool inverse,
                    cudaStream_t stream);
//! One run, passed by value.
void launch_permute(const uint8_t* in,
                    uint8_t* out,
                    const uint32_t* perm,
                    const permute_run& run,
                    bool inverse,
                    cudaStream_t stream);
void launch_permute(const float* in,
                    float* out,
                    const uint32_t* perm,
                    const permute_run& run,
                    bool inverse,
                    cudaStream_t stream);


} // namespace gr::gpuofdm::core

#endif
