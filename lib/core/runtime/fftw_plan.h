/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_FFTW_PLAN_H
#define GPUOFDM_CORE_FFTW_PLAN_H

#include "ofdm/ofdm_layout.h"

namespace gr::gpuofdm::core {

/*!
 * \brief One FFTW single-precision 1-D complex plan on its own aligned buffers, as GNU
 * Radio's fft_vcc uses it (copy in, execute, copy out). Planning is serialised and made
 * thread-safe process-wide, since GNU Radio's own FFT blocks plan from other threads.
 */
class fftw_plan_1d
{
public:
    fftw_plan_1d(size_t n, bool forward);
    ~fftw_plan_1d();
    fftw_plan_1d(const fftw_plan_1d&) = delete;
    fftw_plan_1d& operator=(const fftw_plan_1d&) = delete;

    cfloat* input() { return d_in; }
    const cfloat* output() const { return d_out; }
    void execute();

private:
    cfloat* d_in;
    cfloat* d_out;
    void* d_plan;
};

} // namespace gr::gpuofdm::core

#endif
