/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_VITERBI_COMMON_H
#define GPUOFDM_CORE_VITERBI_COMMON_H

// The arithmetic of the chunked Viterbi decoder, written once and called by both the CPU
// twin (g++) and the CUDA kernel (nvcc), so the two are bit-exact: same float metrics, same
// order of additions, same tie-breaking, same renormalisation, same traceback.
//
// Trellis (K = 7, 64 states): the state is the last six input bits, the newest in bit 5.
// The 7-bit encoder window of a step is (input << 6) | state, so tap d of a generator
// (delay d = 0..6) is bit 6 - d of its octal value, as drawn in IEEE 802.11a-1999
// Fig. 114 and 802.16-2004 Fig. 201. New state s has input bit s >> 5 and the two
// predecessors ((s << 1) & 63) | d, d = 0, 1; the decision bit is d.

#include <cstddef>
#include <cstdint>

#include "runtime/host_device.h"

namespace gr::gpuofdm::core {

constexpr unsigned viterbi_states = 64;
//! Start metric of the states a known start (state 0) rules out; far below any path.
constexpr float viterbi_unreached = -1.0e30f;

/*!
 * \brief One decode job: n_segments independent trellis segments of seg_steps steps each,
 * laid out back to back (2 LLRs a step), decoded over the stream positions
 * [out_begin, out_end) in chunks of chunk_len on a grid anchored at stream position 0.
 */
struct viterbi_job {
    uint64_t n_segments;
    uint64_t seg_steps; //!< steps held per segment
    uint64_t base;      //!< stream position of step 0 of each segment
    uint64_t out_begin; //!< first position decoded: a multiple of chunk_len, or base
    uint64_t out_end;   //!< one past the last position decoded (<= base + seg_steps)
    uint32_t chunk_len; //!< decoded steps per chunk (L_d)
    uint32_t warmup;    //!< steps run before a chunk from all-equal metrics
    uint32_t traceback; //!< steps run after a chunk before tracing back (L_t)
    uint32_t poly0;     //!< generator of the first LLR of each pair
    uint32_t poly1;     //!< generator of the second LLR of each pair
    bool known_start;   //!< the trellis is in state 0 at stream position 0
    bool zero_end;      //!< the trellis is in state 0 at base + seg_steps
};

//! Where one chunk runs, in stream positions.
struct viterbi_chunk {
    uint64_t fwd_begin; //!< first step of the forward pass (warm-up included)
    uint64_t out_begin; //!< first decoded step
    uint64_t out_end;   //!< one past the last decoded step
    uint64_t fwd_end;   //!< one past the last step of the forward pass (traceback tail included)
    bool known_start;   //!< start from state 0 instead of all-equal metrics
    bool zero_end;      //!< trace back from state 0 instead of the best state
};

//! Chunks per segment of a job.
GPUOFDM_HD inline uint64_t viterbi_chunks_per_segment(const viterbi_job& j)
{
    const uint64_t first = j.out_begin / j.chunk_len;
    const uint64_t last = (j.out_end + j.chunk_len - 1) / j.chunk_len;
    return j.out_end > j.out_begin ? last - first : 0;
}

//! Geometry of chunk i (0-based within the job) of every segment.
GPUOFDM_HD inline viterbi_chunk viterbi_chunk_at(const viterbi_job& j, uint64_t i)
{
    const uint64_t c = j.out_begin / j.chunk_len + i;
    const uint64_t seg_end = j.base + j.seg_steps;
    viterbi_chunk k;
    k.out_begin = c * j.chunk_len > j.out_begin ? c * j.chunk_len : j.out_begin;
    k.out_end = (c + 1) * j.chunk_len < j.out_end ? (c + 1) * j.chunk_len : j.out_end;
    // The warm-up is anchored to the stream, not the job, so a chunk decodes the same
    // whatever call it falls in; it never reaches before the job's base by construction.
    k.fwd_begin = k.out_begin > j.warmup ? k.out_begin - j.warmup : 0;
    if (k.fwd_begin < j.base)
        k.fwd_begin = j.base;
    k.fwd_end = k.out_end + j.traceback < seg_end ? k.out_end + j.traceback : seg_end;
    k.known_start = j.known_start && k.fwd_begin == 0;
    k.zero_end = j.zero_end && k.fwd_end == seg_end;
    return k;
}

//! Parity of the low 7 bits.
GPUOFDM_HD constexpr unsigned viterbi_parity7(unsigned x)
{
    x &= 0x7f;
    x ^= x >> 4;
    x ^= x >> 2;
    x ^= x >> 1;
    return x & 1u;
}

/*!
 * \brief Correlation branch metric of the step with encoder window w: +LLR for each coded
 * bit that is 0, -LLR for each that is 1 (LLR > 0 means 0), summed in a fixed order.
 */
GPUOFDM_HD inline float viterbi_branch(unsigned w, float l0, float l1, unsigned g0, unsigned g1)
{
    const float a = viterbi_parity7(w & g0) ? -l0 : l0;
    const float b = viterbi_parity7(w & g1) ? -l1 : l1;
    return a + b;
}

/*!
 * \brief Add-compare-select into new state s from the metrics m of the previous step.
 * The larger metric survives; on a tie the predecessor with d = 0 does.
 */
GPUOFDM_HD inline float viterbi_acs(
    const float* m, unsigned s, float l0, float l1, unsigned g0, unsigned g1, unsigned* decision)
{
    const unsigned p0 = (s << 1) & 63u;
    const unsigned w0 = ((s >> 5) << 6) | p0;
    const float m0 = m[p0] + viterbi_branch(w0, l0, l1, g0, g1);
    const float m1 = m[p0 | 1u] + viterbi_branch(w0 | 1u, l0, l1, g0, g1);
    *decision = m1 > m0 ? 1u : 0u;
    return m1 > m0 ? m1 : m0;
}

/*!
 * \brief Traces back from \p state after the step fwd_end - 1 and writes the decoded bit of
 * each step in [out_begin, out_end) to out[step - out_begin].
 *
 * dec holds two 32-bit words per step from out_begin on (bit s of word s / 32 = the decision
 * into state s), as the CUDA kernel's ballots produce them.
 */
GPUOFDM_HD inline void viterbi_traceback(const uint32_t* dec,
                                         uint64_t out_begin,
                                         uint64_t out_end,
                                         uint64_t fwd_end,
                                         unsigned state,
                                         uint8_t* out)
{
    for (uint64_t t = fwd_end; t-- > out_begin;) {
        const uint32_t word = dec[2 * (t - out_begin) + (state >> 5)];
        if (t < out_end)
            out[t - out_begin] = uint8_t(state >> 5);
        state = ((state << 1) & 63u) | ((word >> (state & 31u)) & 1u);
    }
}

} // namespace gr::gpuofdm::core

#endif
