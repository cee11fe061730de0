/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// BER rows (--stages ber): K = 7 rate 1/2 (802.11a generators 133, 171), BPSK over AWGN,
// terminated frames of 4096 trellis steps (4090 data bits + 6 tail bits). At each Eb/N0
// every decoder sees the same noisy input, batch after batch of 64 frames:
//   reference        viterbi_decode_reference(), full length, soft (frames on every core)
//   chunked cpu      the CPU twin, viterbi_params::for_protocol("80211a", "1/2"), soft
//   chunked cuda     the same on the GPU, soft; its bits are compared with the twin's
//   hard chunked     the CPU twin on hard decisions (decode_frames_hard)
//   chunked int8     the CPU twin on int8 LLRs: y quantised in steps of 1/16 (llr_quantize;
//                    +-1 becomes +-16, clamped at +-127), the input of the int8 kernel
//   hard reference   viterbi_decode_reference() on the hard decisions as LLRs +-1
//   fec.cc_decoder   GNU Radio's cc_decoder(4090, 7, 2, {109, 79}, 0, 0, CC_TERMINATED), one
//                    frame a generic_work(); hard: bits as 128 -+ 48 (80 / 176), soft:
//                    128 - 48 y rounded and clamped (fec.extended_decoder's uchar conversion
//                    of GNU Radio's +-1 BPSK, whose +1 is bit 1)
// A decoder stops at a point once it has min_errors errors or max_batches batches, and
// skips the points after one where it made no error in max_batches batches. Gaps: Eb/N0
// where each curve crosses BER 1e-5 (log-linear between the two points around it).
//
// Overlap study (--stages ber --viterbi-overlaps LIST [--viterbi-chunks LIST]): the chunked
// CPU twin at each chunk length and warm-up/traceback pair against the reference on the same
// input, 2 to 6 dB, each point for at least 8 batches and until the reference has 200
// errors or 764 batches (200 Mbit); the points after one where the reference's BER fell
// below 1e-6 are skipped. Per variant and point: errors, bits that differ from the
// reference's, and the paired z of their error counts (per-frame differences, as for
// fec.cc_decoder above). --viterbi-rate 2/3, 3/4 (802.11a) or 5/6 (802.16) punctures the
// rate-1/2 stream as depuncture_pattern::make() does, restarting at each frame as a PPDU
// does: the noise is set from Eb/N0 at the punctured rate, and every decoder gets LLR 0 at
// the bits not sent (what depuncturer::process() hands it).

#include "bench.h"

#include "runtime/device.h"
#include "fec/depuncture.h"
#include "fec/viterbi.h"
#include "fec/viterbi_packed.h"

#ifdef GPUOFDM_BENCH_FLOWGRAPH
#include <gnuradio/fec/cc_decoder.h>
#endif

#include <array>
#include <cstdio>
#include <random>
#include <thread>

namespace gpuofdm_bench {

namespace {

namespace core = gr::gpuofdm::core;

constexpr size_t frame_steps = 4096;
constexpr size_t tail = 6;
constexpr size_t data_bits = frame_steps - tail;
constexpr size_t frames_per_batch = 64;
constexpr double code_rate = 0.5;
constexpr unsigned poly0 = 0133, poly1 = 0171; // 802.11a-1999 17.3.5.5, A first
constexpr double target_ber = 1e-5;

enum curve { c_ref, c_cpu, c_cuda, c_hard, c_ref_hard, c_gr_hard, c_gr_soft, c_int8, n_curves };
const char* const curve_name[n_curves] = { "reference",       "chunked cpu",    "chunked cuda",
                                           "hard chunked",    "hard reference", "fec.cc_dec hard",
                                           "fec.cc_dec soft", "chunked int8" };
const char* const curve_device[n_curves] = {
    "cpu", "cpu", "cuda", "cpu", "cpu", "cpu", "cpu", "cpu"
};
//! Each curve's config column; "%s" stands for the chunked decoder's warm-up/chunk/traceback.
const char* const curve_config[n_curves] = { "soft full-length", "soft %s",          "soft %s",
                                             "hard %s",          "hard full-length", "hard uchar",
                                             "soft uchar",       "int8 y/16 %s" };
//! Steps of y per int8 LLR unit in the int8 curve (y = +-1 becomes +-16).
constexpr float int8_steps_per_unit = 16.0f;

//! One batch of frames through the channel at one Eb/N0.
struct batch {
    std::vector<uint8_t> bits;   // frames_per_batch * frame_steps, tails included
    std::vector<float> llr;      // 2 per step, 2 y / sigma^2
    std::vector<int8_t> llr8;    // y in steps of 1 / int8_steps_per_unit, clamped
    std::vector<uint8_t> hard;   // 0/1 decisions
    std::vector<float> hard_llr; // the same as LLRs +1 / -1 (hard_to_llr)
    std::vector<uint8_t> u_hard; // cc_decoder input: 176 for a 1, 80 for a 0
    std::vector<uint8_t> u_soft; // cc_decoder input: 128 - 48 y
};

void make_batch(batch& b, double ebn0_db, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    const size_t n = frames_per_batch * frame_steps;
    b.bits.resize(n);
    for (size_t f = 0; f < frames_per_batch; f++)
        for (size_t t = 0; t < frame_steps; t++)
            b.bits[f * frame_steps + t] = t < data_bits ? uint8_t(rng() & 1) : 0;
    const double s2 = 1.0 / (2.0 * code_rate * std::pow(10.0, ebn0_db / 10.0));
    const double s = std::sqrt(s2);
    std::normal_distribution<double> g(0.0, s);
    b.llr.resize(2 * n);
    b.llr8.resize(2 * n);
    b.hard.resize(2 * n);
    b.hard_llr.resize(2 * n);
    b.u_hard.resize(2 * n);
    b.u_soft.resize(2 * n);
    unsigned reg = 0; // x[n - d] at bit 6 - d, as the reference decoder numbers taps
    for (size_t i = 0; i < n; i++) {
        reg = (reg >> 1) | (unsigned(b.bits[i]) << 6);
        for (unsigned k = 0; k < 2; k++) {
            const unsigned c = unsigned(__builtin_popcount(reg & (k ? poly1 : poly0)) & 1);
            const double y = (c ? -1.0 : 1.0) + g(rng);
            const size_t j = 2 * i + k;
            b.llr[j] = float(2.0 * y / s2);
            b.llr8[j] = core::llr_quantize_one(float(y), int8_steps_per_unit);
            b.hard[j] = y < 0.0 ? 1 : 0;
            b.hard_llr[j] = y < 0.0 ? -1.0f : 1.0f;
            b.u_hard[j] = b.hard[j] ? 176 : 80;
            b.u_soft[j] = uint8_t(std::clamp(std::lround(128.0 - 48.0 * y), 0l, 255l));
        }
    }
}

//! Data-bit errors of one decoded frame of a batch (out holds whole frames, tails included).
uint64_t frame_errors(const std::vector<uint8_t>& out, const std::vector<uint8_t>& want, size_t f)
{
    uint64_t e = 0;
    for (size_t t = 0; t < data_bits; t++)
        e += out[f * frame_steps + t] != want[f * frame_steps + t];
    return e;
}

//! The same over the whole batch.
uint64_t data_errors(const std::vector<uint8_t>& out, const std::vector<uint8_t>& want)
{
    uint64_t e = 0;
    for (size_t f = 0; f < frames_per_batch; f++)
        e += frame_errors(out, want, f);
    return e;
}

/*!
 * \brief Paired comparison of two decoders' error counts on the same frames: the sum of
 * the per-frame differences over its standard error estimated from their spread (frames
 * are independent; the differences carry the bursts and the correlation of the two).
 */
struct paired {
    double n = 0, sum = 0, sum2 = 0;
    void add(double d)
    {
        n += 1;
        sum += d;
        sum2 += d * d;
    }
    //! Standard error of sum from the spread of the values (NaN below 2 values).
    double sum_se() const
    {
        return n < 2 ? not_applicable : std::sqrt((sum2 - sum * sum / n) * n / (n - 1.0));
    }
    double z() const
    {
        const double se = sum_se();
        return se > 0 ? sum / se : (sum == 0 && n >= 2 ? 0.0 : not_applicable);
    }
};

//! fn(f) for every frame of a batch, frames on every core.
template <typename Fn>
void for_each_frame(const Fn& fn)
{
    const unsigned n_thr =
        std::max(1u, std::min(unsigned(frames_per_batch), std::thread::hardware_concurrency()));
    auto work = [&](unsigned k) {
        for (size_t f = k; f < frames_per_batch; f += n_thr)
            fn(f);
    };
    std::vector<std::thread> thr;
    for (unsigned k = 1; k < n_thr; k++)
        thr.emplace_back(work, k);
    work(0);
    for (auto& t : thr)
        t.join();
}

void reference_decode(const std::vector<float>& llr,
                      std::vector<uint8_t>& out,
                      unsigned g0 = poly0,
                      unsigned g1 = poly1)
{
    for_each_frame([&](size_t f) {
        const auto b = core::viterbi_decode_reference(llr.data() + 2 * f * frame_steps, frame_steps,
                                                      g0, g1, true);
        std::copy(b.begin(), b.end(), out.begin() + f * frame_steps);
    });
}

/*!
 * \brief The overlap study's batches: only the bits and the LLRs, as make_batch() makes
 * them, but every frame from its own seed and frames on every core (the study decodes
 * hundreds of Mbit a point).
 */
void make_llr_batch(std::vector<uint8_t>& bits,
                    std::vector<float>& llr,
                    double ebn0_db,
                    uint64_t seed,
                    const core::depuncture_pattern& pat,
                    unsigned g0,
                    unsigned g1)
{
    bits.resize(frames_per_batch * frame_steps);
    llr.resize(2 * frames_per_batch * frame_steps);
    const double rate = double(pat.period) / double(pat.kept);
    const double s2 = 1.0 / (2.0 * rate * std::pow(10.0, ebn0_db / 10.0));
    for_each_frame([&](size_t f) {
        std::seed_seq seq{ seed, uint64_t(f) };
        std::mt19937_64 rng(seq);
        std::normal_distribution<double> g(0.0, std::sqrt(s2));
        uint8_t* b = bits.data() + f * frame_steps;
        float* l = llr.data() + 2 * f * frame_steps;
        unsigned reg = 0; // the encoder starts each frame in state 0
        for (size_t t = 0; t < frame_steps; t++) {
            b[t] = t < data_bits ? uint8_t(rng() & 1) : 0;
            reg = (reg >> 1) | (unsigned(b[t]) << 6);
            for (unsigned k = 0; k < 2; k++) {
                const unsigned c = unsigned(__builtin_popcount(reg & (k ? g1 : g0)) & 1);
                const uint32_t q = uint32_t((2 * t + k) % (2 * pat.period));
                l[2 * t + k] =
                    (pat.mask >> q) & 1u ? float(2.0 * ((c ? -1.0 : 1.0) + g(rng)) / s2) : 0.0f;
            }
        }
    });
}

struct tally {
    uint64_t errors = 0, bits = 0;
    bool run = false; //!< decoded at this point
    double ber() const { return bits ? double(errors) / double(bits) : not_applicable; }
};

//! Eb/N0 where a curve crosses target_ber, log-linear between the points around it; NaN
//! when it does not cross within the points measured (or the point below has no error).
double crossing(const std::vector<double>& ebn0, const std::vector<tally>& t)
{
    for (size_t i = 0; i + 1 < t.size(); i++) {
        if (!t[i].run || !t[i + 1].run || t[i].errors == 0)
            continue;
        const double b0 = t[i].ber(), b1 = t[i + 1].ber();
        if (b0 >= target_ber && b1 < target_ber) {
            if (t[i + 1].errors == 0)
                return not_applicable;
            const double f =
                (std::log10(b0) - std::log10(target_ber)) / (std::log10(b0) - std::log10(b1));
            return ebn0[i] + f * (ebn0[i + 1] - ebn0[i]);
        }
    }
    return not_applicable;
}

std::string number(double v, const char* fmt)
{
    if (!std::isfinite(v))
        return "-";
    char buf[32];
    std::snprintf(buf, sizeof(buf), fmt, v);
    return buf;
}

std::string cell(const tally& t)
{
    if (!t.run)
        return "-";
    char buf[48];
    std::snprintf(buf, sizeof(buf), "%.2e (%llu)", t.ber(), (unsigned long long)t.errors);
    return buf;
}

} // namespace

void run_ber(const options& o,
             bool cuda_usable,
             std::vector<row>& rows,
             std::vector<std::string>& notes)
{
    const size_t max_batches = o.quick ? 2 : 32;    // 0.52 / 8.4 Mbit a point at most
    const uint64_t min_errors = o.quick ? 50 : 200; // then the decoder stops at a point
    std::vector<double> ebn0;
    for (int i = 0; i <= 14; i++)
        ebn0.push_back(0.5 * i);

    std::array<bool, n_curves> enabled{};
    enabled.fill(true);
    enabled[c_cuda] = cuda_usable;
#ifndef GPUOFDM_BENCH_FLOWGRAPH
    enabled[c_gr_hard] = enabled[c_gr_soft] = false;
    notes.push_back("ber: no fec.cc_decoder columns (built without GNU Radio)");
#endif
    if (!cuda_usable)
        notes.push_back("ber: chunked cuda column skipped (no usable GPU)");

    auto p = core::viterbi_params::for_protocol("80211a", "1/2");
    p.cpu_threads = 0;
    p.max_steps = std::max(p.max_steps, frames_per_batch * frame_steps);
    auto cpu = core::make_viterbi_decoder(p, core::device_spec{});
    const std::string overlaps = std::to_string(p.warmup) + "/" + std::to_string(p.chunk_len) +
                                 "/" + std::to_string(p.traceback);
    auto config = [&](int c) {
        std::string f = curve_config[c];
        const size_t at = f.find("%s");
        if (at != std::string::npos)
            f.replace(at, 2, overlaps);
        return "K7 r1/2 BPSK " + f;
    };
    std::unique_ptr<core::viterbi_decoder> gpu;
    if (cuda_usable)
        gpu = core::make_viterbi_decoder(p, core::resolve_device(o.device));
#ifdef GPUOFDM_BENCH_FLOWGRAPH
    auto gr_hard = gr::fec::code::cc_decoder::make(int(data_bits), 7, 2, { 109, 79 }, 0, 0,
                                                   CC_TERMINATED, false);
    auto gr_soft = gr::fec::code::cc_decoder::make(int(data_bits), 7, 2, { 109, 79 }, 0, 0,
                                                   CC_TERMINATED, false);
    if (size_t(gr_hard->get_input_size()) != 2 * frame_steps ||
        size_t(gr_hard->get_output_size()) != data_bits)
        throw std::runtime_error("ber: fec.cc_decoder sizes are not 2 x 4096 in, 4090 out");
    auto gr_decode = [](gr::fec::generic_decoder& d, std::vector<uint8_t>& in,
                        std::vector<uint8_t>& out) {
        for (size_t f = 0; f < frames_per_batch; f++)
            d.generic_work(in.data() + 2 * f * frame_steps, out.data() + f * frame_steps);
    };
#endif

    {
        // The conventions above (generator order, which uchar means bit 1), checked on a
        // noiseless batch: every decoder must return the data bits.
        batch clean;
        make_batch(clean, 60.0, 1);
        std::vector<uint8_t> o1(frames_per_batch * frame_steps);
        cpu->decode_frames(clean.llr.data(), clean.llr.size(), frame_steps, o1.data());
        if (data_errors(o1, clean.bits) != 0)
            throw std::runtime_error("ber: the CPU twin does not decode a noiseless batch");
#ifdef GPUOFDM_BENCH_FLOWGRAPH
        gr_decode(*gr_hard, clean.u_hard, o1);
        if (data_errors(o1, clean.bits) != 0)
            throw std::runtime_error("ber: fec.cc_decoder does not decode a noiseless batch");
        gr_decode(*gr_soft, clean.u_soft, o1);
        if (data_errors(o1, clean.bits) != 0)
            throw std::runtime_error("ber: fec.cc_decoder does not decode a noiseless batch");
#endif
    }

    std::printf(
        "\nViterbi BER (--stages ber): K=7 rate 1/2, 802.11a generators, BPSK over AWGN,\n"
        "terminated frames of 4096 steps (4090 data bits counted). At each Eb/N0 all decoders\n"
        "decode the same noisy input, in batches of 64 frames, each until it has %llu errors\n"
        "or %zu batches (%.2f Mbit); a decoder with no error in %zu batches skips the later\n"
        "points. Cells: BER (errors). uncoded = Q(sqrt(2 Eb/N0)). ch!=ref = bits where the\n"
        "chunked CPU twin and the reference differ; cuda=cpu = every bit of the chunked cuda\n"
        "decoder equals the twin's; fec!=hard = bits where fec.cc_decoder hard and hard\n"
        "chunked differ (over the batches both decoded).\n",
        (unsigned long long)min_errors, max_batches,
        double(max_batches * frames_per_batch * data_bits) / 1e6, max_batches);
    std::printf("%-6s %-8s", "Eb/N0", "uncoded");
    for (int c = 0; c < n_curves; c++)
        if (enabled[c])
            std::printf(" %-17s", curve_name[c]);
    std::printf(" %9s %8s %9s %6s %7s\n", "ch!=ref", "cuda=cpu", "fec!=hard", "z", "Mbit");
    std::fflush(stdout);

    std::array<std::vector<tally>, n_curves> curves;
    std::array<bool, n_curves> dropped{};
    uint64_t differ_ref = 0, differ_gr = 0;
    bool cuda_equal_all = true;
    batch b;
    std::array<std::vector<uint8_t>, n_curves> out;
    for (auto& v : out)
        v.resize(frames_per_batch * frame_steps);

    for (size_t i = 0; i < ebn0.size(); i++) {
        std::array<tally, n_curves> t{};
        std::array<bool, n_curves> active{};
        for (int c = 0; c < n_curves; c++)
            active[c] = t[c].run = enabled[c] && !dropped[c];
        uint64_t d_ref = 0, d_gr = 0, steps_ref = 0, steps_gr = 0;
        paired z_gr; // fec.cc_decoder hard minus hard chunked, per frame
        int cuda_equal = -1;
        size_t n_batches = 0;
        const auto t0 = clock::now();
        for (size_t k = 0; k < max_batches; k++) {
            if (std::none_of(active.begin(), active.end(), [](bool a) { return a; }))
                break;
            make_batch(b, ebn0[i], 0x9e3779b97f4a7c15ull * (i + 1) + k);
            n_batches++;
            if (active[c_ref])
                reference_decode(b.llr, out[c_ref]);
            if (active[c_ref_hard])
                reference_decode(b.hard_llr, out[c_ref_hard]);
            if (active[c_cpu])
                cpu->decode_frames(b.llr.data(), b.llr.size(), frame_steps, out[c_cpu].data());
            if (active[c_cuda]) {
                gpu->decode_frames(b.llr.data(), b.llr.size(), frame_steps, out[c_cuda].data());
                const bool eq = active[c_cpu] && out[c_cuda] == out[c_cpu];
                cuda_equal = (cuda_equal != 0 && eq) ? 1 : 0;
            }
            if (active[c_int8])
                cpu->decode_frames(b.llr8.data(), b.llr8.size(), frame_steps, out[c_int8].data());
            if (active[c_hard])
                cpu->decode_frames_hard(b.hard.data(), b.hard.size(), frame_steps,
                                        out[c_hard].data());
#ifdef GPUOFDM_BENCH_FLOWGRAPH
            if (active[c_gr_hard])
                gr_decode(*gr_hard, b.u_hard, out[c_gr_hard]);
            if (active[c_gr_soft])
                gr_decode(*gr_soft, b.u_soft, out[c_gr_soft]);
#endif
            if (active[c_ref] && active[c_cpu]) {
                d_ref += data_errors(out[c_cpu], out[c_ref]);
                steps_ref += frames_per_batch * data_bits;
            }
            if (active[c_gr_hard] && active[c_hard]) {
                d_gr += data_errors(out[c_gr_hard], out[c_hard]);
                steps_gr += frames_per_batch * data_bits;
                for (size_t f = 0; f < frames_per_batch; f++)
                    z_gr.add(double(frame_errors(out[c_gr_hard], b.bits, f)) -
                             double(frame_errors(out[c_hard], b.bits, f)));
            }
            for (int c = 0; c < n_curves; c++)
                if (active[c]) {
                    t[c].errors += data_errors(out[c], b.bits);
                    t[c].bits += frames_per_batch * data_bits;
                }
            // The CUDA curve follows the twin's batches, so that every bit is compared.
            for (int c = 0; c < n_curves; c++)
                if (active[c] && c != c_cuda && t[c].errors >= min_errors)
                    active[c] = false;
            active[c_cuda] = active[c_cuda] && active[c_cpu];
        }
        const double secs = seconds_since(t0);
        differ_ref += d_ref;
        differ_gr += d_gr;
        if (cuda_equal == 0)
            cuda_equal_all = false;

        const double uncoded = 0.5 * std::erfc(std::sqrt(std::pow(10.0, ebn0[i] / 10.0)));
        std::printf("%-6.1f %-8.2e", ebn0[i], uncoded);
        for (int c = 0; c < n_curves; c++)
            if (enabled[c])
                std::printf(" %-17s", cell(t[c]).c_str());
        std::printf(" %9s %8s %9s %6s %7.2f\n", steps_ref ? std::to_string(d_ref).c_str() : "-",
                    cuda_equal < 0 ? "-" : (cuda_equal ? "yes" : "NO"),
                    steps_gr ? std::to_string(d_gr).c_str() : "-",
                    steps_gr ? number(z_gr.z(), "%+.1f").c_str() : "-",
                    double(n_batches * frames_per_batch * data_bits) / 1e6);
        std::fflush(stdout);

        for (int c = 0; c < n_curves; c++) {
            curves[c].push_back(t[c]);
            if (!t[c].run)
                continue;
            if (t[c].errors == 0)
                dropped[c] = true;
            row r;
            r.level = "core";
            r.stage = "viterbi_ber";
            r.impl = curve_name[c];
            r.device = c == c_cuda ? o.device : curve_device[c];
            r.config = config(c);
            r.batch = frames_per_batch * frame_steps;
            r.iterations = t[c].bits / (frames_per_batch * data_bits);
            r.samples = t[c].bits;
            r.seconds = secs;
            r.ebn0_db = ebn0[i];
            r.bit_errors = t[c].errors;
            r.bits = t[c].bits;
            r.ber = t[c].ber();
            if (c == c_cuda)
                r.equals_cpu_twin = cuda_equal;
            if (c == c_gr_hard && steps_gr)
                r.paired_z = z_gr.z();
            rows.push_back(r);
        }
    }

    // Gaps at BER 1e-5.
    std::array<double, n_curves> x{};
    for (int c = 0; c < n_curves; c++)
        x[c] = crossing(ebn0, curves[c]);
    const int gap_to[n_curves] = { -1, c_ref, c_ref, c_cpu, c_hard, c_hard, c_cpu, c_cpu };
    const char* const meaning[n_curves] = { "",
                                            "chunking loss (expected <= 0.2 dB)",
                                            "chunking loss on the GPU",
                                            "soft-decision gain (expected >= 1.5 dB)",
                                            "minus the hard chunking loss",
                                            "GNU Radio hard vs ours (~0)",
                                            "GNU Radio uchar soft vs ours",
                                            "int8 LLR loss (expected ~0)" };
    std::printf("\nEb/N0 at BER 1e-5 (interpolated; '-' = not crossed with errors on both "
                "sides):\n");
    for (int c = 0; c < n_curves; c++) {
        if (!enabled[c])
            continue;
        row r;
        r.level = "core";
        r.stage = "viterbi_ber_1e-5";
        r.impl = curve_name[c];
        r.device = c == c_cuda ? o.device : curve_device[c];
        r.config = config(c);
        r.ebn0_db = x[c];
        if (gap_to[c] >= 0) {
            r.gap_to = curve_name[gap_to[c]];
            // Positive: this curve needs more Eb/N0 than the one it is compared with.
            r.gap_db = x[c] - x[gap_to[c]];
        }
        rows.push_back(r);
        std::printf("  %-16s %6s dB", curve_name[c], number(x[c], "%.2f").c_str());
        if (gap_to[c] >= 0)
            std::printf("   %6s dB vs %-15s %s", number(r.gap_db, "%+.2f").c_str(),
                        curve_name[gap_to[c]], meaning[c]);
        std::printf("\n");
    }
    std::printf("  bits where chunked cpu != reference, all points: %llu\n",
                (unsigned long long)differ_ref);
    if (enabled[c_gr_hard])
        std::printf("  bits where fec.cc_decoder hard != hard chunked, all points: %llu\n",
                    (unsigned long long)differ_gr);
    if (enabled[c_cuda])
        std::printf("  chunked cuda equals the CPU twin bit for bit at every point: %s\n",
                    cuda_equal_all ? "yes" : "NO");
    std::fflush(stdout);
    if (enabled[c_cuda] && !cuda_equal_all)
        notes.push_back("ber: chunked cuda output differs from the CPU twin's");
}

void run_ber_overlaps(const options& o, std::vector<row>& rows, std::vector<std::string>& notes)
{
    const size_t max_batches = o.quick ? 2 : 764;   // 0.52 / 200 Mbit a point at most
    const uint64_t min_errors = o.quick ? 20 : 200; // the reference's, then the point ends
    // At least 8 batches (2 Mbit) a point: at low Eb/N0 the reference has its errors in one
    // batch, but the overlaps cost most there, and the paired z needs frames to rest on.
    const size_t min_batches = o.quick ? 1 : 8;
    const double skip_below = 1e-6; // the reference's BER after which the later points go
    // 802.16 is the one of the two with 5/6 (802.11a-1999 stops at 3/4).
    const std::string& rate = o.viterbi_rate;
    const std::string protocol = rate == "5/6" ? "802.16" : "802.11a";
    const auto pat = core::depuncture_pattern::make(protocol, rate);
    const auto defaults = core::viterbi_params::for_protocol(protocol, rate);
    const unsigned g0 = defaults.poly0, g1 = defaults.poly1;
    // The punctured codes need more Eb/N0 for the same BER: start where each is at about
    // the BER of rate 1/2's first point (5e-3 to 8e-3).
    const double start_db = rate == "1/2" ? 2.0 : rate == "2/3" ? 2.5 : rate == "3/4" ? 3.0 : 3.5;
    std::vector<double> ebn0;
    for (int i = 0; i <= 8; i++)
        ebn0.push_back(start_db + 0.5 * i);

    struct variant {
        std::string name; // "L256 W32 T32"
        std::unique_ptr<core::viterbi_decoder> dec;
        std::vector<tally> curve;
        std::vector<uint64_t> differ; // per point: bits != the reference's
        std::vector<double> z;        // per point: paired z of errors minus the reference's
    };
    std::vector<variant> vs;
    for (size_t len : o.viterbi_chunks)
        for (const auto& [w, t] : o.viterbi_overlaps) {
            auto p = defaults;
            p.chunk_len = len;
            p.warmup = w;
            p.traceback = t;
            p.cpu_threads = 0;
            p.max_steps = std::max(frames_per_batch * frame_steps, len + w + t);
            variant v;
            v.name =
                "L" + std::to_string(len) + " W" + std::to_string(w) + " T" + std::to_string(t);
            v.dec = core::make_viterbi_decoder(p, core::device_spec{});
            vs.push_back(std::move(v));
        }

    std::printf(
        "\nViterbi overlap study (--stages ber --viterbi-overlaps): K=7 rate %s, %s\n"
        "generators and puncturing, BPSK over AWGN, terminated frames of 4096 steps (4090 data\n"
        "bits counted, puncturing restarting at each frame; default overlaps %zu/%zu),\n"
        "batches of 64 frames. The chunked CPU twin with chunks of L steps, warm-up W and\n"
        "traceback T decodes the same noisy input as the full-length reference, at each point\n"
        "for at least %zu batches and until the reference has %llu errors or %zu batches (%.0f\n"
        "Mbit); the points after one where the reference's BER is below %.0e are skipped.\n"
        "Cells: bit errors.\n",
        rate.c_str(), protocol.c_str(), defaults.warmup, defaults.traceback, min_batches,
        (unsigned long long)min_errors, max_batches,
        double(max_batches * frames_per_batch * data_bits) / 1e6, skip_below);
    std::printf("%-6s %8s %-18s", "Eb/N0", "Mbit", "reference");
    for (const auto& v : vs)
        std::printf(" %13s", v.name.c_str());
    std::printf("\n");
    std::fflush(stdout);

    std::vector<tally> ref_curve;
    std::vector<double> ref_se; // per point: standard error of the reference's error count
    std::vector<uint8_t> bits, out_ref(frames_per_batch * frame_steps),
        out(frames_per_batch * frame_steps);
    std::vector<float> llr;
    for (size_t i = 0; i < ebn0.size(); i++) {
        if (!ref_curve.empty() && ref_curve.back().ber() < skip_below)
            break;
        tally ref;
        ref.run = true;
        std::vector<tally> t(vs.size());
        std::vector<uint64_t> differ(vs.size());
        std::vector<paired> z(vs.size());
        paired ref_spread; // the reference's errors per frame: the error of its count
        const auto t0 = clock::now();
        for (size_t k = 0; k < max_batches && (ref.errors < min_errors || k < min_batches); k++) {
            make_llr_batch(bits, llr, ebn0[i], 0x51ed270b27f5ea3full * (i + 1) + k, pat, g0, g1);
            reference_decode(llr, out_ref, g0, g1);
            ref.errors += data_errors(out_ref, bits);
            ref.bits += frames_per_batch * data_bits;
            for (size_t f = 0; f < frames_per_batch; f++)
                ref_spread.add(double(frame_errors(out_ref, bits, f)));
            for (size_t j = 0; j < vs.size(); j++) {
                vs[j].dec->decode_frames(llr.data(), llr.size(), frame_steps, out.data());
                t[j].run = true;
                t[j].errors += data_errors(out, bits);
                t[j].bits += frames_per_batch * data_bits;
                differ[j] += data_errors(out, out_ref);
                for (size_t f = 0; f < frames_per_batch; f++)
                    z[j].add(double(frame_errors(out, bits, f)) -
                             double(frame_errors(out_ref, bits, f)));
            }
        }
        const double secs = seconds_since(t0);
        ref_curve.push_back(ref);
        ref_se.push_back(ref_spread.sum_se());
        std::printf("%-6.1f %8.1f %-18s", ebn0[i], double(ref.bits) / 1e6, cell(ref).c_str());
        for (size_t j = 0; j < vs.size(); j++)
            std::printf(" %13llu", (unsigned long long)t[j].errors);
        std::printf("\n");
        std::fflush(stdout);

        auto point_row = [&](const std::string& impl, const std::string& config, const tally& c) {
            row r;
            r.level = "core";
            r.stage = "viterbi_ber";
            r.impl = impl;
            r.device = "cpu";
            r.config = "K7 r" + rate + " BPSK soft " + config;
            r.batch = frames_per_batch * frame_steps;
            r.iterations = c.bits / (frames_per_batch * data_bits);
            r.samples = c.bits;
            r.seconds = secs;
            r.ebn0_db = ebn0[i];
            r.bit_errors = c.errors;
            r.bits = c.bits;
            r.ber = c.ber();
            return r;
        };
        rows.push_back(point_row("reference", "full-length", ref));
        for (size_t j = 0; j < vs.size(); j++) {
            row r = point_row("chunked " + vs[j].name, vs[j].name, t[j]);
            r.paired_z = z[j].z();
            r.differing_bits = int64_t(differ[j]);
            rows.push_back(r);
            vs[j].curve.push_back(t[j]);
            vs[j].differ.push_back(differ[j]);
            vs[j].z.push_back(z[j].z());
        }
    }

    std::printf("\nBits that differ from the reference's, and z = (errors minus the reference's)\n"
                "over its standard error from the per-frame differences (paired, same input):\n");
    std::printf("%-6s", "Eb/N0");
    for (const auto& v : vs)
        std::printf(" %17s", v.name.c_str());
    std::printf("\n");
    for (size_t i = 0; i < ref_curve.size(); i++) {
        std::printf("%-6.1f", ebn0[i]);
        for (const auto& v : vs)
            std::printf(" %10llu %6s", (unsigned long long)v.differ[i],
                        number(v.z[i], "%+.1f").c_str());
        std::printf("\n");
    }

    // Equal to the reference: at every point the error counts within 2 standard errors of
    // the reference's count (the BER measurement's own error) and the crossing within
    // 0.02 dB; and, since the paired comparison resolves far smaller differences than that
    // error (|z| > 2 for all but the longest overlaps), at most 0.01 dB of Eb/N0 lost at
    // any point: ln(errors / the reference's) over the slope of ln BER per dB of the
    // reference's curve there (to the next point; the last point to the one before).
    auto slope = [&](size_t i) {
        if (ref_curve.size() < 2)
            return not_applicable;
        const size_t a = i + 1 < ref_curve.size() ? i : i - 1;
        return std::log(ref_curve[a].ber() / ref_curve[a + 1].ber()) / (ebn0[a + 1] - ebn0[a]);
    };
    const std::vector<double> points(ebn0.begin(), ebn0.begin() + long(ref_curve.size()));
    const double x_ref = crossing(points, ref_curve);
    std::printf("\nEb/N0 at BER 1e-5 (interpolated), gap to the reference, max |z| (paired),\n"
                "max |d|/se = |errors minus the reference's| over the standard error of the\n"
                "reference's count (from its per-frame spread), steps decoded per bit\n"
                "((W + L + T) / L), the most Eb/N0 it costs at a point (ln(errors / the\n"
                "reference's) over the slope of ln BER per dB of the reference's curve there),\n"
                "and the verdict: = reference when |d|/se <= 2 at every point, |gap| <= 0.02 dB\n"
                "and the cost <= 0.01 dB.\n");
    std::printf("  %-14s %8s dB\n", "reference", number(x_ref, "%.3f").c_str());
    for (const auto& v : vs) {
        const double x = crossing(points, v.curve);
        double max_z = 0, max_d = 0, max_cost = 0;
        uint64_t differ = 0;
        for (size_t i = 0; i < v.z.size(); i++) {
            max_z = std::max(max_z, std::isfinite(v.z[i]) ? std::abs(v.z[i]) : 0.0);
            const double d =
                std::abs(double(v.curve[i].errors) - double(ref_curve[i].errors)) / ref_se[i];
            max_d = std::max(max_d, std::isfinite(d) ? d : 0.0);
            const double cost =
                std::log(double(v.curve[i].errors) / double(ref_curve[i].errors)) / slope(i);
            max_cost = std::max(max_cost, std::isfinite(cost) ? cost : 0.0);
            differ += v.differ[i];
        }
        const auto& p = v.dec->params();
        const char* verdict = max_d > 2.0                  ? "DIFFERS (|d|/se)"
                              : !std::isfinite(x - x_ref)  ? "? (no crossing)"
                              : std::abs(x - x_ref) > 0.02 ? "DIFFERS (gap)"
                              : max_cost > 0.01            ? "DIFFERS (cost)"
                                                           : "= reference";
        std::printf("  %-14s %8s dB  %7s dB  max|z| %4.1f  max|d|/se %4.2f  differing bits "
                    "%6llu  %.3f steps/bit  cost %.3f dB  %s\n",
                    v.name.c_str(), number(x, "%.3f").c_str(), number(x - x_ref, "%+.3f").c_str(),
                    max_z, max_d, (unsigned long long)differ,
                    double(p.warmup + p.chunk_len + p.traceback) / double(p.chunk_len), max_cost,
                    verdict);
        row r;
        r.level = "core";
        r.stage = "viterbi_ber_1e-5";
        r.impl = "chunked " + v.name;
        r.device = "cpu";
        r.config = "K7 r" + rate + " BPSK soft " + v.name;
        r.ebn0_db = x;
        r.gap_to = "reference";
        r.gap_db = x - x_ref;
        r.differing_bits = int64_t(differ);
        rows.push_back(r);
    }
    std::fflush(stdout);
    if (o.quick)
        notes.push_back("ber overlaps: --quick, too few bits for a verdict");
}

} // namespace gpuofdm_bench
