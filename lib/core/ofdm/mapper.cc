/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Mapper parameter checks and factory.

#include "ofdm/mapper.h"

#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

void mapper_params::validate() const
{
    if (mod != modulation::bpsk && mod != modulation::qpsk && mod != modulation::qam16 &&
        mod != modulation::qam64)
        throw std::invalid_argument("mod: must be BPSK, QPSK, 16-QAM or 64-QAM, got " +
                                    std::to_string(int(mod)));
    if (standard != phy_standard::ieee80211a && standard != phy_standard::ieee80216)
        throw std::invalid_argument("standard: must be 802.11a or 802.16, got " +
                                    std::to_string(int(standard)));
    if (batch > (size_t(1) << 28))
        throw std::invalid_argument("batch: must be 0 (default) or 1..2^28 points, got " +
                                    std::to_string(batch));
}

mapper::mapper(const mapper_params& p) : d_params(validated(p))
{
    // 2^20 points per launch: at most 8 MiB of output staging.
    d_batch = p.batch ? p.batch : size_t(1) << 20;
}

std::unique_ptr<mapper> make_mapper(const mapper_params& p, const device_spec& dev)
{
    p.validate();
    if (!dev.is_cuda())
        return make_mapper_cpu(p);
#ifdef GPUOFDM_HAVE_CUDA
    return make_mapper_cuda(p, dev);
#else
    throw std::runtime_error("gr-gpuofdm was built without CUDA (GPUOFDM_CUDA=OFF)");
#endif
}

} // namespace gr::gpuofdm::core
