/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_DEPUNCTURE_H
#define GPUOFDM_CORE_DEPUNCTURE_H

#include "fec/conv_code.h"
#include "fec/viterbi.h"
#include "fec/viterbi_common.h" // GPUOFDM_HD
#include "runtime/phy_standard.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#ifdef GPUOFDM_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace gr::gpuofdm::core {

/*!
 * \brief A puncturing pattern of the K = 7 rate-1/2 mother code.
 *
 * Bit q = 2 i + b of mask says whether coded bit b (0: the poly0 bit, A or X; 1: the poly1
 * bit, B or Y) of step i of the period is transmitted. The transmitted bits go out step by
 * step, the first bit of a step before the second (IEEE 802.11a-1999 Fig. 117:
 * A0 B0 A1 B2; 802.16-2004 Table 215 footnote: X1 Y1 Y2 X3).
 */
struct depuncture_pattern {
    uint32_t period; //!< mother-code steps per period
    uint32_t kept;   //!< transmitted bits per period
    uint32_t mask;   //!< transmitted bits, 2 period bits

    /*!
     * \brief The pattern of a protocol ("802.11a" / "802.16", as parse_phy_standard() reads
     * it) and rate ("1/2", "2/3", "3/4", "5/6"). 802.11a: 17.3.5.6 (5/6 from 802.11n-2009 20.3.11.6, A 11010 / B 10101);
     * 802.16: 8.3.3.2.3 Table 215 (X 10 / Y 11, X 101 / Y 110, X 10101 / Y 11010).
     * Throws std::invalid_argument("protocol: ..." or "rate: ...").
     */
    static depuncture_pattern make(const std::string& protocol, const std::string& rate);
};

//! Popcount of the bits of x below bit q.
GPUOFDM_HD inline uint32_t depuncture_rank(uint32_t x, uint32_t q)
{
    x &= (1u << q) - 1u;
    uint32_t n = 0;
    for (; x; x &= x - 1u)
        n++;
    return n;
}

//! Mother-code LLR j of the depunctured stream: the transmitted value, or 0 (an erasure).
GPUOFDM_HD inline float depunctured_llr(const float* in, uint64_t j, const depuncture_pattern& p)
{
    const uint32_t q = uint32_t(j % (2u * p.period));
    if (!((p.mask >> q) & 1u))
        return 0.0f;
    return in[(j / (2u * p.period)) * p.kept + depuncture_rank(p.mask, q)];
}

/*!
 * \brief Depuncturer: punctured soft values in, rate-1/2 mother-code LLR pairs out, with a
 * 0 (no information) where a bit was not transmitted, ready for viterbi_decoder.
 */
class depuncturer
{
public:
    depuncturer(const std::string& protocol, const std::string& rate);

    const depuncture_pattern& pattern() const { return d_pattern; }
    //! Output values for n_in input values; n_in must hold whole periods ("n_in: ...").
    size_t output_len(size_t n_in) const;
    //! Writes output_len(n_in) values to out and returns that count.
    size_t process(const float* in, size_t n_in, float* out) const;

private:
    depuncture_pattern d_pattern;
};

/*!
 * \brief Punctured soft values in, decoded bits out: the depuncturer in front of a
 * viterbi_decoder, so that a block hands its input over as it came.
 *
 * At rate 1/2 the input goes to the decoder as it is. Punctured, the CPU twin depunctures
 * on the host; the CUDA backend copies the punctured values to the device as they came,
 * once, on the decoder's stream, depunctures them there (depuncture_cuda) and decodes them
 * there: terminated frames through device_load_from_device and enqueue_decode_frames, a
 * continuous stream's window through decode_window_device. The bits equal
 * depuncturer::process() followed by the decoder.
 */
class depuncturing_decoder
{
public:
    depuncturing_decoder(std::unique_ptr<viterbi_decoder> dec, const depuncture_pattern& pattern);
    ~depuncturing_decoder();

    viterbi_decoder& decoder() const { return *d_dec; }
    const depuncture_pattern& pattern() const { return d_pattern; }

    /*!
     * \brief Terminated frames of frame_steps trellis steps (a multiple of the pattern's
     * period), back to back: n_in punctured values (frame_steps / period * kept per
     * frame), n_in / kept * period bits out. Throws std::invalid_argument as
     * viterbi_decoder::decode_frames() does, or "n_in: ..." / "frame_steps: ..." for
     * partial periods or frames.
     */
    void decode_frames(const float* in, size_t n_in, size_t frame_steps, uint8_t* out);
    /*!
     * \brief viterbi_decoder::decode_window() over n_periods whole puncturing periods of
     * punctured values from stream position (trellis step) base on.
     */
    size_t decode_window(const float* in,
                         uint64_t base,
                         size_t n_periods,
                         uint64_t next_out,
                         bool zero_start,
                         bool end,
                         bool zero_end,
                         uint8_t* out,
                         size_t max_bits);
    //! Sizes the depuncturing buffers (the host's, or the device's on CUDA) for windows of
    //! n_periods periods (no allocation later).
    void reserve(size_t n_periods);

private:
    bool punctured() const { return d_pattern.kept != 2 * d_pattern.period; }
    /*!
     * Depuncture on the device: a CUDA decoder and a punctured rate. At rate 1/2 there is
     * nothing to depuncture, so the input goes to the CUDA decoder's own host path
     * (staged through its page-locked buffer), as fast as before the device path existed.
     */
    bool on_device() const
    {
#ifdef GPUOFDM_HAVE_CUDA
        return d_device && punctured();
#else
        return false;
#endif
    }
    //! Mother-code LLR pairs of n_periods periods of in, depunctured on the host.
    const float* host_mother(const float* in, size_t n_periods);

    std::unique_ptr<viterbi_decoder> d_dec;
    depuncture_pattern d_pattern;
    std::vector<float> d_mother; //!< host depuncturing buffer, grown once
#ifdef GPUOFDM_HAVE_CUDA
    //! The decoder's context and the device buffers of the CUDA paths (depuncture_cuda.cu).
    struct device_state;
    struct device_state_deleter {
        void operator()(device_state* p) const;
    };
    static device_state* make_device_state(const viterbi_decoder& dec);
    //! The device buffers hold n_in punctured values and their depunctured ones.
    void reserve_device(size_t n_in);
    //! Uploads n_in punctured values and depunctures them on the decoder's stream.
    const float* device_mother(const float* in, size_t n_in);
    void decode_frames_on_device(const float* in, size_t n_in, size_t frame_steps, uint8_t* out);
    size_t decode_window_on_device(const float* in,
                                   uint64_t base,
                                   size_t n_periods,
                                   uint64_t next_out,
                                   bool zero_start,
                                   bool end,
                                   bool zero_end,
                                   uint8_t* out,
                                   size_t max_bits);
    std::unique_ptr<device_state, device_state_deleter> d_device;
#endif
};

//! What make_depuncturing_decoder() builds: a standard's code at a rate, and its launch size.
struct depuncturing_decoder_params {
    phy_standard standard = phy_standard::ieee80211a;
    code_rate rate = code_rate::r1_2;
    /*!
     * Trellis steps per launch (the decoder's viterbi_params::max_steps): 0 picks 2^20;
     * else from chunk_len + warmup + traceback of the rate's decoder
     * (viterbi_params::for_protocol(): 256 + 40 + 40 = 336 at 1/2, 256 + 2 x 64, 80,
     * 128 = 384 at 2/3, 416 at 3/4, 512 at 5/6) to 2^26 (2^26 steps take 512 MiB of mother-code LLRs).
     */
    size_t batch = 0;
    //! The CPU twin's threads (viterbi_params::cpu_threads): 0 every core, else 1 .. 1024.
    unsigned cpu_threads = 1;

    /*!
     * The ranges above, then the decoder's (viterbi_params::validate()); throws
     * std::invalid_argument("name: range, got value").
     */
    void validate() const;
    //! The decoder's parameters: viterbi_params::for_protocol() with the batch and threads.
    viterbi_params decoder_params() const;
    //! The puncturing pattern (depuncture_pattern::make()).
    depuncture_pattern pattern() const;
};

/*!
 * \brief The decoder of \p p on \p dev (CPU twin or CUDA) behind its depuncturer. Throws
 * std::invalid_argument for a bad parameter (depuncturing_decoder_params::validate(),
 * before any backend is built).
 */
std::unique_ptr<depuncturing_decoder> make_depuncturing_decoder(
    const depuncturing_decoder_params& p, const device_spec& dev);

#ifdef GPUOFDM_HAVE_CUDA
/*!
 * \brief Device-resident depuncturing (defined in depuncture_cuda.cu): d_out gets
 * depuncturer::output_len(n_in) values on \p stream. The caller checks n_in.
 */
void depuncture_cuda(
    const float* d_in, size_t n_in, float* d_out, const depuncture_pattern& p, cudaStream_t stream);
#endif

} // namespace gr::gpuofdm::core

#endif
