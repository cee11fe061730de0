/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Scrambler / randomizer: the 802.16 vector, the 802.11a sequence of 17.3.5.4, periods,
// jump-ahead against stepping, state carried across calls, CUDA against the CPU twin,
// parameter checks. (Annex G is in test_annex_g.cc.)

#include "fec/scrambler.h"
#include "tx_test_vectors.h"

#include <tuple>

using namespace gr::gpuofdm;
using core::phy_standard;
using test::bit_errors;
using test::bits_msb_first;
using test::random_bits;

namespace {

const core::device_spec cpu{};

std::vector<uint8_t> sequence(phy_standard s, int seed, size_t n)
{
    auto scr = core::make_scrambler({ s, seed, 0 }, cpu);
    std::vector<uint8_t> zeros(n, 0), out(n);
    auto st = scr->initial_state();
    scr->process(zeros.data(), out.data(), n, st);
    return out;
}

} // namespace

// 17.3.5.4: from the all-ones state the generator repeats the 127-bit sequence
// 00001110 11110010 11001001 00000010 00100110 00101110 10110110 00001100 11010100
// 11100111 10110100 00101010 11111010 01010001 10111000 1111111.
TEST(scrambler, ieee80211a_all_ones_sequence)
{
    const std::string want = "0000111011110010110010010000001000100110001011101011011000001100"
                             "110101001110011110110100001010101111101001010001101110001111111";
    const auto got = sequence(phy_standard::ieee80211a, 0x7f, 127);
    std::string s;
    for (auto b : got)
        s += char('0' + b);
    EXPECT_EQ(s, want);
}

TEST(scrambler, periods_127_and_32767)
{
    for (auto [std_, period, divisors] :
         { std::tuple{ phy_standard::ieee80211a, size_t(127), std::vector<size_t>{ 1 } },
           std::tuple{ phy_standard::ieee80216, size_t(32767),
                       std::vector<size_t>{ 7, 31, 151, 217, 1057, 4681 } } }) {
        const auto seq = sequence(std_, 1, 2 * period);
        EXPECT_TRUE(std::equal(seq.begin(), seq.begin() + period, seq.begin() + period))
            << to_string(std_);
        for (size_t d : divisors) // no proper divisor of the period is a period
            EXPECT_FALSE(std::equal(seq.begin(), seq.begin() + period, seq.begin() + d))
                << to_string(std_) << " repeats after " << d;
    }
}

// 802.16-2004 8.3.3.5.1: the burst of input.txt randomized with reg1..reg15 =
// 000111011110001 at the first bit gives randomized.txt.
TEST(scrambler, ieee80216_example_randomized)
{
    GPUOFDM_LOAD_OCTETS(in, "ieee80216-ofdm", "input.txt");
    GPUOFDM_LOAD_OCTETS(want, "ieee80216-ofdm", "randomized.txt");
    auto scr = core::make_scrambler({ phy_standard::ieee80216, 0b000111011110001, 0 }, cpu);
    auto bits = bits_msb_first(in);
    auto st = scr->initial_state();
    scr->process(bits.data(), bits.data(), bits.size(), st);
    EXPECT_EQ(bit_errors(bits, bits_msb_first(want)), 0u);
}

// 8.3.3.1: the downlink init vector 100101010000000 (reg1 first) is the 802.16 default.
TEST(scrambler, ieee80216_default_init_vector)
{
    auto def = core::make_scrambler({ phy_standard::ieee80216, -1, 0 }, cpu);
    // reg1 = 1, reg4 = 1, reg6 = 1, reg8 = 1: register bits 0, 3, 5, 7.
    EXPECT_EQ(def->initial_state().reg, (1u << 0) | (1u << 3) | (1u << 5) | (1u << 7));
}

TEST(scrambler, descrambles_itself)
{
    for (auto s : { phy_standard::ieee80211a, phy_standard::ieee80216 }) {
        auto scr = core::make_scrambler({ s, 77, 0 }, cpu);
        const auto in = random_bits(5000, 3);
        std::vector<uint8_t> a(in.size()), b(in.size());
        auto st = scr->initial_state();
        scr->process(in.data(), a.data(), in.size(), st);
        st = scr->initial_state();
        scr->process(a.data(), b.data(), a.size(), st);
        EXPECT_EQ(bit_errors(b, in), 0u);
        EXPECT_GT(bit_errors(a, in), 1000u);
    }
}

TEST(scrambler, split_calls_equal_one_call)
{
    for (auto s : { phy_standard::ieee80211a, phy_standard::ieee80216 }) {
        auto scr = core::make_scrambler({ s, 5, 0 }, cpu);
        const auto in = random_bits(40000, 4);
        std::vector<uint8_t> whole(in.size()), parts(in.size());
        auto st = scr->initial_state();
        scr->process(in.data(), whole.data(), in.size(), st);
        const auto end_state = st;
        st = scr->initial_state();
        size_t pos = 0;
        for (size_t len : { 1, 126, 127, 128, 3, 32767, 1000 }) {
            len = std::min(len, in.size() - pos);
            scr->process(in.data() + pos, parts.data() + pos, len, st);
            pos += len;
        }
        scr->process(in.data() + pos, parts.data() + pos, in.size() - pos, st);
        EXPECT_EQ(bit_errors(parts, whole), 0u) << to_string(s);
        EXPECT_EQ(st.reg, end_state.reg) << to_string(s);
    }
}

// The CUDA backend's jump-ahead table (host code) against plain stepping.
TEST(scrambler, period_table_jump_ahead_matches_stepping)
{
    for (auto s : { phy_standard::ieee80211a, phy_standard::ieee80216 }) {
        const auto spec = core::lfsr_for(s);
        const core::lfsr_period_table table(spec);
        ASSERT_EQ(table.period(), spec.period());
        std::mt19937 rng(9);
        for (int trial = 0; trial < 50; trial++) {
            uint32_t reg = 1 + rng() % spec.period();
            const uint64_t n = trial < 5 ? uint64_t(trial) : uint64_t(rng()) * 1000003ull;
            const uint32_t jumped = table.advance(reg, n);
            uint32_t stepped = reg;
            for (uint64_t k = 0; k < n % spec.period(); k++)
                stepped = core::lfsr_step(stepped, spec);
            EXPECT_EQ(jumped, stepped) << to_string(s) << " n=" << n;
            EXPECT_EQ(table.bits()[table.index_of(reg)], core::lfsr_feedback(reg, spec));
        }
    }
}

TEST(scrambler, bad_parameters_throw)
{
    using test::throws_invalid;
    EXPECT_TRUE(throws_invalid(
        [] {
            core::make_scrambler({ phy_standard(5), 1, 0 }, cpu);
        },
        "standard"));
    EXPECT_TRUE(throws_invalid(
        [] {
            core::make_scrambler({ phy_standard::ieee80211a, 0, 0 }, cpu);
        },
        "seed"));
    EXPECT_TRUE(throws_invalid(
        [] {
            core::make_scrambler({ phy_standard::ieee80211a, 128, 0 }, cpu);
        },
        "seed"));
    EXPECT_TRUE(throws_invalid(
        [] {
            core::make_scrambler({ phy_standard::ieee80216, 32768, 0 }, cpu);
        },
        "seed"));
    EXPECT_TRUE(throws_invalid(
        [] {
            core::make_scrambler({ phy_standard::ieee80211a, 1, size_t(1) << 40 }, cpu);
        },
        "batch"));
    auto scr = core::make_scrambler({ phy_standard::ieee80211a, 1, 0 }, cpu);
    uint8_t bit = 0;
    core::scrambler_state zero{ 0 };
    EXPECT_TRUE(throws_invalid([&] { scr->process(&bit, &bit, 1, zero); }, "state"));
}

// CUDA against the CPU twin: odd lengths, batches that cut the stream anywhere, calls that
// start mid-period.
TEST(scrambler, cuda_matches_cpu)
{
    GPUOFDM_REQUIRE_GPU();
    const core::device_spec gpu{ core::backend::cuda, 0 };
    for (auto s : { phy_standard::ieee80211a, phy_standard::ieee80216 }) {
        for (size_t batch : { size_t(0), size_t(1), size_t(7), size_t(4096), size_t(32769) }) {
            auto ref = core::make_scrambler({ s, 93, 0 }, cpu);
            auto dut = core::make_scrambler({ s, 93, batch }, gpu);
            for (size_t n :
                 { size_t(1), size_t(127), size_t(1001), size_t(32767 + 5), size_t(100003) }) {
                // A launch every few bits: a few hundred launches cross enough batch
                // edges (and keep the test short under compute-sanitizer).
                if ((batch == 1 && n > 127) || (batch > 0 && batch < 4096 && n > 1001))
                    continue;
                const auto in = random_bits(n, uint32_t(n + batch));
                std::vector<uint8_t> want(n), got(n);
                auto st_ref = ref->initial_state();
                auto st_dut = dut->initial_state();
                ref->process(in.data(), want.data(), n / 3, st_ref);
                ref->process(in.data() + n / 3, want.data() + n / 3, n - n / 3, st_ref);
                dut->process(in.data(), got.data(), n / 3, st_dut);
                dut->process(in.data() + n / 3, got.data() + n / 3, n - n / 3, st_dut);
                EXPECT_EQ(bit_errors(got, want), 0u)
                    << to_string(s) << " batch " << batch << " n " << n;
                EXPECT_EQ(st_dut.reg, st_ref.reg);
            }
        }
    }
}
