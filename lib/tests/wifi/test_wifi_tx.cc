/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The 802.11a transmitter: the whole Annex G packet (Table G.24) from the PSDU of Table G.1,
// its pieces (G.2, G.4, G.5, G.6, G.11, G.12, G.22), the parameters, bad requests, and the
// CUDA backend against the CPU twin.

#include "fec/scrambler.h"
#include "tx_test_vectors.h"
#include "wifi/wifi_tx.h"

#ifdef GPUOFDM_HAVE_CUDA
#include "runtime/burst_batch.h"
#endif

#include <cmath>
#include <limits>
#include <random>

using namespace gr::gpuofdm;
using core::cfloat;

namespace {

const char* annex = "ieee80211a-annex-g";
const core::device_spec cpu{};
// Tables print 3 decimals (time domain) or 4 (frequency domain).
constexpr float time_tol = 2e-3f;
constexpr float freq_tol = 1e-3f;

//! Loads a complex table into var, or skips the test saying which file is absent.
#define WIFI_LOAD_COMPLEX(var, file)                                                \
    std::vector<cfloat> var;                                                        \
    do {                                                                            \
        const std::string path_ = test::vector_path(annex, file);                   \
        if (!test::read_complex_lines(path_, var))                                  \
            GTEST_SKIP() << "test vector absent: " << path_                         \
                         << " (set GPUOFDM_TESTVECTORS to the testvectors folder)"; \
    } while (0)

//! Every component of got[gi + i] within tol of want[wi + i], i < n.
::testing::AssertionResult near_abs(const cfloat* got, const cfloat* want, size_t n, float tol)
{
    size_t bad = 0;
    std::string first;
    for (size_t i = 0; i < n; i++) {
        const float e = std::max(std::abs(got[i].real() - want[i].real()),
                                 std::abs(got[i].imag() - want[i].imag()));
        if (!(e <= tol)) {
            if (bad < 3)
                first += "\n  [" + std::to_string(i) + "] got (" + std::to_string(got[i].real()) +
                         "," + std::to_string(got[i].imag()) + ") want (" +
                         std::to_string(want[i].real()) + "," + std::to_string(want[i].imag()) +
                         ")";
            bad++;
        }
    }
    if (bad)
        return ::testing::AssertionFailure()
               << bad << " of " << n << " off by more than " << tol << first;
    return ::testing::AssertionSuccess();
}

// The Annex G request: 100 octets of G.1, 36 Mb/s, seed 1011101.
core::wifi_frame_request annex_request(const std::vector<uint8_t>& g1)
{
    return { g1.data(), g1.size(), 36, 0b1011101 };
}

std::vector<cfloat> run(core::wifi_tx& tx, const std::vector<core::wifi_frame_request>& frames)
{
    std::vector<cfloat> out(tx.total_samples(frames));
    tx.process(frames, out.data());
    return out;
}

std::vector<cfloat> run_bins(core::wifi_tx& tx, const std::vector<core::wifi_frame_request>& frames)
{
    size_t n = 0;
    for (const auto& f : frames)
        n += 64 * core::wifi_tx::frame_symbols(f.len, f.rate_mbps);
    std::vector<cfloat> bins(n);
    tx.process_bins(frames, bins.data());
    return bins;
}

//! Random frames: every rate in turn, lengths 1..max_len, random seeds 1..127.
struct random_frames {
    std::vector<std::vector<uint8_t>> psdus;
    std::vector<core::wifi_frame_request> requests;

    random_frames(size_t n, size_t max_len, uint32_t seed)
    {
        std::mt19937 rng(seed);
        const auto& rates = core::wifi_rates();
        psdus.resize(n);
        for (size_t i = 0; i < n; i++) {
            psdus[i].resize(1 + rng() % max_len);
            for (auto& b : psdus[i])
                b = uint8_t(rng());
            requests.push_back({ psdus[i].data(), psdus[i].size(),
                                 rates[(i + seed) % rates.size()].mbps, int(1 + rng() % 127) });
        }
    }
};

} // namespace

TEST(wifi_tx, rate_table_and_lengths)
{
    // Table 17-3; Annex G: 100 octets at 36 Mb/s are 6 DATA symbols (G.2 text: 42 pad bits).
    ASSERT_EQ(core::wifi_rates().size(), 8u);
    EXPECT_EQ(core::wifi_rate(54).n_dbps, 216);
    EXPECT_EQ(core::wifi_rate(48).n_cbps, 288);
    EXPECT_EQ(core::wifi_rate(36).rate_bits, 0b1011u);
    EXPECT_EQ(core::wifi_rate(6).rate_bits, 0b1101u);
    EXPECT_EQ(core::wifi_n_sym(100, 36), 6u);
    EXPECT_EQ(core::wifi_n_sym(1, 6), 2u); // 30 bits / 24
    EXPECT_EQ(core::wifi_n_sym(4095, 6), 1366u);
    auto tx = core::make_wifi_tx({}, cpu);
    EXPECT_EQ(tx->frame_samples(100, 36), 881u);
    core::wifi_tx_params p;
    p.window = false;
    EXPECT_EQ(core::make_wifi_tx(p, cpu)->frame_samples(100, 36), 880u);
}

TEST(wifi_tx, pilot_polarity_equation_17_25)
{
    // The printed start and end of p_0..126, and the scrambler on zeros from all ones.
    const int head[8] = { 1, 1, 1, 1, -1, -1, -1, 1 };
    for (unsigned n = 0; n < 8; n++)
        EXPECT_EQ(core::wifi_pilot_polarity(n), head[n]) << n;
    for (unsigned n = 120; n < 127; n++)
        EXPECT_EQ(core::wifi_pilot_polarity(n), -1) << n;
    core::scrambler_params sp;
    sp.seed = 127;
    auto scr = core::make_scrambler(sp, cpu);
    auto st = scr->initial_state();
    std::vector<uint8_t> seq(254, 0);
    scr->process(seq.data(), seq.data(), seq.size(), st);
    for (unsigned n = 0; n < 254; n++)
        EXPECT_EQ(core::wifi_pilot_polarity(n), seq[n] ? -1 : 1) << n;
}

TEST(wifi_tx, training_bins_g2_g5)
{
    WIFI_LOAD_COMPLEX(g2, "G2.txt");
    WIFI_LOAD_COMPLEX(g5, "G5.txt");
    ASSERT_EQ(g2.size(), 64u);
    ASSERT_EQ(g5.size(), 64u);
    EXPECT_TRUE(near_abs(core::wifi_short_training_bins().data(), g2.data(), 64, freq_tol));
    EXPECT_TRUE(near_abs(core::wifi_long_training_bins().data(), g5.data(), 64, freq_tol));
}

TEST(wifi_tx, annex_g_packet_g24_cpu)
{
    GPUOFDM_LOAD_OCTETS(g1, annex, "G1.txt");
    WIFI_LOAD_COMPLEX(g24, "G24.txt");
    ASSERT_EQ(g24.size(), 881u);
    auto tx = core::make_wifi_tx({}, cpu); // scale 1: the tables' level
    const auto out = run(*tx, { annex_request(g1) });
    ASSERT_EQ(out.size(), 881u);
    EXPECT_TRUE(near_abs(out.data(), g24.data(), 881, time_tol));
}

TEST(wifi_tx, annex_g_preamble_g4_g6)
{
    GPUOFDM_LOAD_OCTETS(g1, annex, "G1.txt");
    WIFI_LOAD_COMPLEX(g4, "G4.txt"); // short training field, windowed, 161 samples
    WIFI_LOAD_COMPLEX(g6, "G6.txt"); // long training field, windowed, 161 samples
    ASSERT_EQ(g4.size(), 161u);
    ASSERT_EQ(g6.size(), 161u);
    auto tx = core::make_wifi_tx({}, cpu);
    const auto out = run(*tx, { annex_request(g1) });
    EXPECT_TRUE(near_abs(out.data(), g4.data(), 160, time_tol));
    const cfloat overlap = g4[160] + g6[0];
    EXPECT_TRUE(near_abs(out.data() + 160, &overlap, 1, time_tol));
    EXPECT_TRUE(near_abs(out.data() + 161, g6.data() + 1, 159, time_tol));
}

TEST(wifi_tx, annex_g_signal_g11_g12)
{
    GPUOFDM_LOAD_OCTETS(g1, annex, "G1.txt");
    WIFI_LOAD_COMPLEX(g6, "G6.txt");
    WIFI_LOAD_COMPLEX(g11, "G11.txt"); // SIGNAL bins
    WIFI_LOAD_COMPLEX(g12, "G12.txt"); // SIGNAL time domain, windowed, 81 samples
    ASSERT_EQ(g11.size(), 64u);
    ASSERT_EQ(g12.size(), 81u);
    auto tx = core::make_wifi_tx({}, cpu);
    const auto bins = run_bins(*tx, { annex_request(g1) });
    ASSERT_EQ(bins.size(), 7u * 64);
    EXPECT_TRUE(near_abs(bins.data(), g11.data(), 64, freq_tol));
    const auto out = run(*tx, { annex_request(g1) });
    const cfloat overlap = g6[160] + g12[0];
    EXPECT_TRUE(near_abs(out.data() + 320, &overlap, 1, time_tol));
    EXPECT_TRUE(near_abs(out.data() + 321, g12.data() + 1, 79, time_tol));
}

TEST(wifi_tx, annex_g_data_symbol_g22)
{
    GPUOFDM_LOAD_OCTETS(g1, annex, "G1.txt");
    WIFI_LOAD_COMPLEX(g22, "G22.txt"); // DATA symbol 1 bins, pilots included
    ASSERT_EQ(g22.size(), 64u);
    auto tx = core::make_wifi_tx({}, cpu);
    const auto bins = run_bins(*tx, { annex_request(g1) });
    EXPECT_TRUE(near_abs(bins.data() + 64, g22.data(), 64, freq_tol));
}

TEST(wifi_tx, unwindowed_and_scaled)
{
    GPUOFDM_LOAD_OCTETS(g1, annex, "G1.txt");
    WIFI_LOAD_COMPLEX(g12, "G12.txt");
    core::wifi_tx_params p;
    auto windowed = run(*core::make_wifi_tx(p, cpu), { annex_request(g1) });
    p.window = false;
    p.scale = 4.0f;
    auto plain = run(*core::make_wifi_tx(p, cpu), { annex_request(g1) });
    ASSERT_EQ(plain.size(), 880u);
    // The scale is a power of two, so away from the overlaps the samples are 4 x exactly.
    for (size_t n = 0; n < 880; n++) {
        if (n == 0 || n == 160 || (n >= 320 && (n - 320) % 80 == 0))
            continue;
        ASSERT_EQ(plain[n], 4.0f * windowed[n]) << n;
    }
    // Without the window a field starts at its full value: SIGNAL's first is 2 G.12[0].
    const cfloat signal0 = 2.0f * g12[0];
    const cfloat got = plain[320] / 4.0f;
    EXPECT_TRUE(near_abs(&got, &signal0, 1, 2 * time_tol));
    // The short training field is 16-periodic.
    for (size_t n = 16; n < 160; n++)
        ASSERT_EQ(plain[n], plain[n % 16]) << n;
}

TEST(wifi_tx, frames_back_to_back)
{
    random_frames rf(5, 300, 11);
    auto tx = core::make_wifi_tx({}, cpu);
    const auto all = run(*tx, rf.requests);
    size_t at = 0;
    for (const auto& r : rf.requests) {
        const auto one = run(*tx, { r });
        ASSERT_LE(at + one.size(), all.size());
        EXPECT_TRUE(std::equal(one.begin(), one.end(), all.begin() + at)) << r.rate_mbps;
        at += one.size();
    }
    EXPECT_EQ(at, all.size());
}

TEST(wifi_tx, bad_requests)
{
    std::vector<uint8_t> psdu(5000, 0xAB);
    for (const auto& dev : { std::string("cpu"), std::string("cuda") }) {
        if (dev == "cuda" && !core::cuda_unusable_reason(0).empty())
            continue;
        core::wifi_tx_params p;
        p.max_frames_per_batch = 4;
        p.max_psdu_bytes = 2000;
        auto tx = core::make_wifi_tx(p, core::resolve_device(dev));
        std::vector<cfloat> out(100000);
        auto send = [&](core::wifi_frame_request r) {
            std::vector<core::wifi_frame_request> f = { { psdu.data(), 10, 6, 1 }, r };
            tx->process(f, out.data());
        };
        EXPECT_TRUE(test::throws_invalid([&] { send({ psdu.data(), 0, 6, 1 }); }, "len")) << dev;
        EXPECT_TRUE(test::throws_invalid([&] { send({ psdu.data(), 2001, 6, 1 }); }, "len")) << dev;
        EXPECT_TRUE(test::throws_invalid([&] { send({ nullptr, 10, 6, 1 }); }, "psdu")) << dev;
        EXPECT_TRUE(test::throws_invalid(
            [&] {
                send({ psdu.data(), 10, 7, 1 });
            },
            "rate_mbps"))
            << dev;
        EXPECT_TRUE(test::throws_invalid(
            [&] {
                send({ psdu.data(), 10, 0, 1 });
            },
            "rate_mbps"))
            << dev;
        EXPECT_TRUE(test::throws_invalid([&] { send({ psdu.data(), 10, 6, 0 }); }, "seed")) << dev;
        EXPECT_TRUE(test::throws_invalid(
            [&] {
                send({ psdu.data(), 10, 6, 128 });
            },
            "seed"))
            << dev;
        EXPECT_TRUE(test::throws_invalid([&] { tx->frame_samples(10, 5); }, "rate_mbps")) << dev;
        // Nothing was written for a batch with a bad request.
        std::vector<cfloat> untouched(out.size(), cfloat(7, 7));
        out = untouched;
        EXPECT_THROW(send({ psdu.data(), 10, 6, 0 }), std::invalid_argument);
        EXPECT_EQ(out, untouched) << dev;
    }
    // The largest PSDU of all, 4095 octets.
    auto tx = core::make_wifi_tx({}, cpu);
    EXPECT_EQ(tx->frame_samples(4095, 54), 320u + 80u * (1 + 152) + 1);
    EXPECT_TRUE(test::throws_invalid([&] { tx->frame_samples(4096, 54); }, "len"));
}

TEST(wifi_tx, bad_params)
{
    auto make = [](auto edit) {
        return [edit] {
            core::wifi_tx_params p;
            edit(p);
            core::make_wifi_tx(p, cpu);
        };
    };
    EXPECT_TRUE(test::throws_invalid(make([](auto& p) { p.max_frames_per_batch = 0; }),
                                     "max_frames_per_batch"));
    EXPECT_TRUE(test::throws_invalid(make([](auto& p) { p.max_frames_per_batch = 70000; }),
                                     "max_frames_per_batch"));
    EXPECT_TRUE(
        test::throws_invalid(make([](auto& p) { p.max_psdu_bytes = 0; }), "max_psdu_bytes"));
    EXPECT_TRUE(
        test::throws_invalid(make([](auto& p) { p.max_psdu_bytes = 4096; }), "max_psdu_bytes"));
    EXPECT_TRUE(test::throws_invalid(make([](auto& p) { p.scale = 0.0f; }), "scale"));
    EXPECT_TRUE(test::throws_invalid(
        make([](auto& p) { p.scale = std::numeric_limits<float>::quiet_NaN(); }), "scale"));
    // One 4095-octet frame at 6 Mb/s needs 1367 symbols.
    EXPECT_TRUE(test::throws_invalid(make([](auto& p) { p.max_symbols_per_batch = 1366; }),
                                     "max_symbols_per_batch"));
    EXPECT_NO_THROW(make([](auto& p) { p.max_symbols_per_batch = 1367; })());
}

// ---- CUDA backend against the CPU twin ----

namespace {

void expect_cuda_matches_cpu(const core::wifi_tx_params& p, const random_frames& rf)
{
    auto twin = core::make_wifi_tx(p, cpu);
    auto gpu = core::make_wifi_tx(p, core::resolve_device("cuda"));
    // Bins are bit-exact (the same integer pipeline and map_bits()).
    EXPECT_EQ(run_bins(*gpu, rf.requests), run_bins(*twin, rf.requests));
    const auto want = run(*twin, rf.requests);
    const auto got = run(*gpu, rf.requests);
    ASSERT_EQ(got.size(), want.size());
    // Frame by frame, to 1e-5 of the frame's RMS (FFTW vs cuFFT rounding).
    size_t at = 0;
    for (size_t i = 0; i < rf.requests.size(); i++) {
        const size_t n = twin->frame_samples(rf.requests[i].len, rf.requests[i].rate_mbps);
        const std::vector<cfloat> g(got.begin() + at, got.begin() + at + n);
        const std::vector<cfloat> w(want.begin() + at, want.begin() + at + n);
        EXPECT_TRUE(test::near_relative(g, w, 1e-5))
            << "frame " << i << ", " << rf.requests[i].rate_mbps << " Mb/s, " << rf.requests[i].len
            << " octets";
        at += n;
    }
}

} // namespace

TEST(wifi_tx, cuda_annex_g_packet_g24)
{
    GPUOFDM_REQUIRE_GPU();
    GPUOFDM_LOAD_OCTETS(g1, annex, "G1.txt");
    WIFI_LOAD_COMPLEX(g24, "G24.txt");
    WIFI_LOAD_COMPLEX(g22, "G22.txt");
    auto tx = core::make_wifi_tx({}, core::resolve_device("cuda"));
    const auto out = run(*tx, { annex_request(g1) });
    ASSERT_EQ(out.size(), 881u);
    EXPECT_TRUE(near_abs(out.data(), g24.data(), 881, time_tol));
    const auto bins = run_bins(*tx, { annex_request(g1) });
    EXPECT_TRUE(near_abs(bins.data() + 64, g22.data(), 64, freq_tol));
}

TEST(wifi_tx, cuda_matches_cpu_every_rate)
{
    GPUOFDM_REQUIRE_GPU();
    core::wifi_tx_params p;
    p.max_frames_per_batch = 5; // 21 frames: batches of 5, 5, 5, 5 and a short one of 1
    p.max_psdu_bytes = 1500;
    expect_cuda_matches_cpu(p, random_frames(21, 1500, 1));
}

TEST(wifi_tx, cuda_matches_cpu_unwindowed_scaled)
{
    GPUOFDM_REQUIRE_GPU();
    core::wifi_tx_params p;
    p.max_frames_per_batch = 8;
    p.max_psdu_bytes = 1500;
    p.window = false;
    p.scale = 64.0f / std::sqrt(52.0f);
    expect_cuda_matches_cpu(p, random_frames(11, 1500, 2));
}

TEST(wifi_tx, cuda_matches_cpu_symbol_limited_batches)
{
    GPUOFDM_REQUIRE_GPU();
    core::wifi_tx_params p;
    p.max_frames_per_batch = 64;
    p.max_psdu_bytes = 400;
    p.max_symbols_per_batch = 300; // >= 1 + 134; cuts batches by symbols, not frames
    expect_cuda_matches_cpu(p, random_frames(30, 400, 3));
    // One frame alone and a request of one very short frame.
    expect_cuda_matches_cpu(p, random_frames(1, 400, 4));
    expect_cuda_matches_cpu(p, random_frames(1, 1, 5));
}

TEST(wifi_tx, cuda_device_resident_relaunch)
{
    GPUOFDM_REQUIRE_GPU();
#ifdef GPUOFDM_HAVE_CUDA
    // The benchmark's path: stage once, launch repeatedly, fetch; the same as process().
    core::wifi_tx_params p;
    p.max_frames_per_batch = 4;
    p.max_psdu_bytes = 1500;
    auto tx = core::make_wifi_tx(p, core::resolve_device("cuda"));
    auto* batch = dynamic_cast<core::device_burst_batch<core::wifi_frame_request>*>(tx.get());
    ASSERT_NE(batch, nullptr);
    auto& gpu = *batch;
    random_frames rf(4, 1500, 6);
    ASSERT_EQ(gpu.batch_size(rf.requests.data(), rf.requests.size()), 4u);
    const auto want = run(*tx, rf.requests);
    gpu.stage(rf.requests.data(), 4);
    EXPECT_EQ(gpu.staged_samples(), want.size());
    gpu.launch();
    gpu.launch();
    std::vector<cfloat> got(gpu.staged_samples());
    gpu.fetch(got.data());
    EXPECT_EQ(got, want);
    EXPECT_TRUE(test::throws_invalid(
        [&] {
            random_frames five(5, 10, 7);
            gpu.stage(five.requests.data(), 5);
        },
        "n_frames"));
#endif
}
