/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "runtime/device.h"

#include <atomic>
#include <cstdlib>
#include <iostream>
#include <map>
#include <mutex>
#include <stdexcept>

#ifdef GPUOFDM_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace gr::gpuofdm::core {

namespace {

void default_sink(const std::string& line) { std::clog << "gpuofdm: " << line << '\n'; }

std::atomic<log_sink> g_sink{ &default_sink };

int parse_index(const std::string& device, const std::string& digits)
{
    if (digits.empty() || digits.size() > 4 ||
        digits.find_first_not_of("0123456789") != std::string::npos)
        throw std::invalid_argument("device: '" + device +
                                    "' is not one of auto, cpu, cuda, cuda:N");
    return std::stoi(digits);
}

std::string probe_cuda(int index)
{
#ifndef GPUOFDM_HAVE_CUDA
    (void)index;
    return "gr-gpuofdm was built without CUDA (GPUOFDM_CUDA=OFF)";
#else
    int driver = 0;
    const cudaError_t derr = cudaDriverGetVersion(&driver);
    if (derr != cudaSuccess || driver == 0)
        return "no NVIDIA driver found";
    if (driver < CUDART_VERSION)
        return "the NVIDIA driver supports CUDA " + std::to_string(driver / 1000) + "." +
               std::to_string(driver % 1000 / 10) + " but gr-gpuofdm was built with CUDA " +
               std::to_string(CUDART_VERSION / 1000) + "." +
               std::to_string(CUDART_VERSION % 1000 / 10) + "; update the driver";
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        cudaGetLastError(); // clear the sticky error so later calls start clean
        return std::string("cudaGetDeviceCount failed: ") + cudaGetErrorString(err);
    }
    if (count == 0)
        return "no CUDA device found";
    if (index >= count)
        return "CUDA device " + std::to_string(index) + " requested but only " +
               std::to_string(count) + " present";
    return "";
#endif
}

} // namespace

std::string device_spec::to_string() const
{
    return kind == backend::cpu ? "cpu" : "cuda:" + std::to_string(cuda_index);
}

bool built_with_cuda()
{
#ifdef GPUOFDM_HAVE_CUDA
    return true;
#else
    return false;
#endif
}

std::string cuda_unusable_reason(int index)
{
    static std::mutex mutex;
    static std::map<int, std::string> cache;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find(index);
    if (it == cache.end())
        it = cache.emplace(index, probe_cuda(index)).first;
    return it->second;
}

device_spec resolve_device(const std::string& device)
{
    device_spec spec;
    if (device == "cpu")
        return spec;
    if (device == "auto") {
        const std::string why = cuda_unusable_reason(0);
        if (why.empty()) {
            spec.kind = backend::cuda;
            return spec;
        }
        static std::once_flag said;
        std::call_once(said, [&] { log_info("device 'auto' runs on the CPU twin: " + why); });
        return spec;
    }
    int index = 0;
    if (device.rfind("cuda:", 0) == 0)
        index = parse_index(device, device.substr(5));
    else if (device != "cuda")
        throw std::invalid_argument("device: '" + device +
                                    "' is not one of auto, cpu, cuda, cuda:N");
    const std::string why = cuda_unusable_reason(index);
    if (!why.empty())
        throw std::runtime_error("device '" + device + "' cannot be used: " + why);
    spec.kind = backend::cuda;
    spec.cuda_index = index;
    return spec;
}

void set_log_sink(log_sink sink) { g_sink.store(sink ? sink : &default_sink); }

void log_info(const std::string& line) { g_sink.load()(line); }

namespace {

//! The armed fault: its site and the calls at that site left before it (0: none armed).
struct fault_state {
    std::mutex mutex;
    cuda_fault_site site = cuda_fault_site::launch;
    long left = 0;
};

fault_state& faults()
{
    static fault_state f;
    return f;
}

std::atomic<bool> g_fault_armed{ false };

void arm_fault(const std::string& spec)
{
    fault_state& f = faults();
    std::lock_guard<std::mutex> lock(f.mutex);
    const auto colon = spec.find(':');
    const std::string kind = spec.substr(0, colon);
    long n = 1;
    if (colon != std::string::npos) {
        const std::string digits = spec.substr(colon + 1);
        char* end = nullptr;
        n = digits.empty() ? 0 : std::strtol(digits.c_str(), &end, 10);
        if (digits.empty() || *end != '\0' || n < 1 || n > 1000000000L)
            n = 0;
    }
    if (spec.empty()) {
        f.left = 0;
    } else if (n > 0 && (kind == "launch" || kind == "copy" || kind == "oom") &&
               (colon != std::string::npos || kind == "oom")) {
        f.site = kind == "launch" ? cuda_fault_site::launch
                 : kind == "copy" ? cuda_fault_site::copy
                                  : cuda_fault_site::alloc;
        f.left = n;
    } else {
        throw std::invalid_argument(
            "GPUOFDM_FAULT: \"launch:N\", \"copy:N\", \"oom\" or \"oom:N\" (N >= 1), got \"" +
            spec + "\"");
    }
    g_fault_armed = f.left > 0;
}

//! GPUOFDM_FAULT, read once.
void arm_from_environment()
{
    static const bool once = [] {
        const char* env = std::getenv("GPUOFDM_FAULT");
        if (env && *env) {
            arm_fault(env);
            log_info(std::string("fault injection armed: GPUOFDM_FAULT=") + env);
        }
        return true;
    }();
    (void)once;
}

} // namespace

void set_cuda_fault(const std::string& spec)
{
    arm_from_environment();
    arm_fault(spec);
}

bool cuda_fault_due(cuda_fault_site site)
{
    arm_from_environment();
    if (!g_fault_armed.load(std::memory_order_relaxed))
        return false;
    fault_state& f = faults();
    std::lock_guard<std::mutex> lock(f.mutex);
    if (f.left <= 0 || f.site != site)
        return false;
    if (--f.left > 0)
        return false;
    g_fault_armed = false;
    return true;
}

} // namespace gr::gpuofdm::core
