/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Viterbi rows (--stages viterbi): K = 7 rate 1/2 soft decoding, decoded Mbit/s.
// Core level: the CPU twin (1 thread and every core), CUDA with host transfers (decode_frames;
// from pageable memory, and from page-locked memory as a GNU Radio block pins its buffers),
// the CUDA kernel alone on device-resident LLRs (device_decode_frames; also with 2, 4 and 8
// threads per chunk, chunks of 64 and 128 steps, and the 64-step overlaps of chunks of 256
// and 128 from 2^20 steps on; every kernel row's bits checked against the CPU twin's), the
// same with int8 LLRs (the kernel with 16-bit metrics, with and without transfers) and,
// where GNU Radio is built,
// GNU Radio's own fec::cc_decoder object (generic_work, one frame a call). Flowgraph
// level: vector_source -> head -> decoder -> null_sink for viterbi_decoder_fb (CUDA, CPU)
// and gr::fec::decoder around a cc_decoder (1 thread). Ratios: Mbit/s / cc_decoder's.

#include "bench.h"

#include "runtime/device.h"
#include "fec/viterbi.h"
#include "runtime/cuda_context.h"

#ifdef GPUOFDM_BENCH_FLOWGRAPH
#include <gnuradio/blocks/head.h>
#include <gnuradio/blocks/null_sink.h>
#include <gnuradio/blocks/vector_source.h>
#include <gnuradio/fec/cc_decoder.h>
#include <gnuradio/fec/decoder.h>
#include <gnuradio/logger.h>
#include <gnuradio/top_block.h>
#include <gnuradio/gpuofdm/viterbi_decoder_fb.h>
#endif

#include <algorithm>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <type_traits>

namespace gpuofdm_bench {

namespace {

namespace core = gr::gpuofdm::core;

constexpr int gr_frame_bits = 2048; //!< cc_decoder frame size (its own loop, CC_STREAMING)
//! Scale of the int8 rows' LLRs: the float LLRs' mean magnitude 2 becomes 40.
constexpr float int8_scale = 20.0f;

//! Noisy LLRs of a rate-1/2 stream (random signs, |mean| 2, unit spread): the ACS work does
//! not depend on the values, but keep them realistic.
std::vector<float> random_llrs(size_t n)
{
    std::mt19937 gen(777);
    std::normal_distribution<float> g(2.0f, 1.0f);
    std::bernoulli_distribution b(0.5);
    std::vector<float> v(n);
    for (auto& x : v)
        x = b(gen) ? g(gen) : -g(gen);
    return v;
}

void print_header(bool core_level)
{
    const auto def = core::viterbi_params::for_protocol("80211a", "1/2");
    if (core_level)
        std::printf(
            "\nViterbi K=7 rate 1/2 soft (--stages viterbi), core level. Mbit/s = decoded bits\n"
            "per second; batch = trellis steps per call (one terminated frame). cuda+pcie =\n"
            "decode_frames() with H2D/D2H; cuda kernel = device_decode_frames() on resident\n"
            "LLRs (+ sync), queued = 8 such launches on the stream before one wait (the\n"
            "kernel's rate without a host round trip per call; ms/batch per launch), Nt/chunk\n"
            "= N threads per chunk instead of the automatic choice;\n"
            "pinned = from page-locked host memory. fec.cc_decoder = GNU Radio's object,\n"
            "generic_work() on 2048-bit frames (VOLK kernel, 1 thread). ratio = Mbit/s /\n"
            "fec.cc_decoder's Mbit/s. Chunks of %zu steps, warm-up %zu and traceback %zu\n"
            "(viterbi_params::for_protocol(\"80211a\", \"1/2\")); from 2^20 steps on also\n"
            "chunk 64, 128, 384 and 512, and chunk 256 and 128 with 64-step overlaps (ov64);\n"
            "config = warm-up/chunk/traceback. Every kernel row's bits equal the CPU twin's\n"
            "(checked). int8 rows: the same LLRs quantised (llr_quantize, scale %.0f; 3 bytes\n"
            "a decoded bit over PCIe instead of 9) and the kernel with 16-bit metrics, two\n"
            "states a register; their bits equal the CPU twin's on the same int8 LLRs.\n",
            def.chunk_len, def.warmup, def.traceback, double(int8_scale));
    else
        std::fputs("\nViterbi, flowgraph level (vector_source -> head -> decoder -> null_sink,\n"
                   "wall time of tb->run()). gpuofdm = viterbi_decoder_fb stream mode (float\n"
                   "LLRs); fec.decoder = gr::fec::decoder(cc_decoder 2048 CC_STREAMING), uchar\n"
                   "soft input, 1 thread. ratio = Mbit/s / fec.decoder's.\n",
                   stdout);
    std::printf("%-9s %-9s %-18s %-7s %-13s %8s %10s %7s %9s %7s\n", "level", "stage", "impl",
                "device", "config", "batch", "Mbit/s", "Gbit/s", "ms/batch", "ratio");
    std::fflush(stdout);
}

void emit(std::vector<row>& rows, row r, double ref)
{
    r.ratio = r.mbit_s / ref;
    rows.push_back(r);
    std::printf("%-9s %-9s %-18s %-7s %-13s %8s %10s %7s %9s %7s\n", r.level.c_str(),
                r.stage.c_str(), r.impl.c_str(), r.device.c_str(), r.config.c_str(),
                r.batch ? std::to_string(r.batch).c_str() : "-",
                std::isfinite(r.mbit_s) ? std::to_string(r.mbit_s).substr(0, 9).c_str() : "-",
                std::isfinite(r.mbit_s) ? std::to_string(r.mbit_s / 1e3).substr(0, 6).c_str() : "-",
                std::isfinite(r.ms_per_batch) ? std::to_string(r.ms_per_batch).substr(0, 8).c_str()
                                              : "-",
                std::isfinite(r.ratio) ? std::to_string(r.ratio).substr(0, 6).c_str() : "-");
    std::fflush(stdout);
}

row core_row(const char* impl,
             const std::string& device,
             size_t batch,
             const timing& t,
             uint64_t bits_per_iter)
{
    row r;
    r.level = "core";
    r.stage = "viterbi";
    r.impl = impl;
    r.device = device;
    r.config = "K7 r1/2 soft";
    r.batch = batch;
    r.iterations = t.iterations;
    r.seconds = t.seconds;
    r.samples = t.iterations * bits_per_iter;
    r.mbit_s = double(r.samples) / t.seconds / 1e6;
    r.ms_per_batch = t.median_ms;
    return r;
}

/*!
 * \brief The kernel rows' bits against the CPU twin's: fetches the \p steps bits that the
 * last device_decode_frames() (or _int8()) of \p dec left on the device and decodes the same
 * LLRs (float or int8) with the twin at the same parameters (every core); throws
 * std::runtime_error where they differ.
 */
template <typename T>
void check_kernel_bits(core::viterbi_decoder& dec,
                       const std::vector<T>& llr,
                       size_t steps,
                       std::vector<uint8_t>& scratch)
{
    dec.device_fetch(scratch.data(), steps);
    core::viterbi_params pt = dec.params();
    pt.cpu_threads = 0;
    std::vector<uint8_t> want(steps);
    core::make_viterbi_decoder(pt, core::device_spec{})
        ->decode_frames(llr.data(), 2 * steps, steps, want.data());
    if (!std::equal(want.begin(), want.end(), scratch.begin()))
        throw std::runtime_error(
            std::string("viterbi: the ") + (std::is_same_v<T, int8_t> ? "int8 " : "") +
            "CUDA kernel's bits differ from the CPU twin's (chunk " + std::to_string(pt.chunk_len) +
            ", warm-up " + std::to_string(pt.warmup) + ", traceback " +
            std::to_string(pt.traceback) + ", " + std::to_string(steps) + " steps, " +
            std::to_string(pt.cuda_threads_per_chunk) + " threads a chunk)");
}

//! Launches queued back to back before one wait, in the "queued" kernel rows.
constexpr size_t queued_launches = 8;

/*!
 * \brief Times device_decode_frames() of \p b steps on the LLRs already on the device:
 * one call (a launch and a host wait) per iteration, or \p queued launches on the stream
 * before one wait; the timing's median is then per queued group.
 */
timing time_kernel(
    core::viterbi_decoder& dec, size_t b, size_t queued, double seconds, bool int8 = false)
{
    if (queued == 0)
        return time_repeated(
            [&] {
                if (int8)
                    dec.device_decode_frames_int8(b, 1);
                else
                    dec.device_decode_frames(b, 1);
            },
            seconds);
    return time_repeated(
        [&] {
            for (size_t i = 0; i < queued; i++) {
                if (int8)
                    dec.enqueue_decode_frames_int8(b, 1);
                else
                    dec.enqueue_decode_frames(b, 1);
            }
            dec.context()->synchronize();
        },
        seconds);
}


#ifdef GPUOFDM_BENCH_FLOWGRAPH
//! GNU Radio's cc_decoder object on its own: generic_work() on one frame after another.
row gr_core_row(double seconds)
{
    auto dec = gr::fec::code::cc_decoder::make(gr_frame_bits, 7, 2, { 109, 79 }, 0, -1,
                                               CC_STREAMING, false);
    const size_t n_in = size_t(dec->get_input_size()) + size_t(dec->get_history()) + 64;
    std::vector<uint8_t> in(n_in);
    std::mt19937 gen(5);
    for (auto& v : in)
        v = uint8_t(gen() & 1u ? 176 : 80);
    std::vector<uint8_t> out(size_t(dec->get_output_size()) + 64);
    const size_t frames_per_iter = 64;
    const timing t = time_repeated(
        [&] {
            for (size_t f = 0; f < frames_per_iter; f++)
                dec->generic_work(in.data(), out.data());
        },
        seconds);
    row r = core_row("fec.cc_decoder", "cpu", size_t(dec->get_output_size()), t,
                     frames_per_iter * uint64_t(dec->get_output_size()));
    r.config = "K7 r1/2 uchar";
    r.ms_per_batch = t.median_ms / double(frames_per_iter);
    return r;
}

enum class fg_kind { ours, gr_cc };

double fg_run_once(fg_kind k, const std::string& device, size_t batch, uint64_t steps)
{
    auto tb = gr::make_top_block("gpuofdm_bench_viterbi");
    gr::block_sptr src, head, blk;
    const long upstream = long(2 * batch);
    if (k == fg_kind::ours) {
        static const auto llr = random_llrs(size_t(1) << 18);
        src = gr::blocks::vector_source_f::make(llr, true);
        head = gr::blocks::head::make(sizeof(float), 2 * steps);
        blk = gr::gpuofdm::viterbi_decoder_fb::make("802.11a", "1/2", "stream", "", int(batch),
                                                    device);
        src->set_min_output_buffer(upstream);
        head->set_min_output_buffer(upstream);
    } else {
        std::vector<unsigned char> data(size_t(1) << 18);
        std::mt19937 gen(9);
        for (auto& v : data)
            v = (gen() & 1u) ? 176 : 80;
        src = gr::blocks::vector_source_b::make(data, true);
        head = gr::blocks::head::make(sizeof(char), 2 * steps);
        auto obj = gr::fec::code::cc_decoder::make(gr_frame_bits, 7, 2, { 109, 79 }, 0, -1,
                                                   CC_STREAMING, false);
        blk = gr::fec::decoder::make(obj, sizeof(char), sizeof(char));
    }
    auto sink = gr::blocks::null_sink::make(sizeof(char));
    tb->connect(src, 0, head, 0);
    tb->connect(head, 0, blk, 0);
    tb->connect(blk, 0, sink, 0);
    const auto t0 = clock::now();
    tb->run();
    const double t = seconds_since(t0);
    // cc_decoder emits whole frames only; ours flushes everything.
    const uint64_t want = k == fg_kind::ours ? steps : steps / gr_frame_bits * gr_frame_bits;
    if (sink->nitems_read(0) + (k == fg_kind::ours ? 0 : 2 * gr_frame_bits) < want)
        throw std::runtime_error("viterbi flowgraph stopped after " +
                                 std::to_string(sink->nitems_read(0)) + " of " +
                                 std::to_string(want) + " bits (see the log above)");
    return t;
}

row fg_row(fg_kind k, const char* impl, const std::string& device, size_t batch, double seconds)
{
    uint64_t steps = uint64_t(1) << 20;
    double t = fg_run_once(k, device, batch, steps);
    while (t < std::min(0.25, 0.2 * seconds)) {
        steps *= 4;
        t = fg_run_once(k, device, batch, steps);
    }
    steps = std::max<uint64_t>(uint64_t(1) << 16, uint64_t(double(steps) * seconds / t));
    t = fg_run_once(k, device, batch, steps);
    row r;
    r.level = "flowgraph";
    r.stage = "viterbi";
    r.impl = impl;
    r.device = device;
    r.config = k == fg_kind::ours ? "K7 r1/2 soft" : "K7 r1/2 uchar";
    r.batch = k == fg_kind::ours ? batch : size_t(gr_frame_bits);
    r.iterations = 1;
    r.samples = steps;
    r.seconds = t;
    r.mbit_s = double(steps) / t / 1e6;
    return r;
}
#endif

} // namespace

void run_viterbi(const options& o,
                 bool cuda_usable,
                 std::vector<row>& rows,
                 std::vector<std::string>& notes)
{
    const std::vector<size_t> batches =
        o.quick ? std::vector<size_t>{ size_t(1) << 14, size_t(1) << 17 }
                : std::vector<size_t>{ size_t(1) << 14, size_t(1) << 17, size_t(1) << 20,
                                       size_t(1) << 22 };
    const auto llr = random_llrs(2 * batches.back());
    std::vector<uint8_t> out(batches.back());
    double ref = not_applicable;

    print_header(true);
#ifdef GPUOFDM_BENCH_FLOWGRAPH
    if (!o.device_only) {
        row r = gr_core_row(o.core_seconds);
        ref = r.mbit_s;
        emit(rows, r, ref);
    }
#else
    notes.push_back("viterbi: no fec.cc_decoder rows (built without GNU Radio); ratio empty");
#endif
    for (size_t b : batches) {
        core::viterbi_params p = core::viterbi_params::for_protocol("80211a", "1/2");
        p.max_steps = std::max(b, p.chunk_len + p.warmup + p.traceback);
        if (!o.device_only) {
            auto dec = core::make_viterbi_decoder(p, core::device_spec{});
            const timing t = time_repeated(
                [&] { dec->decode_frames(llr.data(), 2 * b, b, out.data()); }, o.core_seconds);
            emit(rows, core_row("cpu twin", "cpu", b, t, b), ref);
            // The same with chunks on every core (identical bits).
            p.cpu_threads = 0;
            auto all = core::make_viterbi_decoder(p, core::device_spec{});
            const timing ta = time_repeated(
                [&] { all->decode_frames(llr.data(), 2 * b, b, out.data()); }, o.core_seconds);
            row r = core_row("cpu twin", "cpu", b, ta, b);
            r.impl = "cpu twin " + std::to_string(core::viterbi_cpu_threads(p)) + "t";
            emit(rows, r, ref);
            p.cpu_threads = 1;
        }
        if (cuda_usable) {
            auto dec = core::make_viterbi_decoder(p, core::resolve_device(o.device));
            const timing t = time_repeated(
                [&] { dec->decode_frames(llr.data(), 2 * b, b, out.data()); }, o.core_seconds);
            row r = core_row("cuda+pcie", o.device, b, t, b);
            r.gbps = double(t.iterations) * double(b) * (2 * sizeof(float) + 1) / t.seconds / 1e9;
            emit(rows, r, ref);
            // The same from page-locked memory, straight over PCIe both ways.
            if (dec->pin_host_range(llr.data(), 2 * b * sizeof(float)) &&
                dec->pin_host_range(out.data(), b)) {
                const timing tp = time_repeated(
                    [&] { dec->decode_frames(llr.data(), 2 * b, b, out.data()); }, o.core_seconds);
                row rp = core_row("cuda+pcie pinned", o.device, b, tp, b);
                rp.gbps =
                    double(tp.iterations) * double(b) * (2 * sizeof(float) + 1) / tp.seconds / 1e9;
                emit(rows, rp, ref);
            } else {
                notes.push_back("viterbi: page-locking refused, no pinned row at batch " +
                                std::to_string(b));
            }
            dec->unpin_host_ranges();
            dec->device_load(llr.data(), 2 * b);
            const timing k = time_kernel(*dec, b, 0, o.core_seconds);
            check_kernel_bits(*dec, llr, b, out);
            emit(rows, core_row("cuda kernel", o.device, b, k, b), ref);
            // Kernels queued back to back, one wait for all of them: the kernel's own rate,
            // without a launch and a host wait per call (a stream of batches on the device).
            const timing kq = time_kernel(*dec, b, queued_launches, o.core_seconds);
            check_kernel_bits(*dec, llr, b, out);
            row rq = core_row("cuda kernel queued", o.device, b, kq, queued_launches * b);
            rq.ms_per_batch = kq.median_ms / double(queued_launches);
            emit(rows, rq, ref);
            for (unsigned g : { 1u, 2u, 4u, 8u }) {
                if (b < (size_t(1) << 20))
                    break;
                core::viterbi_params pg = p;
                pg.cuda_threads_per_chunk = g;
                auto dg = core::make_viterbi_decoder(pg, core::resolve_device(o.device));
                dg->device_load(llr.data(), 2 * b);
                const timing kg = time_kernel(*dg, b, queued_launches, o.core_seconds);
                check_kernel_bits(*dg, llr, b, out);
                const std::string impl = "cuda kernel " + std::to_string(g) + "t/chunk queued";
                row rg = core_row(impl.c_str(), o.device, b, kg, queued_launches * b);
                rg.ms_per_batch = kg.median_ms / double(queued_launches);
                emit(rows, rg, ref);
            }
            // int8 LLRs: a quarter of the bytes over PCIe, and the kernel with 16-bit
            // metrics, two states a register (its bits checked against the twin's on the
            // same int8 values).
            {
                std::vector<int8_t> q(2 * b);
                core::llr_quantize(llr.data(), q.size(), int8_scale, q.data());
                const timing t8 = time_repeated(
                    [&] { dec->decode_frames(q.data(), q.size(), b, out.data()); }, o.core_seconds);
                row r8 = core_row("cuda+pcie int8", o.device, b, t8, b);
                r8.config = "K7 r1/2 int8";
                r8.gbps = double(t8.iterations) * double(b) * 3 / t8.seconds / 1e9;
                emit(rows, r8, ref);
                if (dec->pin_host_range(q.data(), q.size()) && dec->pin_host_range(out.data(), b)) {
                    const timing tp = time_repeated(
                        [&] { dec->decode_frames(q.data(), q.size(), b, out.data()); },
                        o.core_seconds);
                    row rp = core_row("cuda+pcie int8 pinned", o.device, b, tp, b);
                    rp.config = "K7 r1/2 int8";
                    rp.gbps = double(tp.iterations) * double(b) * 3 / tp.seconds / 1e9;
                    emit(rows, rp, ref);
                }
                dec->unpin_host_ranges();
                dec->device_load_int8(q.data(), q.size());
                const timing k8 = time_kernel(*dec, b, 0, o.core_seconds, true);
                check_kernel_bits(*dec, q, b, out);
                row rk = core_row("cuda kernel int8", o.device, b, k8, b);
                rk.config = "K7 r1/2 int8";
                emit(rows, rk, ref);
                const timing kq8 = time_kernel(*dec, b, queued_launches, o.core_seconds, true);
                check_kernel_bits(*dec, q, b, out);
                row rq8 =
                    core_row("cuda kernel int8 queued", o.device, b, kq8, queued_launches * b);
                rq8.config = "K7 r1/2 int8";
                rq8.ms_per_batch = kq8.median_ms / double(queued_launches);
                emit(rows, rq8, ref);
                for (unsigned g : { 2u, 4u, 8u }) {
                    if (b < (size_t(1) << 20))
                        break;
                    core::viterbi_params pg = p;
                    pg.cuda_threads_per_chunk = g;
                    auto dg = core::make_viterbi_decoder(pg, core::resolve_device(o.device));
                    dg->device_load_int8(q.data(), q.size());
                    const timing kg = time_kernel(*dg, b, queued_launches, o.core_seconds, true);
                    check_kernel_bits(*dg, q, b, out);
                    const std::string impl =
                        "cuda kernel int8 " + std::to_string(g) + "t/chunk queued";
                    row rg = core_row(impl.c_str(), o.device, b, kg, queued_launches * b);
                    rg.config = "K7 r1/2 int8";
                    rg.ms_per_batch = kg.median_ms / double(queued_launches);
                    emit(rows, rg, ref);
                }
            }
            // Other chunk lengths and overlaps: shorter chunks spread a batch over more
            // threads but decode more steps in all, (W + L + T) / L a bit; the rows with
            // the previous 64-step overlaps show what the measured default gains. The bits
            // depend on these, CPU twin and CUDA alike.
            struct kernel_variant {
                size_t chunk_len, overlap; // overlap 0: the default warm-up and traceback
            };
            for (const kernel_variant kv :
                 { kernel_variant{ 64, 0 }, kernel_variant{ 128, 0 }, kernel_variant{ 384, 0 },
                   kernel_variant{ 512, 0 }, kernel_variant{ 256, 64 },
                   kernel_variant{ 128, 64 } }) {
                if (b < (size_t(1) << 20))
                    break;
                core::viterbi_params pc = p;
                pc.chunk_len = kv.chunk_len;
                if (kv.overlap)
                    pc.warmup = pc.traceback = kv.overlap;
                auto dc = core::make_viterbi_decoder(pc, core::resolve_device(o.device));
                dc->device_load(llr.data(), 2 * b);
                const timing kc = time_kernel(*dc, b, queued_launches, o.core_seconds);
                check_kernel_bits(*dc, llr, b, out);
                std::string impl = "cuda kernel chunk " + std::to_string(kv.chunk_len);
                if (kv.overlap)
                    impl += " ov" + std::to_string(kv.overlap);
                impl += " queued";
                row r = core_row(impl.c_str(), o.device, b, kc, queued_launches * b);
                r.ms_per_batch = kc.median_ms / double(queued_launches);
                r.config = std::to_string(pc.warmup) + "/" + std::to_string(pc.chunk_len) + "/" +
                           std::to_string(pc.traceback);
                emit(rows, r, ref);
            }
        }
    }
    if (!cuda_usable)
        notes.push_back("viterbi: CUDA rows skipped (no usable GPU)");

    if (!o.flowgraph) {
        notes.push_back("viterbi flowgraph: skipped (--no-flowgraph)");
        return;
    }
#ifdef GPUOFDM_BENCH_FLOWGRAPH
    gr::logging::singleton().set_default_level(gr::log_level::warn);
    print_header(false);
    const size_t fg_batch = size_t(1) << 18;
    double fg_ref = not_applicable;
    if (!o.device_only) {
        row r = fg_row(fg_kind::gr_cc, "fec.decoder 1t", "cpu", 0, o.seconds);
        fg_ref = r.mbit_s;
        emit(rows, r, fg_ref);
    }
    if (cuda_usable)
        emit(rows, fg_row(fg_kind::ours, "gpuofdm", o.device, fg_batch, o.seconds), fg_ref);
    if (!o.device_only)
        emit(rows, fg_row(fg_kind::ours, "gpuofdm", "cpu", fg_batch, o.seconds), fg_ref);
    notes.push_back("viterbi flowgraph: our block's batch 2^18 steps; upstream min_output_buffer "
                    "2^19 floats (one batch of LLR pairs)");
#else
    notes.push_back("viterbi flowgraph: not built (no GNU Radio)");
#endif
}

} // namespace gpuofdm_bench
