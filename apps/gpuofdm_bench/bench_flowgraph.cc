/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Flowgraph-level rows: source -> head -> block -> null sink, timed over tb->run(),
// for our blocks (CUDA and CPU twin) and GNU Radio's fft_vcc with 1 and all threads.

#include "bench.h"

#include <gnuradio/blocks/head.h>
#include <gnuradio/blocks/null_sink.h>
#include <gnuradio/blocks/null_source.h>
#include <gnuradio/blocks/vector_source.h>
#include <gnuradio/constants.h>
#include <gnuradio/fft/fft_v.h>
#include <gnuradio/logger.h>
#include <gnuradio/top_block.h>
#include <gnuradio/gpuofdm/ofdm_fft.h>
#include <gnuradio/gpuofdm/ofdm_ifft.h>

#include <random>
#include <stdexcept>
#include <thread>

namespace gpuofdm_bench {

std::string gnuradio_version() { return gr::version(); }

namespace {

constexpr size_t item = sizeof(gr_complex);

enum class under_test { none, ours, fft_vcc };

struct case_spec {
    stage_kind stage;
    under_test what;
    int fft_len;
    int cp;
    size_t batch;       //!< our block's batch; also sizes the upstream buffers
    std::string device; //!< ours: "cpu" or "cuda:N"
    int nthreads = 1;   //!< fft_vcc
    int upstream_batches = 1;
    bool null_source = false;
};

std::vector<gr_complex> random_data(size_t n)
{
    std::mt19937 gen(12345);
    std::normal_distribution<float> g(0.0f, 1.0f);
    std::vector<gr_complex> v(n);
    for (auto& x : v)
        x = gr_complex(g(gen), g(gen));
    return v;
}

//! Time-domain samples (CP included) that n_symbols of the case make.
uint64_t counted_samples(const case_spec& c, uint64_t n_symbols)
{
    return n_symbols * uint64_t(c.fft_len + c.cp);
}

//! Builds the flowgraph for n_symbols and returns the wall time of tb->run().
double run_once(const case_spec& c, uint64_t n_symbols)
{
    const size_t n = size_t(c.fft_len);
    const size_t sym_len = n + size_t(c.cp);
    // The fft stage of ours takes a sample stream; everything else takes vectors.
    const bool scalar_in = c.stage == stage_kind::fft && c.what != under_test::fft_vcc;
    const size_t in_vlen = scalar_in ? 1 : n;
    const uint64_t in_items = scalar_in ? n_symbols * sym_len : n_symbols;
    // A whole batch in each upstream buffer (see the block header docs).
    const long upstream_items = long(scalar_in ? c.batch * sym_len : c.batch) * c.upstream_batches;

    static const auto data = random_data(size_t(1) << 16);
    std::vector<gr_complex> src_data(data.begin(), data.begin() + (data.size() / n) * n);
    if (src_data.empty())
        src_data = random_data(n);

    auto tb = gr::make_top_block("gpuofdm_bench");
    // FFT cost does not depend on the data, so zeros from null_source (a memset, the
    // cheapest source GNU Radio has) measure the same work with a higher ceiling.
    gr::block_sptr src;
    if (c.null_source)
        src = gr::blocks::null_source::make(item * in_vlen);
    else
        src = gr::blocks::vector_source_c::make(src_data, true, unsigned(in_vlen));
    auto head = gr::blocks::head::make(item * in_vlen, in_items);
    src->set_min_output_buffer(upstream_items);
    head->set_min_output_buffer(upstream_items);
    tb->connect(src, 0, head, 0);

    gr::basic_block_sptr blk;
    size_t out_size = item * in_vlen;
    if (c.what == under_test::ours) {
        if (c.stage == stage_kind::fft) {
            blk = gr::gpuofdm::ofdm_fft::make(c.fft_len, { c.cp }, true, 1.0f, int(c.batch),
                                              c.device);
            out_size = item * n;
        } else {
            blk = gr::gpuofdm::ofdm_ifft::make(c.fft_len, { c.cp }, true, 1.0f, int(c.batch),
                                               c.device);
            out_size = item;
        }
    } else if (c.what == under_test::fft_vcc) {
        const std::vector<float> rect; // no window: a plain FFT, as ours
        if (c.stage == stage_kind::fft)
            blk = gr::fft::fft_v<gr_complex, true>::make(c.fft_len, rect, true, c.nthreads);
        else
            blk = gr::fft::fft_v<gr_complex, false>::make(c.fft_len, rect, true, c.nthreads);
        out_size = item * n;
    }
    auto sink = gr::blocks::null_sink::make(out_size);
    if (blk) {
        tb->connect(head, 0, blk, 0);
        tb->connect(blk, 0, sink, 0);
    } else {
        tb->connect(head, 0, sink, 0);
    }
    const auto t0 = clock::now();
    tb->run();
    const double t = seconds_since(t0);
    // A block that throws in its thread ends the graph early, with a log line only.
    const uint64_t expected = c.what == under_test::none ? in_items
                              : (c.what == under_test::ours && c.stage == stage_kind::ifft)
                                  ? n_symbols * sym_len
                                  : n_symbols;
    if (sink->nitems_read(0) != expected)
        throw std::runtime_error("the flowgraph stopped after " +
                                 std::to_string(sink->nitems_read(0)) + " of " +
                                 std::to_string(expected) + " items (see the log above)");
    return t;
}

//! Grows the run until it lasts a useful fraction of the target, then runs for it.
row measure_case(const case_spec& c, const char* impl, const std::string& device, double seconds)
{
    const uint64_t sym_len = uint64_t(c.fft_len) + uint64_t(c.cp);
    uint64_t n_sym = std::max<uint64_t>(4 * c.batch, (uint64_t(1) << 20) / sym_len);
    double t = run_once(c, n_sym);
    while (t < std::min(0.25, 0.2 * seconds)) {
        n_sym *= 4;
        t = run_once(c, n_sym);
    }
    n_sym = std::max<uint64_t>(1, uint64_t(double(n_sym) * seconds / t));
    t = run_once(c, n_sym);

    row r;
    r.level = "flowgraph";
    r.stage = stage_name(c.stage);
    r.impl = impl;
    r.device = device;
    r.fft_len = c.fft_len;
    r.cp = c.cp;
    r.batch = c.what == under_test::ours ? c.batch : (c.what == under_test::fft_vcc ? 1 : 0);
    r.iterations = n_sym;
    r.samples = counted_samples(c, n_sym);
    r.seconds = t;
    r.msps = double(r.samples) / t / 1e6;
    if (c.what == under_test::ours && device != "cpu") {
        // Every sample crosses PCIe once each way (time side incl. CP + bins).
        const double bytes = double(n_sym) * double(2 * c.fft_len + c.cp) * item;
        r.gbps = bytes / t / 1e9;
    }
    return r;
}

//! The rows of one stage and size; the first is fft_vcc 1t, the reference of the ratio.
void run_size(
    const options& o, bool cuda_usable, stage_kind s, int n, int hw, std::vector<row>& rows)
{
    const size_t batch =
        o.flowgraph_batch ? o.flowgraph_batch : std::max<size_t>(1, (size_t(1) << 18) / size_t(n));
    const int cp_info = std::min(16, n);
    double ref = not_applicable;
    auto measure = [&](case_spec c, const char* impl, const std::string& device) {
        c.upstream_batches = o.upstream_batches;
        c.null_source = o.null_source;
        return measure_case(c, impl, device, o.seconds);
    };
    auto emit = [&](row r) {
        r.ratio = r.msps / ref;
        rows.push_back(r);
        print_row(rows.back());
    };
    if (!o.device_only) {
        case_spec c{ s, under_test::fft_vcc, n, 0, batch, "cpu", 1 };
        row r = measure(c, "fft_vcc 1t", "cpu");
        ref = r.msps;
        emit(r);
        if (hw > 1) {
            c.nthreads = hw;
            const std::string label = "fft_vcc " + std::to_string(hw) + "t";
            emit(measure(c, label.c_str(), "cpu"));
        }
        emit(measure({ s, under_test::none, n, 0, batch, "cpu" }, "source+head", "-"));
    }
    for (int cp : { 0, cp_info }) {
        if (cuda_usable)
            emit(measure({ s, under_test::ours, n, cp, batch, o.device }, "gpuofdm", o.device));
        if (!o.device_only)
            emit(measure({ s, under_test::ours, n, cp, batch, "cpu" }, "gpuofdm", "cpu"));
    }
}

} // namespace

void run_flowgraph(const options& o,
                   bool cuda_usable,
                   std::vector<row>& rows,
                   std::vector<std::string>& notes)
{
    // set_min_output_buffer and the blocks' start-up lines would break up the table.
    gr::logging::singleton().set_default_level(gr::log_level::warn);
    const int hw = int(std::max(1u, std::thread::hardware_concurrency()));
    const std::vector<int> sizes = o.quick ? std::vector<int>{ o.sizes.front() } : o.sizes;
    if (!cuda_usable)
        notes.push_back("flowgraph: gpuofdm CUDA rows skipped (no usable GPU)");
    if (o.device_only)
        notes.push_back("flowgraph: CPU twin, fft_vcc and source+head rows skipped "
                        "(--device-only); ratio left empty");
    notes.push_back(
        std::string("flowgraph: source ") + (o.null_source ? "null_source" : "vector_source") +
        "; upstream (source, head) min_output_buffer = " + std::to_string(o.upstream_batches) +
        " batch(es) of our block (batch * (fft_len+cp) samples, or batch vectors) "
        "for every row, fft_vcc's included");

    for (stage_kind s : o.stages) {
        for (int n : sizes) {
            try {
                run_size(o, cuda_usable, s, n, hw, rows);
            } catch (const std::exception& e) {
                throw std::runtime_error(std::string("flowgraph ") + stage_name(s) + " fft_len " +
                                         std::to_string(n) + ": " + e.what());
            }
        }
    }
}

} // namespace gpuofdm_bench
