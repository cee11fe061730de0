/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fec/depuncture.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

namespace {

// A pattern from the two rows the standards print (first-bit row, second-bit row).
depuncture_pattern from_rows(const char* first, const char* second)
{
    depuncture_pattern p{ 0, 0, 0 };
    for (; first[p.period] && second[p.period]; p.period++) {
        if (first[p.period] == '1')
            p.mask |= 1u << (2 * p.period);
        if (second[p.period] == '1')
            p.mask |= 1u << (2 * p.period + 1);
    }
    p.kept = depuncture_rank(p.mask, 2 * p.period);
    return p;
}

constexpr size_t max_batch = size_t(1) << 26;
constexpr size_t default_batch = size_t(1) << 20;

} // namespace

void depuncturing_decoder_params::validate() const
{
    if (standard != phy_standard::ieee80211a && standard != phy_standard::ieee80216)
        throw std::invalid_argument("standard: must be 802.11a or 802.16, got " +
                                    std::to_string(int(standard)));
    if (int(rate) < int(code_rate::r1_2) || int(rate) > int(code_rate::r5_6))
        throw std::invalid_argument("rate: must be 1/2, 2/3, 3/4 or 5/6, got " +
                                    std::to_string(int(rate)));
    const viterbi_params v = viterbi_params::for_protocol(to_string(standard), to_string(rate));
    const size_t min_batch = v.chunk_len + v.warmup + v.traceback;
    if (batch != 0 && (batch < min_batch || batch > max_batch))
        throw std::invalid_argument("batch: must be 0 (2^20) or " + std::to_string(min_batch) +
                                    " .. 2^26 trellis steps at rate " + to_string(rate) +
                                    " (at least a chunk and its two overlaps), got " +
                                    std::to_string(batch));
    decoder_params().validate();
}

viterbi_params depuncturing_decoder_params::decoder_params() const
{
    viterbi_params v = viterbi_params::for_protocol(to_string(standard), to_string(rate));
    v.max_steps = batch ? batch : default_batch;
    v.cpu_threads = cpu_threads;
    return v;
}

depuncture_pattern depuncturing_decoder_params::pattern() const
{
    return depuncture_pattern::make(to_string(standard), to_string(rate));
}

std::unique_ptr<depuncturing_decoder> make_depuncturing_decoder(
    const depuncturing_decoder_params& p, const device_spec& dev)
{
    p.validate();
    return std::make_unique<depuncturing_decoder>(make_viterbi_decoder(p.decoder_params(), dev),
                                                  p.pattern());
}

depuncture_pattern depuncture_pattern::make(const std::string& protocol, const std::string& rate)
{
    const bool wifi = parse_phy_standard(protocol, "protocol") == phy_standard::ieee80211a;
    if (rate == "1/2")
        return from_rows("1", "1");
    if (rate == "2/3")
        return wifi ? from_rows("11", "10") : from_rows("10", "11");
    if (rate == "3/4")
        return wifi ? from_rows("110", "101") : from_rows("101", "110");
    if (rate == "5/6")
        return wifi ? from_rows("11010", "10101") : from_rows("10101", "11010");
    throw std::invalid_argument("rate: must be \"1/2\", \"2/3\", \"3/4\" or \"5/6\", got \"" +
                                rate + "\"");
}

depuncturer::depuncturer(const std::string& protocol, const std::string& rate)
    : d_pattern(depuncture_pattern::make(protocol, rate))
{
}

size_t depuncturer::output_len(size_t n_in) const
{
    if (n_in % d_pattern.kept != 0)
        throw std::invalid_argument("n_in: must be a multiple of " +
                                    std::to_string(d_pattern.kept) +
                                    " (whole puncturing periods), got " + std::to_string(n_in));
    return n_in / d_pattern.kept * 2 * d_pattern.period;
}

size_t depuncturer::process(const float* in, size_t n_in, float* out) const
{
    const size_t n_out = output_len(n_in);
    for (size_t j = 0; j < n_out; j++)
        out[j] = depunctured_llr(in, j, d_pattern);
    return n_out;
}

depuncturing_decoder::depuncturing_decoder(std::unique_ptr<viterbi_decoder> dec,
                                           const depuncture_pattern& pattern)
    : d_dec(std::move(dec)), d_pattern(pattern)
{
#ifdef GPUOFDM_HAVE_CUDA
    if (punctured() && d_dec->device().is_cuda())
        d_device.reset(make_device_state(*d_dec));
#endif
}

depuncturing_decoder::~depuncturing_decoder() = default;

void depuncturing_decoder::reserve(size_t n_periods)
{
#ifdef GPUOFDM_HAVE_CUDA
    if (on_device())
        return reserve_device(n_periods * d_pattern.kept);
#endif
    if (punctured())
        d_mother.resize(std::max(d_mother.size(), n_periods * 2 * d_pattern.period));
}

const float* depuncturing_decoder::host_mother(const float* in, size_t n_periods)
{
    if (!punctured())
        return in; // rate 1/2: the input is the mother code
    const size_t n_out = n_periods * 2 * d_pattern.period;
    if (d_mother.size() < n_out)
        d_mother.resize(n_out); // frames: grows to the longest run of frames, once
    for (size_t j = 0; j < n_out; j++)
        d_mother[j] = depunctured_llr(in, j, d_pattern);
    return d_mother.data();
}

void depuncturing_decoder::decode_frames(const float* in,
                                         size_t n_in,
                                         size_t frame_steps,
                                         uint8_t* out)
{
    if (frame_steps % d_pattern.period != 0)
        throw std::invalid_argument("frame_steps: must be a multiple of the puncturing period " +
                                    std::to_string(d_pattern.period) + ", got " +
                                    std::to_string(frame_steps));
    if (n_in % d_pattern.kept != 0)
        throw std::invalid_argument("n_in: must be a multiple of " +
                                    std::to_string(d_pattern.kept) +
                                    " (whole puncturing periods), got " + std::to_string(n_in));
    const size_t n_periods = n_in / d_pattern.kept;
#ifdef GPUOFDM_HAVE_CUDA
    if (on_device())
        return decode_frames_on_device(in, n_in, frame_steps, out);
#endif
    d_dec->decode_frames(host_mother(in, n_periods), n_periods * 2 * d_pattern.period, frame_steps,
                         out);
}

size_t depuncturing_decoder::decode_window(const float* in,
                                           uint64_t base,
                                           size_t n_periods,
                                           uint64_t next_out,
                                           bool zero_start,
                                           bool end,
                                           bool zero_end,
                                           uint8_t* out,
                                           size_t max_bits)
{
#ifdef GPUOFDM_HAVE_CUDA
    if (on_device())
        return decode_window_on_device(in, base, n_periods, next_out, zero_start, end, zero_end,
                                       out, max_bits);
#endif
    return d_dec->decode_window(host_mother(in, n_periods), base, n_periods * d_pattern.period,
                                next_out, zero_start, end, zero_end, out, max_bits);
}

} // namespace gr::gpuofdm::core
