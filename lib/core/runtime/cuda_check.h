/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_CUDA_CHECK_H
#define GPUOFDM_CORE_CUDA_CHECK_H

// Checked CUDA calls and the RAII owners of CUDA resources. Host API only, so it
// compiles with g++ as well as nvcc.

#include "runtime/device.h"

#include <cuda_runtime_api.h>
#include <cufft.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

namespace gr::gpuofdm::core {

[[noreturn]] void throw_cuda_error(const char* call, const char* file, int line, cudaError_t err);
[[noreturn]] void throw_cufft_error(const char* call, const char* file, int line, cufftResult err);

//! The error an armed fault gives the checked runtime call spelled \p call (a copy or an
//! allocation), else cudaSuccess.
inline cudaError_t injected_cuda_error(const char* call)
{
    const std::string c(call);
    if (c.find("cudaMemcpy") != std::string::npos && cuda_fault_due(cuda_fault_site::copy))
        return cudaErrorIllegalAddress;
    if (c.find("cudaMalloc") != std::string::npos && cuda_fault_due(cuda_fault_site::alloc))
        return cudaErrorMemoryAllocation;
    return cudaSuccess;
}

//! The same for a cuFFT call: an armed launch fault fails an execution.
inline cufftResult injected_cufft_error(const char* call)
{
    return std::string(call).find("cufftExec") != std::string::npos &&
                   cuda_fault_due(cuda_fault_site::launch)
               ? CUFFT_EXEC_FAILED
               : CUFFT_SUCCESS;
}

} // namespace gr::gpuofdm::core

//! Runs a CUDA runtime call and throws cuda_error (runtime/device.h) naming the call when
//! it fails. An armed fault (set_cuda_fault(), GPUOFDM_FAULT) fails a cudaMemcpy* or a
//! cudaMalloc* here as CUDA would, without making the call.
#define GPUOFDM_CUDA_CHECK(call)                                                            \
    do {                                                                                    \
        cudaError_t gpuofdm_err_ = ::gr::gpuofdm::core::injected_cuda_error(#call);         \
        if (gpuofdm_err_ == cudaSuccess)                                                    \
            gpuofdm_err_ = (call);                                                          \
        if (gpuofdm_err_ != cudaSuccess)                                                    \
            ::gr::gpuofdm::core::throw_cuda_error(#call, __FILE__, __LINE__, gpuofdm_err_); \
    } while (0)

//! The same for cuFFT calls (an armed launch fault fails a cufftExec* call).
#define GPUOFDM_CUFFT_CHECK(call)                                                            \
    do {                                                                                     \
        cufftResult gpuofdm_res_ = ::gr::gpuofdm::core::injected_cufft_error(#call);         \
        if (gpuofdm_res_ == CUFFT_SUCCESS)                                                   \
            gpuofdm_res_ = (call);                                                           \
        if (gpuofdm_res_ != CUFFT_SUCCESS)                                                   \
            ::gr::gpuofdm::core::throw_cufft_error(#call, __FILE__, __LINE__, gpuofdm_res_); \
    } while (0)

//! Checks the launch of the kernel just issued (an armed launch fault fails it here).
#define GPUOFDM_CUDA_CHECK_LAUNCH(name)                                                       \
    do {                                                                                      \
        const cudaError_t gpuofdm_err_ =                                                      \
            ::gr::gpuofdm::core::cuda_fault_due(::gr::gpuofdm::core::cuda_fault_site::launch) \
                ? cudaErrorLaunchFailure                                                      \
                : cudaPeekAtLastError();                                                      \
        if (gpuofdm_err_ != cudaSuccess)                                                      \
            ::gr::gpuofdm::core::throw_cuda_error(#name, __FILE__, __LINE__, gpuofdm_err_);   \
    } while (0)

namespace gr::gpuofdm::core {

//! Makes a device current for the calling thread (GNU Radio runs each block in its own).
inline void use_device(int index) { GPUOFDM_CUDA_CHECK(cudaSetDevice(index)); }

//! A non-blocking stream (a cuda_context owns one: one per chain, runtime/cuda_context.h).
class cuda_stream
{
public:
    //! \p priority as cudaStreamCreateWithPriority takes it: 0 the default, lower first.
    explicit cuda_stream(int priority = 0)
    {
        GPUOFDM_CUDA_CHECK(
            cudaStreamCreateWithPriority(&d_stream, cudaStreamNonBlocking, priority));
    }
    ~cuda_stream() { cudaStreamDestroy(d_stream); }
    cuda_stream(const cuda_stream&) = delete;
    cuda_stream& operator=(const cuda_stream&) = delete;

    cudaStream_t get() const { return d_stream; }
    void synchronize() const { GPUOFDM_CUDA_CHECK(cudaStreamSynchronize(d_stream)); }

private:
    cudaStream_t d_stream = nullptr;
};

//! Device memory for \p n items of T, allocated once.
template <typename T>
class device_buffer
{
public:
    device_buffer() = default;
    explicit device_buffer(size_t n) : d_size(n)
    {
        if (n)
            GPUOFDM_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&d_ptr), n * sizeof(T)));
    }
    ~device_buffer() { cudaFree(d_ptr); }
    device_buffer(device_buffer&& o) noexcept { swap(o); }
    device_buffer& operator=(device_buffer&& o) noexcept
    {
        swap(o);
        return *this;
    }
    device_buffer(const device_buffer&) = delete;
    device_buffer& operator=(const device_buffer&) = delete;

    T* get() const { return d_ptr; }
    size_t size() const { return d_size; }

private:
    void swap(device_buffer& o) noexcept
    {
        std::swap(d_ptr, o.d_ptr);
        std::swap(d_size, o.d_size);
    }
    T* d_ptr = nullptr;
    size_t d_size = 0;
};

//! Pinned (page-locked) host memory for \p n items of T, for async copies.
template <typename T>
class pinned_buffer
{
public:
    pinned_buffer() = default;
    explicit pinned_buffer(size_t n) : d_size(n)
    {
        if (n)
            GPUOFDM_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&d_ptr), n * sizeof(T)));
    }
    ~pinned_buffer() { cudaFreeHost(d_ptr); }
    pinned_buffer(pinned_buffer&& o) noexcept { swap(o); }
    pinned_buffer& operator=(pinned_buffer&& o) noexcept
    {
        swap(o);
        return *this;
    }
    pinned_buffer(const pinned_buffer&) = delete;
    pinned_buffer& operator=(const pinned_buffer&) = delete;

    T* get() const { return d_ptr; }
    size_t size() const { return d_size; }

private:
    void swap(pinned_buffer& o) noexcept
    {
        std::swap(d_ptr, o.d_ptr);
        std::swap(d_size, o.d_size);
    }
    T* d_ptr = nullptr;
    size_t d_size = 0;
};

} // namespace gr::gpuofdm::core

#endif
