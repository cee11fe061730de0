/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "prach/prach_tables.h"
#include "prach/prach_root_table.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <stdexcept>

namespace gr::gpuofdm::core {

namespace {

struct format_row {
    prach_format format;
    const char* name;
    int length;
    double scs_hz; // long formats; the short ones are 15 kHz * 2^mu
    int n_u;       // kappa * T_c; short formats at mu = 0
    int n_cp;
    int repetitions;
};

// Table 6.3.3.1-1 (long) and 6.3.3.1-2 (short, written for mu = 0: N_u = k * 2048,
// both lengths scale by 2^-mu).
constexpr std::array<format_row, 13> format_rows = { {
    { prach_format::f0, "0", 839, 1250.0, 24576, 3168, 1 },
    { prach_format::f1, "1", 839, 1250.0, 2 * 24576, 21024, 2 },
    { prach_format::f2, "2", 839, 1250.0, 4 * 24576, 4688, 4 },
    { prach_format::f3, "3", 839, 5000.0, 4 * 6144, 3168, 4 },
    { prach_format::a1, "A1", 139, 0, 2 * 2048, 288, 2 },
    { prach_format::a2, "A2", 139, 0, 4 * 2048, 576, 4 },
    { prach_format::a3, "A3", 139, 0, 6 * 2048, 864, 6 },
    { prach_format::b1, "B1", 139, 0, 2 * 2048, 216, 2 },
    { prach_format::b2, "B2", 139, 0, 4 * 2048, 360, 4 },
    { prach_format::b3, "B3", 139, 0, 6 * 2048, 504, 6 },
    { prach_format::b4, "B4", 139, 0, 12 * 2048, 936, 12 },
    { prach_format::c0, "C0", 139, 0, 2048, 1240, 1 },
    { prach_format::c2, "C2", 139, 0, 4 * 2048, 2048, 4 },
} };

const format_row& row_of(prach_format f)
{
    for (const auto& r : format_rows)
        if (r.format == f)
            return r;
    throw std::invalid_argument("format: not a PRACH format, got " + std::to_string(int(f)));
}

// Tables 6.3.3.1-5 (1.25 kHz), -6 (5 kHz), -7 (short): N_CS for zeroCorrelationZoneConfig
// 0..15; -1 where the table is empty.
constexpr std::array<int, 16> ncs_1k25_unrestricted = { 0,  13, 15, 18, 22,  26,  32,  38,
                                                        46, 59, 76, 93, 119, 167, 279, 419 };
constexpr std::array<int, 16> ncs_1k25_type_a = { 15, 18, 22,  26,  32,  38,  46,  55,
                                                  68, 82, 100, 128, 158, 202, 237, -1 };
constexpr std::array<int, 16> ncs_1k25_type_b = { 15, 18, 22,  26,  32,  38, 46, 55,
                                                  68, 82, 100, 118, 137, -1, -1, -1 };
constexpr std::array<int, 16> ncs_5k_unrestricted = { 0,  13, 26, 33,  38,  41,  49,  55,
                                                      64, 76, 93, 119, 139, 209, 279, 419 };
constexpr std::array<int, 16> ncs_5k_type_a = { 36,  57,  72,  81,  89,  94,  103, 112,
                                                121, 132, 137, 152, 173, 195, 216, 237 };
constexpr std::array<int, 16> ncs_5k_type_b = { 36, 57, 60, 63,  65,  68,  71, 77,
                                                81, 85, 97, 109, 122, 137, -1, -1 };
constexpr std::array<int, 16> ncs_short = { 0,  2,  4,  6,  8,  10, 12, 13,
                                            15, 17, 19, 23, 27, 34, 46, 69 };

const std::array<int, 16>& ncs_table(const prach_format_info& fmt, prach_restricted_set set)
{
    if (!fmt.is_long()) {
        if (set != prach_restricted_set::unrestricted)
            throw std::invalid_argument("set: the short formats have the unrestricted set only, "
                                        "got " +
                                        to_string(set) + " with format " + to_string(fmt.format));
        return ncs_short;
    }
    const bool khz5 = fmt.scs_hz == 5000.0;
    switch (set) {
    case prach_restricted_set::unrestricted:
        return khz5 ? ncs_5k_unrestricted : ncs_1k25_unrestricted;
    case prach_restricted_set::type_a:
        return khz5 ? ncs_5k_type_a : ncs_1k25_type_a;
    case prach_restricted_set::type_b:
        return khz5 ? ncs_5k_type_b : ncs_1k25_type_b;
    }
    throw std::invalid_argument("set: not a restricted set, got " + std::to_string(int(set)));
}

std::string upper(std::string s)
{
    for (auto& c : s)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

// Table 6.3.3.2-1 (L_RA 839 and 139).
struct allocation_row {
    int length;
    double scs_ra_hz;
    double scs_pusch_hz;
    int n_rb;
    int kbar;
};
constexpr std::array<allocation_row, 16> allocation_rows = { {
    { 839, 1250, 15000, 6, 7 },
    { 839, 1250, 30000, 3, 1 },
    { 839, 1250, 60000, 2, 133 },
    { 839, 5000, 15000, 24, 12 },
    { 839, 5000, 30000, 12, 10 },
    { 839, 5000, 60000, 6, 7 },
    { 139, 15000, 15000, 12, 2 },
    { 139, 15000, 30000, 6, 2 },
    { 139, 15000, 60000, 3, 2 },
    { 139, 30000, 15000, 24, 2 },
    { 139, 30000, 30000, 12, 2 },
    { 139, 30000, 60000, 6, 2 },
    { 139, 60000, 60000, 12, 2 },
    { 139, 60000, 120000, 6, 2 },
    { 139, 120000, 60000, 24, 2 },
    { 139, 120000, 120000, 12, 2 },
} };

} // namespace

prach_format_info prach_format_lookup(prach_format f, int mu)
{
    const format_row& r = row_of(f);
    prach_format_info info;
    info.format = f;
    info.length = r.length;
    info.repetitions = r.repetitions;
    if (r.length == prach_long_length) {
        if (mu != 0)
            throw std::invalid_argument("mu: the long formats have no numerology (0), got " +
                                        std::to_string(mu));
        info.scs_hz = r.scs_hz;
        info.n_u = r.n_u;
        info.n_cp = r.n_cp;
        info.restricted_sets = true;
    } else {
        if (mu < 0 || mu > 3)
            throw std::invalid_argument("mu: 0..3 (15, 30, 60, 120 kHz) for format " +
                                        std::string(r.name) + ", got " + std::to_string(mu));
        info.mu = mu;
        info.scs_hz = 15000.0 * double(1 << mu);
        info.n_u = r.n_u >> mu;
        info.n_cp = r.n_cp >> mu;
    }
    return info;
}

std::string to_string(prach_format f) { return row_of(f).name; }

prach_format parse_prach_format(const std::string& s, const std::string& what)
{
    const std::string u = upper(s);
    for (const auto& r : format_rows)
        if (u == r.name)
            return r.format;
    throw std::invalid_argument(what +
                                ": one of 0, 1, 2, 3, A1, A2, A3, B1, B2, B3, B4, C0, C2, "
                                "got '" +
                                s + "'");
}

std::string to_string(prach_restricted_set s)
{
    switch (s) {
    case prach_restricted_set::unrestricted:
        return "unrestricted";
    case prach_restricted_set::type_a:
        return "A";
    case prach_restricted_set::type_b:
        return "B";
    }
    return "?";
}

prach_restricted_set parse_prach_restricted_set(const std::string& s, const std::string& what)
{
    const std::string u = upper(s);
    if (u == "UNRESTRICTED" || u == "NONE")
        return prach_restricted_set::unrestricted;
    if (u == "A" || u == "TYPE_A" || u == "TYPEA")
        return prach_restricted_set::type_a;
    if (u == "B" || u == "TYPE_B" || u == "TYPEB")
        return prach_restricted_set::type_b;
    throw std::invalid_argument(what + ": one of unrestricted, A, B, got '" + s + "'");
}

int prach_max_zcz(const prach_format_info& fmt, prach_restricted_set set)
{
    const auto& t = ncs_table(fmt, set);
    int last = 15;
    while (t[size_t(last)] < 0)
        last--;
    return last;
}

int prach_ncs(const prach_format_info& fmt, prach_restricted_set set, int zcz)
{
    const int max_zcz = prach_max_zcz(fmt, set);
    if (zcz < 0 || zcz > max_zcz)
        throw std::invalid_argument("zero_correlation_zone: 0.." + std::to_string(max_zcz) +
                                    " for format " + to_string(fmt.format) + " and set " +
                                    to_string(set) + ", got " + std::to_string(zcz));
    return ncs_table(fmt, set)[size_t(zcz)];
}

int prach_root_u(int logical_root, int length)
{
    if (length == prach_long_length) {
        if (logical_root < 0 || logical_root >= prach_root_table_839_size)
            throw std::invalid_argument("logical_root: 0..837 for L_RA 839, got " +
                                        std::to_string(logical_root));
        return prach_root_table_839[size_t(logical_root)];
    }
    if (length == prach_short_length) {
        if (logical_root < 0 || logical_root > 137)
            throw std::invalid_argument("logical_root: 0..137 for L_RA 139, got " +
                                        std::to_string(logical_root));
        // Table 6.3.3.1-4 lists 1, 138, 2, 137, ..., 69, 70.
        return logical_root % 2 == 0 ? logical_root / 2 + 1 : 139 - (logical_root + 1) / 2;
    }
    throw std::invalid_argument("length: 839 or 139, got " + std::to_string(length));
}

prach_allocation prach_allocation_lookup(int length, double scs_ra_hz, double scs_pusch_hz)
{
    for (const auto& r : allocation_rows)
        if (r.length == length && r.scs_ra_hz == scs_ra_hz && r.scs_pusch_hz == scs_pusch_hz)
            return { r.n_rb, r.kbar };
    throw std::invalid_argument(
        "scs_pusch: (L_RA " + std::to_string(length) + ", " + std::to_string(scs_ra_hz) +
        " Hz, PUSCH " + std::to_string(scs_pusch_hz) + " Hz) is not in 38.211 Table 6.3.3.2-1");
}

int prach_timing_advance(double delay_s, int mu_pusch)
{
    if (mu_pusch < 0 || mu_pusch > 3)
        throw std::invalid_argument("mu_pusch: 0..3, got " + std::to_string(mu_pusch));
    if (!(delay_s >= 0 && std::isfinite(delay_s)))
        throw std::invalid_argument("delay_s: >= 0, got " + std::to_string(delay_s));
    const double tc = 1.0 / (480e3 * 4096);
    const double unit = 16.0 * 64.0 * tc / double(1 << mu_pusch);
    return int(std::min(3846.0, std::round(delay_s / unit)));
}

int prach_inverse_mod(int u, int length)
{
    if (u <= 0 || u >= length)
        throw std::invalid_argument("u: 1.." + std::to_string(length - 1) + ", got " +
                                    std::to_string(u));
    // Extended Euclid on (length, u): keeps r = s * u (mod length).
    long r0 = length, r1 = u, s0 = 0, s1 = 1;
    while (r1 != 0) {
        const long q = r0 / r1;
        const long r2 = r0 - q * r1;
        const long s2 = s0 - q * s1;
        r0 = r1;
        r1 = r2;
        s0 = s1;
        s1 = s2;
    }
    if (r0 != 1)
        throw std::invalid_argument("u: no inverse modulo " + std::to_string(length));
    return int(((s0 % length) + length) % length);
}

int prach_du(int u, int length)
{
    const int q = prach_inverse_mod(u, length);
    return 2 * q < length ? q : length - q;
}

int prach_restricted_params::cyclic_shift(int v, int ncs) const
{
    const int w = n_shift * n_group + n_shift_bar;
    if (v < 0 || v >= count())
        throw std::invalid_argument("v: 0.." + std::to_string(count() - 1) + ", got " +
                                    std::to_string(v));
    if (v < w)
        return d_start * (v / n_shift) + (v % n_shift) * ncs;
    if (v < w + n_shift2)
        return d_start2 + (v - w) * ncs;
    return d_start3 + (v - w - n_shift2) * ncs;
}

// 6.3.3.1, restricted sets. The ranges of d_u are written without division: "d_u < L/3"
// is 3 d_u < L, and so on.
prach_restricted_params prach_restricted(int u, int length, int ncs, prach_restricted_set set)
{
    if (ncs <= 0)
        throw std::invalid_argument("ncs: the restricted sets need N_CS >= 1, got " +
                                    std::to_string(ncs));
    const int L = length;
    const int du = prach_du(u, L);
    prach_restricted_params p;
    p.du = du;
    if (set == prach_restricted_set::type_a) {
        if (du >= ncs && 3 * du < L) {
            p.n_shift = du / ncs;
            p.d_start = 2 * du + p.n_shift * ncs;
            p.n_group = L / p.d_start;
            p.n_shift_bar = std::max((L - 2 * du - p.n_group * p.d_start) / ncs, 0);
        } else if (3 * du >= L && 2 * du <= L - ncs) {
            p.n_shift = (L - 2 * du) / ncs;
            p.d_start = L - 2 * du + p.n_shift * ncs;
            p.n_group = du / p.d_start;
            p.n_shift_bar = std::min(std::max((du - p.n_group * p.d_start) / ncs, 0), p.n_shift);
        }
        return p;
    }
    if (set != prach_restricted_set::type_b)
        throw std::invalid_argument("set: type A or B, got " + to_string(set));
    // Integer division of a negative numerator would round towards zero; every max(., 0)
    // below guards one that can be negative, so floor() is written out there.
    auto floor_div = [](int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); };
    if (du >= ncs && 5 * du < L) {
        p.n_shift = du / ncs;
        p.d_start = 4 * du + p.n_shift * ncs;
        p.n_group = L / p.d_start;
        p.n_shift_bar = std::max(floor_div(L - 4 * du - p.n_group * p.d_start, ncs), 0);
    } else if (5 * du >= L && 4 * du <= L - ncs) {
        p.n_shift = (L - 4 * du) / ncs;
        p.d_start = L - 4 * du + p.n_shift * ncs;
        p.n_group = du / p.d_start;
        p.n_shift_bar =
            std::min(std::max(floor_div(du - p.n_group * p.d_start, ncs), 0), p.n_shift);
    } else if (4 * du >= L + ncs && 7 * du < 2 * L) {
        p.n_shift = (4 * du - L) / ncs;
        p.d_start = 4 * du - L + p.n_shift * ncs;
        p.n_group = du / p.d_start;
        p.n_shift_bar = std::max(floor_div(L - 3 * du - p.n_group * p.d_start, ncs), 0);
        p.d_start2 = L - 3 * du + p.n_group * p.d_start + p.n_shift_bar * ncs;
        p.n_shift2 =
            floor_div(std::min(du - p.n_group * p.d_start, 4 * du - L - p.n_shift_bar * ncs), ncs);
        p.d_start3 = L - 2 * du + p.n_group * p.d_start + p.n_shift2 * ncs;
        const int one = std::min(1, p.n_shift_bar);
        p.n_shift3 = floor_div((1 - one) * (du - p.n_group * p.d_start) +
                                   one * (4 * du - L - p.n_shift_bar * ncs),
                               ncs) -
                     p.n_shift2;
    } else if (7 * du >= 2 * L && 3 * du <= L - ncs) {
        p.n_shift = (L - 3 * du) / ncs;
        p.d_start = L - 3 * du + p.n_shift * ncs;
        p.n_group = du / p.d_start;
        p.n_shift_bar = std::max(floor_div(4 * du - L - p.n_group * p.d_start, ncs), 0);
        p.d_start2 = du + p.n_group * p.d_start + p.n_shift_bar * ncs;
        p.n_shift2 =
            floor_div(std::min(du - p.n_group * p.d_start, L - 3 * du - p.n_shift_bar * ncs), ncs);
    } else if (3 * du >= L + ncs && 5 * du < 2 * L) {
        p.n_shift = (3 * du - L) / ncs;
        p.d_start = 3 * du - L + p.n_shift * ncs;
        p.n_group = du / p.d_start;
        p.n_shift_bar = std::max(floor_div(L - 2 * du - p.n_group * p.d_start, ncs), 0);
    } else if (5 * du >= 2 * L && 2 * du <= L - ncs) {
        p.n_shift = (L - 2 * du) / ncs;
        p.d_start = 2 * (L - 2 * du) + p.n_shift * ncs;
        p.n_group = (L - du) / p.d_start;
        p.n_shift_bar = std::max(floor_div(3 * du - L - p.n_group * p.d_start, ncs), 0);
    }
    // A run that the formulas make negative holds no shifts.
    p.n_shift2 = std::max(p.n_shift2, 0);
    p.n_shift3 = std::max(p.n_shift3, 0);
    return p;
}

} // namespace gr::gpuofdm::core
