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
    throw std::runtime_error(std::string(call) + " failed at " + where(file, line) + ": " +
                             cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")");
}

void throw_cufft_error(const char* call, const char* file, int line, cufftResult err)
{
    throw std::runtime_error(std::string(call) + " failed at " + where(file, line) + ": " +
                             cufft_result_name(err) + " (" + std::to_string(int(err)) + ")");
}

} // namespace gr::gpuofdm::core
