/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_CUDA_CHECK_H
#define GPUOFDM_CORE_CUDA_CHECK_H

// Checked CUDA calls and the RAII owners of CUDA resources. Host API only, so it
// compiles with g++ as well as nvcc.

#include <cuda_runtime_api.h>
#include <cufft.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

namespace gr::gpuofdm::core {

[[noreturn]] void throw_cuda_error(const char* call, const char* file, int line, cudaError_t err);
[[noreturn]] void throw_cufft_error(const char* call, const char* file, int line, cufftResult err);

} // namespace gr::gpuofdm::core

//! Runs a CUDA runtime call and throws std::runtime_error naming the call when it fails.
#define GPUOFDM_CUDA_CHECK(call)                                                            \
    do {                                                                                    \
        const cudaError_t gpuofdm_err_ = (call);                                            \
        if (gpuofdm_err_ != cudaSuccess)                                                    \
            ::gr::gpuofdm::core::throw_cuda_error(#call, __FILE__, __LINE__, gpuofdm_err_); \
    } while (0)

//! The same for cuFFT calls.
#define GPUOFDM_CUFFT_CHECK(call)                                                            \
    do {                                                                                     \
        const cufftResult gpuofdm_res_ = (call);                                             \
        if (gpuofdm_res_ != CUFFT_SUCCESS)                                                   \
            ::gr::gpuofdm::core::throw_cufft_error(#call, __FILE__, __LINE__, gpuofdm_res_); \
    } while (0)

//! Checks the launch of the kernel just issued.
#define GPUOFDM_CUDA_CHECK_LAUNCH(name) GPUOFDM_CUDA_CHECK(cudaPeekAtLastError())

namespace gr::gpuofdm::core {

//! Makes a device current for the calling thread (GNU Radio runs each block in its own).
inline void use_device(int index) { GPUOFDM_CUDA_CHECK(cudaSetDevice(index)); }

//! A non-blocking stream (a cuda_context owns one: one per chain, runtime/cuda_context.h).
class cuda_stream
{
public:
    cuda_stream()
    {
        GPUOFDM_CUDA_CHECK(cudaStreamCreateWithFlags(&d_stream, cudaStreamNonBlocking));
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
