/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_OFDM_STAGES_CPU_H
#define GPUOFDM_CORE_OFDM_STAGES_CPU_H

#include "runtime/fftw_plan.h"
#include "ofdm/ofdm_stage.h"

namespace gr::gpuofdm::core {

//! CPU twin of the OFDM demodulator (FFTW, one symbol at a time).
class ofdm_fft_cpu : public ofdm_stage
{
public:
    explicit ofdm_fft_cpu(const ofdm_params& p);
    device_spec device() const override { return {}; }
    void process(const cfloat* in, cfloat* out, size_t n_symbols, uint64_t first) override;

private:
    fftw_plan_1d d_plan;
};

//! CPU twin of the OFDM modulator (FFTW, one symbol at a time).
class ofdm_ifft_cpu : public ofdm_stage
{
public:
    explicit ofdm_ifft_cpu(const ofdm_params& p);
    device_spec device() const override { return {}; }
    void process(const cfloat* in, cfloat* out, size_t n_symbols, uint64_t first) override;

private:
    fftw_plan_1d d_plan;
};

} // namespace gr::gpuofdm::core

#endif
