/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// sync_signal_source_c -> cell_searcher_cc flowgraphs, on "cpu" and on the GPU (the Python
// QA runs the CPU twin only): every sample passes through unchanged, each sync block the
// source sent is reported once with its cell ID, raster point and fields, at its first
// sample (as 38.211 / V5G.211 place it, worked out here), and tagged there; the GPU reports
// what the CPU twin does.

#include "block_test_util.h"

#include <gnuradio/blocks/head.h>
#include <gnuradio/blocks/message_debug.h>
#include <gnuradio/blocks/vector_sink.h>
#include <gnuradio/gpuofdm/cell_searcher_cc.h>
#include <gnuradio/gpuofdm/sync_signal_source_c.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <tuple>

namespace gr::gpuofdm {
namespace {

using namespace block_test;

struct found_cell {
    long cell_id, raster_number, ssb_index, subframe, symbol;
    uint64_t sample;
    bool operator<(const found_cell& o) const
    {
        return std::tie(sample, cell_id, raster_number) <
               std::tie(o.sample, o.cell_id, o.raster_number);
    }
};

struct searched {
    std::vector<found_cell> cells;
    std::vector<uint64_t> tag_offsets; // of the "cell" tags on the output
    bool passed_through = false;       // output == input, sample for sample
    size_t out_items = 0;
};

//! src -> head(n) -> search -> vector_sink, head -> a second vector_sink, "cells" into a
//! message_debug; run to the end of the stream.
searched run_search(const gr::basic_block_sptr& src, size_t n, const cell_searcher_cc::sptr& search)
{
    auto tb = gr::make_top_block("cell_search");
    auto head = gr::blocks::head::make(sizeof(gr_complex), n);
    auto out = gr::blocks::vector_sink_c::make();
    auto ref = gr::blocks::vector_sink_c::make();
    auto dbg = gr::blocks::message_debug::make();
    tb->connect(src, 0, head, 0);
    tb->connect(head, 0, search, 0);
    tb->connect(search, 0, out, 0);
    tb->connect(head, 0, ref, 0);
    tb->msg_connect(search, "cells", dbg, "store");
    run_bounded(tb);
    searched r;
    for (size_t i = 0; i < dbg->num_messages(); i++) {
        const pmt::pmt_t m = dbg->get_message(int(i));
        auto get = [&m](const char* k) { return pmt::dict_ref(m, pmt::mp(k), pmt::PMT_NIL); };
        r.cells.push_back({ pmt::to_long(get("cell_id")), pmt::to_long(get("raster_number")),
                            pmt::to_long(get("ssb_index")), pmt::to_long(get("subframe")),
                            pmt::to_long(get("symbol")), pmt::to_uint64(get("sample")) });
    }
    std::sort(r.cells.begin(), r.cells.end());
    for (const auto& t : out->tags()) {
        if (pmt::symbol_to_string(t.key) == "cell") {
            r.tag_offsets.push_back(t.offset);
        }
    }
    std::sort(r.tag_offsets.begin(), r.tag_offsets.end());
    r.out_items = out->data().size();
    r.passed_through = out->data() == ref->data();
    return r;
}

// 38.104 Table 5.4.3.1-1, 3000..24250 MHz: SS_REF = 3000 MHz + (GSCN - 7499) x 1.44 MHz.
double gscn_hz(int gscn) { return 3000e6 + (gscn - 7499) * 1.44e6; }

// Two NR cells on two GSCNs of a 30.72 Msps stream at 3.5 GHz, 5 dB, 25 ms: SSB 0 of case C
// is half-frame symbol 2, whose CP starts 1112 + 1096 = 2208 samples into the frame, one
// burst every 20 ms from each cell's start.
searched nr_two_gscns(const std::string& device)
{
    const double fs = 30.72e6, center = 3.5e9;
    auto src = sync_signal_source_c::make("nr", fs, { 17, 600 }, {},
                                          { gscn_hz(7843) - center, gscn_hz(7850) - center },
                                          { 2e3, -3e3 }, { 1e-3, 6e-3 }, 5.0, 30, 0, center, 1);
    auto search = cell_searcher_cc::make("nr", fs, center, {}, 30, 0, 16, 14.75, 1, 20, device);
    const size_t n = size_t(fs * 25e-3);
    const auto r = run_search(src, n, search);
    EXPECT_EQ(r.out_items, n) << device << ": nothing lost at the end of the stream";
    EXPECT_TRUE(r.passed_through) << device;
    struct sent {
        long cell_id, gscn;
        double start_s;
    };
    std::vector<found_cell> want;
    for (const sent& c : { sent{ 17, 7843, 1e-3 }, sent{ 600, 7850, 6e-3 } }) {
        for (int k = 0; k < 2; k++) {
            const auto s = uint64_t(std::llround(c.start_s * fs)) + 2208 + uint64_t(k) * 614400;
            if (s + 4 * 1100 < n) {
                want.push_back({ c.cell_id, c.gscn, 0, -1, -1, s });
            }
        }
    }
    std::sort(want.begin(), want.end());
    EXPECT_EQ(r.cells.size(), want.size()) << device;
    for (size_t i = 0; i < std::min(r.cells.size(), want.size()); i++) {
        EXPECT_EQ(r.cells[i].cell_id, want[i].cell_id) << device << " " << i;
        EXPECT_EQ(r.cells[i].raster_number, want[i].raster_number) << device << " " << i;
        EXPECT_EQ(r.cells[i].ssb_index, 0) << device << " " << i;
        EXPECT_NEAR(double(r.cells[i].sample), double(want[i].sample), 4) << device << " " << i;
    }
    std::vector<uint64_t> samples;
    for (const auto& c : r.cells) {
        samples.push_back(c.sample);
    }
    EXPECT_EQ(r.tag_offsets, samples) << device << ": a tag at each detection's sample";
    return r;
}

// 5GTF at -8 dB, its 14 sync symbols combined, 5 ms windows that end inside sync subframes:
// each of the subframes at 1, 6 and 11 ms is reported once, at its symbol 0 (whose CP starts
// the 0.2 ms subframe), with its subframe number (0 and 25 alternate).
searched fivegtf_symbols_combined(const std::string& device)
{
    const double fs = 19.2e6;
    auto src = sync_signal_source_c::make("5gtf", fs, { 211 }, {}, { 0.0 }, { -20e3 }, { 1e-3 },
                                          -8.0, 30, 0, 0, 3);
    auto search =
        cell_searcher_cc::make("5gtf", fs, 0, {}, 30, 0, 16, 14.75, 1, 5.0, device, 20, true);
    const size_t n = size_t(fs * 16e-3);
    const auto r = run_search(src, n, search);
    EXPECT_EQ(r.out_items, n) << device;
    EXPECT_TRUE(r.passed_through) << device;
    const double starts[] = { 1e-3, 6e-3, 11e-3 };
    const long subframes[] = { 0, 25, 0 };
    EXPECT_EQ(r.cells.size(), 3u) << device;
    for (size_t i = 0; i < std::min<size_t>(r.cells.size(), 3); i++) {
        EXPECT_EQ(r.cells[i].cell_id, 211) << device << " " << i;
        EXPECT_EQ(r.cells[i].subframe, subframes[i]) << device << " " << i;
        EXPECT_EQ(r.cells[i].symbol, 0) << device << " " << i;
        EXPECT_NEAR(double(r.cells[i].sample), starts[i] * fs, 3) << device << " " << i;
    }
    return r;
}

void expect_same_cells(const searched& cpu, const searched& gpu)
{
    ASSERT_EQ(cpu.cells.size(), gpu.cells.size());
    for (size_t i = 0; i < cpu.cells.size(); i++) {
        EXPECT_EQ(gpu.cells[i].cell_id, cpu.cells[i].cell_id) << i;
        EXPECT_EQ(gpu.cells[i].raster_number, cpu.cells[i].raster_number) << i;
        EXPECT_EQ(gpu.cells[i].sample, cpu.cells[i].sample) << i;
        EXPECT_EQ(gpu.cells[i].subframe, cpu.cells[i].subframe) << i;
        EXPECT_EQ(gpu.cells[i].symbol, cpu.cells[i].symbol) << i;
    }
}

TEST(CellSearchBlocks, NrTwoGscnsCpu) { nr_two_gscns("cpu"); }

TEST(CellSearchBlocks, NrTwoGscnsGpuAsCpu)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    expect_same_cells(nr_two_gscns("cpu"), nr_two_gscns(gpu_device()));
}

TEST(CellSearchBlocks, FivegtfSymbolsCombinedCpu) { fivegtf_symbols_combined("cpu"); }

TEST(CellSearchBlocks, FivegtfSymbolsCombinedGpuAsCpu)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    expect_same_cells(fivegtf_symbols_combined("cpu"), fivegtf_symbols_combined(gpu_device()));
}

} // namespace
} // namespace gr::gpuofdm
