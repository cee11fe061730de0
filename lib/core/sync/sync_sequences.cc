/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "sync/sync_sequences.h"

#include <cmath>
#include <initializer_list>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

namespace {

void check_range(const char* name, int value, int lo, int hi)
{
    if (value < lo || value > hi) {
        throw std::invalid_argument(std::string(name) + ": " + std::to_string(lo) + ".." +
                                    std::to_string(hi) + ", got " + std::to_string(value));
    }
}

// An m-sequence of \p length bits from x(i + order) = XOR of x(i + tap) over \p taps,
// starting from \p init (x(0) first).
template <size_t N>
std::vector<uint8_t> m_sequence(const std::array<uint8_t, N>& init,
                                std::initializer_list<int> taps,
                                int length)
{
    std::vector<uint8_t> x(init.begin(), init.end());
    x.resize(length);
    for (int i = 0; i + static_cast<int>(N) < length; i++) {
        uint8_t bit = 0;
        for (int t : taps) {
            bit ^= x[i + t];
        }
        x[i + N] = bit;
    }
    return x;
}

// exp(-j pi u k (k+1) / len), the phase reduced exactly in integers first.
std::complex<float> zadoff_chu(int u, int k, int len)
{
    const long long phase = (static_cast<long long>(u) * k * (k + 1)) % (2LL * len);
    const double angle = -M_PI * static_cast<double>(phase) / len;
    return { static_cast<float>(std::cos(angle)), static_cast<float>(std::sin(angle)) };
}

float bpsk(uint8_t bit) { return bit ? -1.0f : 1.0f; }

// The three length-31 m-sequences of the LTE SSS (36.211 6.11.2.1), all from 00001.
struct sss_sequences {
    std::vector<uint8_t> s, c, z;
};

const sss_sequences& lte_sss_sequences()
{
    static const sss_sequences seqs = [] {
        const std::array<uint8_t, 5> init{ 0, 0, 0, 0, 1 };
        return sss_sequences{ m_sequence(init, { 2, 0 }, 31), m_sequence(init, { 3, 0 }, 31),
                              m_sequence(init, { 4, 2, 1, 0 }, 31) };
    }();
    return seqs;
}

} // namespace

std::array<float, nr_sync_length> nr_pss(int nid2)
{
    check_range("nid2", nid2, 0, nid2_count - 1);
    // x(i+7) = x(i+4) + x(i), [x(6) .. x(0)] = [1 1 1 0 1 1 0].
    static const auto x = m_sequence<7>({ 0, 1, 1, 0, 1, 1, 1 }, { 4, 0 }, nr_sync_length);
    std::array<float, nr_sync_length> d{};
    for (int n = 0; n < nr_sync_length; n++) {
        d[n] = bpsk(x[(n + 43 * nid2) % nr_sync_length]);
    }
    return d;
}

std::array<float, nr_sync_length> nr_sss(int nid1, int nid2)
{
    check_range("nid1", nid1, 0, nr_nid1_count - 1);
    check_range("nid2", nid2, 0, nid2_count - 1);
    // x0(i+7) = x0(i+4) + x0(i), x1(i+7) = x1(i+1) + x1(i), both from [0 0 0 0 0 0 1].
    const std::array<uint8_t, 7> init{ 1, 0, 0, 0, 0, 0, 0 };
    static const auto x0 = m_sequence(init, { 4, 0 }, nr_sync_length);
    static const auto x1 = m_sequence(init, { 1, 0 }, nr_sync_length);
    const int m0 = 15 * (nid1 / 112) + 5 * nid2;
    const int m1 = nid1 % 112;
    std::array<float, nr_sync_length> d{};
    for (int n = 0; n < nr_sync_length; n++) {
        d[n] = bpsk(x0[(n + m0) % nr_sync_length]) * bpsk(x1[(n + m1) % nr_sync_length]);
    }
    return d;
}

int lte_pss_root(int nid2)
{
    check_range("nid2", nid2, 0, nid2_count - 1);
    static const int roots[nid2_count] = { 25, 29, 34 }; // 36.211 Table 6.11.1.1-1
    return roots[nid2];
}

std::array<std::complex<float>, lte_sync_length> lte_pss(int nid2)
{
    const int root = lte_pss_root(nid2);
    std::array<std::complex<float>, lte_sync_length> d{};
    for (int n = 0; n < lte_sync_length; n++) {
        // n = 0..30 are ZC elements 0..30, n = 31..61 elements 32..62: the centre (DC) is out.
        d[n] = zadoff_chu(root, n < 31 ? n : n + 1, 63);
    }
    return d;
}

std::array<int, 2> lte_sss_m0_m1(int nid1)
{
    check_range("nid1", nid1, 0, lte_nid1_count - 1);
    const int q_prime = nid1 / 30;
    const int q = (nid1 + q_prime * (q_prime + 1) / 2) / 30;
    const int m_prime = nid1 + q * (q + 1) / 2;
    const int m0 = m_prime % 31;
    return { m0, (m0 + m_prime / 31 + 1) % 31 };
}

std::array<float, lte_sync_length> lte_sss(int nid1, int nid2, sss_half half)
{
    check_range("nid2", nid2, 0, nid2_count - 1);
    const auto [m0, m1] = lte_sss_m0_m1(nid1);
    const auto& seq = lte_sss_sequences();
    auto s = [&](int m, int n) { return bpsk(seq.s[(n + m) % 31]); };
    auto z = [&](int m, int n) { return bpsk(seq.z[(n + m % 8) % 31]); };
    std::array<float, lte_sync_length> d{};
    for (int n = 0; n < 31; n++) {
        const float c0 = bpsk(seq.c[(n + nid2) % 31]);
        const float c1 = bpsk(seq.c[(n + nid2 + 3) % 31]);
        if (half == sss_half::first) {
            d[2 * n] = s(m0, n) * c0;
            d[2 * n + 1] = s(m1, n) * c1 * z(m0, n);
        } else {
            d[2 * n] = s(m1, n) * c0;
            d[2 * n + 1] = s(m0, n) * c1 * z(m1, n);
        }
    }
    return d;
}

int fivegtf_ess_shift(int symbol)
{
    check_range("symbol", symbol, 0, fivegtf_symbols - 1);
    static const int shifts[fivegtf_symbols] = { 0,  7,  14, 18, 21, 25, 32,
                                                 34, 38, 41, 45, 52, 59, 61 };
    return shifts[symbol];
}

std::array<std::complex<float>, fivegtf_ess_length> fivegtf_ess(int cell_id,
                                                                int symbol,
                                                                sss_half half,
                                                                fivegtf_ess_index reading)
{
    check_range("cell_id", cell_id, 0, 3 * lte_nid1_count - 1);
    const int shift = fivegtf_ess_shift(symbol);
    const uint32_t i = half == sss_half::first                         ? 0
                       : reading == fivegtf_ess_index::subframe_number ? 25
                                                                       : 1;
    const uint32_t id = 2 * static_cast<uint32_t>(cell_id) + 1;
    const auto c = gold_sequence((1u << 10) * (i + 1) * id + id, 2 * fivegtf_ess_length);
    const float a = static_cast<float>(M_SQRT1_2);
    std::array<std::complex<float>, fivegtf_ess_length> d{};
    for (int n = 0; n < fivegtf_ess_length; n++) {
        const std::complex<float> r(a * bpsk(c[2 * n]), a * bpsk(c[2 * n + 1]));
        d[n] = r * zadoff_chu(25, (n + shift) % fivegtf_ess_length, fivegtf_ess_length);
    }
    return d;
}

int fivegtf_cp_length(int symbol, fivegtf_long_cp layout)
{
    check_range("symbol", symbol, 0, fivegtf_symbols - 1);
    const int second_long = layout == fivegtf_long_cp::symbols_0_and_8 ? 8 : 7;
    return symbol == 0 || symbol == second_long ? 160 : 144;
}

std::vector<uint8_t> gold_sequence(uint32_t c_init, size_t length)
{
    constexpr size_t nc = 1600;
    std::vector<uint8_t> x1(nc + length + 31, 0), x2(nc + length + 31, 0);
    x1[0] = 1;
    for (int i = 0; i < 31; i++) {
        x2[i] = (c_init >> i) & 1u;
    }
    for (size_t n = 0; n < nc + length; n++) {
        x1[n + 31] = x1[n + 3] ^ x1[n];
        x2[n + 31] = x2[n + 3] ^ x2[n + 2] ^ x2[n + 1] ^ x2[n];
    }
    std::vector<uint8_t> c(length);
    for (size_t n = 0; n < length; n++) {
        c[n] = x1[n + nc] ^ x2[n + nc];
    }
    return c;
}

} // namespace gr::gpuofdm::core
