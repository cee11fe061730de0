/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The OFDM loopback (gpuofdm_demo --mode ofdm): random QPSK symbols -> ofdm_ifft ->
// ofdm_fft, on the GPU when one is usable, else on the CPU twin. Prints the throughput and
// the round-trip error and fails when the error is above tolerance.

#include "../common/cli_options.h"
#include "demo.h"
#include "demo_util.h"

#include <gnuradio/blocks/head.h>
#include <gnuradio/blocks/vector_source.h>
#include <gnuradio/io_signature.h>
#include <gnuradio/sync_block.h>
#include <gnuradio/top_block.h>
#include <gnuradio/gpuofdm/device.h>
#include <gnuradio/gpuofdm/ofdm_fft.h>
#include <gnuradio/gpuofdm/ofdm_ifft.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <random>
#include <stdexcept>
#include <string>

namespace {

struct options {
    std::string device = "auto";
    int fft_len = 64;
    int cp = 16;
    long symbols = 1000000;
    int batch = 0;
    double sample_rate = 20e6;
};

} // namespace

void ofdm_usage()
{
    std::puts("--mode ofdm: random QPSK OFDM symbols through ofdm_ifft -> ofdm_fft\n"
              "  --device S      auto (default), cpu, cuda, cuda:N\n"
              "  --fft-len N     FFT size (64)\n"
              "  --cp N          cyclic prefix (16)\n"
              "  --symbols N     symbols to send (1000000)\n"
              "  --batch N       symbols per GPU launch (0: the block's default)\n"
              "  --rate R        air sample rate for the real-time factor (20e6)\n"
              "  FAIL (exit 1) when a symbol is lost or the round-trip error is above 1e-4\n");
}

namespace {

options parse(int argc, char** argv)
{
    using namespace gpuofdm_apps;
    options o;
    parse_cli(argc, argv,
              {
                  value("--device", o.device),
                  value("--fft-len", o.fft_len),
                  value("--cp", o.cp),
                  value("--symbols", o.symbols),
                  value("--batch", o.batch),
                  value("--rate", o.sample_rate),
              },
              demo_usage, "gpuofdm_demo");
    if (o.symbols < 1)
        throw std::invalid_argument("--symbols: must be at least 1");
    if (o.fft_len < 1)
        throw std::invalid_argument("--fft-len: must be at least 1");
    return o;
}

/*!
 * Compares each received vector with the repeating pattern the source sent and keeps the
 * largest error, so the check costs no memory however long the run.
 */
class round_trip_check : public gr::sync_block
{
public:
    round_trip_check(const std::vector<gr_complex>& pattern, int fft_len)
        : gr::sync_block("round_trip_check",
                         gr::io_signature::make(1, 1, sizeof(gr_complex) * fft_len),
                         gr::io_signature::make(0, 0, 0)),
          d_pattern(pattern), d_fft_len(size_t(fft_len))
    {
    }

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star&) override
    {
        const auto* in = static_cast<const gr_complex*>(input_items[0]);
        const size_t period = d_pattern.size() / d_fft_len;
        for (int i = 0; i < noutput_items; i++, d_symbols++) {
            const gr_complex* want = &d_pattern[(d_symbols % period) * d_fft_len];
            float worst = 0; // squared error: no hypot per sample
            for (size_t k = 0; k < d_fft_len; k++)
                worst = std::max(worst, std::norm(in[i * d_fft_len + k] - want[k]));
            d_max_error = std::max(d_max_error, std::sqrt(double(worst)));
        }
        return noutput_items;
    }

    double max_error() const { return d_max_error; }
    uint64_t symbols() const { return d_symbols; }

private:
    std::vector<gr_complex> d_pattern;
    size_t d_fft_len;
    uint64_t d_symbols = 0;
    double d_max_error = 0;
};

} // namespace

int run_ofdm_loopback(int argc, char** argv)
{
    {
        const options o = parse(argc, argv);
        namespace go = gr::gpuofdm;

        // The blocks check fft_len, cp and batch (std::invalid_argument naming them).
        const float scale = 1.0f / std::sqrt(float(o.fft_len)); // unit power on air
        auto tx = go::ofdm_ifft::make(o.fft_len, { o.cp }, true, scale, o.batch, o.device);
        auto rx = go::ofdm_fft::make(o.fft_len, { o.cp }, true, scale, o.batch, o.device);

        // 1021 random QPSK symbols (a prime, so the pattern never lines up with a batch).
        const int pattern_symbols = 1021;
        std::mt19937 rng(2026);
        std::vector<gr_complex> pattern(size_t(pattern_symbols) * o.fft_len);
        const float a = float(M_SQRT1_2);
        for (auto& v : pattern)
            v = gr_complex(rng() & 1 ? a : -a, rng() & 1 ? a : -a);
        auto src = gr::blocks::vector_source<gr_complex>::make(pattern, true, o.fft_len);
        auto head = gr::blocks::head::make(sizeof(gr_complex) * o.fft_len, uint64_t(o.symbols));
        auto check = gnuradio::get_initial_sptr(new round_trip_check(pattern, o.fft_len));
        // The GPU blocks work best with a whole batch in their input buffer.
        src->set_min_output_buffer(2L * tx->batch());
        head->set_min_output_buffer(2L * tx->batch());

        auto tb = gr::make_top_block("gpuofdm_demo");
        tb->connect(src, 0, head, 0);
        tb->connect(head, 0, tx, 0);
        tb->connect(tx, 0, rx, 0);
        tb->connect(rx, 0, check, 0);

        std::printf("gpuofdm_demo: ofdm_ifft -> ofdm_fft, fft_len %d, CP %d, batch %d symbols\n",
                    o.fft_len, o.cp, tx->batch());
        gpuofdm_demo::print_device(tx->device(), o.device);

        const auto t0 = std::chrono::steady_clock::now();
        tb->run();
        const double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

        const double samples = double(check->symbols()) * (o.fft_len + o.cp);
        const double msps = samples / secs / 1e6;
        const double tolerance = 1e-4;
        std::printf("  symbols sent %ld, received %llu\n", o.symbols,
                    static_cast<unsigned long long>(check->symbols()));
        std::printf("  time %.3f s, %.1f Msamples/s on air (%.1fx real time at %.0f Msps)\n", secs,
                    msps, msps * 1e6 / o.sample_rate, o.sample_rate / 1e6);
        std::printf("  round-trip max error %.3g (tolerance %.0e; QPSK amplitude %.3f)\n",
                    check->max_error(), tolerance, a);
        const bool ok = check->symbols() == uint64_t(o.symbols) && check->max_error() <= tolerance;
        char what[96];
        std::snprintf(what, sizeof(what), "%llu of %ld symbols back, max error %.3g %s %.0e",
                      static_cast<unsigned long long>(check->symbols()), o.symbols,
                      check->max_error(), check->max_error() <= tolerance ? "<=" : ">", tolerance);
        return gpuofdm_demo::verdict(ok, what);
    }
}
