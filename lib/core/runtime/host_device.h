/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_HOST_DEVICE_H
#define GPUOFDM_CORE_HOST_DEVICE_H

// GPUOFDM_HD marks helpers that both a CPU twin (g++) and its CUDA kernel (nvcc) call, so
// the arithmetic of a stage is written once and the two backends cannot drift apart.
#ifdef __CUDACC__
#define GPUOFDM_HD __host__ __device__
#else
#define GPUOFDM_HD
#endif

// Unrolls the next loop in device code (nvcc's pragma; g++ would warn about it).
#ifdef __CUDACC__
#define GPUOFDM_UNROLL _Pragma("unroll")
#else
#define GPUOFDM_UNROLL
#endif

#endif
