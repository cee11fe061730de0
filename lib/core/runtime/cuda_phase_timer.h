/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_CUDA_PHASE_TIMER_H
#define GPUOFDM_CORE_CUDA_PHASE_TIMER_H

// Where a CUDA stage's call spends its time, for tuning: events between named phases on
// the stage's stream (the device's time), host phases by the host's clock, one line on
// stderr per call. Only when the environment variable GPUOFDM_PROFILE is set; otherwise
// every member is a no-op.

#include "runtime/cuda_check.h"
#include "runtime/profile.h"

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace gr::gpuofdm::core {

class cuda_phase_timer
{
public:
    cuda_phase_timer(const char* stage, cudaStream_t stream) : d_stage(stage), d_stream(stream)
    {
        d_enabled = profiling();
        if (d_enabled) {
            d_start = record();
        }
    }
    ~cuda_phase_timer()
    {
        for (auto& p : d_marks) {
            cudaEventDestroy(p.second);
        }
        if (d_start) {
            cudaEventDestroy(d_start);
        }
    }
    cuda_phase_timer(const cuda_phase_timer&) = delete;
    cuda_phase_timer& operator=(const cuda_phase_timer&) = delete;

    //! The device work enqueued since the last mark belongs to \p phase (summed by name).
    void mark(const char* phase)
    {
        if (d_enabled) {
            d_marks.emplace_back(phase, record());
        }
    }

    //! A host phase that took \p ms.
    void host(const char* phase, double ms)
    {
        if (d_enabled) {
            add(phase, ms);
        }
    }

    //! Waits for the marks and prints the phases (with the host ones) in first-seen order.
    void report()
    {
        if (!d_enabled) {
            return;
        }
        cudaEvent_t prev = d_start;
        for (auto& p : d_marks) {
            float ms = 0;
            GPUOFDM_CUDA_CHECK(cudaEventSynchronize(p.second));
            GPUOFDM_CUDA_CHECK(cudaEventElapsedTime(&ms, prev, p.second));
            add(p.first, ms);
            prev = p.second;
        }
        std::string line = "profile " + d_stage + ":";
        double total = 0;
        for (const auto& t : d_totals) {
            char buf[96];
            std::snprintf(buf, sizeof buf, " %s %.3f ms,", t.first.c_str(), t.second);
            line += buf;
            total += t.second;
        }
        std::fprintf(stderr, "%s total %.3f ms\n", line.c_str(), total);
    }

private:
    cudaEvent_t record()
    {
        cudaEvent_t e = nullptr;
        GPUOFDM_CUDA_CHECK(cudaEventCreate(&e));
        GPUOFDM_CUDA_CHECK(cudaEventRecord(e, d_stream));
        return e;
    }
    void add(const std::string& phase, double ms)
    {
        for (auto& t : d_totals) {
            if (t.first == phase) {
                t.second += ms;
                return;
            }
        }
        d_totals.emplace_back(phase, ms);
    }

    std::string d_stage;
    cudaStream_t d_stream;
    bool d_enabled = false;
    cudaEvent_t d_start = nullptr;
    std::vector<std::pair<std::string, cudaEvent_t>> d_marks;
    std::vector<std::pair<std::string, double>> d_totals;
};

} // namespace gr::gpuofdm::core

#endif // GPUOFDM_CORE_CUDA_PHASE_TIMER_H
