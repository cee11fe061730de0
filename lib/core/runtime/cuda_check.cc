/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "runtime/cuda_check.h"

namespace gr::gpuofdm::core {

namespace {

const char* cufft_result_name(cufftResult r)
{
    switch (r) {
    case CUFFT_INVALID_PLAN:
        return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED:
        return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_VALUE:
        return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR:
        return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED:
        return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED:
        return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE:
        return "CUFFT_INVALID_SIZE";
    case CUFFT_INVALID_DEVICE:
        return "CUFFT_INVALID_DEVICE";
    case CUFFT_NO_WORKSPACE:
        return "CUFFT_NO_WORKSPACE";
    case CUFFT_NOT_IMPLEMENTED:
        return "CUFFT_NOT_IMPLEMENTED";
    case CUFFT_NOT_SUPPORTED:
        return "CUFFT_NOT_SUPPORTED";
    default:
        return "cuFFT error";
    }
}

std::string where(const char* file, int line)
{
    std::string f(file);
    const auto slash = f.find_last_of('/');
    return (slash == std::string::npos ? f : f.substr(slash + 1)) + ":" + std::to_string(line);
}

} // namespace

void throw_cuda_error(const char* call, const char* file, int line, cudaError_t err)
{
    // The error CUDA left pending (a launch's) is taken, so it does not surface again at
    // the next check; a sticky error (the context is lost) stays, and every later call fails.
    (void)cudaGetLastError();
    std::string why = std::string(call) + " failed at " + where(file, line) + ": " +
                      cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")";
    if (err == cudaErrorMemoryAllocation)
        why += ": the GPU's memory is full (free some, use smaller batches, or device \"cpu\")";
    throw cuda_error(why);
}

void throw_cufft_error(const char* call, const char* file, int line, cufftResult err)
{
    std::string why = std::string(call) + " failed at " + where(file, line) + ": " +
                      cufft_result_name(err) + " (" + std::to_string(int(err)) + ")";
    if (err == CUFFT_ALLOC_FAILED)
        why += ": the GPU's memory is full (free some, use smaller batches, or device \"cpu\")";
    throw cuda_error(why);
}

} // namespace gr::gpuofdm::core
