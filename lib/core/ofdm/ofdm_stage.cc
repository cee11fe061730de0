/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The factories of the OFDM FFT stages: the backend follows the device_spec.

#include "ofdm/ofdm_stage.h"

#include <stdexcept>

namespace gr::gpuofdm::core {

#ifndef GPUOFDM_HAVE_CUDA
namespace {
[[noreturn]] void no_cuda()
{
    throw std::runtime_error("gr-gpuofdm was built without CUDA (GPUOFDM_CUDA=OFF)");
}
} // namespace
#endif

std::unique_ptr<ofdm_stage> make_ofdm_fft(const ofdm_params& p, const device_spec& dev)
{
    p.validate();
    if (!dev.is_cuda())
        return make_ofdm_fft_cpu(p);
#ifdef GPUOFDM_HAVE_CUDA
    return make_ofdm_fft_cuda(p, dev);
#else
    no_cuda();
#endif
}

std::unique_ptr<ofdm_stage> make_ofdm_ifft(const ofdm_params& p, const device_spec& dev)
{
    p.validate();
    if (!dev.is_cuda())
        return make_ofdm_ifft_cpu(p);
#ifdef GPUOFDM_HAVE_CUDA
    return make_ofdm_ifft_cuda(p, dev);
#else
    no_cuda();
#endif
}

} // namespace gr::gpuofdm::core
