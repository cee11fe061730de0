/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The 38.211 PRACH tables: the product's root table against the standard's table in
// ../shared/testvectors/nr-prach, the closed form of Table 6.3.3.1-4, formats, N_CS,
// Table 6.3.3.2-1, and the restricted-set parameters worked out by hand.

#include "prach/prach_tables.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <stdexcept>
#include <vector>

namespace gr::gpuofdm::core {
namespace {

TEST(PrachTables, RootTable839MatchesTheStandardsFile)
{
    const std::string path = test::testvector_dir() + "/nr-prach/logical_root_to_u_839.txt";
    std::ifstream f(path);
    if (!f)
        GTEST_SKIP() << "no test vectors at " << path;
    std::vector<int> want;
    for (int u; f >> u;)
        want.push_back(u);
    ASSERT_EQ(want.size(), 838u);
    for (int i = 0; i < 838; i++)
        EXPECT_EQ(prach_root_u(i, 839), want[size_t(i)]) << "logical root " << i;
}

TEST(PrachTables, RootTable839IsAPermutationOfTheRoots)
{
    // Independent of the file: every u = 1..838 once, in conjugate pairs u, 839 - u.
    std::set<int> seen;
    for (int i = 0; i < 838; i++) {
        const int u = prach_root_u(i, 839);
        EXPECT_TRUE(seen.insert(u).second) << "u " << u << " twice";
        if (i % 2 == 1) {
            EXPECT_EQ(u + prach_root_u(i - 1, 839), 839) << "logical root " << i;
        }
    }
    EXPECT_EQ(seen.size(), 838u);
    EXPECT_EQ(*seen.begin(), 1);
    EXPECT_EQ(*seen.rbegin(), 838);
    // The first and last entries as 38.211 prints them.
    EXPECT_EQ(prach_root_u(0, 839), 129);
    EXPECT_EQ(prach_root_u(1, 839), 710);
    EXPECT_EQ(prach_root_u(836, 839), 229);
    EXPECT_EQ(prach_root_u(837, 839), 610);
}

TEST(PrachTables, RootTable139)
{
    // Table 6.3.3.1-4: 1, 138, 2, 137, 3, 136, ..., 69, 70.
    const int head[] = { 1, 138, 2, 137, 3, 136, 4, 135 };
    for (int i = 0; i < 8; i++)
        EXPECT_EQ(prach_root_u(i, 139), head[i]);
    EXPECT_EQ(prach_root_u(136, 139), 69);
    EXPECT_EQ(prach_root_u(137, 139), 70);
    std::set<int> seen;
    for (int i = 0; i < 138; i++)
        seen.insert(prach_root_u(i, 139));
    EXPECT_EQ(seen.size(), 138u);
    EXPECT_THROW(prach_root_u(138, 139), std::invalid_argument);
    EXPECT_THROW(prach_root_u(838, 839), std::invalid_argument);
    EXPECT_THROW(prach_root_u(-1, 839), std::invalid_argument);
    EXPECT_THROW(prach_root_u(0, 571), std::invalid_argument);
}

TEST(PrachTables, LongFormats)
{
    // Table 6.3.3.1-1 in kappa * T_c (samples at 30.72 Msps). Format 0 is 0.903 ms + guard:
    // 3168 + 24576 = 27744 samples; one sequence of 1 / 1.25 kHz = 800 us = 24576 samples.
    const auto f0 = prach_format_lookup(prach_format::f0);
    EXPECT_EQ(f0.length, 839);
    EXPECT_EQ(f0.scs_hz, 1250.0);
    EXPECT_EQ(f0.n_u, 24576);
    EXPECT_EQ(f0.n_cp, 3168);
    EXPECT_EQ(f0.repetitions, 1);
    EXPECT_EQ(f0.sequence_samples(), 24576);
    EXPECT_TRUE(f0.restricted_sets);
    const auto f1 = prach_format_lookup(prach_format::f1);
    EXPECT_EQ(f1.n_u, 49152);
    EXPECT_EQ(f1.n_cp, 21024);
    EXPECT_EQ(f1.repetitions, 2);
    const auto f2 = prach_format_lookup(prach_format::f2);
    EXPECT_EQ(f2.n_u, 98304);
    EXPECT_EQ(f2.n_cp, 4688);
    EXPECT_EQ(f2.repetitions, 4);
    // Format 3: 5 kHz, a sequence of 200 us = 6144 samples, four of them.
    const auto f3 = prach_format_lookup(prach_format::f3);
    EXPECT_EQ(f3.scs_hz, 5000.0);
    EXPECT_EQ(f3.n_u, 24576);
    EXPECT_EQ(f3.n_cp, 3168);
    EXPECT_EQ(f3.sequence_samples(), 6144);
    EXPECT_THROW(prach_format_lookup(prach_format::f0, 1), std::invalid_argument);
}

TEST(PrachTables, ShortFormatsScaleWithMu)
{
    // Table 6.3.3.1-2: N_u = k 2048 kappa 2^-mu, N_CP as printed times 2^-mu.
    struct row {
        prach_format f;
        int k;
        int cp;
    };
    const row rows[] = { { prach_format::a1, 2, 288 },  { prach_format::a2, 4, 576 },
                         { prach_format::a3, 6, 864 },  { prach_format::b1, 2, 216 },
                         { prach_format::b2, 4, 360 },  { prach_format::b3, 6, 504 },
                         { prach_format::b4, 12, 936 }, { prach_format::c0, 1, 1240 },
                         { prach_format::c2, 4, 2048 } };
    for (const auto& r : rows) {
        for (int mu = 0; mu <= 3; mu++) {
            const auto info = prach_format_lookup(r.f, mu);
            EXPECT_EQ(info.length, 139);
            EXPECT_EQ(info.scs_hz, 15000.0 * (1 << mu));
            EXPECT_EQ(info.n_u * (1 << mu), r.k * 2048) << to_string(r.f) << " mu " << mu;
            EXPECT_EQ(info.n_cp * (1 << mu), r.cp) << to_string(r.f) << " mu " << mu;
            EXPECT_EQ(info.repetitions, r.k);
            // One sequence is one OFDM symbol of the numerology: 2048 / 2^mu samples.
            EXPECT_EQ(info.sequence_samples(), 2048 >> mu);
            EXPECT_FALSE(info.restricted_sets);
        }
        EXPECT_THROW(prach_format_lookup(r.f, 4), std::invalid_argument);
        EXPECT_EQ(parse_prach_format(to_string(r.f)), r.f);
    }
    EXPECT_EQ(parse_prach_format("b4"), prach_format::b4);
    EXPECT_EQ(parse_prach_format("0"), prach_format::f0);
    EXPECT_THROW(parse_prach_format("B5"), std::invalid_argument);
    EXPECT_EQ(parse_prach_restricted_set("a"), prach_restricted_set::type_a);
    EXPECT_THROW(parse_prach_restricted_set("C"), std::invalid_argument);
}

TEST(PrachTables, ZeroCorrelationZone)
{
    const auto f0 = prach_format_lookup(prach_format::f0);
    const auto f3 = prach_format_lookup(prach_format::f3);
    const auto b4 = prach_format_lookup(prach_format::b4, 1);
    using rs = prach_restricted_set;
    // Spot values of Tables 6.3.3.1-5/-6/-7, first, a middle and the last defined entry.
    EXPECT_EQ(prach_ncs(f0, rs::unrestricted, 0), 0);
    EXPECT_EQ(prach_ncs(f0, rs::unrestricted, 1), 13);
    EXPECT_EQ(prach_ncs(f0, rs::unrestricted, 15), 419);
    EXPECT_EQ(prach_ncs(f0, rs::type_a, 0), 15);
    EXPECT_EQ(prach_ncs(f0, rs::type_a, 14), 237);
    EXPECT_EQ(prach_ncs(f0, rs::type_b, 11), 118);
    EXPECT_EQ(prach_ncs(f0, rs::type_b, 12), 137);
    EXPECT_EQ(prach_ncs(f3, rs::unrestricted, 2), 26);
    EXPECT_EQ(prach_ncs(f3, rs::unrestricted, 12), 139);
    EXPECT_EQ(prach_ncs(f3, rs::type_a, 15), 237);
    EXPECT_EQ(prach_ncs(f3, rs::type_b, 2), 60);
    EXPECT_EQ(prach_ncs(f3, rs::type_b, 13), 137);
    EXPECT_EQ(prach_ncs(b4, rs::unrestricted, 4), 8);
    EXPECT_EQ(prach_ncs(b4, rs::unrestricted, 15), 69);
    // The empty entries.
    EXPECT_EQ(prach_max_zcz(f0, rs::type_a), 14);
    EXPECT_EQ(prach_max_zcz(f0, rs::type_b), 12);
    EXPECT_EQ(prach_max_zcz(f3, rs::type_b), 13);
    EXPECT_THROW(prach_ncs(f0, rs::type_a, 15), std::invalid_argument);
    EXPECT_THROW(prach_ncs(f0, rs::type_b, 13), std::invalid_argument);
    EXPECT_THROW(prach_ncs(f0, rs::unrestricted, 16), std::invalid_argument);
    EXPECT_THROW(prach_ncs(b4, rs::type_a, 0), std::invalid_argument);
    // Every table increases (a zone grows with its index).
    for (const auto& fmt : { f0, f3, b4 })
        for (auto set : { rs::unrestricted, rs::type_a, rs::type_b }) {
            if (!fmt.is_long() && set != rs::unrestricted)
                continue;
            for (int z = 1; z <= prach_max_zcz(fmt, set); z++) {
                EXPECT_GT(prach_ncs(fmt, set, z), prach_ncs(fmt, set, z - 1));
            }
        }
}

TEST(PrachTables, Allocation)
{
    // Table 6.3.3.2-1.
    EXPECT_EQ(prach_allocation_lookup(839, 1250, 15000).n_rb, 6);
    EXPECT_EQ(prach_allocation_lookup(839, 1250, 15000).kbar, 7);
    EXPECT_EQ(prach_allocation_lookup(839, 1250, 30000).kbar, 1);
    EXPECT_EQ(prach_allocation_lookup(839, 1250, 60000).kbar, 133);
    EXPECT_EQ(prach_allocation_lookup(839, 5000, 15000).n_rb, 24);
    EXPECT_EQ(prach_allocation_lookup(839, 5000, 15000).kbar, 12);
    EXPECT_EQ(prach_allocation_lookup(839, 5000, 30000).kbar, 10);
    EXPECT_EQ(prach_allocation_lookup(139, 30000, 30000).n_rb, 12);
    EXPECT_EQ(prach_allocation_lookup(139, 15000, 30000).n_rb, 6);
    EXPECT_EQ(prach_allocation_lookup(139, 30000, 15000).n_rb, 24);
    EXPECT_EQ(prach_allocation_lookup(139, 120000, 120000).kbar, 2);
    // The allocation holds the sequence: 12 N_RB subcarriers of PUSCH >= L_RA Delta f_RA.
    for (double pusch : { 15000.0, 30000.0, 60000.0 }) {
        for (double ra : { 1250.0, 5000.0 }) {
            const auto a = prach_allocation_lookup(839, ra, pusch);
            EXPECT_GE(12.0 * a.n_rb * pusch, (839 + a.kbar) * ra);
        }
    }
    EXPECT_THROW(prach_allocation_lookup(839, 1250, 120000), std::invalid_argument);
    EXPECT_THROW(prach_allocation_lookup(139, 15000, 120000), std::invalid_argument);
}

TEST(PrachTables, TimingAdvance)
{
    // 38.213 4.2: one step of T_A is 16 * 64 T_c / 2^mu = 1024 / (480 kHz * 4096) / 2^mu =
    // 0.5208 us at 15 kHz, 0.2604 us at 30 kHz.
    EXPECT_EQ(prach_timing_advance(0.0, 0), 0);
    EXPECT_EQ(prach_timing_advance(1.0e-6, 0), 2);    // 1.92 steps
    EXPECT_EQ(prach_timing_advance(1.0e-6, 1), 4);    // 3.84 steps
    EXPECT_EQ(prach_timing_advance(0.13e-6, 0), 0);   // 0.25 steps
    EXPECT_EQ(prach_timing_advance(0.39e-6, 1), 1);   // 1.498 steps
    EXPECT_EQ(prach_timing_advance(66.7e-6, 0), 128); // 10 km round trip: 128.07 steps
    EXPECT_EQ(prach_timing_advance(1e-3, 0), 1920);   // 1 ms: 1920 steps
    EXPECT_EQ(prach_timing_advance(3e-3, 0), 3846);   // 5760 steps: clamped
    EXPECT_THROW(prach_timing_advance(-1e-6, 0), std::invalid_argument);
    EXPECT_THROW(prach_timing_advance(1e-6, 4), std::invalid_argument);
}

TEST(PrachTables, DuByHand)
{
    // d_u from q = u^-1 mod 839: 56 * 15 = 840 = 839 + 1, so q = 15, d_u = 15;
    // 5 * 168 = 840: q = 168; 160 * 215 = 34400 = 41 * 839 + 1: q = 215.
    // 51 * 510 = 26010 = 31 * 839 + 1: q = 510 > 419, d_u = 839 - 510 = 329.
    // 129 * 826 = 106554 = 127 * 839 + 1 (127 * 839 = 106553): q = 826, d_u = 13.
    EXPECT_EQ(prach_inverse_mod(56, 839), 15);
    EXPECT_EQ(prach_du(56, 839), 15);
    EXPECT_EQ(prach_du(5, 839), 168);
    EXPECT_EQ(prach_du(160, 839), 215);
    EXPECT_EQ(prach_inverse_mod(51, 839), 510);
    EXPECT_EQ(prach_du(51, 839), 329);
    EXPECT_EQ(prach_du(129, 839), 13);
    // u and 839 - u share d_u (their inverses are q and 839 - q).
    for (int u = 1; u < 839; u++)
        ASSERT_EQ(prach_du(u, 839), prach_du(839 - u, 839)) << u;
    for (int L : { 139, 839 })
        for (int u = 1; u < L; u++)
            ASSERT_EQ(long(u) * prach_inverse_mod(u, L) % L, 1) << "u " << u << " L " << L;
    EXPECT_THROW(prach_inverse_mod(0, 839), std::invalid_argument);
}

TEST(PrachTables, RestrictedTypeAByHand)
{
    using rs = prach_restricted_set;
    // u = 56, d_u = 15, N_CS = 15, first range (N_CS <= d_u < 839 / 3):
    // n_shift = 15 / 15 = 1, d_start = 2 * 15 + 1 * 15 = 45, n_group = 839 / 45 = 18,
    // n_shift_bar = max(floor((839 - 30 - 18 * 45) / 15), 0) = max(floor(-1 / 15), 0) = 0.
    auto p = prach_restricted(56, 839, 15, rs::type_a);
    EXPECT_EQ(p.n_shift, 1);
    EXPECT_EQ(p.d_start, 45);
    EXPECT_EQ(p.n_group, 18);
    EXPECT_EQ(p.n_shift_bar, 0);
    EXPECT_EQ(p.count(), 18);
    EXPECT_EQ(p.cyclic_shift(17, 15), 17 * 45);
    // u = 5, d_u = 168, N_CS = 15, first range: n_shift = 11, d_start = 336 + 165 = 501,
    // n_group = 1, n_shift_bar = max(floor((839 - 336 - 501) / 15), 0) = 0: 11 shifts 15 v.
    p = prach_restricted(5, 839, 15, rs::type_a);
    EXPECT_EQ(p.count(), 11);
    EXPECT_EQ(p.cyclic_shift(10, 15), 150);
    // u = 51, d_u = 329, second range (839 / 3 <= d_u <= (839 - 15) / 2):
    // n_shift = floor((839 - 658) / 15) = 12, d_start = 181 + 180 = 361,
    // n_group = floor(329 / 361) = 0, n_shift_bar = min(max(floor(329 / 15), 0), 12) = 12.
    p = prach_restricted(51, 839, 15, rs::type_a);
    EXPECT_EQ(p.n_shift, 12);
    EXPECT_EQ(p.d_start, 361);
    EXPECT_EQ(p.n_group, 0);
    EXPECT_EQ(p.n_shift_bar, 12);
    EXPECT_EQ(p.count(), 12);
    EXPECT_EQ(p.cyclic_shift(11, 15), 165);
    // u = 129, d_u = 13 < N_CS = 15: no shifts.
    EXPECT_EQ(prach_restricted(129, 839, 15, rs::type_a).count(), 0);
}

TEST(PrachTables, RestrictedTypeBByHand)
{
    using rs = prach_restricted_set;
    // u = 56, d_u = 15, N_CS = 15, first range (d_u < 839 / 5): n_shift = 1,
    // d_start = 4 * 15 + 15 = 75, n_group = 839 / 75 = 11, n_shift_bar =
    // max(floor((839 - 60 - 825) / 15), 0) = 0: 11 shifts 75 v.
    auto p = prach_restricted(56, 839, 15, rs::type_b);
    EXPECT_EQ(p.d_start, 75);
    EXPECT_EQ(p.count(), 11);
    EXPECT_EQ(p.cyclic_shift(10, 15), 750);
    // u = 160, d_u = 215, N_CS = 15, third range ((839 + 15) / 4 = 213.5 <= 215 < 2 * 839 / 7
    // = 239.7): n_shift = floor((860 - 839) / 15) = 1, d_start = 21 + 15 = 36,
    // n_group = floor(215 / 36) = 5, n_shift_bar = max(floor((839 - 645 - 180) / 15), 0) = 0,
    // second run: d_start = 839 - 645 + 180 + 0 = 374, n = floor(min(35, 21) / 15) = 1,
    // third run: d_start = 839 - 430 + 180 + 15 = 604, n = floor(35 / 15) - 1 = 1.
    // C_v: 0, 36, 72, 108, 144, 374, 604.
    p = prach_restricted(160, 839, 15, rs::type_b);
    EXPECT_EQ(p.n_shift, 1);
    EXPECT_EQ(p.d_start, 36);
    EXPECT_EQ(p.n_group, 5);
    EXPECT_EQ(p.n_shift_bar, 0);
    EXPECT_EQ(p.d_start2, 374);
    EXPECT_EQ(p.n_shift2, 1);
    EXPECT_EQ(p.d_start3, 604);
    EXPECT_EQ(p.n_shift3, 1);
    const int want_b3[] = { 0, 36, 72, 108, 144, 374, 604 };
    ASSERT_EQ(p.count(), 7);
    for (int v = 0; v < 7; v++)
        EXPECT_EQ(p.cyclic_shift(v, 15), want_b3[v]) << "v " << v;
    // u = 22, d_u = 267 (22 * 267 = 5874 = 7 * 839 + 1), N_CS = 15, fourth range
    // (2 * 839 / 7 = 239.7 <= 267 <= (839 - 15) / 3 = 274.7): n_shift = floor(38 / 15) = 2,
    // d_start = 38 + 30 = 68, n_group = floor(267 / 68) = 3,
    // n_shift_bar = max(floor((1068 - 839 - 204) / 15), 0) = 1, second run: d_start =
    // 267 + 204 + 15 = 486, n = floor(min(267 - 204, 38 - 15) / 15) = 1.
    // C_v: 0, 15, 68, 83, 136, 151, 204, 486.
    p = prach_restricted(22, 839, 15, rs::type_b);
    const int want_b4[] = { 0, 15, 68, 83, 136, 151, 204, 486 };
    ASSERT_EQ(p.count(), 8);
    for (int v = 0; v < 8; v++)
        EXPECT_EQ(p.cyclic_shift(v, 15), want_b4[v]) << "v " << v;
    EXPECT_THROW(p.cyclic_shift(8, 15), std::invalid_argument);
}

// The point of the restricted sets: a frequency offset of one or two subcarriers moves a
// preamble's correlation peak by +-d_u (type A) or also +-2 d_u (type B); no such image
// of one preamble's zero-correlation zone [C_v, C_v + N_CS) may overlap another preamble's
// zone of the same root. A property of the standard's construction, checked on every root
// and every N_CS of the tables, so a wrong term in a formula shows.
TEST(PrachTables, RestrictedZonesDoNotOverlapTheirImages)
{
    using rs = prach_restricted_set;
    const auto f0 = prach_format_lookup(prach_format::f0);
    const auto f3 = prach_format_lookup(prach_format::f3);
    const int L = 839;
    for (auto set : { rs::type_a, rs::type_b }) {
        const int reach = set == rs::type_a ? 1 : 2;
        std::set<int> ncs_values;
        for (const auto& fmt : { f0, f3 })
            for (int z = 0; z <= prach_max_zcz(fmt, set); z++)
                ncs_values.insert(prach_ncs(fmt, set, z));
        size_t roots_with_shifts = 0;
        for (int ncs : ncs_values) {
            for (int u = 1; u < L; u++) {
                const auto p = prach_restricted(u, L, ncs, set);
                if (p.count() == 0)
                    continue;
                roots_with_shifts++;
                std::vector<int> owner(size_t(L), -1); // which v's zone covers a sample
                for (int v = 0; v < p.count(); v++)
                    for (int i = 0; i < ncs; i++) {
                        const int s = (p.cyclic_shift(v, ncs) + i) % L;
                        ASSERT_EQ(owner[size_t(s)], -1)
                            << to_string(set) << " u " << u << " N_CS " << ncs << " v " << v;
                        owner[size_t(s)] = v;
                    }
                for (int v = 0; v < p.count(); v++)
                    for (int m = -reach; m <= reach; m++) {
                        if (m == 0)
                            continue;
                        for (int i = 0; i < ncs; i++) {
                            const int s = ((p.cyclic_shift(v, ncs) + i + m * p.du) % L + 2 * L) % L;
                            const int o = owner[size_t(s)];
                            ASSERT_TRUE(o == -1 || o == v)
                                << to_string(set) << " u " << u << " N_CS " << ncs << " v " << v
                                << " image " << m << " d_u lands in v " << o;
                        }
                    }
            }
        }
        EXPECT_GT(roots_with_shifts, 1000u) << to_string(set);
    }
}

} // namespace
} // namespace gr::gpuofdm::core
