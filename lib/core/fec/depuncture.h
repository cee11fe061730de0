/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_DEPUNCTURE_H
#define GPUOFDM_CORE_DEPUNCTURE_H

#include "fec/viterbi_common.h" // GPUOFDM_HD

#include <cstddef>
#include <cstdint>
#include <string>

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
     * \brief The pattern of a protocol ("80211a" / "80216") and rate ("1/2", "2/3", "3/4",
     * "5/6"). 802.11a: 17.3.5.6 (5/6 from 802.11n-2009 20.3.11.6, A 11010 / B 10101);
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
