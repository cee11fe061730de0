/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// prach_source_c -> prach_detector_c flowgraphs, on "cpu" and on the GPU: every preamble
// the source was given is found in every occasion, and nothing else, with the delay
// within 3GPP TS 38.104 8.4's timing tolerance (1.04 us for the long formats, 0.26 us for
// the short ones at 30 kHz), the SFN / slot of the occasion's sample (from frame_start or
// an rx_time tag) and the timing advance of 38.213 4.2 worked out here from the given
// delay.

#include "block_test_util.h"

#include <gnuradio/blocks/add_blk.h>
#include <gnuradio/blocks/head.h>
#include <gnuradio/blocks/message_debug.h>
#include <gnuradio/blocks/vector_sink.h>
#include <gnuradio/blocks/vector_source.h>
#include <gnuradio/gpuofdm/prach_detector_c.h>
#include <gnuradio/gpuofdm/prach_source_c.h>

#include <cmath>
#include <set>
#include <tuple>

namespace gr::gpuofdm {
namespace {

using namespace block_test;

struct found_preamble {
    long cell, sfn, slot, preamble, timing_advance;
    uint64_t occasion, sample;
    double delay_samples, delay_us, snr_db;
};

std::vector<found_preamble> detections_of(const gr::blocks::message_debug::sptr& dbg)
{
    std::vector<found_preamble> out;
    for (size_t i = 0; i < dbg->num_messages(); i++) {
        const pmt::pmt_t m = dbg->get_message(int(i));
        auto get = [&m](const char* k) { return pmt::dict_ref(m, pmt::mp(k), pmt::PMT_NIL); };
        out.push_back({ pmt::to_long(get("cell")), pmt::to_long(get("sfn")),
                        pmt::to_long(get("slot")), pmt::to_long(get("preamble")),
                        pmt::to_long(get("timing_advance")), pmt::to_uint64(get("occasion")),
                        pmt::to_uint64(get("sample")), pmt::to_double(get("delay_samples")),
                        pmt::to_double(get("delay_us")), pmt::to_double(get("snr_db")) });
    }
    return out;
}

//! The first \p n samples of \p upstream's output 0 into \p det (one input), run to the end
//! of the stream: its detections.
std::vector<found_preamble> detections_through(const gr::top_block_sptr& tb,
                                               const gr::basic_block_sptr& upstream,
                                               size_t n,
                                               const prach_detector_c::sptr& det)
{
    auto head = gr::blocks::head::make(sizeof(gr_complex), n);
    auto dbg = gr::blocks::message_debug::make();
    tb->connect(upstream, 0, head, 0);
    tb->connect(head, 0, det, 0);
    tb->msg_connect(det, "detections", dbg, "store");
    run_bounded(tb);
    return detections_of(dbg);
}

//! T_A of 38.213 4.2 for a round-trip delay: N_TA = T_A 16 64 T_c / 2^mu.
long timing_advance_of(double delay_s, int mu)
{
    const double tc = 1.0 / (480e3 * 4096);
    return std::lround(delay_s * double(1 << mu) / (16 * 64 * tc));
}

// Format 0, 7.68 Msps, two antennas, three occasions 10 ms apart: two UEs at -8 and -11 dB
// per subcarrier (38.104's SNR; its format 0 requirement is -14.5 dB), different complex
// gains on the two antennas.
void long_format_two_ues(const std::string& device)
{
    const double rate = 7.68e6;
    const int start = 5000, period = 76800, frame_start = -15360; // 2 ms before
    const std::vector<int> preambles = { 5, 40 };
    const std::vector<double> delays = { 10.0, 33.5 };
    auto tb = gr::make_top_block("prach");
    auto src = prach_source_c::make(rate, "0", 15, 2, 120, 6, "unrestricted", -300 * 1250.0, start,
                                    period, preambles, delays, { 0.0, 0.0 }, { -8.0, -11.0 },
                                    { { 1, 0 }, { 0.3f, -0.8f }, { -0.6f, 0.6f }, { 0.9f, 0.2f } },
                                    true, 3);
    auto det = prach_detector_c::make(rate, "0", 15, 2, { 120 }, { 6 }, {}, { -300 * 1250.0 }, 1, 0,
                                      start, period, frame_start, 1e-3, device);
    auto dbg = gr::blocks::message_debug::make();
    const size_t n = size_t(start + 3 * period);
    for (int a = 0; a < 2; a++) {
        auto head = gr::blocks::head::make(sizeof(gr_complex), n);
        tb->connect(src, a, head, 0);
        tb->connect(head, 0, det, a);
    }
    tb->msg_connect(det, "detections", dbg, "store");
    run_bounded(tb);
    EXPECT_EQ(det->occasions(), 3u);
    const auto found = detections_of(dbg);
    ASSERT_EQ(found.size(), 6u) << device;
    for (size_t i = 0; i < found.size(); i++) {
        const auto& f = found[i];
        const size_t ue = i % 2;
        EXPECT_EQ(f.cell, 0);
        EXPECT_EQ(f.occasion, i / 2);
        EXPECT_EQ(f.sample, uint64_t(start + int(f.occasion) * period));
        // 5000 + 2 ms (15360 samples) after the frame start: slot 2 of 1 ms slots (15 kHz).
        EXPECT_EQ(f.sfn, long(f.occasion));
        EXPECT_EQ(f.slot, 2);
        EXPECT_EQ(f.preamble, preambles[ue]);
        EXPECT_NEAR(f.delay_samples, delays[ue], 1.04e-6 * rate) << device << " UE " << ue;
        EXPECT_NEAR(f.delay_us, delays[ue] / rate * 1e6, 1.04);
        EXPECT_NEAR(double(f.timing_advance), double(timing_advance_of(delays[ue] / rate, 0)), 2.0);
        EXPECT_NEAR(f.snr_db, ue == 0 ? -8.0 : -11.0, 2.0);
    }
}

// Format B4 at 30 kHz, 15.36 Msps, one antenna: two cells with their own roots and band
// positions, a UE in each (the second cell's source without noise, added to the first).
void short_format_two_cells(const std::string& device)
{
    const double rate = 15.36e6;
    const int start = 777, period = 7680; // every 0.5 ms: every slot at 30 kHz
    const double off0 = -200 * 30e3, off1 = 40 * 30e3;
    auto tb = gr::make_top_block("prach_b4");
    auto src0 = prach_source_c::make(rate, "B4", 30, 1, 7, 2, "unrestricted", off0, start, period,
                                     { 11 }, { 3.0 }, {}, { -3.0 }, {}, true, 5);
    auto src1 = prach_source_c::make(rate, "B4", 30, 1, 90, 5, "unrestricted", off1, start, period,
                                     { 50 }, { 17.0 }, {}, { -3.0 }, {}, false, 6);
    auto add = gr::blocks::add_cc::make();
    auto det = prach_detector_c::make(rate, "B4", 30, 1, { 7, 90 }, { 2, 5 }, { "unrestricted" },
                                      { off0, off1 }, 1, 0, start, period, 0, 1e-3, device);
    tb->connect(src0, 0, add, 0);
    tb->connect(src1, 0, add, 1);
    const auto found = detections_through(tb, add, size_t(start + 4 * period), det);
    ASSERT_EQ(found.size(), 8u) << device;
    for (size_t i = 0; i < found.size(); i++) {
        const auto& f = found[i];
        EXPECT_EQ(f.occasion, i / 2);
        EXPECT_EQ(f.cell, long(i % 2));
        EXPECT_EQ(f.preamble, i % 2 ? 50 : 11);
        EXPECT_EQ(f.slot, long(f.occasion) + 0) << "one occasion a 0.5 ms slot, from sample 0";
        EXPECT_NEAR(f.delay_samples, i % 2 ? 17.0 : 3.0, 0.26e-6 * rate) << device;
    }
}

TEST(PrachBlocks, LongFormatTwoUesCpu) { long_format_two_ues("cpu"); }

TEST(PrachBlocks, LongFormatTwoUesGpu)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    long_format_two_ues(gpu_device());
}

TEST(PrachBlocks, ShortFormatTwoCellsCpu) { short_format_two_cells("cpu"); }

TEST(PrachBlocks, ShortFormatTwoCellsGpu)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    short_format_two_cells(gpu_device());
}

/*!
 * Format 0 at 7.68 Msps, one antenna, root 4, zone 1, 375 kHz below the centre: \p n
 * samples of a source with \p preamble at \p delay samples in occasions from \p start
 * every \p period, recorded, then played into \p det with rx_time = (\p secs, \p frac)
 * on sample 0 (as UHD tags them). The detections.
 */
std::vector<found_preamble> replayed_with_rx_time(size_t n,
                                                  int start,
                                                  int period,
                                                  int preamble,
                                                  double delay,
                                                  uint64_t secs,
                                                  double frac,
                                                  const prach_detector_c::sptr& det)
{
    std::vector<gr_complex> x;
    {
        auto tb = gr::make_top_block("prach_rec");
        auto src = prach_source_c::make(7.68e6, "0", 15, 1, 4, 1, "unrestricted", -375e3, start,
                                        period, { preamble }, { delay }, {}, { -5.0 }, {}, true,
                                        unsigned(9 + preamble));
        auto head = gr::blocks::head::make(sizeof(gr_complex), n);
        auto sink = gr::blocks::vector_sink_c::make();
        tb->connect(src, 0, head, 0);
        tb->connect(head, 0, sink, 0);
        run_bounded(tb);
        x = sink->data();
    }
    gr::tag_t t;
    t.offset = 0;
    t.key = pmt::mp("rx_time");
    t.value = pmt::make_tuple(pmt::from_uint64(secs), pmt::from_double(frac));
    auto tb = gr::make_top_block("prach_rx_time");
    auto src = gr::blocks::vector_source_c::make(x, false, 1, { t });
    auto dbg = gr::blocks::message_debug::make();
    tb->connect(src, 0, det, 0);
    tb->msg_connect(det, "detections", dbg, "store");
    run_bounded(tb);
    return detections_of(dbg);
}

TEST(PrachBlocks, RxTimeTagSetsSfnAndSlot)
{
    // An occasion at sample 1000 and every 10 ms; rx_time = 100.0123 s on sample 0.
    // Occasion k starts at 100.0123 + (1000 + 76800 k) / 7.68e6 s: frame floor(t / 10 ms) =
    // 10001 + k, SFN (10001 + k) mod 1024 = 785 + k, 2.43 ms into it: slot 2 of 1 ms (15 kHz).
    const int start = 1000, period = 76800;
    auto det = prach_detector_c::make(7.68e6, "0", 15, 1, { 4 }, { 1 }, {}, { -375e3 }, 1, 0, start,
                                      period, 0, 1e-3, "cpu");
    const auto found =
        replayed_with_rx_time(size_t(start + 2 * period), start, period, 12, 5.0, 100, 0.0123, det);
    ASSERT_EQ(found.size(), 2u);
    for (size_t k = 0; k < 2; k++) {
        EXPECT_EQ(found[k].preamble, 12);
        EXPECT_EQ(found[k].sfn, 785 + long(k));
        EXPECT_EQ(found[k].slot, 2);
    }
}

// prach-ConfigurationIndex 27 of the paired table (38.211 Table 6.3.3.2-2: format 0, every
// frame, subframes 0..9, from symbol 0): an occasion at the start of every 1 ms subframe.
// Format 0 at 7.68 Msps, frame_start 3000: occasion k at 3000 + 7680 k, SFN k / 10, slot
// k mod 10 (1 ms slots at 15 kHz); a UE in each, from a source of the same places.
void config_index_every_subframe(const std::string& device)
{
    const double rate = 7.68e6;
    const int frame_start = 3000, subframe = 7680, n = 12;
    auto tb = gr::make_top_block("prach_config");
    auto src = prach_source_c::make(rate, "0", 15, 1, 4, 1, "unrestricted", -375e3, frame_start,
                                    subframe, { 12 }, { 5.0 }, {}, { -5.0 }, {}, true, 9);
    auto det = prach_detector_c::make(rate, "0", 15, 1, { 4 }, { 1 }, {}, { -375e3 }, 1, 0, 0, 0,
                                      frame_start, 1e-3, device, 4, 27, "paired");
    const auto found = detections_through(tb, src, size_t(frame_start + n * subframe), det);
    ASSERT_EQ(found.size(), size_t(n)) << device;
    for (size_t k = 0; k < found.size(); k++) {
        EXPECT_EQ(found[k].occasion, k);
        EXPECT_EQ(found[k].sample, uint64_t(frame_start + int(k) * subframe));
        EXPECT_EQ(found[k].sfn, long(k / 10));
        EXPECT_EQ(found[k].slot, long(k % 10));
        EXPECT_EQ(found[k].preamble, 12);
        EXPECT_NEAR(found[k].delay_samples, 5.0, 1.04e-6 * rate);
    }
}

TEST(PrachBlocks, ConfigIndexEverySubframeCpu) { config_index_every_subframe("cpu"); }

TEST(PrachBlocks, ConfigIndexEverySubframeGpu)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    config_index_every_subframe("cuda");
}

// Paired index 214 (38.211 Table 6.3.3.2-2: B4, every frame, subframes 4 and 9, two PRACH
// slots, l0 = 0) at 30 kHz, 15.36 Msps: occasions at the start of each slot of those
// subframes, 0 and 0.5 ms into the subframe, so each preamble's CP is 16 kappa (8 samples)
// longer than B4's N_CP (38.211 5.3.2). Two sources of B4 with its plain CP, 8 samples
// after each occasion's first sample, stand for the longer CP: the delays come out right
// only if the block skips the 16 kappa with the CP (else 8 samples, 0.52 us, too late).
TEST(PrachBlocks, ConfigIndexShortFormatLongerCp)
{
    const double rate = 15.36e6;
    const int frame = 153600, extra = 8;
    const std::vector<uint64_t> want = { 61440,  69120,  138240, 145920,
                                         215040, 222720, 291840, 299520 };
    const std::vector<long> slots = { 8, 9, 18, 19, 8, 9, 18, 19 };
    auto tb = gr::make_top_block("prach_config_b4");
    auto slot0 = prach_source_c::make(rate, "B4", 30, 1, 7, 2, "unrestricted", -100 * 30e3,
                                      int(want[0]) + extra, frame / 2, { 21 }, { 3.0 }, {},
                                      { -3.0 }, {}, true, 5);
    auto slot1 = prach_source_c::make(rate, "B4", 30, 1, 7, 2, "unrestricted", -100 * 30e3,
                                      int(want[1]) + extra, frame / 2, { 44 }, { 3.0 }, {},
                                      { -3.0 }, {}, false, 6);
    auto add = gr::blocks::add_cc::make();
    auto det = prach_detector_c::make(rate, "B4", 30, 1, { 7 }, { 2 }, {}, { -100 * 30e3 }, 1, 0, 0,
                                      0, 0, 1e-3, "cpu", 3, 214, "paired");
    tb->connect(slot0, 0, add, 0);
    tb->connect(slot1, 0, add, 1);
    const auto found = detections_through(tb, add, size_t(2 * frame), det);
    ASSERT_EQ(found.size(), want.size());
    for (size_t k = 0; k < want.size(); k++) {
        EXPECT_EQ(found[k].sample, want[k]);
        EXPECT_EQ(found[k].sfn, long(k / 4));
        EXPECT_EQ(found[k].slot, slots[k]);
        EXPECT_EQ(found[k].preamble, k % 2 == 0 ? 21 : 44);
        EXPECT_NEAR(found[k].delay_samples, 3.0, 0.26e-6 * rate) << k;
    }
}

// Paired index 112 (38.211 Table 6.3.3.2-2: A1/B1, every frame, subframes 4 and 9, l0 = 0,
// one PRACH slot, 7 occasions of 2 symbols) at 15 kHz, 7.68 Msps (4 kappa a sample, a
// symbol 548 samples, 552 with the 16 kappa at 0 and 0.5 ms). In subframe 4 (sample
// 30720): occasion 0 at symbol 0, its CP 16 kappa (4 samples) longer; occasion 1 at
// symbol 2, sample 4 + 2 * 548 = 1100; occasion 6, the slot's last, at symbol 12, sample
// 3844 + 5 * 548 = 6584, in format B1, whose CP is 216 kappa (54 samples) against A1's 288
// (72). Sources of A1 and B1 with their plain CPs at those places, every frame; the B1
// preamble's delay and index come out right only if the block reads its sequence 18
// samples earlier than an A1 occasion's.
void config_index_a_or_b(const std::string& device)
{
    const double rate = 7.68e6, offset = -70 * 15e3;
    const int frame = 76800, sf4 = 4 * 7680;
    const std::vector<uint64_t> want = { uint64_t(sf4), uint64_t(sf4 + 1100),
                                         uint64_t(sf4 + 6584) };
    const std::vector<int> preambles = { 21, 44, 9 };
    auto tb = gr::make_top_block("prach_config_ab");
    auto add = gr::blocks::add_cc::make();
    const std::vector<std::pair<const char*, int>> sources = { { "A1", sf4 + 4 },
                                                               { "A1", sf4 + 1100 },
                                                               { "B1", sf4 + 6584 } };
    for (size_t i = 0; i < sources.size(); i++) {
        auto src = prach_source_c::make(rate, sources[i].first, 15, 1, 7, 2, "unrestricted", offset,
                                        sources[i].second, frame, { preambles[i] }, { 3.0 }, {},
                                        { -3.0 }, {}, i == 0, unsigned(5 + i));
        tb->connect(src, 0, add, int(i));
    }
    auto det = prach_detector_c::make(rate, "A1", 15, 1, { 7 }, { 2 }, {}, { offset }, 1, 0, 0, 0,
                                      0, 1e-3, device, 7, 112, "paired");
    const auto found = detections_through(tb, add, size_t(2 * frame), det);
    ASSERT_EQ(found.size(), 2 * want.size()) << device;
    for (size_t k = 0; k < found.size(); k++) {
        const size_t i = k % want.size();
        EXPECT_EQ(found[k].sample, want[i] + (k / want.size()) * uint64_t(frame)) << k;
        EXPECT_EQ(found[k].sfn, long(k / want.size())) << k;
        EXPECT_EQ(found[k].slot, 4) << k;
        EXPECT_EQ(found[k].preamble, preambles[i]) << k;
        EXPECT_NEAR(found[k].delay_samples, 3.0, 0.52e-6 * rate) << k;
    }
}

TEST(PrachBlocks, ConfigIndexAOrBOccasionsCpu) { config_index_a_or_b("cpu"); }

TEST(PrachBlocks, ConfigIndexAOrBOccasionsGpu)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    config_index_a_or_b("cuda");
}

TEST(PrachBlocks, ConfigIndexFollowsRxTime)
{
    // Paired index 27 again, frame_start far off (-1000000); rx_time on sample 0 says
    // 2.00045 s: frame 200 (SFN 200) began 0.45 ms (3456 samples) before sample 0, so the
    // occasions (subframe starts) are at 7680 - 3456 = 4224 + 7680 k, SFN 200, slot 1 + k.
    const int first = 4224, subframe = 7680;
    auto det = prach_detector_c::make(7.68e6, "0", 15, 1, { 4 }, { 1 }, {}, { -375e3 }, 1, 0, 0, 0,
                                      -1000000, 1e-3, "cpu", 2, 27, "paired");
    const auto found = replayed_with_rx_time(size_t(first + 3 * subframe), first, subframe, 30, 2.0,
                                             2, 0.00045, det);
    ASSERT_EQ(found.size(), 3u);
    for (size_t k = 0; k < 3; k++) {
        EXPECT_EQ(found[k].sample, uint64_t(first + int(k) * subframe));
        EXPECT_EQ(found[k].preamble, 30);
        EXPECT_EQ(found[k].sfn, 200);
        EXPECT_EQ(found[k].slot, 1 + long(k));
    }
}

//! Every field of every detection message, in order.
struct detection_fields {
    std::vector<long> ints;     // cell, sfn, slot, fd_occasion, preamble, root, TA
    std::vector<uint64_t> u64s; // occasion, sample
    std::vector<double> reals;  // delay_samples, delay_us, power, noise, snr, metric, threshold
};

std::vector<detection_fields> fields_of(const gr::blocks::message_debug::sptr& dbg)
{
    std::vector<detection_fields> out;
    for (size_t i = 0; i < dbg->num_messages(); i++) {
        const pmt::pmt_t m = dbg->get_message(int(i));
        auto get = [&m](const char* k) { return pmt::dict_ref(m, pmt::mp(k), pmt::PMT_NIL); };
        detection_fields f;
        for (const char* k :
             { "cell", "sfn", "slot", "fd_occasion", "preamble", "logical_root", "timing_advance" })
            f.ints.push_back(pmt::to_long(get(k)));
        for (const char* k : { "occasion", "sample" })
            f.u64s.push_back(pmt::to_uint64(get(k)));
        for (const char* k : { "delay_samples", "delay_us", "power_db", "noise_db", "snr_db",
                               "metric", "threshold" })
            f.reals.push_back(pmt::to_double(get(k)));
        out.push_back(f);
    }
    return out;
}

// Format 0 at 3.84 Msps, two antennas, two cells (cell 1's rows copied from cell 0's), an
// occasion of 396 + 3072 samples every 1 ms (3840 samples), 20 of them, a UE in each cell
// in each occasion; rx_time tags on sample 0 and inside occasion 7. The same samples go to
// detectors that batch 1, 3 and 16 occasions, the last one in calls of at most 700 samples
// (every occasion split over several calls), the stream ending at the last occasion's last
// sample (and, for the batch of 3, 1000 samples into an occasion that never completes).
// Every detection is the same in all three, in the same order, and they are the preambles
// the sources sent, with the occasion's SFN and slot from the tag before its last sample.
void batches_match_one_at_a_time(const std::string& device, double tolerance)
{
    const double rate = 3.84e6;
    const int start = 250, period = 3840, row = 396 + 3072, n_occ = 20;
    const double off0 = -1400 * 1250.0, off1 = 100 * 1250.0;
    const size_t n_full = size_t(start + (n_occ - 1) * period + row);
    std::vector<std::vector<gr_complex>> x(2);
    {
        auto tb = gr::make_top_block("prach_batch_rec");
        auto src0 = prach_source_c::make(rate, "0", 15, 2, 120, 6, "unrestricted", off0, start,
                                         period, { 5 }, { 7.0 }, {}, { 0.0 },
                                         { { 1, 0 }, { 0.4f, -0.7f } }, true, 21);
        auto src1 = prach_source_c::make(rate, "0", 15, 2, 33, 4, "unrestricted", off1, start,
                                         period, { 33 }, { 20.0 }, {}, { 0.0 },
                                         { { 0.8f, 0.5f }, { -0.9f, 0.1f } }, false, 22);
        std::vector<gr::blocks::vector_sink_c::sptr> sinks;
        for (int a = 0; a < 2; a++) {
            auto add = gr::blocks::add_cc::make();
            auto head = gr::blocks::head::make(sizeof(gr_complex), n_full + 1000);
            sinks.push_back(gr::blocks::vector_sink_c::make());
            tb->connect(src0, a, add, 0);
            tb->connect(src1, a, add, 1);
            tb->connect(add, 0, head, 0);
            tb->connect(head, 0, sinks.back(), 0);
        }
        run_bounded(tb);
        for (size_t a = 0; a < 2; a++)
            x[a] = sinks[a]->data();
    }
    ASSERT_EQ(x[0].size(), n_full + 1000);
    const uint64_t tag_b = uint64_t(start + 7 * period + 100);
    const std::vector<gr::tag_t> tags = {
        make_tag(0, "rx_time", pmt::make_tuple(pmt::from_uint64(100), pmt::from_double(0.0123))),
        make_tag(tag_b, "rx_time", pmt::make_tuple(pmt::from_uint64(200), pmt::from_double(0.5)))
    };
    auto run = [&](int max_batch, int max_call, size_t n) {
        auto tb = gr::make_top_block("prach_batch");
        auto det =
            prach_detector_c::make(rate, "0", 15, 2, { 120, 33 }, { 6, 4 }, {}, { off0, off1 }, 1,
                                   0, start, period, 0, 1e-4, device, max_batch);
        EXPECT_EQ(det->max_batch(), max_batch);
        if (max_call > 0)
            det->set_max_noutput_items(max_call);
        for (int a = 0; a < 2; a++) {
            const std::vector<gr_complex> xa(x[size_t(a)].begin(),
                                             x[size_t(a)].begin() + ptrdiff_t(n));
            auto src = gr::blocks::vector_source_c::make(xa, false, 1,
                                                         a == 0 ? tags : std::vector<gr::tag_t>{});
            tb->connect(src, 0, det, a);
        }
        auto dbg = gr::blocks::message_debug::make();
        tb->msg_connect(det, "detections", dbg, "store");
        run_bounded(tb);
        EXPECT_EQ(det->occasions(), uint64_t(n_occ)) << "max_batch " << max_batch;
        EXPECT_EQ(det->detections(), dbg->num_messages());
        return fields_of(dbg);
    };
    const auto one = run(1, 0, n_full);
    const auto three = run(3, 0, n_full + 1000);
    const auto sixteen = run(16, 700, n_full);

    // The preambles sent: cell 0's preamble 5, 7 samples late, and cell 1's 33, 20 late.
    ASSERT_EQ(one.size(), size_t(2 * n_occ)) << device;
    for (size_t i = 0; i < one.size(); i++) {
        const auto& f = one[i];
        const uint64_t k = i / 2;
        EXPECT_EQ(f.ints[0], long(i % 2));
        EXPECT_EQ(f.ints[4], i % 2 ? 33 : 5);
        EXPECT_EQ(f.u64s[0], k);
        EXPECT_EQ(f.u64s[1], uint64_t(start) + k * uint64_t(period));
        EXPECT_NEAR(f.reals[0], i % 2 ? 20.0 : 7.0, 1.04e-6 * rate);
        // SFN and slot: the first tag's time before occasion 7's last sample, the
        // second's from there; frames of 10 ms, slots of 1 ms.
        const double t = k < 7 ? 100.0123 + double(f.u64s[1]) / rate
                               : 200.5 + (double(f.u64s[1]) - double(tag_b)) / rate;
        const double frames = std::floor(t / 0.01);
        EXPECT_EQ(f.ints[1], long(frames) % 1024) << "occasion " << k;
        EXPECT_EQ(f.ints[2], long(std::floor((t - frames * 0.01) * 1e3))) << "occasion " << k;
    }
    for (const auto* other : { &three, &sixteen }) {
        ASSERT_EQ(other->size(), one.size());
        for (size_t i = 0; i < one.size(); i++) {
            EXPECT_EQ((*other)[i].ints, one[i].ints) << "detection " << i;
            EXPECT_EQ((*other)[i].u64s, one[i].u64s) << "detection " << i;
            for (size_t j = 0; j < one[i].reals.size(); j++) {
                EXPECT_NEAR((*other)[i].reals[j], one[i].reals[j],
                            tolerance * std::max(1.0, std::abs(one[i].reals[j])))
                    << "detection " << i << " field " << j;
            }
        }
    }
}

TEST(PrachBlocks, BatchesMatchOneAtATimeCpu) { batches_match_one_at_a_time("cpu", 0.0); }

TEST(PrachBlocks, BatchesMatchOneAtATimeGpu)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    // cuFFT may order a batch's arithmetic otherwise than a single row's.
    batches_match_one_at_a_time(gpu_device(), 1e-4);
}

TEST(PrachBlocks, BatchesMatchOneAtATimeGpuWithoutPinnedBuffers)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    // GNU Radio's buffers not page-locked: work() uploads from pageable memory, which the
    // CUDA driver stages.
    scoped_env no_pin("GPUOFDM_PIN_BUFFERS", "0");
    batches_match_one_at_a_time(gpu_device(), 1e-4);
}

// Inputs that end apart (one antenna's longer by 5000 samples, or shorter by one, inside
// the last occasion): the stream ends with the shorter input, as a sync_block's does; the
// occasions it holds whole are reported, one UE each, and the flowgraph ends.
TEST(PrachBlocks, InputsEndingApartEndAtTheShorter)
{
    const double rate = 3.84e6;
    const int start = 250, period = 3840, row = 396 + 3072, n_occ = 6;
    const size_t n_full = size_t(start + (n_occ - 1) * period + row);
    std::vector<std::vector<gr_complex>> x(2);
    {
        auto tb = gr::make_top_block("prach_apart_rec");
        auto src = prach_source_c::make(rate, "0", 15, 2, 120, 6, "unrestricted", -1400 * 1250.0,
                                        start, period, { 5 }, { 7.0 }, {}, { 0.0 }, {}, true, 31);
        std::vector<gr::blocks::vector_sink_c::sptr> sinks;
        for (int a = 0; a < 2; a++) {
            auto head = gr::blocks::head::make(sizeof(gr_complex), n_full + 5000);
            sinks.push_back(gr::blocks::vector_sink_c::make());
            tb->connect(src, a, head, 0);
            tb->connect(head, 0, sinks.back(), 0);
        }
        run_bounded(tb);
        for (size_t a = 0; a < 2; a++)
            x[a] = sinks[a]->data();
    }
    struct lengths {
        size_t n0, n1;
        uint64_t whole; // occasions the shorter input holds whole
    };
    for (const lengths& c :
         { lengths{ n_full, n_full + 5000, 6 }, lengths{ n_full + 5000, n_full, 6 },
           lengths{ n_full - 1, n_full, 5 }, lengths{ n_full, n_full - 1, 5 } }) {
        for (int max_batch : { 1, 4 }) {
            auto tb = gr::make_top_block("prach_apart");
            auto det =
                prach_detector_c::make(rate, "0", 15, 2, { 120 }, { 6 }, {}, { -1400 * 1250.0 }, 1,
                                       0, start, period, 0, 1e-4, "cpu", max_batch);
            for (size_t a = 0; a < 2; a++) {
                const size_t n = a == 0 ? c.n0 : c.n1;
                tb->connect(gr::blocks::vector_source_c::make(
                                std::vector<gr_complex>(x[a].begin(), x[a].begin() + ptrdiff_t(n))),
                            0, det, int(a));
            }
            auto dbg = gr::blocks::message_debug::make();
            tb->msg_connect(det, "detections", dbg, "store");
            run_bounded(tb);
            EXPECT_EQ(det->occasions(), c.whole) << c.n0 << " / " << c.n1 << ", " << max_batch;
            const auto found = detections_of(dbg);
            ASSERT_EQ(found.size(), size_t(c.whole));
            for (const auto& f : found)
                EXPECT_EQ(f.preamble, 5);
        }
    }
}

TEST(PrachBlocks, BadParametersNameTheArgument)
{
    auto expect_error = [](const std::function<void()>& make, const std::string& name) {
        try {
            make();
            ADD_FAILURE() << "no error for " << name;
        } catch (const std::invalid_argument& e) {
            EXPECT_EQ(std::string(e.what()).rfind(name + ":", 0) == 0 ||
                          std::string(e.what()).rfind(name + "[", 0) == 0,
                      true)
                << e.what();
        }
    };
    expect_error([] { prach_source_c::make(30.72e6, "7"); }, "format");
    expect_error([] { prach_source_c::make(30.72e6, "0", 30, 0); }, "n_antennas");
    expect_error([] { prach_source_c::make(1e6); }, "samp_rate");
    expect_error(
        [] {
            prach_source_c::make(30.72e6, "0", 30, 1, 0, 1, "unrestricted", 0, 0, 0, { 0 },
                                 { -1.0 });
        },
        "delays_samples");
    expect_error(
        [] { prach_source_c::make(30.72e6, "0", 30, 1, 0, 1, "unrestricted", 0, 0, 0, { 64 }); },
        "preambles");
    expect_error([] { prach_detector_c::make(30.72e6, "0", 30, 1, { 900 }); }, "logical_roots");
    expect_error(
        [] {
            prach_detector_c::make(30.72e6, "0", 30, 1, { 1, 2 }, { 1, 2, 3 });
        },
        "zero_correlation_zones");
    expect_error([] { prach_detector_c::make(30.72e6, "0", 25); }, "scs_khz");
    expect_error([] { prach_detector_c::make(30.72e6, "0", 30, 1, { 1 }, { 1 }, {}, { 1e3 }); },
                 "offsets_hz");
    expect_error(
        [] { prach_detector_c::make(30.72e6, "0", 30, 1, { 1 }, { 1 }, {}, { 0 }, 1, 0, 0, 100); },
        "period_samples");
    expect_error(
        [] {
            prach_detector_c::make(30.72e6, "0", 30, 1, { 1 }, { 1 }, {}, { 0 }, 1, 0, 0, 0, 0,
                                   0.0);
        },
        "false_alarm");
    expect_error(
        [] { prach_detector_c::make(30.72e6, "0", 30, 1, { 1 }, { 1 }, {}, { 0 }, 1, 0, -5); },
        "start_sample");
    auto with_config = [](int index, const char* spectrum, int start, const char* format) {
        prach_detector_c::make(7.68e6, format, 15, 1, { 1 }, { 1 }, {}, { 0 }, 1, 0, start, 0, 0,
                               1e-3, "cpu", 8, index, spectrum);
    };
    expect_error([&] { with_config(256, "paired", 0, "0"); }, "config_index");
    expect_error([&] { with_config(-2, "paired", 0, "0"); }, "config_index");
    expect_error([&] { with_config(27, "both", 0, "0"); }, "spectrum");
    expect_error([&] { with_config(27, "paired", 100, "0"); }, "start_sample, period_samples");
    expect_error([&] { with_config(27, "paired", 0, "1"); }, "format"); // 27 is format 0
    expect_error(
        [] {
            prach_detector_c::make(61.44e6, "B4", 60, 1, { 1 }, { 1 }, {}, { 0 }, 1, 0, 0, 0, 0,
                                   1e-3, "cpu", 8, 214, "paired");
        },
        "scs_khz"); // the FR1 tables: 15 and 30 kHz
    expect_error(
        [] {
            prach_detector_c::make(30.72e6, "B1", 30, 1, { 1 }, { 1 }, {}, { 0 }, 1, 0, 0, 0, 0,
                                   1e-3, "cpu", 8, 211, "unpaired");
        },
        "format");            // A1/B1: the block takes the A format
    for (int bad : { 0, 17 }) // 4 frequency occasions: at most 16 time occasions a batch
        expect_error(
            [bad] {
                prach_detector_c::make(30.72e6, "0", 30, 1, { 1 }, { 1 }, {}, { 0 }, 4, 1.25e6, 0,
                                       30720, 0, 1e-3, "cpu", bad);
            },
            "max_batch");
}

} // namespace
} // namespace gr::gpuofdm
