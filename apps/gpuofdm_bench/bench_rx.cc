/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Receiver rows (--stages rx): the 802.11a receiver end to end on a recorded stream of
// back-to-back 1500-octet 54 Mb/s frames (made by the core transmitter, 30 dB SNR, 20 kHz
// CFO), in Msamples/s and as a multiple of real time (20 Msps). Core level: the core
// wifi_receiver fed the stream in 65536-sample pieces as a block's work() would, then
// finish(), for several batch sizes, CPU twin and CUDA; the frames decoded are compared
// (CUDA must decode the same frames as the CPU twin). Flowgraph level, where GNU Radio is
// built: file_source (or vector_source) -> wifi_rx -> message_debug, the whole stream, CPU
// and CUDA, each CUDA row also as a fraction of file_source -> null_sink on the same
// recording in the same run (the ceiling).

#include "bench.h"

#include "runtime/device.h"
#include "wifi/wifi_rx.h"
#include "wifi/wifi_rx_bits.h"
#include "wifi/wifi_tx.h"

#ifdef GPUOFDM_BENCH_FLOWGRAPH
#include <gnuradio/blocks/file_source.h>
#include <gnuradio/blocks/message_debug.h>
#include <gnuradio/blocks/null_sink.h>
#include <gnuradio/blocks/vector_source.h>
#include <unistd.h>
#include <gnuradio/top_block.h>
#include <gnuradio/gpuofdm/wifi_rx.h>
#endif

#include <complex>
#include <cstdio>
#include <filesystem>
#include <random>
#include <stdexcept>

namespace gpuofdm_bench {

namespace {

namespace core = gr::gpuofdm::core;
using core::cfloat;

constexpr int rx_rate = 54;
constexpr size_t rx_psdu = 1500;
constexpr size_t piece = 65536; //!< samples per process() call, as GNU Radio hands them
constexpr double air_rate = 20e6;

//! The recorded stream: frames back to back (no gap), unit power, AWGN and CFO.
std::vector<cfloat> make_stream(size_t frames, std::vector<std::vector<uint8_t>>& psdus)
{
    core::wifi_tx_params tp;
    tp.scale = float(64.0 / std::sqrt(52.0));
    auto tx = core::make_wifi_tx(tp, core::device_spec{});
    std::mt19937 rng(2026);
    psdus.assign(frames, std::vector<uint8_t>(rx_psdu));
    std::vector<core::wifi_frame_request> req(frames);
    for (size_t f = 0; f < frames; f++) {
        for (auto& b : psdus[f])
            b = uint8_t(rng());
        const uint32_t c = core::crc32_ieee(psdus[f].data(), rx_psdu - 4);
        for (int i = 0; i < 4; i++)
            psdus[f][rx_psdu - 4 + size_t(i)] = uint8_t(c >> (8 * i));
        req[f] = { psdus[f].data(), rx_psdu, rx_rate, 1 + int(f % 127) };
    }
    std::vector<cfloat> x(tx->total_samples(req) + 1000, cfloat(0, 0));
    tx->process(req, x.data() + 500);
    const float n0 = 1e-3f; // 30 dB
    std::normal_distribution<float> g(0.0f, std::sqrt(n0 / 2));
    std::complex<double> rot = 1.0;
    const std::complex<double> step = std::polar(1.0, 2.0 * M_PI * 20e3 / air_rate);
    for (auto& v : x) {
        v = v * cfloat(rot) + cfloat(g(rng), g(rng));
        rot *= step;
    }
    return x;
}

struct rx_result {
    std::vector<core::wifi_rx_packet> packets;
    double seconds = 0;
    std::string split; //!< where the time went (the receiver's own timers)
};

rx_result run_core_once(core::wifi_receiver& rx, const std::vector<cfloat>& x)
{
    rx_result r;
    const core::wifi_rx_stats s0 = rx.stats();
    const auto t0 = clock::now();
    for (size_t at = 0; at < x.size(); at += piece) {
        auto p = rx.process(x.data() + at, std::min(piece, x.size() - at));
        r.packets.insert(r.packets.end(), std::make_move_iterator(p.begin()),
                         std::make_move_iterator(p.end()));
    }
    auto p = rx.finish();
    r.packets.insert(r.packets.end(), p.begin(), p.end());
    r.seconds = seconds_since(t0);
    const core::wifi_rx_stats& s1 = rx.stats();
    char buf[256];
    std::snprintf(
        buf, sizeof(buf),
        "input %.0f%%, sync %.0f%%, upload+estimates %.0f%%, SIGNAL %.0f%%, DATA "
        "(equalize+decode) %.0f%% of which the decoder %.0f%%",
        100 * (s1.t_input - s0.t_input) / r.seconds, 100 * (s1.t_sync - s0.t_sync) / r.seconds,
        100 * (s1.t_estimate - s0.t_estimate) / r.seconds,
        100 * (s1.t_signal - s0.t_signal) / r.seconds, 100 * (s1.t_data - s0.t_data) / r.seconds,
        100 * (s1.t_decode - s0.t_decode) / r.seconds);
    r.split = buf;
    return r;
}

size_t frames_ok(const std::vector<core::wifi_rx_packet>& got,
                 const std::vector<std::vector<uint8_t>>& psdus)
{
    size_t ok = 0, next = 0;
    for (const auto& p : got)
        if (p.data.fcs_ok && next < psdus.size() && p.data.psdu == psdus[next]) {
            ok++;
            next++;
        } else if (p.data.fcs_ok) {
            // A frame skipped before: find it further on.
            while (next < psdus.size() && p.data.psdu != psdus[next])
                next++;
            if (next < psdus.size()) {
                ok++;
                next++;
            }
        }
    return ok;
}

bool same_frames(const std::vector<core::wifi_rx_packet>& a,
                 const std::vector<core::wifi_rx_packet>& b)
{
    if (a.size() != b.size())
        return false;
    for (size_t i = 0; i < a.size(); i++)
        if (a[i].ltf_start != b[i].ltf_start || a[i].data.fcs_ok != b[i].data.fcs_ok ||
            a[i].data.psdu != b[i].data.psdu)
            return false;
    return true;
}

void print_header(const char* level)
{
    std::printf("\nReceiver wifi_rx (--stages rx), %s level: 1500-octet 54 Mb/s frames back to "
                "back, 30 dB, 20 kHz CFO.\nMsps = samples per second end to end; x RT = Msps / "
                "20; ratio = Msps / the CPU twin's at the same level; %% ceil = Msps / "
                "file_source -> null_sink's (same run).\n",
                level);
    std::printf("%-9s %-10s %-9s %-7s %-52s %9s %8s %9s %9s %7s %7s %7s\n", "level", "stage",
                "impl", "device", "input", "batch", "frames", "Msps", "Mbit/s", "x RT", "ratio",
                "% ceil");
    std::fflush(stdout);
}

row rx_row(const std::string& level,
           const std::string& impl,
           const std::string& dev,
           size_t batch,
           size_t ok,
           double seconds,
           size_t samples)
{
    return receiver_row(level, "wifi_rx", impl, dev, "54M 1500B", batch, ok, rx_psdu, seconds,
                        samples);
}

void print_rx_row(const row& r)
{
    char pct[16] = "-";
    if (std::isfinite(r.of_ceiling))
        std::snprintf(pct, sizeof(pct), "%.1f", 100.0 * r.of_ceiling);
    std::printf("%-9s %-10s %-9s %-7s %-52s %9zu %8llu %9.1f %9.1f %7.2f %7s %7s\n",
                r.level.c_str(), r.stage.c_str(), r.impl.c_str(), r.device.c_str(),
                r.config.c_str(), r.batch, static_cast<unsigned long long>(r.iterations), r.msps,
                r.mbit_s, r.msps * 1e6 / air_rate,
                std::isnan(r.ratio) ? "-" : std::to_string(r.ratio).substr(0, 5).c_str(), pct);
    std::fflush(stdout);
}

#ifdef GPUOFDM_BENCH_FLOWGRAPH
//! How a flowgraph row feeds wifi_rx.
struct flowgraph_setup {
    std::string file;         //!< the recorded stream: file_source on it; "" for vector_source
    int repeat = 1;           //!< the stream is this many copies of the frames
    int upstream_batches = 0; //!< source min_output_buffer in batches; 0: GNU Radio's default
    bool consumer = true;     //!< message_debug stores the PDUs (else the port is unconnected)
};

//! The harness's own ceiling: file_source -> null_sink over the same recording, no receiver.
row run_source_ceiling(const std::string& file, size_t samples, std::vector<std::string>& notes)
{
    auto src = gr::blocks::file_source::make(sizeof(gr_complex), file.c_str(), false);
    auto sink = gr::blocks::null_sink::make(sizeof(gr_complex));
    auto tb = gr::make_top_block("bench_rx_ceiling");
    tb->connect(src, 0, sink, 0);
    const auto t0 = clock::now();
    tb->run();
    const double secs = seconds_since(t0);
    row r = rx_row("flowgraph", "source only", "cpu", 0, 0, secs, samples);
    r.stage = "file->null";
    r.config = "file_source -> null_sink, no receiver";
    notes.push_back("rx flowgraph ceiling: file_source -> null_sink reads " +
                    std::to_string(samples) + " samples in " + std::to_string(secs) + " s");
    return r;
}

//! source -> wifi_rx (-> message_debug) over the whole stream; frames received.
row run_flowgraph_once(const std::string& device,
                       size_t batch,
                       const std::vector<cfloat>& x,
                       const std::vector<std::vector<uint8_t>>& psdus,
                       const flowgraph_setup& f,
                       std::vector<std::string>& notes)
{
    gr::block_sptr src;
    if (f.file.empty())
        src = gr::blocks::vector_source<gr_complex>::make(x, false);
    else
        src = gr::blocks::file_source::make(sizeof(gr_complex), f.file.c_str(), false);
    // Room for the next batch while the block decodes one (its work() holds the batch
    // until decoded): source and receiver overlap instead of taking turns.
    if (f.upstream_batches > 0)
        src->set_min_output_buffer(long(f.upstream_batches * batch));
    auto rx = gr::gpuofdm::wifi_rx::make(int(batch), 0.56f, false, "", device);
    auto sink = gr::blocks::message_debug::make();
    auto tb = gr::make_top_block("bench_wifi_rx");
    tb->connect(src, 0, rx, 0);
    if (f.consumer)
        tb->msg_connect(rx, "pdus", sink, "store");
    const auto t0 = clock::now();
    tb->start();
    const double start_secs = seconds_since(t0);
    tb->wait();
    const double secs = seconds_since(t0);
    std::vector<core::wifi_rx_packet> got;
    for (size_t i = 0; i < sink->num_messages(); i++) {
        const pmt::pmt_t m = sink->get_message(i);
        core::wifi_rx_packet p;
        p.data.psdu = pmt::u8vector_elements(pmt::cdr(m));
        p.data.fcs_ok = pmt::to_bool(pmt::dict_ref(pmt::car(m), pmt::intern("crc_ok"), pmt::PMT_F));
        got.push_back(std::move(p));
    }
    std::vector<std::vector<uint8_t>> sent;
    for (int k = 0; k < f.repeat; k++)
        sent.insert(sent.end(), psdus.begin(), psdus.end());
    const size_t ok = f.consumer ? frames_ok(got, sent) : size_t(rx->frames_received());
    row r = rx_row("flowgraph", device == "cpu" ? "cpu twin" : "gpuofdm", rx->device(), batch, ok,
                   secs, x.size() * size_t(f.repeat));
    r.config =
        std::string(f.file.empty() ? "vector" : "file") + " " + std::to_string(f.repeat) + "x, " +
        (f.upstream_batches > 0 ? "src buffer " + std::to_string(f.upstream_batches) + " batches"
                                : "default buffer") +
        (f.consumer ? "" : ", no PDU consumer");
    char buf[200];
    std::snprintf(buf, sizeof(buf),
                  "rx flowgraph %s batch %zu (%s): %zu of %zu frames, %.3f s (start() %.3f s)",
                  r.device.c_str(), batch, r.config.c_str(), ok, sent.size(), secs, start_secs);
    notes.push_back(buf);
    return r;
}

#endif

} // namespace

void run_rx(const options& o,
            bool cuda_usable,
            std::vector<row>& rows,
            std::vector<std::string>& notes)
{
    const size_t frames = o.quick ? 100 : 4000;
    std::vector<std::vector<uint8_t>> psdus;
    const auto x = make_stream(frames, psdus);
    const std::vector<size_t> batches =
        o.quick ? std::vector<size_t>{ size_t(1) << 18 }
                : std::vector<size_t>{ size_t(1) << 18, size_t(1) << 20, size_t(1) << 22 };

    print_header("core");
    // The CPU twin once at the default batch: the reference for the ratio and the frames.
    core::wifi_rx_params p;
    p.batch_samples = size_t(1) << 18;
    auto cpu_rx = core::make_wifi_receiver(p, core::device_spec{});
    const rx_result cpu = run_core_once(*cpu_rx, x);
    row cr = rx_row("core", "cpu twin", "cpu", p.batch_samples, frames_ok(cpu.packets, psdus),
                    cpu.seconds, x.size());
    cr.config = "-";
    cr.ratio = 1.0;
    rows.push_back(cr);
    print_rx_row(cr);
    notes.push_back("rx: CPU twin time: " + cpu.split);
    if (cr.iterations != frames)
        notes.push_back("rx: the CPU twin decoded " + std::to_string(cr.iterations) + " of " +
                        std::to_string(frames) + " frames");

    if (!cuda_usable) {
        notes.push_back("rx: CUDA rows skipped (no usable GPU)");
    } else {
        const core::device_spec dev = core::resolve_device(o.device);
        // As the block runs it (its sample chunks page-locked: the samples go to the device
        // without a host copy), and at 2^20 also from ordinary memory (a host copy into
        // pinned staging first).
        std::vector<std::pair<size_t, bool>> runs;
        for (size_t batch : batches)
            runs.push_back({ batch, true });
        if (!o.quick)
            runs.push_back({ size_t(1) << 20, false });
        for (const auto& [batch, pinned] : runs) {
            core::wifi_rx_params q;
            q.batch_samples = batch;
            q.decode.max_frames_per_batch = 4096;
            q.decode.max_symbols_per_batch = size_t(1) << 20;
            auto rx = core::make_wifi_receiver(q, dev);
            const bool is_pinned =
                pinned && rx->pin_host_range(x.data(), x.size() * sizeof(cfloat));
            run_core_once(*rx, x); // warm-up: plans, first launches
            rx_result best;
            best.seconds = 1e30;
            for (int rep = 0; rep < 3; rep++) {
                auto r = run_core_once(*rx, x);
                if (r.seconds < best.seconds)
                    best = std::move(r);
            }
            rx->unpin_host_ranges();
            row r = rx_row("core", is_pinned ? "cuda" : "cuda stg", dev.to_string(), batch,
                           frames_ok(best.packets, psdus), best.seconds, x.size());
            r.config = is_pinned ? "input page-locked" : "input staged";
            r.ratio = r.msps / cr.msps;
            r.equals_cpu_twin = same_frames(best.packets, cpu.packets) ? 1 : 0;
            rows.push_back(r);
            print_rx_row(r);
            notes.push_back(std::string("rx: CUDA (batch ") + std::to_string(batch) + ", " +
                            r.config + ") decodes the same frames as the CPU twin: " +
                            (r.equals_cpu_twin ? "yes" : "NO") + "; time: " + best.split);
        }
    }

#ifdef GPUOFDM_BENCH_FLOWGRAPH
    if (o.flowgraph) {
        print_header("flowgraph");
        // The recorded stream as a user has it: a file, read by file_source. The CPU twin
        // reads one copy (seconds a copy); the CUDA rows rx_repeat copies, so that the
        // flowgraph's start and end weigh as they do on a long recording.
        const std::string once = write_recording("gpuofdm_bench_rx", x, 1);
        row f = run_flowgraph_once("cpu", size_t(1) << 18, x, psdus, { once, 1, 0, true }, notes);
        f.ratio = 1.0;
        rows.push_back(f);
        print_rx_row(f);
        if (cuda_usable) {
            const std::string many =
                o.rx_repeat > 1 ? write_recording("gpuofdm_bench_rx", x, o.rx_repeat) : once;
            // The source's buffer as GNU Radio sizes it (the block takes samples in
            // chunks of its own), then 4 batches (min_output_buffer; not at 2^22: 4 x 2^22
            // samples are more than a double-mapped buffer may take).
            std::vector<std::pair<size_t, flowgraph_setup>> runs;
            for (size_t batch : batches)
                runs.push_back({ batch, { many, o.rx_repeat, 0, true } });
            if (!o.quick) {
                for (size_t batch : batches)
                    if (batch <= (size_t(1) << 20))
                        runs.push_back({ batch, { many, o.rx_repeat, 4, true } });
                const size_t b = size_t(1) << 20;
                runs.push_back({ b, { once, 1, 0, true } });            // one copy
                runs.push_back({ b, { "", 1, 0, true } });              // vector_source
                runs.push_back({ b, { many, o.rx_repeat, 0, false } }); // no PDU consumer
            }
            // What GNU Radio moves through the same flowgraph with no receiver at all, first:
            // the rows below are fractions of it.
            row c = run_source_ceiling(many, x.size() * size_t(o.rx_repeat), notes);
            c.ratio = c.msps / f.msps;
            c.of_ceiling = 1.0;
            rows.push_back(c);
            print_rx_row(c);
            for (const auto& [batch, setup] : runs) {
                row g = run_flowgraph_once(o.device, batch, x, psdus, setup, notes);
                g.ratio = g.msps / f.msps;
                // The 1x and vector_source rows read less or otherwise than the ceiling.
                if (setup.repeat == o.rx_repeat && !setup.file.empty())
                    g.of_ceiling = g.msps / c.msps;
                rows.push_back(g);
                print_rx_row(g);
            }
            if (many != once)
                std::remove(many.c_str());
        }
        std::remove(once.c_str());
    }
#else
    notes.push_back("rx: flowgraph rows not built (no GNU Radio)");
#endif
}

} // namespace gpuofdm_bench
