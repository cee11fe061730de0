/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Demapper parameter checks, batching and factory.

#include "ofdm/demapper.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

void demapper_params::validate() const
{
    if (mod != modulation::bpsk && mod != modulation::qpsk && mod != modulation::qam16 &&
        mod != modulation::qam64)
        throw std::invalid_argument("mod: must be BPSK, QPSK, 16-QAM or 64-QAM, got " +
                                    std::to_string(int(mod)));
    if (batch > (size_t(1) << 26))
        throw std::invalid_argument("batch: must be 0 (default) or 1..2^26 points, got " +
                                    std::to_string(batch));
}

float checked_noise_var(float noise_var)
{
    if (!(noise_var > 0.0f) || !std::isfinite(noise_var))
        throw std::invalid_argument("noise_var: must be finite and > 0, got " +
                                    std::to_string(noise_var));
    return noise_var;
}

demapper::demapper(const demapper_params& p) : d_params(validated(p))
{
    d_batch = p.batch ? p.batch : size_t(1) << 20;
}

void demapper::process(
    const cfloat* in, float* out, size_t n_points, float noise_var, const float* gain)
{
    const float w = 1.0f / checked_noise_var(noise_var);
    const unsigned n = bits_per_point();
    while (n_points > 0) {
        const size_t k = std::min(n_points, d_batch);
        run(in, gain, out, k, w);
        in += k;
        out += k * n;
        if (gain)
            gain += k;
        n_points -= k;
    }
}

std::unique_ptr<demapper> make_demapper(const demapper_params& p, const device_spec& dev)
{
    p.validate();
    if (!dev.is_cuda())
        return make_demapper_cpu(p);
#ifdef GPUOFDM_HAVE_CUDA
    return make_demapper_cuda(p, dev);
#else
    throw std::runtime_error("gr-gpuofdm was built without CUDA (GPUOFDM_CUDA=OFF)");
#endif
}

} // namespace gr::gpuofdm::core
