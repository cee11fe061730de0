/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Viterbi decoder and depuncturer: a reference K = 7 encoder and puncturer written here
// from the standards (checked against the IEEE 802.16-2004 8.3.3.5.1 vector), noiseless
// identity for every rate of both protocols, chunk and call boundaries, the chunked decoder
// against a classic full-length decoder under AWGN, soft against hard, parameter checks,
// and the CUDA backend against the CPU twin.

#include "fec/depuncture.h"
#include "test_util.h"
#include "fec/viterbi.h"

#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

#ifdef GPUOFDM_HAVE_CUDA
#include "runtime/cuda_check.h"
#endif

using namespace gr::gpuofdm;
using core::viterbi_params;

namespace {

// Generator taps for the test encoder: IEEE 802.11a-1999 17.3.5.5 (A = 133, B = 171 octal,
// A first) and 802.16-2004 8.3.3.2.3 (X = 171, Y = 133, X first). Tap d (delay d) of an
// octal generator g is bit 6 - d.
struct code_spec {
    const char* protocol;
    unsigned first, second;
};
const code_spec wifi{ "80211a", 0133, 0171 };
const code_spec wimax{ "80216", 0171, 0133 };

// Rate-1/2 encoder from the shift-register drawing: x[n-d] for d = 0..6, zero start state.
std::vector<uint8_t> encode(const std::vector<uint8_t>& bits, const code_spec& c)
{
    std::vector<uint8_t> reg(7, 0), out;
    for (uint8_t b : bits) {
        for (int d = 6; d > 0; d--)
            reg[d] = reg[d - 1];
        reg[0] = b;
        int a = 0, s = 0;
        for (int d = 0; d <= 6; d++) {
            a ^= reg[d] & ((c.first >> (6 - d)) & 1);
            s ^= reg[d] & ((c.second >> (6 - d)) & 1);
        }
        out.push_back(uint8_t(a));
        out.push_back(uint8_t(s));
    }
    return out;
}

// Transmitted order of one puncturing period, as the standards print it: 802.11a-1999
// Fig. 117 (and 802.11n-2009 20.3.11.6 for 5/6), 802.16-2004 Table 215 footnote.
// A/X = the first coded bit of a step, B/Y = the second; 802.16 counts steps from 1.
std::string transmit_order(const std::string& protocol, const std::string& rate)
{
    if (protocol == "80211a") {
        if (rate == "1/2")
            return "A0 B0";
        if (rate == "2/3")
            return "A0 B0 A1";
        if (rate == "3/4")
            return "A0 B0 A1 B2";
        if (rate == "5/6")
            return "A0 B0 A1 B2 A3 B4";
    } else {
        if (rate == "1/2")
            return "X1 Y1";
        if (rate == "2/3")
            return "X1 Y1 Y2";
        if (rate == "3/4")
            return "X1 Y1 Y2 X3";
        if (rate == "5/6")
            return "X1 Y1 Y2 X3 Y4 X5";
    }
    return "";
}

struct period_spec {
    size_t steps = 0;
    std::vector<size_t> order; // indices into one period of the mother stream (2 per step)
};

period_spec parse_order(const std::string& protocol, const std::string& rate)
{
    period_spec p;
    std::istringstream is(transmit_order(protocol, rate));
    std::string tok;
    const size_t first_step = protocol == "80216" ? 1 : 0;
    while (is >> tok) {
        const size_t step = size_t(std::stoul(tok.substr(1))) - first_step;
        const size_t which = (tok[0] == 'A' || tok[0] == 'X') ? 0 : 1;
        p.order.push_back(2 * step + which);
        p.steps = std::max(p.steps, step + 1);
    }
    return p;
}

template <typename T>
std::vector<T> puncture(const std::vector<T>& mother, const period_spec& p)
{
    std::vector<T> out;
    for (size_t base = 0; base < mother.size(); base += 2 * p.steps)
        for (size_t q : p.order)
            out.push_back(mother[base + q]);
    return out;
}

std::vector<uint8_t> random_bits(size_t n, std::mt19937& rng)
{
    std::vector<uint8_t> v(n);
    for (auto& b : v)
        b = uint8_t(rng() & 1);
    return v;
}

// Data bits followed by 6 zero tail bits, n_steps in all.
std::vector<uint8_t> terminated_frame(size_t n_steps, std::mt19937& rng)
{
    auto v = random_bits(n_steps - 6, rng);
    v.insert(v.end(), 6, 0);
    return v;
}

// BPSK over AWGN (bit 0 -> +1): LLRs 2y/sigma^2 and hard decisions.
struct channel_out {
    std::vector<float> llr;
    std::vector<uint8_t> hard;
};

channel_out awgn(const std::vector<uint8_t>& coded, double ebn0_db, double rate, uint32_t seed)
{
    std::mt19937 rng(seed);
    const double sigma2 = 1.0 / (2.0 * rate * std::pow(10.0, ebn0_db / 10.0));
    std::normal_distribution<double> g(0.0, std::sqrt(sigma2));
    channel_out c;
    for (uint8_t b : coded) {
        const double y = (b ? -1.0 : 1.0) + g(rng);
        c.llr.push_back(float(2.0 * y / sigma2));
        c.hard.push_back(y < 0 ? 1 : 0);
    }
    return c;
}

size_t count_errors(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b)
{
    size_t n = 0;
    for (size_t i = 0; i < a.size(); i++)
        n += a[i] != b[i];
    return n;
}

std::vector<uint8_t> read_hex_bits(const std::string& file)
{
    std::ifstream f(file);
    std::vector<uint8_t> bits;
    std::string line;
    while (f >> line) {
        const unsigned v = unsigned(std::stoul(line, nullptr, 16));
        for (int i = 7; i >= 0; i--) // first transmitted bit = MSB (vector README)
            bits.push_back(uint8_t((v >> i) & 1));
    }
    return bits;
}

// Decodes a stream through process() in random call sizes, then flush().
std::vector<uint8_t> decode_stream(core::viterbi_decoder& dec,
                                   const std::vector<float>& llr,
                                   bool zero_end,
                                   std::mt19937& rng)
{
    const auto& p = dec.params();
    std::vector<uint8_t> out(llr.size() / 2 + p.chunk_len + p.traceback);
    core::viterbi_stream_state st;
    size_t pos = 0, got = 0;
    std::uniform_int_distribution<size_t> step(0, 3 * p.chunk_len + 5);
    while (pos < llr.size()) {
        const size_t n = std::min(2 * step(rng), llr.size() - pos);
        got += dec.process(llr.data() + pos, n, out.data() + got, st);
        pos += n;
    }
    got += dec.flush(out.data() + got, st, zero_end);
    out.resize(got);
    return out;
}

std::vector<uint8_t> decode_frames(core::viterbi_decoder& dec,
                                   const std::vector<float>& llr,
                                   size_t frame_steps)
{
    std::vector<uint8_t> out(llr.size() / 2);
    dec.decode_frames(llr.data(), llr.size(), frame_steps, out.data());
    return out;
}

template <typename F>
std::string invalid_argument_message(F f)
{
    try {
        f();
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "(no std::invalid_argument)";
}

const char* const rates[] = { "1/2", "2/3", "3/4", "5/6" };

} // namespace

TEST(viterbi, test_encoder_reproduces_80216_vector)
{
    // 802.16-2004 8.3.3.5.1: the RS codeword (tail byte included, so the encoder ends in
    // state 0) through X = 171, Y = 133 punctured to 5/6 gives cc_encoded.txt.
    const std::string dir = test::testvector_dir() + "/ieee80216-ofdm/";
    const auto rs = read_hex_bits(dir + "rs_encoded.txt");
    const auto cc = read_hex_bits(dir + "cc_encoded.txt");
    if (rs.empty() || cc.empty())
        GTEST_SKIP() << "802.16 test vectors not found in " << dir;
    ASSERT_EQ(rs.size(), 320u);
    EXPECT_EQ(puncture(encode(rs, wimax), parse_order("80216", "5/6")), cc);
}

TEST(viterbi, decodes_80216_vector_hard)
{
    const std::string dir = test::testvector_dir() + "/ieee80216-ofdm/";
    const auto rs = read_hex_bits(dir + "rs_encoded.txt");
    const auto cc = read_hex_bits(dir + "cc_encoded.txt");
    if (rs.empty() || cc.empty())
        GTEST_SKIP() << "802.16 test vectors not found in " << dir;
    std::vector<float> soft(cc.size());
    core::hard_to_llr(cc.data(), cc.size(), soft.data());
    core::depuncturer dp("80216", "5/6");
    std::vector<float> mother(dp.output_len(soft.size()));
    dp.process(soft.data(), soft.size(), mother.data());
    ASSERT_EQ(mother.size(), 2 * rs.size());
    auto dec = core::make_viterbi_decoder(viterbi_params::for_protocol("80216", "5/6"), {});
    EXPECT_EQ(decode_frames(*dec, mother, rs.size()), rs);
}

TEST(depuncture, inverts_the_standard_puncturing)
{
    for (const char* proto : { "80211a", "80216" })
        for (const char* rate : rates) {
            SCOPED_TRACE(std::string(proto) + " " + rate);
            const period_spec ps = parse_order(proto, rate);
            core::depuncturer dp(proto, rate);
            EXPECT_EQ(dp.pattern().period, ps.steps);
            EXPECT_EQ(dp.pattern().kept, ps.order.size());
            // Mother values 1..n; punctured positions must come back as 0, the rest in place.
            const size_t n = 2 * ps.steps * 7;
            std::vector<float> mother(n);
            for (size_t i = 0; i < n; i++)
                mother[i] = float(i + 1);
            const auto tx = puncture(mother, ps);
            std::vector<float> back(dp.output_len(tx.size()));
            ASSERT_EQ(dp.process(tx.data(), tx.size(), back.data()), n);
            std::vector<bool> sent(2 * ps.steps, false);
            for (size_t q : ps.order)
                sent[q] = true;
            for (size_t i = 0; i < n; i++)
                EXPECT_EQ(back[i], sent[i % (2 * ps.steps)] ? mother[i] : 0.0f) << "at " << i;
        }
}

TEST(viterbi, noiseless_identity_every_rate_and_protocol)
{
    std::mt19937 rng(1234);
    for (const code_spec* c : { &wifi, &wimax })
        for (const char* rate : rates) {
            for (size_t chunk : { size_t(13), size_t(256) }) {
                SCOPED_TRACE(std::string(c->protocol) + " " + rate + " chunk " +
                             std::to_string(chunk));
                const period_spec ps = parse_order(c->protocol, rate);
                auto p = viterbi_params::for_protocol(c->protocol, rate);
                p.chunk_len = chunk;
                auto dec = core::make_viterbi_decoder(p, {});
                core::depuncturer dp(c->protocol, rate);
                // Three terminated frames of the same length, decoded in one call.
                const size_t steps = ps.steps * (60 + rng() % 60);
                std::vector<uint8_t> data;
                std::vector<float> mother;
                std::vector<uint8_t> hard_mother;
                for (int f = 0; f < 3; f++) {
                    const auto bits = terminated_frame(steps, rng);
                    data.insert(data.end(), bits.begin(), bits.end());
                    const auto tx = puncture(encode(bits, *c), ps);
                    std::vector<float> soft(tx.size());
                    core::hard_to_llr(tx.data(), tx.size(), soft.data());
                    for (auto& v : soft)
                        v *= 3.5f;
                    std::vector<float> m(dp.output_len(soft.size()));
                    dp.process(soft.data(), soft.size(), m.data());
                    mother.insert(mother.end(), m.begin(), m.end());
                }
                EXPECT_EQ(decode_frames(*dec, mother, steps), data);
                // Continuous: the same stream in random calls (terminated at the end).
                EXPECT_EQ(decode_stream(*dec, mother, true, rng), data);
                EXPECT_EQ(decode_stream(*dec, mother, false, rng), data);
            }
        }
}

TEST(viterbi, hard_input_rate_half)
{
    std::mt19937 rng(99);
    const auto bits = terminated_frame(1000, rng);
    auto coded = encode(bits, wifi);
    auto dec = core::make_viterbi_decoder(viterbi_params::for_protocol("80211a", "1/2"), {});
    std::vector<uint8_t> out(bits.size());
    dec->decode_frames_hard(coded.data(), coded.size(), bits.size(), out.data());
    EXPECT_EQ(out, bits);
    // Four scattered bit errors are corrected (d_free = 10).
    for (size_t i : { 100, 400, 1200, 1800 })
        coded[i] ^= 1;
    dec->decode_frames_hard(coded.data(), coded.size(), bits.size(), out.data());
    EXPECT_EQ(out, bits);
    core::viterbi_stream_state st;
    std::vector<uint8_t> s(bits.size() + 512);
    size_t got = dec->process_hard(coded.data(), coded.size(), s.data(), st);
    got += dec->flush(s.data() + got, st, true);
    s.resize(got);
    EXPECT_EQ(s, bits);
}

TEST(viterbi, chunk_and_call_boundaries_do_not_change_the_output)
{
    // With noise, so decisions are not trivial: one-shot frame decoding, continuous decoding
    // in random calls, and launches split by a small max_steps must agree bit for bit.
    std::mt19937 rng(7);
    for (size_t chunk : { size_t(5), size_t(64), size_t(200) }) {
        SCOPED_TRACE("chunk " + std::to_string(chunk));
        const auto bits = terminated_frame(6000, rng);
        const auto ch = awgn(encode(bits, wimax), 1.5, 0.5, 11 + uint32_t(chunk));
        auto p = viterbi_params::for_protocol("80216", "1/2");
        p.chunk_len = chunk;
        auto dec = core::make_viterbi_decoder(p, {});
        const auto frames = decode_frames(*dec, ch.llr, bits.size());
        EXPECT_EQ(decode_stream(*dec, ch.llr, true, rng), frames);
        p.max_steps = p.warmup + p.traceback + 3 * chunk;
        auto small = core::make_viterbi_decoder(p, {});
        EXPECT_EQ(decode_stream(*small, ch.llr, true, rng), frames);
        // Two frames back to back through a decoder that can hold only one per launch.
        p.max_steps = bits.size();
        auto one = core::make_viterbi_decoder(p, {});
        std::vector<float> two = ch.llr;
        two.insert(two.end(), ch.llr.begin(), ch.llr.end());
        auto both = decode_frames(*one, two, bits.size());
        EXPECT_EQ(std::vector<uint8_t>(both.begin(), both.begin() + bits.size()), frames);
        EXPECT_EQ(std::vector<uint8_t>(both.begin() + bits.size(), both.end()), frames);
    }
}

// The twin before its rearrangement for speed: viterbi_acs() per state, as the kernel
// runs it, one chunk at a time. The rearranged twin must match it bit for bit.
std::vector<uint8_t> decode_frames_per_state(const core::viterbi_params& p,
                                             const std::vector<float>& llr,
                                             size_t frame_steps)
{
    core::viterbi_job job{};
    job.chunk_len = uint32_t(p.chunk_len);
    job.warmup = uint32_t(p.warmup);
    job.traceback = uint32_t(p.traceback);
    job.poly0 = p.poly0;
    job.poly1 = p.poly1;
    job.n_segments = llr.size() / (2 * frame_steps);
    job.seg_steps = frame_steps;
    job.out_end = frame_steps;
    job.known_start = true;
    job.zero_end = true;
    std::vector<uint8_t> out(llr.size() / 2);
    std::vector<uint32_t> dec(2 * (p.chunk_len + p.traceback));
    float m[core::viterbi_states], next[core::viterbi_states];
    for (uint64_t seg = 0; seg < job.n_segments; seg++)
        for (uint64_t i = 0; i < core::viterbi_chunks_per_segment(job); i++) {
            const core::viterbi_chunk k = core::viterbi_chunk_at(job, i);
            for (unsigned s = 0; s < core::viterbi_states; s++)
                m[s] = k.known_start && s != 0 ? core::viterbi_unreached : 0.0f;
            for (uint64_t t = k.fwd_begin; t < k.fwd_end; t++) {
                const float* l = llr.data() + 2 * (seg * frame_steps + t);
                uint32_t w[2] = { 0, 0 };
                for (unsigned s = 0; s < core::viterbi_states; s++) {
                    unsigned d;
                    next[s] = core::viterbi_acs(m, s, l[0], l[1], p.poly0, p.poly1, &d);
                    w[s >> 5] |= d << (s & 31);
                }
                if (t >= k.out_begin) {
                    dec[2 * (t - k.out_begin)] = w[0];
                    dec[2 * (t - k.out_begin) + 1] = w[1];
                }
                for (unsigned s = 0; s < core::viterbi_states; s++)
                    m[s] = next[s] - next[0];
            }
            unsigned best = 0;
            if (!k.zero_end)
                for (unsigned s = 1; s < core::viterbi_states; s++)
                    if (m[s] > m[best])
                        best = s;
            core::viterbi_traceback(dec.data(), k.out_begin, k.out_end, k.fwd_end, best,
                                    out.data() + seg * frame_steps + k.out_begin);
        }
    return out;
}

TEST(viterbi, twin_matches_per_state_acs_and_threads_do_not_change_the_output)
{
    // Noisy LLRs with exact zeros and ties (l1 = -l0), where tie-breaking decides, at a low
    // SNR so survivors often disagree; both protocols' generators and an odd pair of them.
    std::mt19937 rng(31);
    for (unsigned g : { 0u, 1u, 2u }) {
        SCOPED_TRACE("generators " + std::to_string(g));
        auto p = viterbi_params::for_protocol(g == 1 ? "80216" : "80211a", "1/2");
        if (g == 2) {
            p.poly0 = 0116; // no tap at delay 6: the branch tables must not assume one
            p.poly1 = 0147;
        }
        p.chunk_len = 40;
        p.max_steps = 8192;
        const size_t steps = 2000;
        const auto bits = terminated_frame(4 * steps, rng);
        auto llr = awgn(encode(bits, g == 1 ? wimax : wifi), 1.0, 0.5, 3 + g).llr;
        for (size_t i = 0; i < llr.size(); i += 29)
            llr[i] = 0.0f;
        for (size_t i = 1; i < llr.size(); i += 41)
            llr[i] = -llr[i - 1];
        auto one = core::make_viterbi_decoder(p, {});
        const auto ref = decode_frames_per_state(p, llr, steps);
        EXPECT_EQ(decode_frames(*one, llr, steps), ref);
        p.cpu_threads = 0;
        auto many = core::make_viterbi_decoder(p, {});
        EXPECT_EQ(decode_frames(*many, llr, steps), ref);
        p.cpu_threads = 3;
        auto three = core::make_viterbi_decoder(p, {});
        EXPECT_EQ(decode_frames(*three, llr, steps), ref);
        EXPECT_EQ(decode_stream(*three, llr, false, rng), decode_stream(*one, llr, false, rng));
    }
}

TEST(viterbi, decode_window_equals_process)
{
    // A caller-held window (a GNU Radio buffer) instead of the stream state: drop
    // everything before window_begin() after each call, as the block does.
    std::mt19937 rng(17);
    const auto bits = terminated_frame(20000, rng);
    const auto ch = awgn(encode(bits, wifi), 2.0, 0.5, 23);
    auto p = viterbi_params::for_protocol("80211a", "1/2");
    p.max_steps = 2000;
    auto dec = core::make_viterbi_decoder(p, {});
    const auto ref = decode_stream(*dec, ch.llr, false, rng);
    std::vector<uint8_t> out(bits.size());
    uint64_t base = 0, next = 0, have = 0;
    std::uniform_int_distribution<size_t> step(1, 3000);
    while (have < bits.size()) {
        have = std::min<uint64_t>(bits.size(), have + step(rng));
        const bool end = have == bits.size();
        const size_t n =
            dec->decode_window(ch.llr.data() + 2 * base, base, size_t(have - base), next, true, end,
                               false, out.data() + next, size_t(bits.size() - next));
        next += n;
        base = std::max(base, dec->window_begin(next) / 3 * 3); // whole "periods" of 3 steps
    }
    EXPECT_EQ(next, bits.size());
    EXPECT_EQ(out, ref);
}

TEST(viterbi, chunked_equals_full_reference_at_high_snr)
{
    std::mt19937 rng(21);
    for (const char* rate : { "1/2", "3/4" }) {
        SCOPED_TRACE(rate);
        const period_spec ps = parse_order("80211a", rate);
        const double r = double(ps.steps) / double(ps.order.size());
        const auto bits = terminated_frame(ps.steps * 6000, rng);
        const auto ch = awgn(puncture(encode(bits, wifi), ps), 7.0, r, 5);
        core::depuncturer dp("80211a", rate);
        std::vector<float> mother(dp.output_len(ch.llr.size()));
        dp.process(ch.llr.data(), ch.llr.size(), mother.data());
        auto dec = core::make_viterbi_decoder(viterbi_params::for_protocol("80211a", rate), {});
        const auto ref =
            core::viterbi_decode_reference(mother.data(), bits.size(), 0133, 0171, true);
        EXPECT_EQ(decode_frames(*dec, mother, bits.size()), ref);
        EXPECT_LE(count_errors(ref, bits), 2u);
    }
}

TEST(viterbi, ber_under_awgn_close_to_full_reference)
{
    // Rate 1/2 soft at Eb/N0 = 2.5 dB: a K = 7 decoder gives a BER near 1e-3 (e.g. Proakis,
    // Digital Communications, Fig. 8.2-21); the default overlaps (40/40) may cost only a few percent.
    std::mt19937 rng(3);
    const auto bits = terminated_frame(200000, rng);
    const auto ch = awgn(encode(bits, wifi), 2.5, 0.5, 17);
    auto dec = core::make_viterbi_decoder(viterbi_params::for_protocol("80211a", "1/2"), {});
    const size_t e_chunk = count_errors(decode_frames(*dec, ch.llr, bits.size()), bits);
    const size_t e_ref = count_errors(
        core::viterbi_decode_reference(ch.llr.data(), bits.size(), 0133, 0171, true), bits);
    RecordProperty("errors_chunked", int(e_chunk));
    RecordProperty("errors_reference", int(e_ref));
    EXPECT_GT(e_ref, 20u); // 1e-4 .. 5e-3: the channel model is what the test claims
    EXPECT_LT(e_ref, 1000u);
    EXPECT_LE(double(e_chunk), 1.15 * double(e_ref) + 5.0);
    EXPECT_GE(double(e_chunk), 0.85 * double(e_ref) - 5.0);
}

TEST(viterbi, soft_beats_hard_at_4_db)
{
    std::mt19937 rng(4);
    const auto bits = terminated_frame(100000, rng);
    const auto ch = awgn(encode(bits, wimax), 4.0, 0.5, 23);
    auto dec = core::make_viterbi_decoder(viterbi_params::for_protocol("80216", "1/2"), {});
    const size_t e_soft = count_errors(decode_frames(*dec, ch.llr, bits.size()), bits);
    std::vector<uint8_t> out(bits.size());
    dec->decode_frames_hard(ch.hard.data(), ch.hard.size(), bits.size(), out.data());
    const size_t e_hard = count_errors(out, bits);
    RecordProperty("errors_soft", int(e_soft));
    RecordProperty("errors_hard", int(e_hard));
    // About 2 dB of soft-decision gain: hard decisions at 4 dB give ~1e-3, soft ~1e-5.
    EXPECT_GT(e_hard, 30u);
    EXPECT_LT(10 * e_soft, e_hard);
}

TEST(viterbi, bad_parameters_name_the_parameter)
{
    auto starts = [](const std::string& msg, const std::string& name) {
        return msg.rfind(name + ":", 0) == 0;
    };
    viterbi_params p;
    p.poly0 = 0x3f;
    EXPECT_TRUE(
        starts(invalid_argument_message([&] { core::make_viterbi_decoder(p, {}); }), "poly0"));
    p = viterbi_params();
    p.chunk_len = 0;
    EXPECT_TRUE(
        starts(invalid_argument_message([&] { core::make_viterbi_decoder(p, {}); }), "chunk_len"));
    p = viterbi_params();
    p.max_steps = 100;
    EXPECT_TRUE(
        starts(invalid_argument_message([&] { core::make_viterbi_decoder(p, {}); }), "max_steps"));
    p = viterbi_params();
    p.cuda_threads_per_chunk = 3;
    EXPECT_TRUE(starts(invalid_argument_message([&] { core::make_viterbi_decoder(p, {}); }),
                       "cuda_threads_per_chunk"));
    EXPECT_TRUE(starts(
        invalid_argument_message([] { viterbi_params::for_protocol("80211a", "7/8"); }), "rate"));
    EXPECT_TRUE(starts(
        invalid_argument_message([] { viterbi_params::for_protocol("wifi", "1/2"); }), "protocol"));
    EXPECT_TRUE(
        starts(invalid_argument_message([] { core::depuncturer("80216", "1/3"); }), "rate"));
    EXPECT_TRUE(
        starts(invalid_argument_message([] { core::depuncturer("lte", "1/2"); }), "protocol"));
    EXPECT_TRUE(
        starts(invalid_argument_message([] { core::depuncturer("80211a", "3/4").output_len(5); }),
               "n_in"));

    auto dec = core::make_viterbi_decoder(viterbi_params(), {});
    std::vector<float> llr(100);
    std::vector<uint8_t> out(100);
    EXPECT_TRUE(starts(
        invalid_argument_message([&] { dec->decode_frames(llr.data(), 100, 30, out.data()); }),
        "n_llr"));
    EXPECT_TRUE(starts(
        invalid_argument_message([&] { dec->decode_frames(llr.data(), 100, 0, out.data()); }),
        "frame_steps"));
    core::viterbi_stream_state st;
    EXPECT_TRUE(starts(
        invalid_argument_message([&] { dec->process(llr.data(), 99, out.data(), st); }), "n_llr"));
}

TEST(viterbi_cuda, matches_cpu_twin_bit_exact)
{
    GPUOFDM_REQUIRE_GPU();
    std::mt19937 rng(77);
    for (const char* rate : { "1/2", "3/4", "5/6" }) {
        SCOPED_TRACE(rate);
        auto p = viterbi_params::for_protocol("80211a", rate);
        p.chunk_len = 1 + rng() % 300;
        p.max_steps = 1 << 16;
        auto cpu = core::make_viterbi_decoder(p, {});
        auto gpu = core::make_viterbi_decoder(p, core::resolve_device("cuda"));
        // Noisy soft frames, and quantised LLRs with erasures that make many exact ties.
        const period_spec ps = parse_order("80211a", rate);
        const size_t steps = ps.steps * 700;
        std::vector<float> soft, tied;
        core::depuncturer dp("80211a", rate);
        for (int f = 0; f < 40; f++) {
            const auto bits = terminated_frame(steps, rng);
            const auto ch = awgn(puncture(encode(bits, wifi), ps), 1.0, 0.5, rng());
            std::vector<float> m(dp.output_len(ch.llr.size()));
            dp.process(ch.llr.data(), ch.llr.size(), m.data());
            soft.insert(soft.end(), m.begin(), m.end());
            for (float v : m)
                tied.push_back(std::round(v / 4.0f));
        }
        EXPECT_EQ(decode_frames(*gpu, soft, steps), decode_frames(*cpu, soft, steps));
        EXPECT_EQ(decode_frames(*gpu, tied, steps), decode_frames(*cpu, tied, steps));
        // One long stream in random calls, not terminated.
        std::mt19937 r1(5), r2(6);
        EXPECT_EQ(decode_stream(*gpu, soft, false, r1), decode_stream(*cpu, soft, false, r2));
    }
}

#ifdef GPUOFDM_HAVE_CUDA
// Every thread count of the CUDA kernel (the parameter: 0 = automatic, 1, 2, 4, 8), both
// standards' generators and others (the general kernel), odd chunk geometries (no warm-up,
// no traceback, chunks of one step), noisy and tied LLRs, frames and streams: the CPU
// twin's bits every time. One instance a thread count, so compute-sanitizer can take them
// one at a time.
class viterbi_cuda_threads : public ::testing::TestWithParam<unsigned>
{
};

TEST_P(viterbi_cuda_threads, every_kernel_matches_cpu_twin_bit_exact)
{
    GPUOFDM_REQUIRE_GPU();
    const unsigned g = GetParam();
    std::mt19937 rng(91 + g);
    const code_spec other{ "other", 0155, 0117 };
    for (const code_spec& c : { wifi, wimax, other })
        for (int trial = 0; trial < 4; trial++) {
            viterbi_params p;
            p.poly0 = c.first;
            p.poly1 = c.second;
            p.chunk_len = trial == 0 ? 1 : 1 + rng() % 400;
            p.warmup = trial == 1 ? 0 : rng() % 200;
            p.traceback = trial == 2 ? 0 : rng() % 200;
            p.max_steps = 1 << 15;
            p.cuda_threads_per_chunk = g;
            SCOPED_TRACE(std::string(c.protocol) + " g " + std::to_string(g) + " chunk " +
                         std::to_string(p.chunk_len) + " warmup " + std::to_string(p.warmup) +
                         " traceback " + std::to_string(p.traceback));
            auto cpu = core::make_viterbi_decoder(p, {});
            auto gpu = core::make_viterbi_decoder(p, core::resolve_device("cuda"));
            const size_t steps = 50 + rng() % 3000;
            std::vector<float> soft, tied;
            for (int f = 0; f < 5; f++) {
                const auto ch = awgn(encode(terminated_frame(steps, rng), c), 1.0, 0.5, rng());
                soft.insert(soft.end(), ch.llr.begin(), ch.llr.end());
            }
            for (float v : soft)
                tied.push_back(std::round(v / 4.0f));
            EXPECT_EQ(decode_frames(*gpu, soft, steps), decode_frames(*cpu, soft, steps));
            EXPECT_EQ(decode_frames(*gpu, tied, steps), decode_frames(*cpu, tied, steps));
            std::mt19937 r1(trial), r2(trial);
            EXPECT_EQ(decode_stream(*gpu, tied, false, r1), decode_stream(*cpu, tied, false, r2));
        }
}

INSTANTIATE_TEST_SUITE_P(viterbi_cuda,
                         viterbi_cuda_threads,
                         ::testing::Values(0u, 1u, 2u, 4u, 8u),
                         [](const ::testing::TestParamInfo<unsigned>& i) {
                             return "threads" + std::to_string(i.param);
                         });

// Launches as large as the benchmark's (2^20 steps: one frame, and many short frames; both
// pipelined), a stream in large calls, and
// chunks whose decisions do not fit in shared memory (the general kernel).
TEST(viterbi_cuda, large_launches_match_cpu_twin_bit_exact)
{
    GPUOFDM_REQUIRE_GPU();
    std::mt19937 rng(17);
    const size_t steps = size_t(1) << 20;
    const auto ch = awgn(encode(terminated_frame(steps, rng), wimax), 2.0, 0.5, 3);
    for (const char* protocol : { "80211a", "80216" }) {
        auto p = viterbi_params::for_protocol(protocol, "1/2");
        p.max_steps = steps;
        p.cpu_threads = 0;
        auto cpu = core::make_viterbi_decoder(p, {});
        auto gpu = core::make_viterbi_decoder(p, core::resolve_device("cuda"));
        EXPECT_EQ(decode_frames(*gpu, ch.llr, steps), decode_frames(*cpu, ch.llr, steps));
        EXPECT_EQ(decode_frames(*gpu, ch.llr, 1024), decode_frames(*cpu, ch.llr, 1024));
    }
    // A stream in calls of about 2^19 steps (the frame twice): the calls' jobs go in pieces
    // whose uploads, kernels and downloads overlap, from a base and a first output past 0.
    {
        auto ps = viterbi_params::for_protocol("80211a", "1/2");
        ps.max_steps = steps;
        auto cpu = core::make_viterbi_decoder(ps, {});
        auto gpu = core::make_viterbi_decoder(ps, core::resolve_device("cuda"));
        std::vector<float> twice = ch.llr;
        twice.insert(twice.end(), ch.llr.begin(), ch.llr.end());
        std::vector<uint8_t> want(2 * steps + 1024), got(2 * steps + 1024);
        core::viterbi_stream_state sc, sg;
        size_t nc = 0, ng = 0;
        for (size_t pos = 0; pos < twice.size();) {
            const size_t n = std::min(2 * ((size_t(1) << 19) + 777), twice.size() - pos);
            nc += cpu->process(twice.data() + pos, n, want.data() + nc, sc);
            ng += gpu->process(twice.data() + pos, n, got.data() + ng, sg);
            pos += n;
        }
        nc += cpu->flush(want.data() + nc, sc, true);
        ng += gpu->flush(got.data() + ng, sg, true);
        EXPECT_EQ(ng, 2 * steps);
        EXPECT_EQ(got, want);
    }
    auto p = viterbi_params::for_protocol("80211a", "1/2");
    p.chunk_len = 20000;
    p.max_steps = 1 << 17;
    auto cpu = core::make_viterbi_decoder(p, {});
    auto gpu = core::make_viterbi_decoder(p, core::resolve_device("cuda"));
    const std::vector<float> part(ch.llr.begin(), ch.llr.begin() + (size_t(2) << 17));
    EXPECT_EQ(decode_frames(*gpu, part, 1 << 17), decode_frames(*cpu, part, 1 << 17));
}

TEST(depuncture_cuda, matches_cpu)
{
    GPUOFDM_REQUIRE_GPU();
    core::use_device(0);
    std::mt19937 rng(8);
    std::normal_distribution<float> g;
    for (const char* proto : { "80211a", "80216" })
        for (const char* rate : rates) {
            core::depuncturer dp(proto, rate);
            const size_t n_in = dp.pattern().kept * 3001;
            std::vector<float> in(n_in);
            for (auto& v : in)
                v = g(rng);
            std::vector<float> want(dp.output_len(n_in)), got(want.size());
            dp.process(in.data(), n_in, want.data());
            core::device_buffer<float> d_in(n_in), d_out(want.size());
            GPUOFDM_CUDA_CHECK(cudaMemcpy(d_in.get(), in.data(), n_in * 4, cudaMemcpyHostToDevice));
            core::depuncture_cuda(d_in.get(), n_in, d_out.get(), dp.pattern(), nullptr);
            GPUOFDM_CUDA_CHECK(
                cudaMemcpy(got.data(), d_out.get(), got.size() * 4, cudaMemcpyDeviceToHost));
            EXPECT_EQ(got, want) << proto << " " << rate;
        }
}
#endif

// process() decodes what it can as input arrives: all but the last chunk and its
// traceback tail, not everything at flush() (whose launch would then be the whole stream).
TEST(viterbi, stream_decodes_as_input_arrives)
{
    std::mt19937 rng(77);
    auto p = viterbi_params::for_protocol("80211a", "1/2");
    p.chunk_len = 100;
    auto dec = core::make_viterbi_decoder(p, {});
    const auto bits = terminated_frame(20000, rng);
    const auto tx = encode(bits, wifi);
    std::vector<float> llr(tx.size());
    core::hard_to_llr(tx.data(), tx.size(), llr.data());
    std::vector<uint8_t> out(bits.size() + p.chunk_len + p.traceback);
    core::viterbi_stream_state st;
    const size_t early = dec->process(llr.data(), llr.size(), out.data(), st);
    EXPECT_GE(early, bits.size() - p.chunk_len - p.traceback);
    const size_t late = dec->flush(out.data() + early, st, true);
    out.resize(early + late);
    EXPECT_EQ(out, bits);
}
