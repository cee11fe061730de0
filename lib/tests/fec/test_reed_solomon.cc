/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// 802.16 Reed-Solomon codec: the encoder against the IEEE 802.16-2004 8.3.3.5.1 vector and
// against an independent long-division encoder (log/antilog tables) for every profile; the
// decoder on every number of random byte errors up to T, on T + 1 errors (flagged, with
// the miscorrection rate the code allows), parameter checks, and CUDA against the CPU twin.

#include "fec/reed_solomon.h"
#include "test_util.h"

#include <cmath>
#include <fstream>
#include <random>
#include <stdexcept>

using namespace gr::gpuofdm;
using core::rs_profile;

namespace {

const rs_profile profiles[] = { { 12, 12, 0 }, { 32, 24, 4 },  { 40, 36, 2 },   { 64, 48, 8 },
                                { 80, 72, 4 }, { 108, 96, 6 }, { 120, 108, 6 }, { 255, 239, 8 } };

std::string name(const rs_profile& p)
{
    return "RS(" + std::to_string(p.n) + "," + std::to_string(p.k) + "," + std::to_string(p.t) +
           ")";
}

// Independent GF(256) arithmetic from log/antilog tables, p(x) = 0x11d, alpha = 0x02.
struct gf_tables {
    int exp[512], log[256];
    gf_tables()
    {
        int x = 1;
        for (int i = 0; i < 255; i++) {
            exp[i] = exp[i + 255] = x;
            log[x] = i;
            x <<= 1;
            if (x & 0x100)
                x ^= 0x11d;
        }
        exp[510] = exp[0];
        exp[511] = exp[1];
    }
    int mul(int a, int b) const { return a && b ? exp[log[a] + log[b]] : 0; }
};
const gf_tables gf;

// 802.16-2004 8.3.3.2.2 read literally: 239 - K zero bytes, then the data, times x^16,
// divided by g(x) = prod (x + lambda^i), i = 0..15; keep the first 2T parity bytes and
// send them before the data (8.3.3.5.1 example).
std::vector<uint8_t> reference_encode(const std::vector<uint8_t>& data, const rs_profile& p)
{
    std::vector<int> g{ 1 }; // highest degree first
    for (int i = 0; i < 16; i++) {
        std::vector<int> n(g.size() + 1, 0);
        for (size_t j = 0; j < g.size(); j++) {
            n[j] ^= g[j];
            n[j + 1] ^= gf.mul(g[j], gf.exp[i]);
        }
        g = n;
    }
    std::vector<int> work(239 - p.k, 0);
    work.insert(work.end(), data.begin(), data.end());
    const size_t msg = work.size();
    work.resize(msg + 16, 0);
    for (size_t i = 0; i < msg; i++)
        if (const int c = work[i])
            for (size_t j = 1; j < g.size(); j++)
                work[i + j] ^= gf.mul(g[j], c);
    std::vector<uint8_t> out(work.begin() + long(msg), work.begin() + long(msg + 2 * p.t));
    out.insert(out.end(), data.begin(), data.end());
    return out;
}

std::vector<uint8_t> read_hex(const std::string& file)
{
    std::ifstream f(file);
    std::vector<uint8_t> v;
    std::string line;
    while (f >> line)
        v.push_back(uint8_t(std::stoul(line, nullptr, 16)));
    return v;
}

std::vector<uint8_t> random_bytes(size_t n, std::mt19937& rng)
{
    std::vector<uint8_t> v(n);
    for (auto& b : v)
        b = uint8_t(rng());
    return v;
}

// Adds e byte errors (distinct positions, non-zero values) to one codeword.
void add_errors(uint8_t* cw, size_t n, unsigned e, std::mt19937& rng)
{
    std::vector<size_t> pos(n);
    for (size_t i = 0; i < n; i++)
        pos[i] = i;
    std::shuffle(pos.begin(), pos.end(), rng);
    for (unsigned i = 0; i < e; i++)
        cw[pos[i]] ^= uint8_t(1 + rng() % 255);
}

double binomial(unsigned n, unsigned k)
{
    return std::exp(std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0));
}

} // namespace

TEST(reed_solomon, encoder_reproduces_80216_vector)
{
    // RS(40,36,2): the randomized burst plus the 0x00 tail byte -> rs_encoded.txt.
    const std::string dir = test::testvector_dir() + "/ieee80216-ofdm/";
    auto data = read_hex(dir + "randomized.txt");
    const auto want = read_hex(dir + "rs_encoded.txt");
    if (data.empty() || want.empty())
        GTEST_SKIP() << "802.16 test vectors not found in " << dir;
    data.push_back(0x00);
    auto rs = core::make_reed_solomon(core::rs_profile{ 40, 36, 2 }, {});
    std::vector<uint8_t> cw(40);
    rs->encode(data.data(), cw.data(), 1);
    EXPECT_EQ(cw, want);
    EXPECT_EQ(reference_encode(data, { 40, 36, 2 }), want); // the test's own encoder too
    std::vector<uint8_t> back(36);
    int32_t status = -2;
    EXPECT_EQ(rs->decode(want.data(), back.data(), &status, 1), 0u);
    EXPECT_EQ(status, 0);
    EXPECT_EQ(back, data);
}

TEST(reed_solomon, encoder_matches_long_division_every_profile)
{
    std::mt19937 rng(31);
    for (const auto& p : profiles) {
        SCOPED_TRACE(name(p));
        auto rs = core::make_reed_solomon(p, {});
        const size_t n_cw = 20;
        const auto data = random_bytes(n_cw * p.k, rng);
        std::vector<uint8_t> cw(n_cw * p.n);
        rs->encode(data.data(), cw.data(), n_cw);
        for (size_t i = 0; i < n_cw; i++) {
            const std::vector<uint8_t> d(data.begin() + long(i * p.k),
                                         data.begin() + long((i + 1) * p.k));
            EXPECT_EQ(
                std::vector<uint8_t>(cw.begin() + long(i * p.n), cw.begin() + long((i + 1) * p.n)),
                reference_encode(d, p))
                << "codeword " << i;
        }
    }
}

TEST(reed_solomon, corrects_up_to_t_errors)
{
    std::mt19937 rng(41);
    for (const auto& p : profiles) {
        if (p.t == 0)
            continue;
        SCOPED_TRACE(name(p));
        auto rs = core::make_reed_solomon(p, {});
        const size_t trials = p.n > 200 ? 40 : 120;
        for (unsigned e = 0; e <= p.t; e++) {
            const auto data = random_bytes(trials * p.k, rng);
            std::vector<uint8_t> cw(trials * p.n), out(trials * p.k);
            std::vector<int32_t> status(trials, -7);
            rs->encode(data.data(), cw.data(), trials);
            for (size_t i = 0; i < trials; i++) {
                uint8_t* c = cw.data() + i * p.n;
                if (e == p.t && i == 0) // T errors on the first bytes (parity first)
                    for (unsigned j = 0; j < e; j++)
                        c[j] ^= 0x5a;
                else if (e == p.t && i == 1) // and on the last data bytes
                    for (unsigned j = 0; j < e; j++)
                        c[p.n - 1 - j] ^= 0xa5;
                else
                    add_errors(c, p.n, e, rng);
            }
            EXPECT_EQ(rs->decode(cw.data(), out.data(), status.data(), trials), 0u)
                << e << " errors";
            EXPECT_EQ(out, data) << e << " errors";
            for (size_t i = 0; i < trials; i++)
                EXPECT_EQ(status[i], int32_t(e)) << "codeword " << i;
        }
    }
}

TEST(reed_solomon, flags_t_plus_one_errors)
{
    // A bounded-distance decoder meets t + 1 errors by failing, or, when the word falls in
    // another codeword's sphere, by a wrong decoding; that happens with probability about
    // sum_{i<=t} C(n,i) 255^i / 256^(2t) (1.2e-2 for T = 2, below 1e-5 for T >= 4).
    std::mt19937 rng(43);
    for (const auto& p : profiles) {
        if (p.t == 0)
            continue;
        SCOPED_TRACE(name(p));
        auto rs = core::make_reed_solomon(p, {});
        const size_t trials = p.n > 200 ? 200 : 1000;
        const auto data = random_bytes(trials * p.k, rng);
        std::vector<uint8_t> cw(trials * p.n), out(trials * p.k);
        std::vector<int32_t> status(trials);
        rs->encode(data.data(), cw.data(), trials);
        for (size_t i = 0; i < trials; i++)
            add_errors(cw.data() + i * p.n, p.n, p.t + 1, rng);
        const size_t flagged = rs->decode(cw.data(), out.data(), status.data(), trials);
        double p_wrong = 0;
        for (unsigned i = 0; i <= p.t; i++)
            p_wrong += binomial(p.n, i) * std::pow(255.0, i);
        p_wrong /= std::pow(256.0, 2.0 * p.t);
        const double allowed = std::max(4.0, 3.0 * p_wrong * double(trials));
        RecordProperty("miscorrected_n" + std::to_string(p.n), int(trials - flagged));
        EXPECT_GE(double(flagged), double(trials) - allowed);
        size_t counted = 0;
        for (size_t i = 0; i < trials; i++) {
            const std::vector<uint8_t> got(out.begin() + long(i * p.k),
                                           out.begin() + long((i + 1) * p.k));
            const std::vector<uint8_t> rx(cw.begin() + long(i * p.n + 2 * p.t),
                                          cw.begin() + long((i + 1) * p.n));
            const std::vector<uint8_t> want(data.begin() + long(i * p.k),
                                            data.begin() + long((i + 1) * p.k));
            if (status[i] == core::reed_solomon::uncorrectable) {
                counted++;
                EXPECT_EQ(got, rx) << "a flagged codeword passes its data unchanged";
            } else {
                EXPECT_GE(status[i], 0);
                EXPECT_LE(status[i], int32_t(p.t));
                EXPECT_NE(got, want) << "t + 1 errors cannot decode to the sent data";
            }
        }
        EXPECT_EQ(counted, flagged);
    }
}

TEST(reed_solomon, no_rs_profile_copies)
{
    std::mt19937 rng(45);
    auto rs = core::make_reed_solomon(core::rs_profile{ 12, 12, 0 }, {});
    const auto data = random_bytes(36, rng);
    std::vector<uint8_t> cw(36), out(36);
    std::vector<int32_t> status(3, -5);
    rs->encode(data.data(), cw.data(), 3);
    EXPECT_EQ(cw, data);
    EXPECT_EQ(rs->decode(cw.data(), out.data(), status.data(), 3), 0u);
    EXPECT_EQ(out, data);
    EXPECT_EQ(status, std::vector<int32_t>(3, 0));
}

TEST(reed_solomon, bad_profile_names_the_parameter)
{
    for (const rs_profile& bad : { rs_profile{ 40, 36, 3 }, rs_profile{ 255, 239, 4 },
                                   rs_profile{ 12, 12, 1 }, rs_profile{ 0, 0, 0 } }) {
        try {
            core::make_reed_solomon(bad, {});
            ADD_FAILURE() << name(bad) << " accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_EQ(std::string(e.what()).rfind("profile:", 0), 0u) << e.what();
        }
    }
    try {
        core::make_reed_solomon(core::rs_profile{ 40, 36, 2 }, {}, size_t(1) << 30);
        ADD_FAILURE() << "huge batch accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()).rfind("batch:", 0), 0u) << e.what();
    }
}

TEST(reed_solomon_cuda, matches_cpu_twin_bit_exact)
{
    GPUOFDM_REQUIRE_GPU();
    std::mt19937 rng(47);
    for (const auto& p : profiles) {
        SCOPED_TRACE(name(p));
        auto cpu = core::make_reed_solomon(p, {});
        auto gpu = core::make_reed_solomon(p, core::resolve_device("cuda"), 1000);
        const size_t n_cw = 2500; // three launches, the last one partial
        const auto data = random_bytes(n_cw * p.k, rng);
        std::vector<uint8_t> cw_cpu(n_cw * p.n), cw_gpu(n_cw * p.n);
        cpu->encode(data.data(), cw_cpu.data(), n_cw);
        gpu->encode(data.data(), cw_gpu.data(), n_cw);
        EXPECT_EQ(cw_gpu, cw_cpu);
        for (size_t i = 0; i < n_cw; i++) // 0 .. T + 3 errors
            add_errors(cw_cpu.data() + i * p.n, p.n, unsigned(rng() % (p.t + 4)), rng);
        std::vector<uint8_t> out_cpu(n_cw * p.k), out_gpu(n_cw * p.k);
        std::vector<int32_t> st_cpu(n_cw), st_gpu(n_cw);
        const size_t f_cpu = cpu->decode(cw_cpu.data(), out_cpu.data(), st_cpu.data(), n_cw);
        const size_t f_gpu = gpu->decode(cw_cpu.data(), out_gpu.data(), st_gpu.data(), n_cw);
        EXPECT_EQ(f_gpu, f_cpu);
        EXPECT_EQ(st_gpu, st_cpu);
        EXPECT_EQ(out_gpu, out_cpu);
    }
}
