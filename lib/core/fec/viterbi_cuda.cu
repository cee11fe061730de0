/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CUDA Viterbi decoder. The 802.11a and 802.16 generator pairs run the fast kernel below
// (float LLRs) or its int8 twin (16-bit metrics, viterbi_packed.h); other generators, and
// chunks whose decisions do not fit in shared memory, run the general kernel (one warp per
// chunk, arithmetic from viterbi_common.h; int8 LLRs widened first). All make the CPU
// twin's decisions. Host jobs of 2^19 bits and more overlap their copies and kernels.

#include "runtime/cuda_check.h"
#include "runtime/cuda_context.h"
#include "runtime/cuda_pinned.h"
#include "fec/viterbi.h"
#include "fec/viterbi_packed.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace gr::gpuofdm::core {

namespace {

// The fast kernel: G = 1, 2, 4 or 8 threads per chunk, each holding 64 / G metrics in
// registers.
// Metrics are kept "in place" (the shuffle-exchange trellis): before the step of phase
// phi = (t - fwd_begin) mod 6, register position R (6 bits; thread = the top log2 G bits,
// register = the rest) holds state rotr6(R, phi), so a step is a butterfly between the
// positions that differ in bit phi, and the new states land where their predecessors were.
// Steps on a register bit need no communication; the log2 G steps on a thread bit exchange
// the metrics with one shuffle each. The branch codes of a position are compile-time
// constants for thread 0 (the polynomials are template arguments); a thread's own position
// bits flip them the same way for all its states, which turns into a swap and negation of
// the two branch metrics l0 + l1, l0 - l1 once per step. The floating-point operations per
// state are those of viterbi_acs() (previous metric minus the renormalisation, plus
// (+-l0) + (+-l1), m1 > m0 picks d = 1), so the decisions are the CPU twin's.

constexpr unsigned fast_block_threads = 64;
//! Shared memory one block may use for decisions (the opt-in limit of sm_90 is 227 KiB).
constexpr size_t fast_smem_limit = 200u * 1024u;

/*!
 * x plus the branch metric of code c, where a = the metric of code 0 and b = that of code 2
 * for this thread and step: code 1 (first bit flipped) is -b, code 3 is -a, exactly as
 * (+-l0) + (+-l1) (IEEE addition is symmetric under negation).
 */
__device__ __forceinline__ float add_branch(unsigned c, float x, float a, float b)
{
    return c == 0 ? x + a : c == 1 ? x - b : c == 2 ? x + b : x - a;
}

template <unsigned G>
using fast_word = typename std::conditional<G == 1, uint64_t, uint32_t>::type;

/*!
 * One trellis step of phase PHI on this thread's 64 / G metrics m; returns its decisions
 * (bit 64 / G - 1 - L = the decision into the state at register L). flips: bits 2 phi, 2 phi + 1 = how
 * this thread's position bits flip the codes of poly0 and poly1 at phase phi.
 */
template <unsigned G, unsigned P0, unsigned P1, unsigned PHI>
__device__ __forceinline__ fast_word<G> fast_step(float (&m)[64 / G],
                                                  float l0,
                                                  float l1,
                                                  float& norm,
                                                  unsigned flips,
                                                  unsigned tau,
                                                  unsigned gmask)
{
    constexpr unsigned LB = local_bits<G>;
    constexpr unsigned S = 64 / G;
    const float A = l0 + l1; // code 0: (+l0) + (+l1)
    const float B = l0 - l1; // code 2: (+l0) + (-l1)
    const unsigned f0 = (flips >> (2 * PHI)) & 1u;
    const unsigned f1 = (flips >> (2 * PHI + 1)) & 1u;
    const float X = f0 != f1 ? B : A;
    const float Y = f0 != f1 ? A : B;
    const float a = f0 ? -X : X; // this thread's metric of compile-time code 0
    const float b = f0 ? -Y : Y; // ... and of code 2
    // The decision into the state at register L is m1 > m0, the sign of m0 - m1: metrics
    // are never -0 (x - x and x + -x are +0), so a tie gives +0 and d = 0, as the CPU's
    // compare. The new metric is the larger candidate, whichever one a tie picks.
    float diff[S];
    if constexpr (PHI < LB) {
#pragma unroll
        for (unsigned L0 = 0; L0 < S; L0++) {
            if (L0 & (1u << PHI))
                continue;
            const unsigned L1 = L0 | (1u << PHI);
            const float x0 = m[L0] - norm;
            const float x1 = m[L1] - norm;
            // New state with input bit 0 at L0, with 1 at L1; predecessor d at Ld.
            const float m00 = add_branch(code_of<P0, P1>(rotr6(L0, PHI)), x0, a, b);
            const float m01 = add_branch(code_of<P0, P1>(rotr6(L1, PHI)), x1, a, b);
            const float m10 = add_branch(code_of<P0, P1>(64u | rotr6(L0, PHI)), x0, a, b);
            const float m11 = add_branch(code_of<P0, P1>(64u | rotr6(L1, PHI)), x1, a, b);
            diff[L0] = __fsub_rn(m00, m01);
            diff[L1] = __fsub_rn(m10, m11);
            m[L0] = fmaxf(m00, m01);
            m[L1] = fmaxf(m10, m11);
        }
    } else {
        // The partner thread holds the positions that differ in bit PHI; this thread's bit
        // PHI is the input bit of its new states and the decision of its own predecessor,
        // so m0 is the partner's candidate where it is 1: -own - -partner = partner - own.
        const float sign = (tau >> (PHI - LB)) & 1u ? -1.0f : 1.0f;
#pragma unroll
        for (unsigned L = 0; L < S; L++) {
            const float xo = m[L] - norm;
            const float xp = __shfl_xor_sync(gmask, m[L], 1u << (PHI - LB)) - norm;
            const float co = add_branch(code_of<P0, P1>(rotr6(L, PHI)), xo, a, b);
            const float cp = add_branch(code_of<P0, P1>(rotr6(L, PHI) ^ 1u), xp, a, b);
            diff[L] = __fsub_rn(__fmul_rn(sign, co), __fmul_rn(sign, cp));
            m[L] = fmaxf(co, cp);
        }
    }
    // Sign bits packed first register first: the decision of register L is bit S - 1 - L.
    // Four short funnel-shift chains, not one long one: a warp issues in order, and one
    // dependent chain of S shifts would stall it.
    uint32_t w0 = 0, w1 = 0;
#pragma unroll
    for (unsigned c = 0; c < S / 4; c++) {
        uint32_t part = 0;
#pragma unroll
        for (unsigned j = 0; j < 4; j++)
            part = __funnelshift_l(__float_as_uint(diff[4 * c + j]), part, 1);
        if (4 * c < 32)
            w0 |= part << ((S < 32 ? S : 32) - 4 - 4 * c);
        else
            w1 |= part << (S - 4 - 4 * c);
    }
    // The new metric of state 0 (position 0: thread 0, register 0) renormalises the next step.
    if constexpr (G == 1)
        norm = m[0];
    else
        norm = __shfl_sync(gmask, m[0], 0, G);
    if constexpr (G == 1)
        return (uint64_t(w0) << 32) | w1;
    else
        return w0;
}

template <unsigned G>
__device__ __forceinline__ void store_decisions(uint64_t* slot, unsigned tau, fast_word<G> w)
{
    if constexpr (G == 1)
        *slot = w;
    else if constexpr (G == 2)
        reinterpret_cast<uint32_t*>(slot)[tau] = w;
    else if constexpr (G == 4)
        reinterpret_cast<uint16_t*>(slot)[tau] = uint16_t(w);
    else
        reinterpret_cast<uint8_t*>(slot)[tau] = uint8_t(w);
}

/*!
 * Traceback of a fast-kernel chunk from its decisions in shared memory (\p slot, a word
 * every cpb words), from state \p best (or state 0 for a zero end) after the last step,
 * whose phase was rem - 1: after step s (phase r) the state at position pos has its input
 * bit (the decoded bit) at pos bit r, and its predecessor is the position with bit r
 * replaced by the decision.
 */
template <unsigned G>
__device__ void fast_traceback(const uint64_t* slot,
                               const viterbi_job& job,
                               const viterbi_chunk& k,
                               uint64_t seg,
                               unsigned best,
                               unsigned rem,
                               uint8_t* out)
{
    constexpr unsigned S = 64 / G;
    constexpr unsigned cpb = fast_block_threads / G;
    uint8_t* o = out + seg * (job.out_end - job.out_begin) + (k.out_begin - job.out_begin);
    unsigned pos = rotl6(k.zero_end ? 0u : best, rem);
    unsigned r = rem == 0 ? 5u : rem - 1u;
    for (uint64_t s = k.fwd_end; s-- > k.out_begin;) {
        const uint64_t word = slot[(s - k.out_begin) * cpb];
        if (s < k.out_end)
            o[s - k.out_begin] = uint8_t((pos >> r) & 1u);
        pos = (pos & ~(1u << r)) | (unsigned((word >> (pos ^ (S - 1u))) & 1u) << r);
        r = r == 0 ? 5u : r - 1u;
    }
}

/*!
 * Where a fast-kernel thread works: its place in its chunk's group of G threads (tau), its
 * chunk's slot in the block (cib), the group's shuffle mask, the chunk's segment and
 * geometry. Launches take chunks [chunk_begin, chunk_end) of a job's n_segments x n_chunks
 * (a part of a job, so that its transfers overlap with the kernel); false past chunk_end
 * (the threads of a chunk leave together).
 */
struct fast_thread {
    unsigned tau, cib, gmask;
    uint64_t seg;
    viterbi_chunk k;
};

template <unsigned G>
__device__ __forceinline__ bool fast_thread_at(const viterbi_job& job,
                                               uint64_t n_chunks,
                                               uint64_t chunk_begin,
                                               uint64_t chunk_end,
                                               fast_thread& th)
{
    th.tau = threadIdx.x % G;
    th.cib = threadIdx.x / G;
    const uint64_t chunk = chunk_begin + uint64_t(blockIdx.x) * (fast_block_threads / G) + th.cib;
    if (chunk >= chunk_end)
        return false;
    const unsigned lane = threadIdx.x & 31u;
    th.gmask = G == 1 ? 1u << lane : ((1u << G) - 1u) << (lane & ~(G - 1u));
    th.seg = chunk / n_chunks;
    th.k = viterbi_chunk_at(job, chunk % n_chunks);
    return true;
}

/*!
 * Runs step(phase, pair) over n trellis steps, phase = step mod 6 as a compile-time constant
 * (std::integral_constant); read(p) reads a step's LLR pair at p, and p advances by Stride
 * elements a step from lp. The pairs of the next six steps load while six run: one warp per
 * SM partition has nothing else to hide the latency with.
 */
template <unsigned Stride, typename Elem, typename Read, typename Step>
__device__ __forceinline__ void for_each_step(const Elem* lp,
                                              uint64_t n,
                                              const Read& read,
                                              Step&& step)
{
    using pair = decltype(read(lp));
    using p0 = std::integral_constant<unsigned, 0>;
    using p1 = std::integral_constant<unsigned, 1>;
    using p2 = std::integral_constant<unsigned, 2>;
    using p3 = std::integral_constant<unsigned, 3>;
    using p4 = std::integral_constant<unsigned, 4>;
    using p5 = std::integral_constant<unsigned, 5>;
    pair next[6];
    const uint64_t blocks = n / 6;
    if (blocks > 0) {
#pragma unroll
        for (unsigned j = 0; j < 6; j++)
            next[j] = read(lp + Stride * j);
    }
    for (uint64_t i = blocks; i > 0; i--) {
        pair l[6];
#pragma unroll
        for (unsigned j = 0; j < 6; j++)
            l[j] = next[j];
        lp += 6 * Stride;
        if (i > 1) {
#pragma unroll
            for (unsigned j = 0; j < 6; j++)
                next[j] = read(lp + Stride * j);
        }
        step(p0{}, l[0]);
        step(p1{}, l[1]);
        step(p2{}, l[2]);
        step(p3{}, l[3]);
        step(p4{}, l[4]);
        step(p5{}, l[5]);
    }
    const unsigned rem = unsigned(n % 6);
    if (rem > 0)
        step(p0{}, read(lp));
    if (rem > 1)
        step(p1{}, read(lp + Stride));
    if (rem > 2)
        step(p2{}, read(lp + 2 * Stride));
    if (rem > 3)
        step(p3{}, read(lp + 3 * Stride));
    if (rem > 4)
        step(p4{}, read(lp + 4 * Stride));
}

/*!
 * The best state after the forward pass: the largest metric value(L) over the registers L
 * of the G threads, the lowest state among equals (as the CPU scan); position R holds state
 * rotr6(R, rem).
 */
template <unsigned G, typename V, typename Value>
__device__ __forceinline__ unsigned best_state(const Value& value,
                                               unsigned tau,
                                               unsigned rem,
                                               unsigned gmask)
{
    const unsigned ownerpos = tau << local_bits<G>;
    V bv = value(0u);
    unsigned bs = rotr6(ownerpos, rem);
#pragma unroll
    for (unsigned L = 1; L < 64 / G; L++) {
        const V v = value(L);
        const unsigned s = rotr6(ownerpos | L, rem);
        if (v > bv || (v == bv && s < bs)) {
            bv = v;
            bs = s;
        }
    }
#pragma unroll
    for (unsigned off = 1; off < G; off <<= 1) {
        const V ov = __shfl_xor_sync(gmask, bv, off);
        const unsigned os = __shfl_xor_sync(gmask, bs, off);
        if (ov > bv || (ov == bv && os < bs)) {
            bv = ov;
            bs = os;
        }
    }
    return bs;
}

template <unsigned G, unsigned P0, unsigned P1>
__global__ void __launch_bounds__(fast_block_threads)
    viterbi_fast_kernel(const float* __restrict__ llr,
                        viterbi_job job,
                        uint64_t n_chunks,
                        uint64_t chunk_begin,
                        uint64_t chunk_end,
                        uint8_t* __restrict__ out)
{
    constexpr unsigned LB = local_bits<G>;
    constexpr unsigned S = 64 / G;
    constexpr unsigned cpb = fast_block_threads / G; // chunks per block
    extern __shared__ uint64_t dec_s[];              // [step from out_begin][chunk of the block]
    fast_thread th;
    if (!fast_thread_at<G>(job, n_chunks, chunk_begin, chunk_end, th))
        return;
    const viterbi_chunk& k = th.k;
    const unsigned tau = th.tau;
    const unsigned ownerpos = tau << LB;
    const unsigned flips = position_flips<G, P0, P1>(tau);
    float m[S];
#pragma unroll
    for (unsigned L = 0; L < S; L++)
        m[L] = k.known_start && (ownerpos | L) != 0 ? viterbi_unreached : 0.0f;
    float norm = 0.0f;

    const float* lp = llr + 2 * (th.seg * job.seg_steps + (k.fwd_begin - job.base));
    uint64_t* slot = dec_s + th.cib;
    const uint64_t n = k.fwd_end - k.fwd_begin;
    // Step t's decisions go to slot (t - out_begin) * cpb; the warm-up keeps none. rel =
    // t - out_begin, negative in the warm-up (at most 65536 steps): 32-bit arithmetic.
    int rel = -int(k.out_begin - k.fwd_begin);
    for_each_step<2>(
        lp, n,
        [](const float* p) {
            return float2{ __ldg(p), __ldg(p + 1) };
        },
        [&](auto phase, float2 l) {
            const fast_word<G> w = fast_step<G, P0, P1, decltype(phase)::value>(
                m, l.x, l.y, norm, flips, tau, th.gmask);
            if (rel >= 0)
                store_decisions<G>(slot + rel * int(cpb), tau, w);
            rel++;
        });
    const unsigned rem = unsigned(n % 6);
    const unsigned bs =
        best_state<G, float>([&](unsigned L) { return m[L] - norm; }, tau, rem, th.gmask);
    if constexpr (G > 1)
        __syncwarp(th.gmask); // every thread's decisions are in shared memory
    if (tau == 0)
        fast_traceback<G>(slot, job, k, th.seg, bs, rem, out);
}

/*!
 * The fast kernel for int8 LLRs: the same positions, phases and decision words, with the
 * metrics as 16-bit halves, two states a register (viterbi_packed.h): fewer instructions a
 * step (29 M warp instructions against 35 M for a 2^20-step launch, by Nsight Compute), and
 * a register exchange moves two metrics. G = 2, 4 or 8.
 */
template <unsigned G, unsigned P0, unsigned P1>
__global__ void __launch_bounds__(fast_block_threads)
    viterbi_packed_kernel(const int8_t* __restrict__ llr,
                          viterbi_job job,
                          uint64_t n_chunks,
                          uint64_t chunk_begin,
                          uint64_t chunk_end,
                          uint8_t* __restrict__ out)
{
    constexpr unsigned W = 32 / G;
    constexpr unsigned cpb = fast_block_threads / G;
    extern __shared__ uint64_t dec_s[];
    fast_thread th;
    if (!fast_thread_at<G>(job, n_chunks, chunk_begin, chunk_end, th))
        return;
    const viterbi_chunk& k = th.k;
    const unsigned tau = th.tau;
    const unsigned flips = position_flips<G, P0, P1>(tau);
    uint32_t u[W];
    packed_start<G>(u, tau, k.known_start);
    uint32_t norm = packed_bias;

    // LLR pairs are two-byte aligned (a pair starts at an even offset).
    const char2* lp =
        reinterpret_cast<const char2*>(llr) + th.seg * job.seg_steps + (k.fwd_begin - job.base);
    uint64_t* slot = dec_s + th.cib;
    const uint64_t n = k.fwd_end - k.fwd_begin;
    int rel = -int(k.out_begin - k.fwd_begin); // as the float kernel
    for_each_step<1>(
        lp, n, [](const char2* p) { return __ldg(p); },
        [&](auto phase, char2 l) {
            constexpr unsigned PHI = decltype(phase)::value;
            // Renormalised once every six steps, at phase 0, by the metric of position 0 after
            // phase 4 (its exchange overlaps phase 5): exact integers, so the decisions do not
            // depend on when (viterbi_packed.h), and no exchange waits in the other steps.
            const packed_branch br =
                packed_branches(l.x, l.y, flips, PHI, PHI == 0 ? norm : packed_bias);
            uint32_t partner[W];
            if constexpr (PHI >= local_bits<G>) {
#pragma unroll
                for (unsigned j = 0; j < W; j++)
                    partner[j] = __shfl_xor_sync(th.gmask, u[j], 1u << (PHI - local_bits<G>));
            }
            const uint32_t w = packed_step<G, P0, P1, PHI>(u, partner, br, tau);
            if constexpr (PHI == 4)
                norm = __shfl_sync(th.gmask, u[0], 0, G) & 0xffffu; // thread 0, register 0
            if (rel >= 0)
                store_decisions<G>(slot + rel * int(cpb), tau, w);
            rel++;
        });
    // Every stored half is offset by the same amount: compare them as they are.
    const unsigned rem = unsigned(n % 6);
    const unsigned bs = best_state<G, uint32_t>([&](unsigned L) { return packed_metric<G>(u, L); },
                                                tau, rem, th.gmask);
    __syncwarp(th.gmask);
    if (tau == 0)
        fast_traceback<G>(slot, job, k, th.seg, bs, rem, out);
}

using packed_kernel_fn =
    void (*)(const int8_t*, viterbi_job, uint64_t, uint64_t, uint64_t, uint8_t*);

//! The int8 kernel for these generators and G = 2, 4 or 8 threads a chunk, or null.
packed_kernel_fn packed_kernel_for(unsigned poly0, unsigned poly1, unsigned threads_per_chunk)
{
    const auto with = [&](auto p0, auto p1) -> packed_kernel_fn {
        constexpr unsigned P0 = decltype(p0)::value, P1 = decltype(p1)::value;
        return threads_per_chunk == 2   ? viterbi_packed_kernel<2, P0, P1>
               : threads_per_chunk == 4 ? viterbi_packed_kernel<4, P0, P1>
                                        : viterbi_packed_kernel<8, P0, P1>;
    };
    if (poly0 == 0133 && poly1 == 0171)
        return with(std::integral_constant<unsigned, 0133>{},
                    std::integral_constant<unsigned, 0171>{});
    if (poly0 == 0171 && poly1 == 0133)
        return with(std::integral_constant<unsigned, 0171>{},
                    std::integral_constant<unsigned, 0133>{});
    return nullptr;
}

//! int8 LLRs to float, for the generators and geometries the int8 kernel does not take.
__global__ void widen_llr_kernel(const int8_t* __restrict__ in, size_t n, float* __restrict__ out)
{
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
         i += size_t(gridDim.x) * blockDim.x)
        out[i] = float(in[i]);
}

using fast_kernel_fn = void (*)(const float*, viterbi_job, uint64_t, uint64_t, uint64_t, uint8_t*);

template <unsigned P0, unsigned P1>
fast_kernel_fn fast_kernel_with(unsigned threads_per_chunk)
{
    return threads_per_chunk == 1   ? viterbi_fast_kernel<1, P0, P1>
           : threads_per_chunk == 2 ? viterbi_fast_kernel<2, P0, P1>
           : threads_per_chunk == 4 ? viterbi_fast_kernel<4, P0, P1>
                                    : viterbi_fast_kernel<8, P0, P1>;
}

//! The fast kernel for these generators, or null (the general kernel decodes them).
fast_kernel_fn fast_kernel_for(unsigned poly0, unsigned poly1, unsigned threads_per_chunk)
{
    if (poly0 == 0133 && poly1 == 0171) // IEEE 802.11a-1999 17.3.5.5
        return fast_kernel_with<0133, 0171>(threads_per_chunk);
    if (poly0 == 0171 && poly1 == 0133) // IEEE 802.16-2004 8.3.3.2.3
        return fast_kernel_with<0171, 0133>(threads_per_chunk);
    return nullptr;
}

//! Shared memory of one fast-kernel block: a decision word per step and chunk.
size_t fast_smem_bytes(unsigned threads_per_chunk, size_t dec_steps)
{
    return dec_steps * (fast_block_threads / threads_per_chunk) * sizeof(uint64_t);
}

constexpr unsigned warps_per_block = 4;
constexpr unsigned full_mask = 0xffffffffu;

__global__ void viterbi_chunk_kernel(const float* __restrict__ llr,
                                     viterbi_job job,
                                     uint64_t n_chunks,
                                     uint32_t* __restrict__ dec_all,
                                     uint64_t dec_words,
                                     uint8_t* __restrict__ out)
{
    __shared__ float metrics[warps_per_block][2][viterbi_states];
    const unsigned lane = threadIdx.x & 31u;
    const unsigned wib = threadIdx.x >> 5;
    const uint64_t warp = uint64_t(blockIdx.x) * warps_per_block + wib;
    if (warp >= job.n_segments * n_chunks)
        return; // whole warps leave together, so the full-mask shuffles below stay valid
    const uint64_t seg = warp / n_chunks;
    const viterbi_chunk k = viterbi_chunk_at(job, warp % n_chunks);
    const float* s_llr = llr + 2 * seg * job.seg_steps;
    uint32_t* dec = dec_all + warp * dec_words;
    float* cur = metrics[wib][0];
    float* nxt = metrics[wib][1];

    cur[lane] = k.known_start && lane != 0 ? viterbi_unreached : 0.0f;
    cur[lane + 32] = k.known_start ? viterbi_unreached : 0.0f;
    __syncwarp();
    for (uint64_t t = k.fwd_begin; t < k.fwd_end; t++) {
        const float l0 = s_llr[2 * (t - job.base)];
        const float l1 = s_llr[2 * (t - job.base) + 1];
        unsigned d0, d1;
        const float n0 = viterbi_acs(cur, lane, l0, l1, job.poly0, job.poly1, &d0);
        const float n1 = viterbi_acs(cur, lane + 32, l0, l1, job.poly0, job.poly1, &d1);
        const float norm = __shfl_sync(full_mask, n0, 0); // new metric of state 0
        const uint32_t w0 = __ballot_sync(full_mask, d0);
        const uint32_t w1 = __ballot_sync(full_mask, d1);
        nxt[lane] = n0 - norm;
        nxt[lane + 32] = n1 - norm;
        if (lane == 0 && t >= k.out_begin) {
            dec[2 * (t - k.out_begin)] = w0;
            dec[2 * (t - k.out_begin) + 1] = w1;
        }
        __syncwarp(); // every lane has read cur and written nxt
        float* tmp = cur;
        cur = nxt;
        nxt = tmp;
    }

    // Best state: the largest metric, the lowest index among equals (as the CPU scan).
    float v = cur[lane];
    unsigned s = lane;
    if (cur[lane + 32] > v) {
        v = cur[lane + 32];
        s = lane + 32;
    }
    for (unsigned off = 16; off > 0; off >>= 1) {
        const float ov = __shfl_xor_sync(full_mask, v, off);
        const unsigned os = __shfl_xor_sync(full_mask, s, off);
        if (ov > v || (ov == v && os < s)) {
            v = ov;
            s = os;
        }
    }
    if (lane == 0)
        viterbi_traceback(dec, k.out_begin, k.out_end, k.fwd_end, k.zero_end ? 0u : s,
                          out + seg * (job.out_end - job.out_begin) +
                              (k.out_begin - job.out_begin));
}

/*!
 * \brief CUDA backend of viterbi_decoder: device and pinned buffers sized once for
 * max_steps, its context's stream, one kernel launch per job.
 */
class viterbi_decoder_cuda : public viterbi_decoder
{
public:
    viterbi_decoder_cuda(const viterbi_params& p,
                         const device_spec& dev,
                         const cuda_context_ptr& ctx)
        : viterbi_decoder(p), d_device(dev),
          d_dec_words(2 * (d_params.chunk_len + d_params.traceback)),
          d_ctx(cuda_context::for_stage(dev, ctx)), d_llr(2 * d_params.max_steps),
          d_dec(max_chunks() * d_dec_words), d_out(d_params.max_steps),
          d_host_llr(2 * d_params.max_steps), d_host_out(d_params.max_steps),
          d_pinned(dev.cuda_index)
    {
        // The fast kernel for each thread count whose decisions fit in shared memory.
        const size_t dec_steps = d_params.chunk_len + d_params.traceback;
        int sms = 1;
        GPUOFDM_CUDA_CHECK(
            cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d_device.cuda_index));
        d_sm_count = unsigned(std::max(sms, 1));
        // The limit is the kernel's, shared by every decoder: set the same bound each time.
        for (unsigned g : { 1u, 2u, 4u, 8u }) {
            const fast_kernel_fn fn = fast_kernel_for(d_params.poly0, d_params.poly1, g);
            if (!fn || fast_smem_bytes(g, dec_steps) > fast_smem_limit)
                continue;
            GPUOFDM_CUDA_CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                    int(fast_smem_limit)));
            d_fast[g] = fn;
            // The int8 kernel keeps the same decision words, from two threads a chunk on.
            if (g == 1)
                continue;
            const packed_kernel_fn pk = packed_kernel_for(d_params.poly0, d_params.poly1, g);
            GPUOFDM_CUDA_CHECK(cudaFuncSetAttribute(pk, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                    int(fast_smem_limit)));
            d_packed[g] = pk;
        }
        // Streams and events for host jobs large enough to go in pieces (none otherwise).
        if (d_params.max_steps >= pipeline_min_bits)
            d_pipe = std::make_unique<pipeline>();
    }

    ~viterbi_decoder_cuda() override { unpin_host_ranges(); }

    device_spec device() const override { return d_device; }

    void run(const float* llr, const viterbi_job& job, uint8_t* out) override
    {
        run_from_host(llr, job, out);
    }

    void run_int8(const int8_t* llr, const viterbi_job& job, uint8_t* out) override
    {
        run_from_host(llr, job, out);
    }

    void device_load_int8(const int8_t* llr, size_t n_llr) override { load_input(llr, n_llr); }

    void device_decode_frames_int8(size_t frame_steps, size_t n_frames) override
    {
        enqueue_decode_frames_int8(frame_steps, n_frames);
        d_ctx->synchronize();
    }

    void enqueue_decode_frames_int8(size_t frame_steps, size_t n_frames) override
    {
        const viterbi_job job = device_frames_job(frame_steps, n_frames);
        use_device(d_device.cuda_index);
        int8_buffers();
        launch_job(d_llr_int8.get(), job, viterbi_chunks_per_segment(job));
    }

    cuda_context_ptr context() const override { return d_ctx; }

    bool pin_host_range(const void* p, size_t bytes) override { return d_pinned.pin(p, bytes); }
    void unpin_host_ranges() override { d_pinned.clear(); }

    void device_load(const float* llr, size_t n_llr) override { load_input(llr, n_llr); }

    void device_load_from_device(
        const float* d_src, size_t n_llr, size_t at, size_t rows, size_t src_pitch) override
    {
        const size_t total = n_llr * rows;
        if (at > 2 * d_params.max_steps || total > 2 * d_params.max_steps - at)
            throw std::invalid_argument("n_llr: at + rows n_llr at most 2 max_steps = " +
                                        std::to_string(2 * d_params.max_steps) + ", got " +
                                        std::to_string(at) + " + " + std::to_string(rows) + " x " +
                                        std::to_string(n_llr));
        if (rows > 1 && src_pitch < n_llr)
            throw std::invalid_argument("src_pitch: at least n_llr (" + std::to_string(n_llr) +
                                        "), got " + std::to_string(src_pitch));
        if (total == 0)
            return;
        use_device(d_device.cuda_index);
        // Queued on our stream: device_decode_frames() launches after it on the same stream.
        if (rows == 1)
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_llr.get() + at, d_src, n_llr * sizeof(float),
                                               cudaMemcpyDeviceToDevice, d_ctx->stream()));
        else
            GPUOFDM_CUDA_CHECK(cudaMemcpy2DAsync(d_llr.get() + at, n_llr * sizeof(float), d_src,
                                                 src_pitch * sizeof(float), n_llr * sizeof(float),
                                                 rows, cudaMemcpyDeviceToDevice, d_ctx->stream()));
    }

    void device_decode_frames(size_t frame_steps, size_t n_frames) override
    {
        enqueue_decode_frames(frame_steps, n_frames);
        d_ctx->synchronize();
    }

    void enqueue_decode_frames(size_t frame_steps, size_t n_frames) override
    {
        const viterbi_job job = device_frames_job(frame_steps, n_frames);
        use_device(d_device.cuda_index);
        launch_job(d_llr.get(), job, viterbi_chunks_per_segment(job));
    }

    void device_fetch(uint8_t* out, size_t n_bits) override
    {
        if (n_bits > d_params.max_steps)
            throw std::invalid_argument("n_bits: at most max_steps");
        use_device(d_device.cuda_index);
        GPUOFDM_CUDA_CHECK(
            cudaMemcpyAsync(out, d_out.get(), n_bits, cudaMemcpyDeviceToHost, d_ctx->stream()));
        d_ctx->synchronize();
    }

protected:
    //! The kernel reads the job from device memory \p llr in place (on our stream, after
    //! what the caller queued there).
    void run_device(const float* llr, const viterbi_job& job, uint8_t* out) override
    {
        const uint64_t n_out = check_job(job);
        if (n_out == 0)
            return;
        use_device(d_device.cuda_index);
        launch_and_fetch(llr, job, out, n_out);
    }

private:
    //! The job of n_frames terminated frames in the device buffers; throws when too large.
    viterbi_job device_frames_job(size_t frame_steps, size_t n_frames) const
    {
        viterbi_job job = terminated_job(frame_steps);
        job.n_segments = n_frames;
        const uint64_t n_chunks = viterbi_chunks_per_segment(job);
        if (frame_steps == 0 || n_frames * frame_steps > d_params.max_steps ||
            n_frames * n_chunks > max_chunks())
            throw std::invalid_argument("device_decode_frames: n_frames * frame_steps must be "
                                        "in 1 .. max_steps");
        return job;
    }

    //! A job's output bits; throws when it does not fit the buffers.
    uint64_t check_job(const viterbi_job& job) const
    {
        const uint64_t n_chunks = viterbi_chunks_per_segment(job);
        const uint64_t n_in = job.n_segments * job.seg_steps;
        const uint64_t n_out = job.n_segments * (job.out_end - job.out_begin);
        if (n_in > d_params.max_steps || n_out > d_params.max_steps ||
            job.n_segments * n_chunks > max_chunks())
            throw std::logic_error("viterbi_decoder_cuda: job larger than the buffers");
        return n_out;
    }

    //! The kernel over device LLRs \p llr (float or int8), its n_out bits to \p out; waits
    //! for them.
    template <typename T>
    void launch_and_fetch(const T* llr, const viterbi_job& job, uint8_t* out, uint64_t n_out)
    {
        const uint64_t n_chunks = viterbi_chunks_per_segment(job);
        const bool direct_out = d_pinned.contains(out, n_out);
        launch_job(llr, job, n_chunks);
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(direct_out ? out : d_host_out.get(), d_out.get(), n_out,
                                           cudaMemcpyDeviceToHost, d_ctx->stream()));
        d_ctx->synchronize();
        if (!direct_out)
            std::memcpy(out, d_host_out.get(), n_out);
    }

    //! device_load() and device_load_int8(): n_llr values to the input buffer of their type.
    template <typename T>
    void load_input(const T* llr, size_t n_llr)
    {
        if (n_llr > 2 * d_params.max_steps)
            throw std::invalid_argument(
                "n_llr: at most 2 max_steps = " + std::to_string(2 * d_params.max_steps) +
                ", got " + std::to_string(n_llr));
        use_device(d_device.cuda_index);
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(device_input(llr), llr, n_llr * sizeof(T),
                                           cudaMemcpyHostToDevice, d_ctx->stream()));
        d_ctx->synchronize();
    }

    //! The device and staging buffers of input type T (int8 ones made on first use).
    float* device_input(const float*) { return d_llr.get(); }
    float* staging_input(const float*) { return d_host_llr.get(); }
    int8_t* device_input(const int8_t*)
    {
        int8_buffers();
        return d_llr_int8.get();
    }
    int8_t* staging_input(const int8_t*)
    {
        int8_buffers();
        return d_host_llr_int8.get();
    }

    /*!
     * run() and run_int8(): the LLRs up (straight from page-locked caller memory, a GNU
     * Radio buffer, else through our staging buffer), the kernel, the bits back. Large jobs
     * go in pipeline_pieces pieces of chunks, so that the uploads of later pieces, the
     * kernels of earlier ones and their downloads overlap.
     */
    template <typename T>
    void run_from_host(const T* llr, const viterbi_job& job, uint8_t* out)
    {
        const uint64_t n_out = check_job(job);
        if (n_out == 0)
            return;
        use_device(d_device.cuda_index);
        T* d_in = device_input(llr);
        const size_t in_bytes = 2 * job.n_segments * job.seg_steps * sizeof(T);
        const T* src = llr;
        if (!d_pinned.contains(llr, in_bytes)) {
            T* staging = staging_input(llr);
            std::memcpy(staging, llr, in_bytes);
            src = staging;
        }
        const uint64_t n_chunks = viterbi_chunks_per_segment(job);
        const uint64_t total = job.n_segments * n_chunks;
        const unsigned g = fast_threads(d_in, total);
        if (g == 0 || n_out < pipeline_min_bits || total < pipeline_pieces) {
            GPUOFDM_CUDA_CHECK(
                cudaMemcpyAsync(d_in, src, in_bytes, cudaMemcpyHostToDevice, d_ctx->stream()));
            launch_and_fetch(d_in, job, out, n_out);
            return;
        }
        const bool direct_out = d_pinned.contains(out, n_out);
        run_pipelined(src, d_in, job, n_chunks, g, direct_out ? out : d_host_out.get());
        if (!direct_out)
            std::memcpy(out, d_host_out.get(), n_out);
    }

    //! Where chunk c (over all segments) of a job reads and writes: LLR pairs
    //! [in_begin, in_end) of its input, bits [out_begin, out_end) of its output.
    struct chunk_span {
        uint64_t in_begin, in_end, out_begin, out_end;
    };
    static chunk_span span_of(const viterbi_job& job, uint64_t n_chunks, uint64_t c)
    {
        const uint64_t seg = c / n_chunks;
        const viterbi_chunk k = viterbi_chunk_at(job, c % n_chunks);
        const uint64_t in0 = seg * job.seg_steps - job.base;
        const uint64_t out0 = seg * (job.out_end - job.out_begin) - job.out_begin;
        return { in0 + k.fwd_begin, in0 + k.fwd_end, out0 + k.out_begin, out0 + k.out_end };
    }

    //! Uploads on the context's stream, each piece's kernel on a stream of its own (a
    //! piece's chunks run as long as the whole job's when they fit in one wave, so the
    //! pieces must run side by side, not one after another), downloads on one more, joined
    //! by events; the pieces' LLR spans grow with the chunk index, so each upload sends
    //! only what the ones before did not. Waits for the last download.
    template <typename T>
    void run_pipelined(
        const T* src, T* d_in, const viterbi_job& job, uint64_t n_chunks, unsigned g, uint8_t* dst)
    {
        const uint64_t total = job.n_segments * n_chunks;
        uint64_t loaded = 0; // LLR pairs on the device
        for (unsigned p = 0; p < pipeline_pieces; p++) {
            const uint64_t c0 = total * p / pipeline_pieces;
            const uint64_t c1 = total * (p + 1) / pipeline_pieces;
            const chunk_span first = span_of(job, n_chunks, c0);
            const chunk_span last = span_of(job, n_chunks, c1 - 1);
            if (last.in_end > loaded) {
                GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_in + 2 * loaded, src + 2 * loaded,
                                                   2 * (last.in_end - loaded) * sizeof(T),
                                                   cudaMemcpyHostToDevice, d_ctx->stream()));
                loaded = last.in_end;
            }
            d_ctx->record(d_pipe->uploaded[p]);
            const cudaStream_t ks = d_pipe->kernels[p].get();
            GPUOFDM_CUDA_CHECK(cudaStreamWaitEvent(ks, d_pipe->uploaded[p].get(), 0));
            launch_fast(d_in, job, n_chunks, c0, c1, g, ks);
            GPUOFDM_CUDA_CHECK(cudaEventRecord(d_pipe->decoded[p].get(), ks));
            GPUOFDM_CUDA_CHECK(
                cudaStreamWaitEvent(d_pipe->fetches.get(), d_pipe->decoded[p].get(), 0));
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(dst + first.out_begin, d_out.get() + first.out_begin,
                                               last.out_end - first.out_begin,
                                               cudaMemcpyDeviceToHost, d_pipe->fetches.get()));
        }
        d_pipe->fetches.synchronize();
    }

    //! The fast kernel (float LLRs) or the int8 kernel for g threads a chunk; null where
    //! it does not apply (other generators, decisions too long for shared memory).
    fast_kernel_fn kernel_for(const float*, unsigned g) const { return d_fast[g]; }
    packed_kernel_fn kernel_for(const int8_t*, unsigned g) const { return d_packed[g]; }

    //! Threads a chunk of that kernel for a launch of \p total chunks; 0 where it does not
    //! apply.
    template <typename T>
    unsigned fast_threads(const T* llr, uint64_t total) const
    {
        unsigned g = d_params.cuda_threads_per_chunk;
        if (g == 0)
            g = auto_threads_per_chunk(total);
        if (std::is_same_v<T, int8_t> && g == 1)
            g = 2; // the int8 kernel needs a pair of threads for its exchanges of halves
        return kernel_for(llr, g) ? g : 0;
    }

    //! Queues chunks [c0, c1) of \p job from device LLRs \p llr into d_out on stream \p s,
    //! with that kernel, g threads a chunk.
    template <typename T>
    void launch_fast(const T* llr,
                     const viterbi_job& job,
                     uint64_t n_chunks,
                     uint64_t c0,
                     uint64_t c1,
                     unsigned g,
                     cudaStream_t s)
    {
        const unsigned per_block = fast_block_threads / g;
        const unsigned blocks = unsigned((c1 - c0 + per_block - 1) / per_block);
        kernel_for(llr, g)<<<blocks, fast_block_threads,
                             fast_smem_bytes(g, d_params.chunk_len + d_params.traceback), s>>>(
            llr, job, n_chunks, c0, c1, d_out.get());
        GPUOFDM_CUDA_CHECK_LAUNCH(viterbi_fast_kernel);
    }

    //! Queues the decode of \p job (n_chunks chunks per segment) from device LLRs \p llr
    //! into d_out on the context's stream: the fast kernel where it applies, else the
    //! general one.
    void launch_job(const float* llr, const viterbi_job& job, uint64_t n_chunks)
    {
        const uint64_t total = job.n_segments * n_chunks;
        if (const unsigned g = fast_threads(llr, total)) {
            launch_fast(llr, job, n_chunks, 0, total, g, d_ctx->stream());
            return;
        }
        const unsigned blocks = unsigned((total + warps_per_block - 1) / warps_per_block);
        viterbi_chunk_kernel<<<blocks, warps_per_block * 32, 0, d_ctx->stream()>>>(
            llr, job, n_chunks, d_dec.get(), d_dec_words, d_out.get());
        GPUOFDM_CUDA_CHECK_LAUNCH(viterbi_chunk_kernel);
    }

    //! The same from int8 LLRs: the int8 kernel for the standards' generators, else the
    //! LLRs widened to float for the float kernels.
    void launch_job(const int8_t* llr, const viterbi_job& job, uint64_t n_chunks)
    {
        const uint64_t total = job.n_segments * n_chunks;
        if (const unsigned g = fast_threads(llr, total)) {
            launch_fast(llr, job, n_chunks, 0, total, g, d_ctx->stream());
            return;
        }
        const size_t n = size_t(2 * job.n_segments * job.seg_steps);
        if (!d_llr_widened.get())
            d_llr_widened = device_buffer<float>(2 * d_params.max_steps);
        widen_llr_kernel<<<unsigned(std::min<size_t>((n + 255) / 256, 4096)), 256, 0,
                           d_ctx->stream()>>>(llr, n, d_llr_widened.get());
        GPUOFDM_CUDA_CHECK_LAUNCH(widen_llr_kernel);
        launch_job(d_llr_widened.get(), job, n_chunks);
    }

    //! The int8 input buffers, allocated on first use (most decoders never take int8).
    void int8_buffers()
    {
        if (d_llr_int8.get())
            return;
        d_llr_int8 = device_buffer<int8_t>(2 * d_params.max_steps);
        d_host_llr_int8 = pinned_buffer<int8_t>(2 * d_params.max_steps);
    }

    /*!
     * The thread count for \p chunks chunks: more threads finish a chunk sooner (fewer
     * instructions each), fewer spend fewer instructions in all (exchanges). Measured on an
     * H100 (gpuofdm_bench --stages viterbi, 256-step chunks, kernel only): four and eight
     * both 16 Gbit/s at 2^20 steps (31 chunks an SM), four 24 against 19 at 2^22. Smaller
     * launches are bound by one chunk's latency, which eight threads cut.
     */
    unsigned auto_threads_per_chunk(uint64_t chunks) const
    {
        const bool few = chunks <= 48 * uint64_t(d_sm_count);
        for (unsigned g : { few ? 8u : 4u, 4u, 2u, 1u })
            if (d_fast[g])
                return g;
        return 1;
    }

    device_spec d_device;
    unsigned d_sm_count = 1;
    fast_kernel_fn d_fast[9] = {};     //!< by threads per chunk (1, 2, 4, 8); null: not usable
    packed_kernel_fn d_packed[9] = {}; //!< the int8 kernel by threads per chunk (2, 4, 8)
    size_t d_dec_words;                //!< decision words per chunk: two per step of L_d + L_t
    cuda_context_ptr d_ctx;            //!< made current before the buffers are allocated
    device_buffer<float> d_llr;
    device_buffer<uint32_t> d_dec;
    device_buffer<uint8_t> d_out;
    pinned_buffer<float> d_host_llr;
    pinned_buffer<uint8_t> d_host_out;
    device_buffer<int8_t> d_llr_int8;      //!< int8 LLRs (int8_buffers())
    pinned_buffer<int8_t> d_host_llr_int8; //!< their staging buffer
    device_buffer<float> d_llr_widened;    //!< int8 LLRs as floats, for the general kernel
    pinned_ranges d_pinned;                //!< caller memory transfers go straight from / to

    //! Pieces of a pipelined host job, and the least output that pipelines (2^19 bits:
    //! below it the launches and joins cost more than the overlap saves).
    static constexpr unsigned pipeline_pieces = 4;
    static constexpr uint64_t pipeline_min_bits = uint64_t(1) << 19;
    struct pipeline {
        cuda_stream kernels[pipeline_pieces], fetches;
        cuda_event uploaded[pipeline_pieces], decoded[pipeline_pieces];
    };
    std::unique_ptr<pipeline> d_pipe; //!< where max_steps allows a pipelined job
};

} // namespace

std::unique_ptr<viterbi_decoder> make_viterbi_decoder_cuda(const viterbi_params& p,
                                                           const device_spec& dev,
                                                           const cuda_context_ptr& ctx)
{
    return std::make_unique<viterbi_decoder_cuda>(p, dev, ctx);
}

} // namespace gr::gpuofdm::core
