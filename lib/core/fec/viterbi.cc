/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// What every Viterbi backend shares: parameter checks, frame grouping and the stream
// bookkeeping that cuts a continuous stream into whole chunks, so a backend only decodes jobs.

#include "fec/viterbi.h"
#include "fec/viterbi_packed.h"
#include "runtime/phy_standard.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>

namespace gr::gpuofdm::core {

namespace {

void check_poly(const char* name, unsigned g)
{
    if (g < 0x40 || g > 0x7f)
        throw std::invalid_argument(std::string(name) +
                                    ": must be a K = 7 generator, 0100 .. 0177 octal (bit 6, the "
                                    "current input, set); got " +
                                    std::to_string(g));
}

void check_range(const char* name, size_t v, size_t lo, size_t hi)
{
    if (v < lo || v > hi)
        throw std::invalid_argument(std::string(name) + ": must be in " + std::to_string(lo) +
                                    " .. " + std::to_string(hi) + ", got " + std::to_string(v));
}

} // namespace

void viterbi_params::validate() const
{
    check_poly("poly0", poly0);
    check_poly("poly1", poly1);
    check_range("chunk_len", chunk_len, 1, 65536);
    check_range("warmup", warmup, 0, 65536);
    check_range("traceback", traceback, 0, 65536);
    // One launch must hold at least one chunk with both overlaps.
    check_range("max_steps", max_steps, chunk_len + warmup + traceback, size_t(1) << 30);
    check_range("cpu_threads", cpu_threads, 0, 1024);
    if (cuda_threads_per_chunk > 8 || (cuda_threads_per_chunk & (cuda_threads_per_chunk - 1)) != 0)
        throw std::invalid_argument("cuda_threads_per_chunk: must be 0 (auto), 1, 2, 4 or 8, got " +
                                    std::to_string(cuda_threads_per_chunk));
}

viterbi_params viterbi_params::for_protocol(const std::string& protocol, const std::string& rate)
{
    viterbi_params p;
    if (parse_phy_standard(protocol, "protocol") == phy_standard::ieee80211a) {
        // IEEE 802.11a-1999 17.3.5.5: A = 133, B = 171, A first.
        p.poly0 = 0133;
        p.poly1 = 0171;
    } else {
        // IEEE 802.16-2004 8.3.3.2.3: X = 171, Y = 133, X first.
        p.poly0 = 0171;
        p.poly1 = 0133;
    }
    // Every rate's overlaps are the shortest that keep the full-length decoder's BER with
    // chunks of 256 and of 128 steps (docs/BENCHMARKS.md, "Viterbi overlaps").
    if (rate == "1/2")
        return p; // the default overlaps
    size_t overlap;
    if (rate == "2/3")
        overlap = 64;
    else if (rate == "3/4")
        overlap = 80;
    else if (rate == "5/6")
        overlap = 128;
    else
        throw std::invalid_argument("rate: must be \"1/2\", \"2/3\", \"3/4\" or \"5/6\", got \"" +
                                    rate + "\"");
    p.warmup = overlap;
    p.traceback = overlap;
    return p;
}

void hard_to_llr(const uint8_t* bits, size_t n, float* llr)
{
    for (size_t i = 0; i < n; i++)
        llr[i] = bits[i] ? -1.0f : 1.0f;
}

void llr_quantize(const float* llr, size_t n, float scale, int8_t* out)
{
    if (!(scale > 0.0f) || !std::isfinite(scale))
        throw std::invalid_argument("scale: must be positive and finite, got " +
                                    std::to_string(scale));
    for (size_t i = 0; i < n; i++)
        out[i] = llr_quantize_one(llr[i], scale);
}

viterbi_decoder::viterbi_decoder(const viterbi_params& p) : d_params(p) { d_params.validate(); }

viterbi_job viterbi_decoder::make_job() const
{
    viterbi_job j{};
    j.chunk_len = uint32_t(d_params.chunk_len);
    j.warmup = uint32_t(d_params.warmup);
    j.traceback = uint32_t(d_params.traceback);
    j.poly0 = d_params.poly0;
    j.poly1 = d_params.poly1;
    return j;
}

size_t viterbi_decoder::max_chunks() const
{
    return 2 * ((d_params.max_steps + d_params.chunk_len - 1) / d_params.chunk_len);
}

viterbi_job viterbi_decoder::terminated_job(size_t frame_steps) const
{
    viterbi_job job = make_job();
    job.seg_steps = frame_steps;
    job.base = 0;
    job.out_begin = 0;
    job.out_end = frame_steps;
    job.known_start = true;
    job.zero_end = true;
    return job;
}

template <typename T>
void viterbi_decoder::decode_frames_any(const T* llr,
                                        size_t n_llr,
                                        size_t frame_steps,
                                        uint8_t* out)
{
    // frames_per_launch() checks frame_steps.
    const size_t group = frames_per_launch(frame_steps);
    if (n_llr % (2 * frame_steps) != 0)
        throw std::invalid_argument(
            "n_llr: must be a multiple of 2 * frame_steps = " + std::to_string(2 * frame_steps) +
            ", got " + std::to_string(n_llr));
    viterbi_job job = terminated_job(frame_steps);
    const size_t n_frames = n_llr / (2 * frame_steps);
    for (size_t f = 0; f < n_frames; f += group) {
        job.n_segments = std::min(group, n_frames - f);
        if constexpr (std::is_same_v<T, int8_t>)
            run_int8(llr + 2 * f * frame_steps, job, out + f * frame_steps);
        else
            run(llr + 2 * f * frame_steps, job, out + f * frame_steps);
    }
}

void viterbi_decoder::decode_frames(const float* llr,
                                    size_t n_llr,
                                    size_t frame_steps,
                                    uint8_t* out)
{
    decode_frames_any(llr, n_llr, frame_steps, out);
}

void viterbi_decoder::decode_frames(const int8_t* llr,
                                    size_t n_llr,
                                    size_t frame_steps,
                                    uint8_t* out)
{
    decode_frames_any(llr, n_llr, frame_steps, out);
}

void viterbi_decoder::run_int8(const int8_t* llr, const viterbi_job& job, uint8_t* out)
{
    // Exact: the float metrics of integer LLRs are the int8 kernel's integers.
    const size_t n = size_t(2 * job.n_segments * job.seg_steps);
    d_widened.resize(n);
    for (size_t i = 0; i < n; i++)
        d_widened[i] = float(llr[i]);
    run(d_widened.data(), job, out);
}

size_t viterbi_decoder::frames_per_launch(size_t frame_steps) const
{
    if (frame_steps == 0)
        throw std::invalid_argument("frame_steps: must be at least 1");
    if (frame_steps > d_params.max_steps)
        throw std::invalid_argument("frame_steps: " + std::to_string(frame_steps) +
                                    " exceeds max_steps " + std::to_string(d_params.max_steps));
    const size_t per_frame = viterbi_chunks_per_segment(terminated_job(frame_steps));
    return std::max<size_t>(1,
                            std::min(d_params.max_steps / frame_steps, max_chunks() / per_frame));
}

void viterbi_decoder::decode_frames_hard(const uint8_t* bits,
                                         size_t n_bits,
                                         size_t frame_steps,
                                         uint8_t* out)
{
    d_hard.resize(n_bits);
    hard_to_llr(bits, n_bits, d_hard.data());
    decode_frames(d_hard.data(), n_bits, frame_steps, out);
}

size_t viterbi_decoder::stream_bits_per_launch() const
{
    const uint64_t L = d_params.chunk_len, W = d_params.warmup, T = d_params.traceback;
    return size_t(L * std::max<uint64_t>(
                          1, std::min<uint64_t>((d_params.max_steps - W - T) / L, max_chunks())));
}

size_t viterbi_decoder::decode_window(const float* llr,
                                      uint64_t base,
                                      size_t n_steps,
                                      uint64_t next_out,
                                      bool zero_start,
                                      bool end,
                                      bool zero_end,
                                      uint8_t* out,
                                      size_t max_bits)
{
    return decode_window_any(llr, base, n_steps, next_out, zero_start, end, zero_end, out, max_bits,
                             false);
}

size_t viterbi_decoder::decode_window_device(const float* d_llr,
                                             uint64_t base,
                                             size_t n_steps,
                                             uint64_t next_out,
                                             bool zero_start,
                                             bool end,
                                             bool zero_end,
                                             uint8_t* out,
                                             size_t max_bits)
{
    if (!device().is_cuda())
        throw std::logic_error("viterbi_decoder: decode_window_device needs the CUDA backend");
    return decode_window_any(d_llr, base, n_steps, next_out, zero_start, end, zero_end, out,
                             max_bits, true);
}

size_t viterbi_decoder::decode_window_any(const float* llr,
                                          uint64_t base,
                                          size_t n_steps,
                                          uint64_t next_out,
                                          bool zero_start,
                                          bool end,
                                          bool zero_end,
                                          uint8_t* out,
                                          size_t max_bits,
                                          bool on_device)
{
    const uint64_t L = d_params.chunk_len, T = d_params.traceback;
    const uint64_t total = base + n_steps;
    if (next_out < base || next_out > total)
        throw std::logic_error("viterbi_decoder::decode_window: next_out outside the window");
    // Chunks whose traceback tail has arrived; later ones wait for more input or the end.
    uint64_t ready = total >= T ? (total - T) / L * L : 0;
    // At most max_bits of output, in whole chunks (written as a difference: next_out +
    // max_bits overflows for the "no limit" SIZE_MAX that process() passes).
    const uint64_t room = uint64_t(max_bits) / L * L;
    if (ready > next_out && ready - next_out > room)
        ready = next_out + room;
    const uint64_t per_run = stream_bits_per_launch();
    size_t written = 0;
    viterbi_job job = make_job();
    job.n_segments = 1;
    job.known_start = zero_start;
    job.zero_end = false;
    const auto launch = [&](const float* from, uint8_t* to) {
        if (on_device)
            run_device(from, job, to);
        else
            run(from, job, to);
    };
    while (next_out < ready) {
        job.out_begin = next_out;
        job.out_end = std::min<uint64_t>(ready, next_out + per_run);
        job.base = std::max<uint64_t>(base, window_begin(job.out_begin));
        job.seg_steps = job.out_end + T - job.base;
        launch(llr + 2 * (job.base - base), out + written);
        written += size_t(job.out_end - job.out_begin);
        next_out = job.out_end;
    }
    if (end && next_out < total) {
        // The last chunk or two, their tail cut short by the end: at most L + T - 1 bits.
        if (total - next_out > max_bits - written)
            throw std::logic_error("viterbi_decoder::decode_window: no room for the end");
        job.zero_end = zero_end;
        job.out_begin = next_out;
        job.out_end = total;
        job.base = std::max<uint64_t>(base, window_begin(job.out_begin));
        job.seg_steps = total - job.base;
        launch(llr + 2 * (job.base - base), out + written);
        written += size_t(total - next_out);
    }
    return written;
}

size_t viterbi_decoder::process(const float* llr,
                                size_t n_llr,
                                uint8_t* out,
                                viterbi_stream_state& st)
{
    if (n_llr % 2 != 0)
        throw std::invalid_argument("n_llr: must be even (LLR pairs), got " +
                                    std::to_string(n_llr));
    st.llr.insert(st.llr.end(), llr, llr + n_llr);
    const size_t written =
        decode_window(st.llr.data(), st.base, st.llr.size() / 2, st.next_out, st.zero_start, false,
                      false, out, std::numeric_limits<size_t>::max());
    st.next_out += written;
    // Keep only what the next chunk's warm-up and the undecoded steps need.
    const uint64_t keep = std::max<uint64_t>(st.base, window_begin(st.next_out));
    st.llr.erase(st.llr.begin(), st.llr.begin() + ptrdiff_t(2 * (keep - st.base)));
    st.base = keep;
    return written;
}

size_t viterbi_decoder::process_hard(const uint8_t* bits,
                                     size_t n_bits,
                                     uint8_t* out,
                                     viterbi_stream_state& st)
{
    d_hard.resize(n_bits);
    hard_to_llr(bits, n_bits, d_hard.data());
    return process(d_hard.data(), n_bits, out, st);
}

size_t viterbi_decoder::flush(uint8_t* out, viterbi_stream_state& st, bool zero_end)
{
    // Whatever process() left is less than one chunk plus its traceback tail.
    const size_t written =
        decode_window(st.llr.data(), st.base, st.llr.size() / 2, st.next_out, st.zero_start, true,
                      zero_end, out, std::numeric_limits<size_t>::max());
    st.reset();
    return written;
}

void viterbi_decoder::run_device(const float*, const viterbi_job&, uint8_t*)
{
    throw std::logic_error("viterbi_decoder: run_device needs the CUDA backend");
}

void viterbi_decoder::device_load(const float*, size_t)
{
    throw std::logic_error("viterbi_decoder: device_load needs the CUDA backend");
}

void viterbi_decoder::device_load_from_device(const float*, size_t, size_t, size_t, size_t)
{
    throw std::logic_error("viterbi_decoder: device_load_from_device needs the CUDA backend");
}

void viterbi_decoder::device_decode_frames(size_t, size_t)
{
    throw std::logic_error("viterbi_decoder: device_decode_frames needs the CUDA backend");
}

void viterbi_decoder::enqueue_decode_frames(size_t, size_t)
{
    throw std::logic_error("viterbi_decoder: enqueue_decode_frames needs the CUDA backend");
}

void viterbi_decoder::device_fetch(uint8_t*, size_t)
{
    throw std::logic_error("viterbi_decoder: device_fetch needs the CUDA backend");
}

void viterbi_decoder::device_load_int8(const int8_t*, size_t)
{
    throw std::logic_error("viterbi_decoder: device_load_int8 needs the CUDA backend");
}

void viterbi_decoder::device_decode_frames_int8(size_t, size_t)
{
    throw std::logic_error("viterbi_decoder: device_decode_frames_int8 needs the CUDA backend");
}

void viterbi_decoder::enqueue_decode_frames_int8(size_t, size_t)
{
    throw std::logic_error("viterbi_decoder: enqueue_decode_frames_int8 needs the CUDA backend");
}

std::unique_ptr<viterbi_decoder> make_viterbi_decoder(const viterbi_params& p,
                                                      const device_spec& dev,
                                                      const cuda_context_ptr& ctx)
{
    p.validate();
    if (!dev.is_cuda())
        return make_viterbi_decoder_cpu(p);
#ifdef GPUOFDM_HAVE_CUDA
    return make_viterbi_decoder_cuda(p, dev, ctx);
#else
    (void)ctx;
    throw std::runtime_error("gr-gpuofdm was built without CUDA (GPUOFDM_CUDA=OFF)");
#endif
}

} // namespace gr::gpuofdm::core
