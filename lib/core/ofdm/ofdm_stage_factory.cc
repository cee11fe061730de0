/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "ofdm/ofdm_stage.h"
#include "ofdm/ofdm_stages_cpu.h"

#ifdef GPUOFDM_HAVE_CUDA
#include "ofdm/ofdm_stages_cuda.h"
#endif

#include <stdexcept>

namespace gr::gpuofdm::core {

namespace {
[[noreturn]] void no_cuda()
{
    throw std::runtime_error("gr-gpuofdm was built without CUDA (GPUOFDM_CUDA=OFF)");
}
} // namespace

std::unique_ptr<ofdm_stage> make_ofdm_fft(const ofdm_params& p, const device_spec& dev)
{
    if (!dev.is_cuda())
        return std::make_unique<ofdm_fft_cpu>(p);
#ifdef GPUOFDM_HAVE_CUDA
    return std::make_unique<ofdm_fft_cuda>(p, dev);
#else
    no_cuda();
#endif
}

std::unique_ptr<ofdm_stage> make_ofdm_ifft(const ofdm_params& p, const device_spec& dev)
{
    if (!dev.is_cuda())
        return std::make_unique<ofdm_ifft_cpu>(p);
#ifdef GPUOFDM_HAVE_CUDA
    return std::make_unique<ofdm_ifft_cuda>(p, dev);
#else
    no_cuda();
#endif
}

} // namespace gr::gpuofdm::core
