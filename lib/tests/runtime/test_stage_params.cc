/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Every stage's parameters carry their ranges in validate(): the defaults pass, a value out
// of range throws std::invalid_argument("name: range, got value") without building a stage,
// and the factory refuses it too, on every device kind (no backend is built first).

#include "fec/conv_encoder.h"
#include "fec/depuncture.h"
#include "fec/interleaver.h"
#include "fec/reed_solomon.h"
#include "fec/scrambler.h"
#include "fec/viterbi.h"
#include "ofdm/demapper.h"
#include "ofdm/mapper.h"
#include "ofdm/ofdm_stage.h"
#include "ofdm/ofdm_sync.h"
#include "wifi/wifi_decode.h"
#include "wifi/wifi_rx.h"
#include "wifi/wifi_sync.h"
#include "wifi/wifi_tx.h"
#include "wimax/wimax_rx.h"
#include "wimax/wimax_sync.h"
#include "wimax/wimax_tx.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

using namespace gr::gpuofdm;

namespace {

//! The message validate() gives for \p p, or "" when it passes.
template <typename Params>
std::string message(const Params& p)
{
    try {
        p.validate();
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

//! "name: ... got value": the parameter first, the value that was refused last.
::testing::AssertionResult names(const std::string& msg,
                                 const std::string& name,
                                 const std::string& value)
{
    if (msg.rfind(name + ": ", 0) != 0)
        return ::testing::AssertionFailure() << "does not start with '" << name << ": ': " << msg;
    const std::string tail = "got " + value;
    if (msg.size() < tail.size() || msg.compare(msg.size() - tail.size(), tail.size(), tail) != 0)
        return ::testing::AssertionFailure() << "does not end with '" << tail << "': " << msg;
    return ::testing::AssertionSuccess();
}

const core::device_spec cuda0{ core::backend::cuda, 0 };

} // namespace

TEST(stage_params, defaults_pass)
{
    EXPECT_EQ(message(core::scrambler_params{}), "");
    EXPECT_EQ(message(core::conv_encoder_params{}), "");
    EXPECT_EQ(message(core::interleaver_params{}), "");
    EXPECT_EQ(message(core::mapper_params{}), "");
    EXPECT_EQ(message(core::demapper_params{}), "");
    EXPECT_EQ(message(core::viterbi_params{}), "");
    EXPECT_EQ(message(core::ofdm_params{}), "");
    EXPECT_EQ(message(core::wifi_sync_params{}), "");
    EXPECT_EQ(message(core::wimax_sync_params{}), "");
    EXPECT_EQ(message(core::wifi_decode_params{}), "");
    EXPECT_EQ(message(core::wifi_rx_params{}), "");
    EXPECT_EQ(message(core::wimax_rx_params{}), "");
    EXPECT_EQ(message(core::ofdm_sync_params{}), "");
    EXPECT_EQ(message(core::depuncturing_decoder_params{}), "");
    EXPECT_EQ(message(core::reed_solomon_params{}), "");
}

TEST(stage_params, out_of_range_names_parameter_and_value)
{
    core::scrambler_params s;
    s.standard = core::phy_standard::ieee80216;
    s.seed = 32768;
    EXPECT_TRUE(names(message(s), "seed", "32768"));
    s.seed = -1;
    s.batch = (size_t(1) << 31) + 1;
    EXPECT_TRUE(names(message(s), "batch", "2147483649"));

    core::conv_encoder_params c;
    c.rate = core::code_rate(7);
    EXPECT_TRUE(names(message(c), "rate", "7"));

    core::interleaver_params i;
    i.n_bpsc = 3;
    EXPECT_TRUE(names(message(i), "n_bpsc", "3"));
    i.n_bpsc = 4;
    i.n_cbps = 100;
    EXPECT_TRUE(names(message(i), "n_cbps", "100"));

    core::mapper_params m;
    m.batch = (size_t(1) << 28) + 1;
    EXPECT_TRUE(names(message(m), "batch", std::to_string(m.batch)));

    core::demapper_params d;
    d.mod = core::modulation(9);
    EXPECT_TRUE(names(message(d), "mod", "9"));

    core::ofdm_params o;
    o.fft_len = 0;
    EXPECT_TRUE(names(message(o), "fft_len", "0"));
    o.fft_len = 64;
    o.cp_lengths = { 65 };
    EXPECT_TRUE(names(message(o), "cp_lengths", "65"));

    core::wifi_sync_params ws;
    ws.min_plateau = 8;
    EXPECT_TRUE(names(message(ws), "min_plateau", "8"));

    core::wimax_sync_params xs;
    xs.cp_div = 5;
    EXPECT_TRUE(names(message(xs), "cp_div", "5"));
    xs.cp_div = 4;
    xs.cfo_search = 5;
    EXPECT_TRUE(names(message(xs), "cfo_search", "5"));

    core::wifi_decode_params wd;
    wd.max_frames_per_batch = 0;
    EXPECT_TRUE(names(message(wd), "max_frames_per_batch", "0"));
}

// viterbi_decoder_fb's decoder: the batch from a chunk and its two overlaps (per rate) to
// 2^26, 0 for the default.
TEST(stage_params, depuncturing_decoder_batch_per_rate)
{
    core::depuncturing_decoder_params p;
    const std::pair<core::code_rate, size_t> least[] = { { core::code_rate::r1_2, 336 },
                                                         { core::code_rate::r2_3, 384 },
                                                         { core::code_rate::r3_4, 416 },
                                                         { core::code_rate::r5_6, 512 } };
    for (const auto& standard : { core::phy_standard::ieee80211a, core::phy_standard::ieee80216 })
        for (const auto& [rate, min_batch] : least) {
            p.standard = standard;
            p.rate = rate;
            p.batch = min_batch - 1;
            EXPECT_TRUE(names(message(p), "batch", std::to_string(min_batch - 1)));
            p.batch = min_batch;
            EXPECT_EQ(message(p), "");
            EXPECT_EQ(p.decoder_params().max_steps, min_batch);
        }
    p.batch = size_t(1) << 26;
    EXPECT_EQ(message(p), "");
    p.batch = (size_t(1) << 26) + 1;
    EXPECT_TRUE(names(message(p), "batch", "67108865"));
    p.batch = 0;
    EXPECT_EQ(p.decoder_params().max_steps, size_t(1) << 20);
    p.rate = core::code_rate(4);
    EXPECT_TRUE(names(message(p), "rate", "4"));
    p.rate = core::code_rate::r1_2;
    p.standard = core::phy_standard(2);
    EXPECT_TRUE(names(message(p), "standard", "2"));
    p.standard = core::phy_standard::ieee80211a;
    p.cpu_threads = 1025;
    EXPECT_TRUE(names(message(p), "cpu_threads", "1025"));
}

// rs_encoder_bb / rs_decoder_bb: the profile, and up to 2^24 codewords a launch.
TEST(stage_params, reed_solomon_batch)
{
    core::reed_solomon_params r;
    r.batch = (size_t(1) << 24) + 1;
    EXPECT_TRUE(names(message(r), "batch", "16777217"));
    r.batch = size_t(1) << 24;
    EXPECT_EQ(message(r), "");
    r.profile = { 40, 30, 2 };
    EXPECT_EQ(message(r).rfind("profile: ", 0), 0u) << message(r);
}

// ofdm_sync_cc's synchronizer: each standard's ranges, and its lookback in batch_samples.
TEST(stage_params, ofdm_sync_names_parameter_and_value)
{
    core::ofdm_sync_params p;
    p.standard = core::phy_standard(2);
    EXPECT_TRUE(names(message(p), "standard", "2"));
    p.standard = core::phy_standard::ieee80211a;
    p.threshold = 1.0f;
    EXPECT_TRUE(names(message(p), "threshold", "1.000000"));
    p.threshold = 0.9f; // 802.11a: (0, 1)
    EXPECT_EQ(message(p), "");
    p.min_plateau = 15;
    EXPECT_TRUE(names(message(p), "min_plateau", "15"));
    p.min_plateau = 97;
    EXPECT_TRUE(names(message(p), "min_plateau", "97"));
    p.min_plateau = 32;
    p.sample_rate = 0.0;
    EXPECT_TRUE(names(message(p), "sample_rate", "0.000000"));
    p.sample_rate = 20e6;
    // 802.11a: twice its lookback of 512 samples.
    p.batch_samples = 1023;
    EXPECT_TRUE(names(message(p), "batch_samples", "1023"));
    p.batch_samples = 1024;
    EXPECT_EQ(message(p), "");
    p.batch_samples = (size_t(1) << 26) + 1;
    EXPECT_TRUE(names(message(p), "batch_samples", "67108865"));
    p.batch_samples = 65536;

    p.standard = core::phy_standard::ieee80216;
    EXPECT_TRUE(names(message(p), "threshold", "0.900000")); // 802.16: 0.2 .. 0.8
    p.threshold = 0.5f;
    p.cp_div = 5;
    EXPECT_TRUE(names(message(p), "cp_div", "5"));
    p.cp_div = 4;
    EXPECT_EQ(message(p), "");
    // 802.16 at cp_div 4, threshold 0.5 and min_plateau 32: a lookback of 985
    // samples.
    p.batch_samples = 1969;
    EXPECT_TRUE(names(message(p), "batch_samples", "1969"));
    p.batch_samples = 1970;
    EXPECT_EQ(message(p), "");
}

// The receivers' parameters: their own ranges, and the nested stages' through their
// validate().
TEST(stage_params, receivers_name_parameter_and_value)
{
    core::wifi_rx_params w;
    w.channel_taps = 7;
    EXPECT_TRUE(names(message(w), "channel_taps", "7"));
    w.channel_taps = 0; // plain least squares
    EXPECT_EQ(message(w), "");
    w.fft_backoff = 9;
    EXPECT_TRUE(names(message(w), "fft_backoff", "9"));
    w.fft_backoff = 3;
    w.batch_samples = (size_t(1) << 17) - 1;
    EXPECT_TRUE(names(message(w), "batch_samples", "131071"));
    w.batch_samples = (size_t(1) << 24) + 1;
    EXPECT_TRUE(names(message(w), "batch_samples", "16777217"));
    w.batch_samples = size_t(1) << 17;
    EXPECT_EQ(message(w), "");
    w.sync.min_plateau = 97;
    EXPECT_TRUE(names(message(w), "min_plateau", "97"));
    w.sync.min_plateau = 32;
    w.decode.max_frames_per_batch = 0;
    EXPECT_TRUE(names(message(w), "max_frames_per_batch", "0"));

    core::wimax_rx_params x;
    x.burst_bytes = 0;
    EXPECT_TRUE(names(message(x), "burst_bytes", "0"));
    x.burst_bytes = 100; // 101 octets are no whole number of 24-octet blocks
    x.pad = false;
    EXPECT_TRUE(names(message(x), "burst_bytes", "100"));
    x.pad = true;
    x.seed = 0;
    EXPECT_TRUE(names(message(x), "seed", "0"));
    x.seed = 1;
    x.sync.cp_div = 32;
    x.fft_backoff = 9; // the cyclic prefix is 8 samples
    EXPECT_TRUE(names(message(x), "fft_backoff", "9"));
    x.fft_backoff = 8;
    EXPECT_EQ(message(x), "");
    x.channel_taps = 65;
    EXPECT_TRUE(names(message(x), "channel_taps", "65"));
    x.channel_taps = 24;
    x.max_coded_ber = 0.0f;
    EXPECT_TRUE(names(message(x), "max_coded_ber", "0.000000"));
    x.max_coded_ber = 0.06f;
    x.batch_samples = 1000;
    EXPECT_TRUE(names(message(x), "batch_samples", "1000"));
    x.batch_samples = (size_t(1) << 26) + 1;
    EXPECT_TRUE(names(message(x), "batch_samples", "67108865"));
    x.batch_samples = 0;
    x.sync.threshold = 0.9f;
    EXPECT_TRUE(names(message(x), "threshold", "0.900000"));
    x.sync.threshold = 0.5f;
    x.rate_id = 7;
    EXPECT_TRUE(names(message(x), "rate_id", "7"));
}

// The factory validates before it picks a backend, so a CUDA device (usable or not, CUDA
// built or not) gives the same parameter error as the CPU.
TEST(stage_params, factories_validate_before_the_backend)
{
    for (const core::device_spec& dev : { core::device_spec{}, cuda0 }) {
        core::scrambler_params s;
        s.seed = 0;
        EXPECT_THROW(core::make_scrambler(s, dev), std::invalid_argument);
        core::conv_encoder_params c;
        c.batch = size_t(1) << 32;
        EXPECT_THROW(core::make_conv_encoder(c, dev), std::invalid_argument);
        core::interleaver_params i;
        i.n_cbps = 0;
        EXPECT_THROW(core::make_interleaver(i, dev), std::invalid_argument);
        core::mapper_params m;
        m.standard = core::phy_standard(3);
        EXPECT_THROW(core::make_mapper(m, dev), std::invalid_argument);
        core::demapper_params d;
        d.batch = size_t(1) << 27;
        EXPECT_THROW(core::make_demapper(d, dev), std::invalid_argument);
        core::viterbi_params v;
        v.chunk_len = 0;
        EXPECT_THROW(core::make_viterbi_decoder(v, dev), std::invalid_argument);
        EXPECT_THROW(core::make_reed_solomon(core::rs_profile{ 40, 30, 2 }, dev),
                     std::invalid_argument);
        core::ofdm_params o;
        o.scale = 0.0f;
        EXPECT_THROW(core::make_ofdm_fft(o, dev), std::invalid_argument);
        EXPECT_THROW(core::make_ofdm_ifft(o, dev), std::invalid_argument);
        core::wifi_sync_params ws;
        ws.threshold = 1.0f;
        EXPECT_THROW(core::make_wifi_sync(ws, dev), std::invalid_argument);
        core::wimax_sync_params xs;
        xs.threshold = 0.9f;
        EXPECT_THROW(core::make_wimax_sync(xs, dev), std::invalid_argument);
        core::wifi_decode_params wd;
        wd.max_symbols_per_batch = 1;
        EXPECT_THROW(core::make_wifi_decoder(wd, dev), std::invalid_argument);
        core::wifi_rx_params wr;
        wr.channel_taps = 49;
        EXPECT_THROW(core::make_wifi_receiver(wr, dev), std::invalid_argument);
        core::depuncturing_decoder_params dd;
        dd.batch = 100;
        EXPECT_THROW(core::make_depuncturing_decoder(dd, dev), std::invalid_argument);
        core::reed_solomon_params rp;
        rp.batch = (size_t(1) << 24) + 1;
        EXPECT_THROW(core::make_reed_solomon(rp, dev), std::invalid_argument);
        core::ofdm_sync_params os;
        os.batch_samples = 1023;
        EXPECT_THROW(core::make_ofdm_sync(os, dev), std::invalid_argument);
        core::wimax_rx_params xr;
        xr.channel_taps = 7;
        EXPECT_THROW(core::make_wimax_receiver(xr, dev), std::invalid_argument);
    }
}

TEST(stage_params, transmitter_scale_stays_where_the_ifft_can_take_it)
{
    // The transmitters run their IFFT at scale / 64 (802.11a) or / 256 (802.16): a
    // subnormal scale validate() let through vanished there (the fuzz_params harness).
    for (float scale : { 1e-40f, 1e-31f, 2e30f, 0.0f }) {
        core::wifi_tx_params w;
        w.scale = scale;
        EXPECT_EQ(message(w).rfind("scale: ", 0), 0u) << scale;
        core::wimax_tx_params x;
        x.scale = scale;
        EXPECT_EQ(message(x).rfind("scale: ", 0), 0u) << scale;
    }
    for (float scale : { 1e-30f, -1e-30f, 1e30f, 8.875f }) {
        core::wifi_tx_params w;
        w.scale = scale;
        EXPECT_EQ(message(w), "") << scale;
        EXPECT_NO_THROW(core::make_wifi_tx(w, {})) << scale;
        core::wimax_tx_params x;
        x.scale = scale;
        EXPECT_EQ(message(x), "") << scale;
        EXPECT_NO_THROW(core::make_wimax_tx(x, {})) << scale;
    }
}

TEST(stage_params, interleaver_sizes_without_a_permutation_are_refused)
{
    // 802.16 n_cbps 12 with 64-QAM: one row of 12, groups of 3 bits do not fit (the
    // fuzz_params harness; the permutation's construction refused it after validate()).
    for (const auto& [standard, n_cbps, n_bpsc] :
         { std::make_tuple(core::phy_standard::ieee80216, 12, 6),
           std::make_tuple(core::phy_standard::ieee80216, 24, 6),
           std::make_tuple(core::phy_standard::ieee80211a, 16, 4) }) {
        core::interleaver_params p{ standard, n_cbps, n_bpsc, 0 };
        EXPECT_TRUE(names(message(p), "n_cbps", std::to_string(n_cbps)));
    }
    // Every size validate() accepts has a permutation (12 x 3 groups: 36 with 64-QAM).
    for (int n_cbps = 12; n_cbps <= 1152; n_cbps += 12) {
        for (int n_bpsc : { 1, 2, 4, 6 }) {
            core::interleaver_params p{ core::phy_standard::ieee80216, n_cbps, n_bpsc, 0 };
            if (message(p).empty()) {
                EXPECT_NO_THROW(core::interleaver_permutation(p.standard, n_cbps, n_bpsc))
                    << n_cbps << " " << n_bpsc;
            }
        }
    }
}
