/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CPU twin of the chunked Viterbi decoder (the kernel's arithmetic, one chunk per worker
// thread at a time), and the classic full-length decoder the tests compare it with.
//
// The forward pass is the kernel's, rearranged for speed but not in its floating point:
// per state the same two sums (previous metric minus the step's renormalisation, then plus
// a branch metric that is +-l0 + +-l1 added in that order), the same compare and select
// (m1 > m0 picks d = 1), so every metric and decision is bit-identical. What changes is
// the bookkeeping: butterflies (states j and j + 32 share the predecessors 2j and 2j + 1),
// branch metrics from four sums a step instead of parities per state, the renormalisation
// folded into the next step's read, decisions packed straight into the kernel's two words
// (SSE2: four butterflies per instruction, AVX2 where the CPU has it: eight; movemask for
// the decision bits), and the chunks of a job spread over threads (each chunk is
// independent, so the result is the same). No multiplies, so no FMA contraction either.

#include "fec/viterbi.h"
#include "runtime/worker_pool.h"

#include <algorithm>
#include <array>
#include <limits>
#include <memory>
#include <stdexcept>
#include <thread>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define GPUOFDM_VITERBI_AVX2 1
#endif

namespace gr::gpuofdm::core {

namespace {

constexpr uint32_t sign_bit = 0x80000000u;

/*!
 * Per-job branch tables. Butterfly j (0..31) feeds state j (k = 0, 1: from predecessor 2j,
 * 2j + 1) and state j + 32 (k = 2, 3). Its encoder window is w = (k >> 1) << 6 | 2j | (k & 1).
 * code[k][j] = the two coded bits of w (bit 0: poly0, bit 1: poly1), which pick one of the
 * four branch metrics (+-l0) + (+-l1) of a step.
 *
 * For SSE2 each group of four butterflies q (j = 4q .. 4q + 3) splits the parity into a
 * lane part (w bits 1, 2, the same in every group) and a group part (w bits 0, 3..6):
 * lane_sign0/1 flip l0/l1 per lane, group[k][q] (0..3) picks the group's flips.
 */
struct branch_tables {
    uint8_t code[4][32];
    alignas(16) uint32_t lane_sign0[4];
    alignas(16) uint32_t lane_sign1[4];
    uint8_t group[4][8];
    // The same for AVX2: eight butterflies a group (w bits 1..3 per lane, 4..6 per group).
    alignas(32) uint32_t lane8_sign0[8];
    alignas(32) uint32_t lane8_sign1[8];
    uint8_t group8[4][4];

    branch_tables(unsigned g0, unsigned g1)
    {
        for (unsigned k = 0; k < 4; k++)
            for (unsigned j = 0; j < 32; j++) {
                const unsigned w = ((k >> 1) << 6) | (j << 1) | (k & 1u);
                code[k][j] = uint8_t(viterbi_parity7(w & g0) | (viterbi_parity7(w & g1) << 1));
            }
        for (unsigned i = 0; i < 4; i++) {
            lane_sign0[i] = viterbi_parity7((i << 1) & g0) ? sign_bit : 0u;
            lane_sign1[i] = viterbi_parity7((i << 1) & g1) ? sign_bit : 0u;
        }
        for (unsigned k = 0; k < 4; k++)
            for (unsigned q = 0; q < 8; q++) {
                const unsigned w = ((k >> 1) << 6) | (q << 3) | (k & 1u);
                group[k][q] = uint8_t(viterbi_parity7(w & g0) | (viterbi_parity7(w & g1) << 1));
            }
        for (unsigned i = 0; i < 8; i++) {
            lane8_sign0[i] = viterbi_parity7((i << 1) & g0) ? sign_bit : 0u;
            lane8_sign1[i] = viterbi_parity7((i << 1) & g1) ? sign_bit : 0u;
        }
        for (unsigned k = 0; k < 4; k++)
            for (unsigned q = 0; q < 4; q++) {
                const unsigned w = ((k >> 1) << 6) | (q << 4) | (k & 1u);
                group8[k][q] = uint8_t(viterbi_parity7(w & g0) | (viterbi_parity7(w & g1) << 1));
            }
    }
};

/*!
 * The forward pass of one chunk over steps [fwd_begin, fwd_end): metrics in m (64 floats,
 * unnormalised) and norm (the renormalisation still to subtract); the decisions of the
 * steps from out_begin on go to dec, two words a step.
 */
void forward(const branch_tables& bt,
             const float* s_llr,
             uint64_t base,
             const viterbi_chunk& k,
             float* m,
             float& norm_io,
             uint32_t* dec)
{
    alignas(16) float buf[2][viterbi_states];
    float* cur = buf[0];
    float* nxt = buf[1];
    std::copy(m, m + viterbi_states, cur);
    float norm = norm_io;
#if defined(__SSE2__)
    const __m128 lane0 = _mm_castsi128_ps(_mm_load_si128((const __m128i*)bt.lane_sign0));
    const __m128 lane1 = _mm_castsi128_ps(_mm_load_si128((const __m128i*)bt.lane_sign1));
    const __m128 flip = _mm_castsi128_ps(_mm_set1_epi32(int(sign_bit)));
#endif
    for (uint64_t t = k.fwd_begin; t < k.fwd_end; t++) {
        const float l0 = s_llr[2 * (t - base)];
        const float l1 = s_llr[2 * (t - base) + 1];
        uint32_t w0 = 0, w1 = 0;
#if defined(__SSE2__)
        // bm[c]: lane i holds (+-l0) + (+-l1), the flips of lane i xor those of code c.
        const __m128 a = _mm_xor_ps(_mm_set1_ps(l0), lane0);
        const __m128 b = _mm_xor_ps(_mm_set1_ps(l1), lane1);
        const __m128 na = _mm_xor_ps(a, flip);
        const __m128 nb = _mm_xor_ps(b, flip);
        const __m128 bm[4] = { _mm_add_ps(a, b), _mm_add_ps(na, b), _mm_add_ps(a, nb),
                               _mm_add_ps(na, nb) };
        const __m128 vn = _mm_set1_ps(norm);
        for (unsigned q = 0; q < 8; q++) {
            // Predecessor metrics 8q .. 8q + 7, renormalised, split into even and odd.
            const __m128 v0 = _mm_sub_ps(_mm_load_ps(cur + 8 * q), vn);
            const __m128 v1 = _mm_sub_ps(_mm_load_ps(cur + 8 * q + 4), vn);
            const __m128 pe = _mm_shuffle_ps(v0, v1, _MM_SHUFFLE(2, 0, 2, 0));
            const __m128 po = _mm_shuffle_ps(v0, v1, _MM_SHUFFLE(3, 1, 3, 1));
            const __m128 lo0 = _mm_add_ps(pe, bm[bt.group[0][q]]);
            const __m128 lo1 = _mm_add_ps(po, bm[bt.group[1][q]]);
            const __m128 hi0 = _mm_add_ps(pe, bm[bt.group[2][q]]);
            const __m128 hi1 = _mm_add_ps(po, bm[bt.group[3][q]]);
            // _mm_max_ps(x, y) is x > y ? x : y, the select of viterbi_acs.
            _mm_store_ps(nxt + 4 * q, _mm_max_ps(lo1, lo0));
            _mm_store_ps(nxt + 32 + 4 * q, _mm_max_ps(hi1, hi0));
            w0 |= uint32_t(_mm_movemask_ps(_mm_cmpgt_ps(lo1, lo0))) << (4 * q);
            w1 |= uint32_t(_mm_movemask_ps(_mm_cmpgt_ps(hi1, hi0))) << (4 * q);
        }
#else
        const float na = -l0, nb = -l1;
        const float bm[4] = { l0 + l1, na + l1, l0 + nb, na + nb };
        for (unsigned j = 0; j < 32; j++) {
            const float pe = cur[2 * j] - norm;
            const float po = cur[2 * j + 1] - norm;
            const float lo0 = pe + bm[bt.code[0][j]];
            const float lo1 = po + bm[bt.code[1][j]];
            const float hi0 = pe + bm[bt.code[2][j]];
            const float hi1 = po + bm[bt.code[3][j]];
            nxt[j] = lo1 > lo0 ? lo1 : lo0;
            nxt[j + 32] = hi1 > hi0 ? hi1 : hi0;
            w0 |= uint32_t(lo1 > lo0) << j;
            w1 |= uint32_t(hi1 > hi0) << j;
        }
#endif
        if (t >= k.out_begin) {
            dec[2 * (t - k.out_begin)] = w0;
            dec[2 * (t - k.out_begin) + 1] = w1;
        }
        norm = nxt[0]; // renormalise to state 0, as the kernel does
        std::swap(cur, nxt);
    }
    std::copy(cur, cur + viterbi_states, m);
    norm_io = norm;
}

#if defined(GPUOFDM_VITERBI_AVX2)
//! forward() with AVX2: eight butterflies per instruction, the same operations per state.
__attribute__((target("avx2"))) void forward_avx2(const branch_tables& bt,
                                                  const float* s_llr,
                                                  uint64_t base,
                                                  const viterbi_chunk& k,
                                                  float* m,
                                                  float& norm_io,
                                                  uint32_t* dec)
{
    alignas(32) float buf[2][viterbi_states];
    float* cur = buf[0];
    float* nxt = buf[1];
    std::copy(m, m + viterbi_states, cur);
    float norm = norm_io;
    const __m256 lane0 = _mm256_castsi256_ps(_mm256_load_si256((const __m256i*)bt.lane8_sign0));
    const __m256 lane1 = _mm256_castsi256_ps(_mm256_load_si256((const __m256i*)bt.lane8_sign1));
    const __m256 flip = _mm256_castsi256_ps(_mm256_set1_epi32(int(sign_bit)));
    for (uint64_t t = k.fwd_begin; t < k.fwd_end; t++) {
        const float l0 = s_llr[2 * (t - base)];
        const float l1 = s_llr[2 * (t - base) + 1];
        uint32_t w0 = 0, w1 = 0;
        const __m256 a = _mm256_xor_ps(_mm256_set1_ps(l0), lane0);
        const __m256 b = _mm256_xor_ps(_mm256_set1_ps(l1), lane1);
        const __m256 na = _mm256_xor_ps(a, flip);
        const __m256 nb = _mm256_xor_ps(b, flip);
        const __m256 bm[4] = { _mm256_add_ps(a, b), _mm256_add_ps(na, b), _mm256_add_ps(a, nb),
                               _mm256_add_ps(na, nb) };
        const __m256 vn = _mm256_set1_ps(norm);
        for (unsigned q = 0; q < 4; q++) {
            const __m256 v0 = _mm256_sub_ps(_mm256_load_ps(cur + 16 * q), vn);
            const __m256 v1 = _mm256_sub_ps(_mm256_load_ps(cur + 16 * q + 8), vn);
            // shuffle_ps works per 128-bit half: butterflies 0 1 4 5 | 2 3 6 7; the 64-bit
            // permute puts them in order.
            const __m256 pe = _mm256_castpd_ps(_mm256_permute4x64_pd(
                _mm256_castps_pd(_mm256_shuffle_ps(v0, v1, _MM_SHUFFLE(2, 0, 2, 0))), 0xd8));
            const __m256 po = _mm256_castpd_ps(_mm256_permute4x64_pd(
                _mm256_castps_pd(_mm256_shuffle_ps(v0, v1, _MM_SHUFFLE(3, 1, 3, 1))), 0xd8));
            const __m256 lo0 = _mm256_add_ps(pe, bm[bt.group8[0][q]]);
            const __m256 lo1 = _mm256_add_ps(po, bm[bt.group8[1][q]]);
            const __m256 hi0 = _mm256_add_ps(pe, bm[bt.group8[2][q]]);
            const __m256 hi1 = _mm256_add_ps(po, bm[bt.group8[3][q]]);
            // _mm256_max_ps(x, y) is x > y ? x : y, the select of viterbi_acs.
            _mm256_store_ps(nxt + 8 * q, _mm256_max_ps(lo1, lo0));
            _mm256_store_ps(nxt + 32 + 8 * q, _mm256_max_ps(hi1, hi0));
            w0 |= uint32_t(_mm256_movemask_ps(_mm256_cmp_ps(lo1, lo0, _CMP_GT_OQ))) << (8 * q);
            w1 |= uint32_t(_mm256_movemask_ps(_mm256_cmp_ps(hi1, hi0, _CMP_GT_OQ))) << (8 * q);
        }
        if (t >= k.out_begin) {
            dec[2 * (t - k.out_begin)] = w0;
            dec[2 * (t - k.out_begin) + 1] = w1;
        }
        norm = nxt[0];
        std::swap(cur, nxt);
    }
    std::copy(cur, cur + viterbi_states, m);
    norm_io = norm;
}

//! The forward pass this CPU runs best.
using forward_fn = void (*)(
    const branch_tables&, const float*, uint64_t, const viterbi_chunk&, float*, float&, uint32_t*);
forward_fn pick_forward() { return __builtin_cpu_supports("avx2") ? forward_avx2 : forward; }
#else
using forward_fn = void (*)(
    const branch_tables&, const float*, uint64_t, const viterbi_chunk&, float*, float&, uint32_t*);
forward_fn pick_forward() { return forward; }
#endif

} // namespace

/*!
 * \brief CPU twin: the same chunk algorithm and arithmetic as the kernel (butterflies on
 * AVX2 or SSE2 where the CPU has them), one chunk per thread at a time, params().cpu_threads
 * threads.
 */
class viterbi_decoder_cpu : public viterbi_decoder
{
public:
    explicit viterbi_decoder_cpu(const viterbi_params& p);
    ~viterbi_decoder_cpu() override;
    device_spec device() const override { return {}; }
    void run(const float* llr, const viterbi_job& job, uint8_t* out) override;
    //! Threads run() uses at most.
    unsigned threads() const { return d_threads; }

private:
    //! Decodes chunks [first, end) of the job (counted over all segments) with decision
    //! memory dec (two words per step of chunk_len + traceback).
    void run_chunks(const float* llr,
                    const viterbi_job& job,
                    uint8_t* out,
                    uint64_t first,
                    uint64_t end,
                    uint32_t* dec) const;

    unsigned d_threads = 1;
    std::vector<uint32_t> d_dec;         //!< decisions of one chunk per thread, two words a step
    std::unique_ptr<worker_pool> d_pool; //!< d_threads - 1 workers (none for one thread)
};

unsigned viterbi_cpu_threads(const viterbi_params& p)
{
    const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    return p.cpu_threads ? std::min<unsigned>(unsigned(p.cpu_threads), hw) : hw;
}

viterbi_decoder_cpu::viterbi_decoder_cpu(const viterbi_params& p) : viterbi_decoder(p)
{
    d_threads = viterbi_cpu_threads(d_params);
    d_dec.resize(size_t(d_threads) * 2 * (d_params.chunk_len + d_params.traceback));
    if (d_threads > 1)
        d_pool = std::make_unique<worker_pool>(d_threads - 1);
}

viterbi_decoder_cpu::~viterbi_decoder_cpu() = default;

void viterbi_decoder_cpu::run_chunks(const float* llr,
                                     const viterbi_job& job,
                                     uint8_t* out,
                                     uint64_t first,
                                     uint64_t end,
                                     uint32_t* dec) const
{
    const branch_tables bt(job.poly0, job.poly1);
    const uint64_t n_chunks = viterbi_chunks_per_segment(job);
    const uint64_t n_out = job.out_end - job.out_begin;
    const forward_fn fwd = pick_forward();
    float m[viterbi_states];
    for (uint64_t c = first; c < end; c++) {
        const uint64_t seg = c / n_chunks;
        const float* s_llr = llr + 2 * seg * job.seg_steps;
        uint8_t* s_out = out + seg * n_out;
        const viterbi_chunk k = viterbi_chunk_at(job, c % n_chunks);
        for (unsigned s = 0; s < viterbi_states; s++)
            m[s] = k.known_start && s != 0 ? viterbi_unreached : 0.0f;
        float norm = 0.0f; // x - 0 = x: the first step reads the start metrics unchanged
        fwd(bt, s_llr, job.base, k, m, norm, dec);
        for (unsigned s = 0; s < viterbi_states; s++)
            m[s] -= norm;
        // Best state, the lowest index among equal metrics.
        unsigned best = 0;
        if (!k.zero_end)
            for (unsigned s = 1; s < viterbi_states; s++)
                if (m[s] > m[best])
                    best = s;
        viterbi_traceback(dec, k.out_begin, k.out_end, k.fwd_end, best,
                          s_out + (k.out_begin - job.out_begin));
    }
}

void viterbi_decoder_cpu::run(const float* llr, const viterbi_job& job, uint8_t* out)
{
    const uint64_t total = job.n_segments * viterbi_chunks_per_segment(job);
    const size_t dec_words = 2 * (d_params.chunk_len + d_params.traceback);
    // Threads only where each gets several chunks: waking one costs microseconds.
    constexpr uint64_t min_chunks_per_thread = 4;
    const uint64_t n_threads =
        std::max<uint64_t>(1, std::min<uint64_t>(d_threads, total / min_chunks_per_thread));
    if (n_threads == 1) {
        run_chunks(llr, job, out, 0, total, d_dec.data());
        return;
    }
    struct slices {
        viterbi_decoder_cpu* self;
        const float* llr;
        const viterbi_job* job;
        uint8_t* out;
        uint64_t total, n;
        size_t dec_words;
    } s{ this, llr, &job, out, total, n_threads, dec_words };
    d_pool->run(
        unsigned(n_threads),
        [](void* ctx, unsigned i) {
            const auto& s = *static_cast<const slices*>(ctx);
            s.self->run_chunks(s.llr, *s.job, s.out, s.total * i / s.n, s.total * (i + 1) / s.n,
                               s.self->d_dec.data() + i * s.dec_words);
        },
        &s);
}

std::vector<uint8_t> viterbi_decode_reference(
    const float* llr, size_t n_steps, unsigned poly0, unsigned poly1, bool zero_end)
{
    // Forward formulation: from each state p and input b, the encoder register is
    // b followed by p's six bits; it outputs the parities of the taps and moves on.
    constexpr int n_states = 64;
    const double ninf = -std::numeric_limits<double>::infinity();
    std::array<double, n_states> metric;
    metric.fill(ninf);
    metric[0] = 0.0;
    std::vector<std::array<uint8_t, n_states>> from(n_steps);
    for (size_t t = 0; t < n_steps; t++) {
        std::array<double, n_states> nm;
        nm.fill(ninf);
        for (int p = 0; p < n_states; p++) {
            if (metric[p] == ninf)
                continue;
            for (int b = 0; b < 2; b++) {
                const unsigned reg = unsigned(b << 6 | p);
                const int c0 = __builtin_popcount(reg & poly0) & 1;
                const int c1 = __builtin_popcount(reg & poly1) & 1;
                const double cand = metric[p] + (c0 ? -double(llr[2 * t]) : double(llr[2 * t])) +
                                    (c1 ? -double(llr[2 * t + 1]) : double(llr[2 * t + 1]));
                const int n = int(reg >> 1);
                if (cand > nm[n]) {
                    nm[n] = cand;
                    from[t][n] = uint8_t(p);
                }
            }
        }
        metric = nm;
    }
    int state = 0;
    if (!zero_end)
        for (int s = 1; s < n_states; s++)
            if (metric[s] > metric[state])
                state = s;
    std::vector<uint8_t> bits(n_steps);
    for (size_t t = n_steps; t-- > 0;) {
        bits[t] = uint8_t(state >> 5);
        state = from[t][state];
    }
    return bits;
}

std::unique_ptr<viterbi_decoder> make_viterbi_decoder_cpu(const viterbi_params& p)
{
    return std::make_unique<viterbi_decoder_cpu>(p);
}

} // namespace gr::gpuofdm::core
