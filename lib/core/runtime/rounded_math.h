/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_ROUNDED_MATH_H
#define GPUOFDM_CORE_ROUNDED_MATH_H

// Arithmetic that rounds every operation on its own, the same on the host (g++, where
// x86-64 without -mfma contracts nothing) and on the device (the __*_rn intrinsics, which
// nvcc never fuses into an FMA): the code a CPU twin and its kernels share to take the same
// decisions bit for bit. Also the plain complex type that code uses and the sample scrub
// (non-finite values read as 0) of the synchronizers.

#include "runtime/host_device.h"

#include <cmath>

namespace gr::gpuofdm::core::rounded {

//! A complex float the device code can use (std::complex<float> has the same layout).
struct cpx {
    float re, im;
};

GPUOFDM_HD inline float mul(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
}
GPUOFDM_HD inline float add(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fadd_rn(a, b);
#else
    return a + b;
#endif
}
GPUOFDM_HD inline float sub(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fsub_rn(a, b);
#else
    return a - b;
#endif
}
GPUOFDM_HD inline float div(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fdiv_rn(a, b);
#else
    return a / b;
#endif
}
GPUOFDM_HD inline float root(float a)
{
#ifdef __CUDA_ARCH__
    return __fsqrt_rn(a);
#else
    return std::sqrt(a);
#endif
}

GPUOFDM_HD inline double mul(double a, double b)
{
#ifdef __CUDA_ARCH__
    return __dmul_rn(a, b);
#else
    return a * b;
#endif
}
GPUOFDM_HD inline double add(double a, double b)
{
#ifdef __CUDA_ARCH__
    return __dadd_rn(a, b);
#else
    return a + b;
#endif
}
GPUOFDM_HD inline double sub(double a, double b)
{
#ifdef __CUDA_ARCH__
    return __dsub_rn(a, b);
#else
    return a - b;
#endif
}
GPUOFDM_HD inline double div(double a, double b)
{
#ifdef __CUDA_ARCH__
    return __ddiv_rn(a, b);
#else
    return a / b;
#endif
}
GPUOFDM_HD inline double root(double a)
{
#ifdef __CUDA_ARCH__
    return __dsqrt_rn(a);
#else
    return std::sqrt(a);
#endif
}

//! Whether \p v (float or double) is neither NaN nor infinite.
template <typename T>
GPUOFDM_HD inline bool finite(T v)
{
#ifdef __CUDA_ARCH__
    return isfinite(v);
#else
    return std::isfinite(v);
#endif
}

//! The sample with a non-finite part replaced by 0 (NaN and Inf never detect).
GPUOFDM_HD inline cpx clean(cpx v)
{
    if (!finite(v.re) || !finite(v.im))
        return { 0.0f, 0.0f };
    return v;
}

/*!
 * The bits of a float with a non-finite value (exponent all ones) replaced by +0: the
 * receivers' input scrub, word by word (a NaN real part does not clear the imaginary one).
 */
GPUOFDM_HD inline uint32_t finite_bits(uint32_t w)
{
    return (w & 0x7f800000u) == 0x7f800000u ? 0u : w;
}

} // namespace gr::gpuofdm::core::rounded

#endif
