/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_DEVICE_H
#define INCLUDED_GPUOFDM_DEVICE_H

#include <gnuradio/gpuofdm/api.h>

#include <string>

namespace gr {
namespace gpuofdm {

/*!
 * \brief Why CUDA device \p index cannot be used (no driver, driver older than the
 * toolkit, no device, module built without CUDA), or "" when it can.
 */
GPUOFDM_API std::string gpu_unusable_reason(int index = 0);

/*!
 * \brief The device a block given \p device runs on: "cpu" or "cuda:N".
 * \throws std::invalid_argument for a string that is not auto, cpu, cuda or cuda:N;
 *         std::runtime_error for cuda or cuda:N where that GPU is not usable.
 */
GPUOFDM_API std::string resolve_device(const std::string& device = "auto");

/*!
 * \brief Test hook: makes a later CUDA call of the module fail as CUDA would, to test what
 * a block does then (log one error and end the flowgraph; fail make() on out of memory).
 *
 * \p spec: "" (none), "launch:N" (the N-th checked kernel launch or cuFFT execution from
 * now), "copy:N" (the N-th checked cudaMemcpy*), "oom" or "oom:N" (the first / N-th
 * checked cudaMalloc*, not made). One fault per call. The environment variable
 * GPUOFDM_FAULT, read at the first CUDA call, does the same for a whole program.
 * \throws std::invalid_argument for another form.
 */
GPUOFDM_API void set_cuda_fault(const std::string& spec);

} // namespace gpuofdm
} // namespace gr

#endif
