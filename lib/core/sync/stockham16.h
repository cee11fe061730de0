/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_STOCKHAM16_H
#define GPUOFDM_CORE_STOCKHAM16_H

// An inverse DFT of 4096 points (unnormalised, e^{+2 pi i n k / N}, as cuFFT's
// CUFFT_INVERSE) in three radix-16 Stockham passes (Govindaraju et al., "High performance
// discrete Fourier transforms on graphics processors", SC 2008), written for one of 256
// threads: thread j takes 16 values 256 apart, turns them, and puts them where the next
// pass reads them; after the third pass the transform is in natural order. The fused PSS
// correlation kernel runs it in shared memory, so a replica's product never goes to device
// memory; the host runs the same steps in its test against FFTW.

#include "runtime/host_device.h"

#include <cmath>

namespace gr::gpuofdm::core::stockham16 {

constexpr int radix = 16;
constexpr int points = 4096;            //!< radix^3
constexpr int threads = points / radix; //!< one per 16 values
constexpr int passes = 3;

struct cpx {
    float re, im;
};

GPUOFDM_HD inline cpx mul(cpx a, cpx b)
{
    return { a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re };
}

//! v e^{+2 pi i m / 16} for the m = n2 k1 of idft16 (0..9; literal constants, so the
//! compiler folds them once the loops are unrolled).
GPUOFDM_HD inline cpx turn16(cpx v, int m)
{
    constexpr float c1 = 0.92387953251128674f, s1 = 0.38268343236508977f; // pi / 8
    constexpr float h = 0.70710678118654752f;                             // pi / 4
    switch (m) {
    case 0:
        return v;
    case 1:
        return mul(v, { c1, s1 });
    case 2:
        return mul(v, { h, h });
    case 3:
        return mul(v, { s1, c1 });
    case 4:
        return { -v.im, v.re };
    case 6:
        return mul(v, { -h, h });
    default: // 9
        return mul(v, { -c1, -s1 });
    }
}

//! a[k] = sum_n a[n] i^{n k}, n, k = 0..3, of a[0], a[stride], a[2 stride], a[3 stride].
GPUOFDM_HD inline void idft4(cpx* a, int stride)
{
    const cpx a0 = a[0], a1 = a[stride], a2 = a[2 * stride], a3 = a[3 * stride];
    const cpx s02 = { a0.re + a2.re, a0.im + a2.im }, d02 = { a0.re - a2.re, a0.im - a2.im };
    const cpx s13 = { a1.re + a3.re, a1.im + a3.im }, d13 = { a1.re - a3.re, a1.im - a3.im };
    a[0] = { s02.re + s13.re, s02.im + s13.im };
    a[stride] = { d02.re - d13.im, d02.im + d13.re }; // + i d13
    a[2 * stride] = { s02.re - s13.re, s02.im - s13.im };
    a[3 * stride] = { d02.re + d13.im, d02.im - d13.re }; // - i d13
}

//! v[q] = sum_r v[r] e^{+2 pi i r q / 16}: 4 x 4 (n = 4 n1 + n2, q = k1 + 4 k2).
GPUOFDM_HD inline void idft16(cpx v[radix])
{
    // Over n1 for each n2: y[n2][k1] at v[4 k1 + n2].
    GPUOFDM_UNROLL
    for (int n2 = 0; n2 < 4; n2++) {
        idft4(v + n2, 4);
    }
    GPUOFDM_UNROLL
    for (int n2 = 1; n2 < 4; n2++) {
        GPUOFDM_UNROLL
        for (int k1 = 1; k1 < 4; k1++) {
            v[4 * k1 + n2] = turn16(v[4 * k1 + n2], n2 * k1);
        }
    }
    // Over n2 for each k1: X[k1 + 4 k2] lands at v[4 k1 + k2]; transposed back below.
    GPUOFDM_UNROLL
    for (int k1 = 0; k1 < 4; k1++) {
        idft4(v + 4 * k1, 1);
    }
    GPUOFDM_UNROLL
    for (int k1 = 0; k1 < 4; k1++) {
        GPUOFDM_UNROLL
        for (int k2 = k1 + 1; k2 < 4; k2++) {
            const cpx t = v[4 * k1 + k2];
            v[4 * k1 + k2] = v[4 * k2 + k1];
            v[4 * k2 + k1] = t;
        }
    }
}

//! Stride of the 16 values thread j reads in every pass: in[j + r * read_stride].
constexpr int read_stride = threads;

//! Pass \p pass (0..2) of thread \p j on the 16 values it read: the twiddles, the
//! 16-point transform. Its outputs go to out[write_index(j, pass, q)].
GPUOFDM_HD inline void pass_step(int j, int pass, cpx v[radix])
{
    const int ns = pass == 0 ? 1 : pass == 1 ? radix : radix * radix;
    const int k = j % ns;
    if (k != 0) {
        // w[r] = e^{+2 pi i k r / (16 ns)}: the first from sincospi (exact argument), the
        // others by squaring and one product each, at most six products deep.
        cpx w[radix];
        float s, c;
#ifdef __CUDA_ARCH__
        sincospif(2.0f * static_cast<float>(k) / static_cast<float>(ns * radix), &s, &c);
#else
        const double a = 2.0 * M_PI * static_cast<double>(k) / (ns * radix);
        s = static_cast<float>(std::sin(a));
        c = static_cast<float>(std::cos(a));
#endif
        w[1] = { c, s };
        GPUOFDM_UNROLL
        for (int r = 2; r < radix; r++) {
            w[r] = r % 2 == 0 ? mul(w[r / 2], w[r / 2]) : mul(w[r - 1], w[1]);
        }
        GPUOFDM_UNROLL
        for (int r = 1; r < radix; r++) {
            v[r] = mul(v[r], w[r]);
        }
    }
    idft16(v);
}

GPUOFDM_HD inline int write_index(int j, int pass, int q)
{
    const int ns = pass == 0 ? 1 : pass == 1 ? radix : radix * radix;
    return (j / ns) * ns * radix + j % ns + q * ns;
}

} // namespace gr::gpuofdm::core::stockham16

#endif // GPUOFDM_CORE_STOCKHAM16_H
