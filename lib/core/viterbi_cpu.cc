/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CPU twin of the chunked Viterbi decoder (the kernel's arithmetic, one chunk at a time),
// and the classic full-length decoder the tests compare it with.

#include "viterbi.h"

#include <array>
#include <limits>

namespace gr::gpuofdm::core {

viterbi_decoder_cpu::viterbi_decoder_cpu(const viterbi_params& p) : viterbi_decoder(p)
{
    d_dec.resize(2 * (d_params.chunk_len + d_params.traceback));
}

void viterbi_decoder_cpu::run(const float* llr, const viterbi_job& job, uint8_t* out)
{
    const uint64_t n_chunks = viterbi_chunks_per_segment(job);
    const uint64_t n_out = job.out_end - job.out_begin;
    float m[viterbi_states];
    float next[viterbi_states];
    for (uint64_t seg = 0; seg < job.n_segments; seg++) {
        const float* s_llr = llr + 2 * seg * job.seg_steps;
        uint8_t* s_out = out + seg * n_out;
        for (uint64_t i = 0; i < n_chunks; i++) {
            const viterbi_chunk k = viterbi_chunk_at(job, i);
            for (unsigned s = 0; s < viterbi_states; s++)
                m[s] = k.known_start && s != 0 ? viterbi_unreached : 0.0f;
            for (uint64_t t = k.fwd_begin; t < k.fwd_end; t++) {
                const float l0 = s_llr[2 * (t - job.base)];
                const float l1 = s_llr[2 * (t - job.base) + 1];
                uint32_t w[2] = { 0, 0 };
                for (unsigned s = 0; s < viterbi_states; s++) {
                    unsigned d;
                    next[s] = viterbi_acs(m, s, l0, l1, job.poly0, job.poly1, &d);
                    w[s >> 5] |= d << (s & 31);
                }
                if (t >= k.out_begin) {
                    d_dec[2 * (t - k.out_begin)] = w[0];
                    d_dec[2 * (t - k.out_begin) + 1] = w[1];
                }
                // Renormalise to state 0, as the kernel does, so metrics stay near zero.
                const float norm = next[0];
                for (unsigned s = 0; s < viterbi_states; s++)
                    m[s] = next[s] - norm;
            }
            // Best state, the lowest index among equal metrics.
            unsigned best = 0;
            if (!k.zero_end)
                for (unsigned s = 1; s < viterbi_states; s++)
                    if (m[s] > m[best])
                        best = s;
            viterbi_traceback(d_dec.data(), k.out_begin, k.out_end, k.fwd_end, best,
                              s_out + (k.out_begin - job.out_begin));
        }
    }
}

std::vector<uint8_t> viterbi_decode_reference(const float* llr, size_t n_steps, unsigned poly0,
                                              unsigned poly1, bool zero_end)
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

} // namespace gr::gpuofdm::core
