/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_DEMAPPER_COMMON_H
#define GPUOFDM_CORE_DEMAPPER_COMMON_H

// The max-log demapper's arithmetic, shared by the CPU twin, the CUDA kernel and the
// receivers' fused kernels (GPUOFDM_HD; products and differences rounded one by one with
// runtime/rounded_math.h, so every backend gives the same floats).

#include "ofdm/constellation.h"
#include "runtime/host_device.h"
#include "runtime/rounded_math.h"

namespace gr::gpuofdm::core {

namespace demap_detail {

// Every operation rounded on its own, on the host and the device alike (rounded_math.h).
using rounded::mul;
using rounded::sub;

/*!
 * \brief The n = 1..3 bits of one axis: for each bit the smallest squared distance from y
 * to a level labelled 0 and to one labelled 1 (level k * gray_pam_level(label, n)), and
 * out[i] = w (d1 - d0), or +-1 when hard.
 */
GPUOFDM_HD inline void demap_axis(float y, unsigned n, float k, float w, bool hard, float* out)
{
    float d0[3] = { 3.0e38f, 3.0e38f, 3.0e38f };
    float d1[3] = { 3.0e38f, 3.0e38f, 3.0e38f };
    for (unsigned label = 0; label < (1u << n); label++) {
        const float e = sub(y, mul(k, float(gray_pam_level(label, n))));
        const float d = mul(e, e);
        for (unsigned i = 0; i < n; i++) {
            const bool one = (label >> (n - 1 - i)) & 1u; // bit i of the axis, MSB first
            float& m = one ? d1[i] : d0[i];
            if (d < m)
                m = d;
        }
    }
    for (unsigned i = 0; i < n; i++) {
        const float diff = sub(d1[i], d0[i]);
        out[i] = hard ? (diff >= 0.0f ? 1.0f : -1.0f) : mul(w, diff);
    }
}

} // namespace demap_detail

/*!
 * \brief Demaps one point into bits_per_symbol(m) values at out, b0 first.
 * \param w LLR weight: 1 / noise variance (times |H|^2 for a per-carrier gain)
 */
GPUOFDM_HD inline void demap_point(float re, float im, modulation m, float w, bool hard, float* out)
{
    const unsigned n = bits_per_symbol(m);
    const float k = modulation_scale(m);
    if (n == 1) {
        demap_detail::demap_axis(re, 1, k, w, hard, out);
        return;
    }
    demap_detail::demap_axis(re, n / 2, k, w, hard, out);
    demap_detail::demap_axis(im, n / 2, k, w, hard, out + n / 2);
}

} // namespace gr::gpuofdm::core

#endif
