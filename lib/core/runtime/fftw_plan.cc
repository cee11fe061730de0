/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "runtime/fftw_plan.h"

#include <fftw3.h>
#include <mutex>
#include <new>
#include <stdexcept>

namespace gr::gpuofdm::core {

namespace {
std::mutex& planner_mutex()
{
    static std::mutex m;
    static std::once_flag once;
    std::call_once(once, [] { fftwf_make_planner_thread_safe(); });
    return m;
}
} // namespace

fftw_plan_1d::fftw_plan_1d(size_t n, bool forward)
{
    std::lock_guard<std::mutex> lock(planner_mutex());
    d_in = reinterpret_cast<cfloat*>(fftwf_malloc(n * sizeof(cfloat)));
    d_out = reinterpret_cast<cfloat*>(fftwf_malloc(n * sizeof(cfloat)));
    if (!d_in || !d_out) {
        fftwf_free(d_in);
        fftwf_free(d_out);
        throw std::bad_alloc();
    }
    d_plan = fftwf_plan_dft_1d(int(n), reinterpret_cast<fftwf_complex*>(d_in),
                               reinterpret_cast<fftwf_complex*>(d_out),
                               forward ? FFTW_FORWARD : FFTW_BACKWARD, FFTW_MEASURE);
    if (!d_plan) {
        fftwf_free(d_in);
        fftwf_free(d_out);
        throw std::runtime_error("fftwf_plan_dft_1d failed for size " + std::to_string(n));
    }
}

fftw_plan_1d::~fftw_plan_1d()
{
    std::lock_guard<std::mutex> lock(planner_mutex());
    fftwf_destroy_plan(reinterpret_cast<fftwf_plan>(d_plan));
    fftwf_free(d_in);
    fftwf_free(d_out);
}

void fftw_plan_1d::execute() { fftwf_execute(reinterpret_cast<fftwf_plan>(d_plan)); }

} // namespace gr::gpuofdm::core
