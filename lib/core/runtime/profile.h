/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_PROFILE_H
#define GPUOFDM_CORE_PROFILE_H

// The stages' timing printouts for tuning (cuda_phase_timer.h, the cell search's finish()
// and stream): on only when the environment variable GPUOFDM_PROFILE is set.

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <ctime>

namespace gr::gpuofdm::core {

//! Whether GPUOFDM_PROFILE is set (read once).
inline bool profiling()
{
    static const bool on = std::getenv("GPUOFDM_PROFILE") != nullptr;
    return on;
}

//! Milliseconds since \p t0 on the steady clock.
inline double ms_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

//! The calling thread's CPU time, ns.
inline int64_t thread_cpu_ns()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec;
}

} // namespace gr::gpuofdm::core

#endif // GPUOFDM_CORE_PROFILE_H
