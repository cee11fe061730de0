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

// The NR SSS's m-sequences: x0(i+7) = x0(i+4) + x0(i), x1(i+7) = x1(i+1) + x1(i), both from
// [x(6) .. x(0)] = [0 0 0 0 0 0 1].
const std::vector<uint8_t>& nr_sss_x0()
{
    static const auto x =
        m_sequence(std::array<uint8_t, 7>{ 1, 0, 0, 0, 0, 0, 0 }, { 4, 0 }, nr_sync_length);
    return x;
}

const std::vector<uint8_t>& nr_sss_x1()
{
    static const auto x =
        m_sequence(std::array<uint8_t, 7>{ 1, 0, 0, 0, 0, 0, 0 }, { 1, 0 }, nr_sync_length);
    return x;
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
    const auto& x0 = nr_sss_x0();
    const auto& x1 = nr_sss_x1();
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

namespace {

// The Walsh map of the P-periodic m-sequence x of register length \p order (P = 2^order - 1):
// every nonzero state appears once a period, and x(n + m) is a linear function of state n,
// read off at the states with one bit set.
sss_correlator::walsh_map make_walsh_map(const std::vector<uint8_t>& x, int order)
{
    const int period = static_cast<int>(x.size());
    sss_correlator::walsh_map w;
    w.state.resize(period);
    std::vector<int> at_state(size_t{ 1 } << order, -1);
    for (int n = 0; n < period; n++) {
        int v = 0;
        for (int j = 0; j < order; j++) {
            v |= x[(n + j) % period] << j;
        }
        w.state[n] = v;
        at_state[v] = n;
    }
    w.shift.resize(period);
    for (int m = 0; m < period; m++) {
        int u = 0;
        for (int j = 0; j < order; j++) {
            u |= x[(at_state[size_t{ 1 } << j] + m) % period] << j;
        }
        w.shift[m] = u;
    }
    return w;
}

// In place: h[u] = sum over v of w[v] (-1)^popcount(u & v), \p size a power of two.
void walsh_hadamard(std::complex<double>* w, size_t size)
{
    for (size_t len = 1; len < size; len <<= 1) {
        for (size_t i = 0; i < size; i += 2 * len) {
            for (size_t j = i; j < i + len; j++) {
                const auto a = w[j], b = w[j + len];
                w[j] = a + b;
                w[j + len] = a - b;
            }
        }
    }
}

// sum over n of w(n) (1 - 2 x(n + m)) for every shift m < \p shifts, into out[m * step].
void correlate_shifts(const sss_correlator::walsh_map& map,
                      const std::complex<double>* w,
                      size_t shifts,
                      std::complex<double>* out)
{
    std::array<std::complex<double>, 128> states{}; // state 0 never occurs
    const size_t size = map.state.size() + 1;
    for (size_t n = 0; n < map.state.size(); n++) {
        states[map.state[n]] = w[n];
    }
    walsh_hadamard(states.data(), size);
    for (size_t m = 0; m < shifts; m++) {
        out[m] = states[map.shift[m]];
    }
}

} // namespace

sss_correlator::sss_correlator(bool nr, int nid2) : d_nr(nr), d_nid2(nid2)
{
    check_range("nid2", nid2, 0, nid2_count - 1);
    if (nr) {
        d_walsh = make_walsh_map(nr_sss_x1(), 7);
        for (uint8_t bit : nr_sss_x0()) {
            d_outer.push_back(bpsk(bit));
        }
        return;
    }
    const auto& seq = lte_sss_sequences();
    d_walsh = make_walsh_map(seq.s, 5);
    for (int half = 0; half < 2; half++) {
        for (int n = 0; n < 31; n++) {
            d_outer.push_back(bpsk(seq.c[(n + nid2 + 3 * half) % 31])); // c0, then c1
        }
    }
    for (uint8_t bit : seq.z) {
        d_z_shift.push_back(bpsk(bit));
    }
    for (int nid1 = 0; nid1 < lte_nid1_count; nid1++) {
        d_m.push_back(lte_sss_m0_m1(nid1));
    }
}

void sss_correlator::correlate(const std::complex<double>* z, std::complex<double>* sums) const
{
    using cd = std::complex<double>;
    std::array<cd, nr_sync_length> w;
    if (d_nr) {
        // d(n) = (1 - 2 x0(n + m0)) (1 - 2 x1(n + m1)), m0 = 15 (N1 / 112) + 5 N2,
        // m1 = N1 mod 112: x0 is known for each of the three m0, x1's shifts by Walsh.
        for (int q = 0; q < 3; q++) {
            const int m0 = 15 * q + 5 * d_nid2;
            for (int n = 0; n < nr_sync_length; n++) {
                w[n] = z[n] * static_cast<double>(d_outer[(n + m0) % nr_sync_length]);
            }
            correlate_shifts(d_walsh, w.data(), 112, sums + 112 * q);
        }
        return;
    }
    // 36.211 6.11.2.1: the even elements s~(n + m) c0(n); the odd ones s~(n + m') c1(n)
    // z~(n + a), a = m mod 8, with (m, m') = (m0, m1) in subframe 0 and (m1, m0) in 5.
    std::array<cd, 31> even;
    std::array<cd, 8 * 31> odd;
    for (int n = 0; n < 31; n++) {
        w[n] = z[2 * n] * static_cast<double>(d_outer[n]);
    }
    correlate_shifts(d_walsh, w.data(), 31, even.data());
    for (int a = 0; a < 8; a++) {
        for (int n = 0; n < 31; n++) {
            w[n] = z[2 * n + 1] * static_cast<double>(d_outer[31 + n] * d_z_shift[(n + a) % 31]);
        }
        correlate_shifts(d_walsh, w.data(), 31, odd.data() + 31 * a);
    }
    for (int nid1 = 0; nid1 < lte_nid1_count; nid1++) {
        const auto [m0, m1] = d_m[nid1];
        sums[2 * nid1] = even[m0] + odd[31 * (m0 % 8) + m1];
        sums[2 * nid1 + 1] = even[m1] + odd[31 * (m1 % 8) + m0];
    }
}

int fivegtf_ess_shift(int symbol)
{
    check_range("symbol", symbol, 0, fivegtf_symbols - 1);
    static const int shifts[fivegtf_symbols] = { 0,  7,  14, 18, 21, 25, 32,
                                                 34, 38, 41, 45, 52, 59, 61 };
    return shifts[symbol];
}

namespace {

// The ESS's QPSK scrambling r_i(n), n = 0..62.
std::array<std::complex<float>, fivegtf_ess_length> fivegtf_ess_scrambling(
    int cell_id, sss_half half, fivegtf_ess_index reading)
{
    check_range("cell_id", cell_id, 0, 3 * lte_nid1_count - 1);
    const uint32_t i = half == sss_half::first                         ? 0
                       : reading == fivegtf_ess_index::subframe_number ? 25
                                                                       : 1;
    const uint32_t id = 2 * static_cast<uint32_t>(cell_id) + 1;
    const auto c = gold_sequence((1u << 10) * (i + 1) * id + id, 2 * fivegtf_ess_length);
    const float a = static_cast<float>(M_SQRT1_2);
    std::array<std::complex<float>, fivegtf_ess_length> r{};
    for (int n = 0; n < fivegtf_ess_length; n++) {
        r[n] = { a * bpsk(c[2 * n]), a * bpsk(c[2 * n + 1]) };
    }
    return r;
}

std::array<std::complex<float>, fivegtf_ess_length> fivegtf_ess_of(
    const std::array<std::complex<float>, fivegtf_ess_length>& r, int symbol)
{
    static const auto zc = [] {
        std::array<std::complex<float>, fivegtf_ess_length> z{};
        for (int n = 0; n < fivegtf_ess_length; n++) {
            z[n] = zadoff_chu(25, n, fivegtf_ess_length);
        }
        return z;
    }();
    const int shift = fivegtf_ess_shift(symbol);
    std::array<std::complex<float>, fivegtf_ess_length> d{};
    for (int n = 0; n < fivegtf_ess_length; n++) {
        d[n] = r[n] * zc[(n + shift) % fivegtf_ess_length];
    }
    return d;
}

} // namespace

std::array<std::complex<float>, fivegtf_ess_length> fivegtf_ess(int cell_id,
                                                                int symbol,
                                                                sss_half half,
                                                                fivegtf_ess_index reading)
{
    check_range("symbol", symbol, 0, fivegtf_symbols - 1);
    return fivegtf_ess_of(fivegtf_ess_scrambling(cell_id, half, reading), symbol);
}

std::array<std::array<std::complex<float>, fivegtf_ess_length>, fivegtf_symbols>
fivegtf_ess_symbols(int cell_id, sss_half half, fivegtf_ess_index reading)
{
    const auto r = fivegtf_ess_scrambling(cell_id, half, reading);
    std::array<std::array<std::complex<float>, fivegtf_ess_length>, fivegtf_symbols> d{};
    for (int l = 0; l < fivegtf_symbols; l++) {
        d[l] = fivegtf_ess_of(r, l);
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
