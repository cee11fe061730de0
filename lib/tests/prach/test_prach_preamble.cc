/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// PRACH preambles (38.211 6.3.3.1): the closed-form frequency-domain sequence against the
// direct DFT of the time-domain x_{u,v} written out here from the standard's formula (an
// independent route), for every format family, several roots and shifts of each set; the
// 64 preambles of a cell, with the counts worked out by hand.

#include "prach/prach_preamble.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <stdexcept>
#include <vector>

namespace gr::gpuofdm::core {
namespace {

using cd = std::complex<double>;

// 38.211: x_u(i) = exp(-j pi u i (i + 1) / L), x_{u,v}(n) = x_u((n + C_v) mod L), and
// y_{u,v}(n) = sum_m x_{u,v}(m) exp(-j 2 pi m n / L), evaluated as printed (O(L^2)).
std::vector<cd> direct_dft_of_preamble(int u, int cv, int L)
{
    std::vector<cd> x(static_cast<size_t>(L));
    for (int n = 0; n < L; n++) {
        const double i = double((n + cv) % L);
        x[size_t(n)] = std::polar(1.0, -M_PI * u * i * (i + 1) / L);
    }
    std::vector<cd> y(static_cast<size_t>(L));
    for (int k = 0; k < L; k++) {
        cd acc = 0;
        for (int m = 0; m < L; m++)
            acc += x[size_t(m)] * std::polar(1.0, -2.0 * M_PI * double((long(m) * k) % L) / L);
        y[size_t(k)] = acc;
    }
    return y;
}

double max_error(const std::vector<cd>& a, const std::vector<cd>& b)
{
    double e = 0;
    for (size_t i = 0; i < a.size(); i++)
        e = std::max(e, std::abs(a[i] - b[i]));
    return e;
}

struct family {
    prach_format format;
    int mu;
    prach_restricted_set set;
    int zcz;
    int logical_root;
};

TEST(PrachPreamble, ClosedFormMatchesTheDirectDft)
{
    using rs = prach_restricted_set;
    // Long 1.25 kHz (0, 1, 2), long 5 kHz (3), short at 15 and 30 kHz, and the restricted
    // sets; per family the first, a middle and the last of the cell's 64 preambles.
    const family families[] = {
        { prach_format::f0, 0, rs::unrestricted, 2, 22 },
        { prach_format::f1, 0, rs::unrestricted, 12, 400 },
        { prach_format::f2, 0, rs::unrestricted, 0, 837 },
        { prach_format::f3, 0, rs::unrestricted, 7, 129 },
        { prach_format::f0, 0, rs::type_a, 3, 300 },
        { prach_format::f3, 0, rs::type_b, 1, 350 },
        { prach_format::a1, 0, rs::unrestricted, 11, 0 },
        { prach_format::b4, 1, rs::unrestricted, 4, 77 },
        { prach_format::c2, 1, rs::unrestricted, 15, 137 },
    };
    for (const auto& f : families) {
        const auto fmt = prach_format_lookup(f.format, f.mu);
        const int ncs = prach_ncs(fmt, f.set, f.zcz);
        const auto cell = prach_cell_preambles(fmt.length, f.logical_root, ncs, f.set);
        for (int index : { 0, 31, 63 }) {
            const auto& p = cell[size_t(index)];
            const auto closed = prach_sequence_freq(p.u, p.cv, fmt.length);
            const auto direct = direct_dft_of_preamble(p.u, p.cv, fmt.length);
            const double tol = 1e-6 * std::sqrt(double(fmt.length));
            EXPECT_LT(max_error(closed, direct), tol)
                << "format " << to_string(f.format) << " u " << p.u << " C_v " << p.cv;
            // The time-domain route of the module is the same formula.
            const auto x = prach_sequence_time(p.u, p.cv, fmt.length);
            for (int n = 0; n < fmt.length; n += 97) {
                const double i = double((n + p.cv) % fmt.length);
                EXPECT_LT(std::abs(x[size_t(n)] -
                                   std::polar(1.0, -M_PI * p.u * i * (i + 1) / fmt.length)),
                          1e-9);
            }
        }
    }
}

TEST(PrachPreamble, EveryBinHasMagnitudeSqrtL)
{
    for (int L : { 139, 839 })
        for (int u : { 1, 2, L / 2, L - 1 }) {
            EXPECT_NEAR(std::abs(prach_root_dc(u, L)), std::sqrt(double(L)), 1e-9);
            for (const cd& y : prach_sequence_freq(u, 7, L))
                ASSERT_NEAR(std::abs(y), std::sqrt(double(L)), 1e-9) << "L " << L << " u " << u;
        }
}

TEST(PrachPreamble, ShiftsOfARootAreOrthogonal)
{
    // The zero-autocorrelation property the detector relies on: sum_k y_{u,0}(k)
    // conj(y_{u,v}(k)) = 0 for C_v != 0 (the DFT is unitary up to L).
    const auto y0 = prach_sequence_freq(129, 0, 839);
    for (int cv : { 13, 26, 419, 838 }) {
        const auto yv = prach_sequence_freq(129, cv, 839);
        cd dot = 0;
        for (size_t k = 0; k < y0.size(); k++)
            dot += y0[k] * std::conj(yv[k]);
        EXPECT_LT(std::abs(dot), 1e-6) << "C_v " << cv;
    }
}

TEST(PrachPreamble, CellPreamblesUnrestricted)
{
    using rs = prach_restricted_set;
    // N_CS 13: floor(839 / 13) = 64 shifts of one root (13 * 64 = 832).
    auto cell = prach_cell_preambles(839, 22, 13, rs::unrestricted);
    ASSERT_EQ(cell.size(), 64u);
    EXPECT_EQ(cell[63].logical_root, 22);
    EXPECT_EQ(cell[63].cv, 63 * 13);
    EXPECT_EQ(cell[32].cv, 32 * 13); // the 38.141 test preamble (sequence 22, v = 32)
    // N_CS 15: floor(839 / 15) = 55 shifts; preambles 55..63 come from logical root 23.
    cell = prach_cell_preambles(839, 22, 15, rs::unrestricted);
    EXPECT_EQ(cell[54].logical_root, 22);
    EXPECT_EQ(cell[54].cv, 54 * 15);
    EXPECT_EQ(cell[55].logical_root, 23);
    EXPECT_EQ(cell[55].u, prach_root_u(23, 839));
    EXPECT_EQ(cell[55].cv, 0);
    EXPECT_EQ(cell[63].v, 8);
    // Wrapping: from logical root 837 the next is 0.
    cell = prach_cell_preambles(839, 837, 15, rs::unrestricted);
    EXPECT_EQ(cell[55].logical_root, 0);
    EXPECT_EQ(cell[55].u, 129);
    // N_CS 0: one preamble per root, 64 roots.
    cell = prach_cell_preambles(839, 800, 0, rs::unrestricted);
    EXPECT_EQ(cell[63].logical_root, (800 + 63) % 838);
    EXPECT_EQ(cell[63].cv, 0);
    // Short, N_CS 8: floor(139 / 8) = 17 shifts a root: 17 + 17 + 17 + 13.
    cell = prach_cell_preambles(139, 136, 8, rs::unrestricted);
    EXPECT_EQ(cell[16].logical_root, 136);
    EXPECT_EQ(cell[17].logical_root, 137);
    EXPECT_EQ(cell[34].logical_root, 0);
    EXPECT_EQ(cell[51].logical_root, 1);
    EXPECT_EQ(cell[63].v, 12);
    EXPECT_EQ(cell[63].cv, 96);
    for (int i = 0; i < 64; i++)
        EXPECT_EQ(cell[size_t(i)].index, i);
}

TEST(PrachPreamble, CellPreamblesRestrictedTypeA)
{
    // Logical roots 24.. with N_CS 15 (type A, zcz 0):
    //   24: u = 56,  d_u = 15:  18 shifts 45 v (test_prach_tables.cc)
    //   25: u = 783, d_u = 15:  18 shifts
    //   26: u = 112, d_u = 412 (112 * 427 = 47824 = 57 * 839 + 1, 839 - 427 = 412), second
    //       range: n_shift = floor((839 - 824) / 15) = 1, d_start = 15 + 15 = 30,
    //       n_group = floor(412 / 30) = 13, n_shift_bar = min(max(floor((412 - 390) / 15),
    //       0), 1) = 1: 14 shifts, C_v = 30 v
    //   27: u = 727, d_u = 412: 14 shifts
    // 18 + 18 + 14 + 14 = 64.
    const auto cell = prach_cell_preambles(839, 24, 15, prach_restricted_set::type_a);
    EXPECT_EQ(cell[17].u, 56);
    EXPECT_EQ(cell[17].cv, 17 * 45);
    EXPECT_EQ(cell[17].du, 15);
    EXPECT_EQ(cell[18].u, 783);
    EXPECT_EQ(cell[36].u, 112);
    EXPECT_EQ(cell[36].cv, 0);
    EXPECT_EQ(cell[36].du, 412);
    EXPECT_EQ(cell[49].u, 112);
    EXPECT_EQ(cell[49].cv, 13 * 30);
    EXPECT_EQ(cell[50].u, 727);
    EXPECT_EQ(cell[63].u, 727);
    EXPECT_EQ(cell[63].cv, 13 * 30);
}

TEST(PrachPreamble, CellPreamblesSkipRootsWithoutShifts)
{
    // With N_CS 15 in type A, logical roots 0..23 (u = 129, 710, 140, ..., 1, 838) have
    // d_u in {13, 6, 7, 4, 5, 10, 8, 415, 12, 14, 419, 1}: below N_CS, or (415, 419) with
    // 2 d_u > 839 - 15 = 824, outside both ranges. Logical root 24 (u = 56) is the first.
    const auto cell = prach_cell_preambles(839, 0, 15, prach_restricted_set::type_a);
    EXPECT_EQ(cell[0].logical_root, 24);
    EXPECT_EQ(cell[0].u, 56);
}

TEST(PrachPreamble, BadArguments)
{
    EXPECT_THROW(prach_sequence_freq(0, 0, 839), std::invalid_argument);
    EXPECT_THROW(prach_sequence_freq(839, 0, 839), std::invalid_argument);
    EXPECT_THROW(prach_sequence_freq(1, 839, 839), std::invalid_argument);
    EXPECT_THROW(prach_sequence_time(1, 0, 140), std::invalid_argument);
    EXPECT_THROW(prach_cell_preambles(839, 838, 13, prach_restricted_set::unrestricted),
                 std::invalid_argument);
    EXPECT_THROW(prach_cell_preambles(139, 0, 139, prach_restricted_set::unrestricted),
                 std::invalid_argument);
}

} // namespace
} // namespace gr::gpuofdm::core
