/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_VITERBI_PACKED_H
#define GPUOFDM_CORE_VITERBI_PACKED_H

// One trellis step of the CUDA kernel for int8 LLRs: 16-bit path metrics, two states in
// each 32-bit register. Written for the kernel (viterbi_cuda.cu) and compiled by g++ too, so
// the tests run the same steps on the host (test_viterbi_int8.cc).
//
// Why the decisions are the float decoder's: with integer LLRs in -128 .. 127 every float
// metric of the CPU twin is an integer below 2^24, so its additions are exact; the packed
// metrics hold the same integers, each offset by one amount common to all states, so the
// compares are the same whatever the offset, and the kernel renormalises once every six
// steps (packed_branches() with norm = the metric of a reference state) instead of every
// step. With |branch| <= 256, the metrics of any two states differ by at most 12 x 256 =
// 3072 (any state reaches any other in 6 steps); renormalised to packed_bias every six
// steps from a reference at most two steps old, a stored half stays within packed_bias +-
// (3072 + 8 x 256), well inside 0 .. 0x7fff: a plain 32-bit addition adds both halves
// without a carry between them, and a >= b per half is the sign of (a + 0x8000 - b).
// States that a known start rules out begin 8192 below state 0; in the first six steps
// such a path stays more than 5000 below any reachable one (so it never wins), and after
// six steps every state has a reachable predecessor. Ties pick d = 0, as viterbi_acs().

#include "fec/viterbi_common.h"

#include <cmath>
#include <cstdint>

namespace gr::gpuofdm::core {

constexpr uint32_t packed_bias = 0x4000;      //!< stored half of state 0's metric at a start
constexpr uint32_t packed_unreached = 0x2000; //!< stored half of a state a known start rules out
constexpr uint32_t packed_signs = 0x80008000u;

GPUOFDM_HD constexpr unsigned rotr6(unsigned x, unsigned r)
{
    return ((x >> r) | (x << (6u - r))) & 63u;
}

GPUOFDM_HD constexpr unsigned rotl6(unsigned x, unsigned r)
{
    return ((x << r) | (x >> (6u - r))) & 63u;
}

//! The two coded bits of encoder window w (bit 0: poly0, bit 1: poly1), as viterbi_branch().
template <unsigned P0, unsigned P1>
GPUOFDM_HD constexpr unsigned code_of(unsigned w)
{
    return viterbi_parity7(w & P0) | (viterbi_parity7(w & P1) << 1);
}

//! Register bits of a position with G threads per chunk: 6 - log2 G.
template <unsigned G>
constexpr unsigned local_bits = G == 1   ? 6
                                : G == 2 ? 5
                                : G == 4 ? 4
                                         : 3;

/*!
 * How a thread's own position bits flip the codes at each phase: bits 2 phi, 2 phi + 1 for
 * poly0 and poly1 (the owner of position 0 has none).
 */
template <unsigned G, unsigned P0, unsigned P1>
GPUOFDM_HD inline unsigned position_flips(unsigned tau)
{
    constexpr unsigned LB = local_bits<G>;
    const unsigned ownerpos = tau << LB;
    unsigned flips = 0;
    for (unsigned phi = 0; phi < 6; phi++) {
        const unsigned rt = (phi >= LB ? ((ownerpos >> phi) & 1u) << 6 : 0u) | rotr6(ownerpos, phi);
        flips |= code_of<P0, P1>(rt) << (2 * phi);
    }
    return flips;
}

//! Per-half unsigned maximum (one instruction on sm_90).
GPUOFDM_HD inline uint32_t packed_max(uint32_t a, uint32_t b)
{
#ifdef __CUDA_ARCH__
    return __vmaxu2(a, b);
#else
    const uint32_t lo = (a & 0xffffu) > (b & 0xffffu) ? a & 0xffffu : b & 0xffffu;
    const uint32_t hi = (a >> 16) > (b >> 16) ? a >> 16 : b >> 16;
    return (hi << 16) | lo;
#endif
}

//! Bit 15: low half of a >= low half of b; bit 31: the same for the high halves.
GPUOFDM_HD inline uint32_t packed_ge(uint32_t a, uint32_t b)
{
    return (a + packed_signs - b) & packed_signs;
}

GPUOFDM_HD inline uint32_t packed_swap(uint32_t x)
{
#ifdef __CUDA_ARCH__
    return __byte_perm(x, 0, 0x1032);
#else
    return (x >> 16) | (x << 16);
#endif
}

/*!
 * The step's branch metrics for one thread: lo[c] + hi[c'] added to a packed metric adds the
 * branch of compile-time code c to its low half and of c' to its high half, and renormalises
 * both (minus \p norm, plus packed_bias; norm = packed_bias leaves them as they are). Codes
 * as the float kernel's: this thread's flips swap and negate l0 + l1 and l0 - l1.
 */
struct packed_branch {
    uint32_t lo[4];
    uint32_t hi[4];
};

GPUOFDM_HD inline packed_branch packed_branches(
    int l0, int l1, unsigned flips, unsigned phi, uint32_t norm)
{
    const int A = l0 + l1;
    const int B = l0 - l1;
    const unsigned f0 = (flips >> (2 * phi)) & 1u;
    const unsigned f1 = (flips >> (2 * phi + 1)) & 1u;
    const int X = f0 != f1 ? B : A;
    const int Y = f0 != f1 ? A : B;
    const int a = f0 ? -X : X;
    const int b = f0 ? -Y : Y;
    const int v[4] = { a, -b, b, -a };
    const uint32_t k = (packed_bias - norm) * 0x10001u; // mod 2^32; the halves end in range
    packed_branch br;
    for (unsigned c = 0; c < 4; c++) {
        br.lo[c] = k + uint32_t(v[c]);
        br.hi[c] = uint32_t(v[c]) << 16;
    }
    return br;
}

/*!
 * The branch metrics of codes c (low half) and c' (high half) in one word: a candidate is then
 * a single addition. The empty asm keeps nvcc from re-deriving the high half with a
 * multiply-add at every candidate (one instruction more each).
 */
GPUOFDM_HD inline uint32_t packed_pair(const packed_branch& br, unsigned c, unsigned c_hi)
{
    uint32_t v = br.lo[c] + br.hi[c_hi];
#ifdef __CUDA_ARCH__
    asm("" : "+r"(v));
#endif
    return v;
}

/*!
 * \brief One step of phase PHI on a thread's 64 / G metrics, two to a word: word j holds
 * register j in its low half and register j + 32 / G in its high half (the float kernel's
 * positions). \p partner: the metrics of the thread whose position differs in bit PHI, as they
 * were before the step (read only when PHI is a thread bit). Returns the decisions as the
 * float kernel stores them: bit 64 / G - 1 - L for register L.
 */
template <unsigned G, unsigned P0, unsigned P1, unsigned PHI>
GPUOFDM_HD inline uint32_t packed_step(uint32_t (&u)[32 / G],
                                       const uint32_t (&partner)[32 / G],
                                       const packed_branch& br,
                                       unsigned tau)
{
    static_assert(G >= 2 && G <= 8, "two to eight threads a chunk");
    constexpr unsigned LB = local_bits<G>;
    constexpr unsigned W = 32 / G;
    constexpr unsigned S = 64 / G;
    uint32_t ge[W]; // bits 15 / 31: no decision (d = 0) into the low / high register of word j
    // Metric m plus the branches of encoder windows w_lo (low half) and w_hi (high half).
    const auto cand = [&br](uint32_t m, unsigned w_lo, unsigned w_hi) {
        return m + packed_pair(br, code_of<P0, P1>(w_lo), code_of<P0, P1>(w_hi));
    };
    if constexpr (PHI + 1 < LB) {
        // Butterflies between words j0 and j1 = j0 | 2^PHI, the same in both halves.
        GPUOFDM_UNROLL
        for (unsigned j0 = 0; j0 < W; j0++) {
            if (j0 & (1u << PHI))
                continue;
            const unsigned j1 = j0 | (1u << PHI);
            const uint32_t m00 = cand(u[j0], rotr6(j0, PHI), rotr6(j0 | W, PHI));
            const uint32_t m01 = cand(u[j1], rotr6(j1, PHI), rotr6(j1 | W, PHI));
            const uint32_t m10 = cand(u[j0], 64u | rotr6(j0, PHI), 64u | rotr6(j0 | W, PHI));
            const uint32_t m11 = cand(u[j1], 64u | rotr6(j1, PHI), 64u | rotr6(j1 | W, PHI));
            ge[j0] = packed_ge(m00, m01);
            ge[j1] = packed_ge(m10, m11);
            u[j0] = packed_max(m00, m01);
            u[j1] = packed_max(m10, m11);
        }
    } else if constexpr (PHI + 1 == LB) {
        // The butterfly is the two halves of one word: the low half's new state has input
        // 0 (d = 0 from the low half), the high half's input 1 (d = 1 from the high half).
        GPUOFDM_UNROLL
        for (unsigned j = 0; j < W; j++) {
            const uint32_t self = cand(u[j], rotr6(j, PHI), 64u | rotr6(j | W, PHI));
            const uint32_t cross = cand(packed_swap(u[j]), rotr6(j | W, PHI), 64u | rotr6(j, PHI));
            ge[j] = (packed_ge(self, cross) & 0x8000u) | (packed_ge(cross, self) & 0x80000000u);
            u[j] = packed_max(self, cross);
        }
    } else {
        // The partner holds the other predecessor; this thread's bit PHI is the input bit of
        // its new states and the decision of its own predecessor (as the float kernel).
        const bool one = (tau >> (PHI - LB)) & 1u;
        GPUOFDM_UNROLL
        for (unsigned j = 0; j < W; j++) {
            const uint32_t own = cand(u[j], rotr6(j, PHI), rotr6(j | W, PHI));
            const uint32_t other = cand(partner[j], rotr6(j, PHI) ^ 1u, rotr6(j | W, PHI) ^ 1u);
            ge[j] = one ? packed_ge(other, own) : packed_ge(own, other);
            u[j] = packed_max(own, other);
        }
    }
    // Word j's bits land at 15 - j and 31 - j; then register L's decision goes to S - 1 - L.
    uint32_t acc = 0;
    GPUOFDM_UNROLL
    for (unsigned j = W; j-- > 0;)
        acc = (acc >> 1) | ge[j];
    uint32_t lo_at = acc & 0xffffu;
    if constexpr (W == 16)
        lo_at <<= 16;
    else
        lo_at >>= 16 - 2 * W;
    const uint32_t hi_at = (acc >> 16) >> (16 - W);
    if constexpr (S == 32)
        return ~(lo_at | hi_at);
    else
        return ~(lo_at | hi_at) & ((1u << S) - 1u);
}

/*!
 * Start metrics of a thread's words: state 0 (position 0) and, without a known start, every
 * state at packed_bias; with one, the others at packed_unreached.
 */
template <unsigned G>
GPUOFDM_HD inline void packed_start(uint32_t (&u)[32 / G], unsigned tau, bool known_start)
{
    constexpr unsigned W = 32 / G;
    const unsigned ownerpos = tau << local_bits<G>;
    GPUOFDM_UNROLL
    for (unsigned j = 0; j < W; j++) {
        const uint32_t lo = known_start && (ownerpos | j) != 0 ? packed_unreached : packed_bias;
        const uint32_t hi = known_start ? packed_unreached : packed_bias;
        u[j] = (hi << 16) | lo;
    }
}

//! The metric of register L (0 .. 64 / G - 1) of a thread's words.
template <unsigned G>
GPUOFDM_HD inline uint32_t packed_metric(const uint32_t (&u)[32 / G], unsigned L)
{
    constexpr unsigned W = 32 / G;
    return L < W ? u[L] & 0xffffu : u[L - W] >> 16;
}

//! Quantised LLR of a float one: round(x scale), clamped to -127 .. 127.
GPUOFDM_HD inline int8_t llr_quantize_one(float x, float scale)
{
    float v = x * scale;
    if (!(v == v))
        return 0; // NaN: no information
    v = v > 127.0f ? 127.0f : v < -127.0f ? -127.0f : v;
    return int8_t(roundf(v)); // half away from zero
}

} // namespace gr::gpuofdm::core

#endif
