/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_DEVICE_H
#define GPUOFDM_CORE_DEVICE_H

#include <memory>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

//! Where a stage runs.
enum class backend { cpu, cuda };

/*!
 * \brief A resolved device: the CPU twin, or one CUDA device by index.
 */
struct device_spec {
    backend kind = backend::cpu;
    int cuda_index = 0;

    bool is_cuda() const { return kind == backend::cuda; }
    std::string to_string() const;
};

class cuda_context;
/*!
 * \brief The CUDA context (device, stream, scratch: runtime/cuda_context.h) that the CUDA
 * stages of one chain share; the stages' factories take one, and make their own when it
 * is null. Ignored on the CPU.
 */
using cuda_context_ptr = std::shared_ptr<cuda_context>;

/*!
 * \brief Parses and resolves a `device` string.
 *
 * Accepted: "auto" (the first usable GPU, else the CPU twin), "cpu", "cuda" (device 0)
 * and "cuda:N". "auto" that falls back to the CPU writes one line to the core log the
 * first time it happens in the process. "cuda" or "cuda:N" with no usable GPU throws
 * std::runtime_error saying why (no device, driver older than the toolkit, module built
 * without CUDA, index out of range). A string of another form throws
 * std::invalid_argument naming the `device` parameter.
 */
device_spec resolve_device(const std::string& device);

/*!
 * \brief Why CUDA device \p index cannot be used, or "" when it can.
 *
 * Checks that the module was built with CUDA, that a driver is present and at least as
 * new as the CUDA runtime the module was built against, and that the device exists.
 * The answer is computed once per index and cached.
 */
std::string cuda_unusable_reason(int index = 0);

//! True when the module was built with its CUDA backend.
bool built_with_cuda();

//! The sink for the core's few log lines (the GNU Radio layer routes it to its logger).
using log_sink = void (*)(const std::string& line);
void set_log_sink(log_sink sink);
void log_info(const std::string& line);

/*!
 * \brief A failed CUDA or cuFFT call (runtime/cuda_check.h throws it). After one the
 * device's state is not known, so a block that sees it stops instead of retrying; its
 * message names the call, the source line and CUDA's error.
 */
class cuda_error : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/*!
 * \brief Fault injection for the tests of what a CUDA failure does (the device layer's
 * checked calls consult it; runtime/cuda_check.h).
 *
 * \p spec: "" (none), "launch:N" (the N-th checked kernel launch or cuFFT execution from
 * now fails as an unspecified launch failure), "copy:N" (the N-th checked cudaMemcpy*
 * fails as an illegal address) or "oom" / "oom:N" (the first / N-th checked cudaMalloc*
 * fails as out of memory, without allocating). One fault per spec: after it the calls
 * succeed again. The environment variable GPUOFDM_FAULT, read once at the first checked
 * call, sets the same. Throws std::invalid_argument("GPUOFDM_FAULT: ...") for another
 * form.
 */
void set_cuda_fault(const std::string& spec);

//! Which checked calls a fault can hit.
enum class cuda_fault_site { launch, copy, alloc };

//! Counts a checked call at \p site; true for the one the armed fault makes fail.
bool cuda_fault_due(cuda_fault_site site);

} // namespace gr::gpuofdm::core

#endif
