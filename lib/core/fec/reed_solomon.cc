/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Reed-Solomon profile checks, the base class and the factory (shared by both backends).

#include "fec/reed_solomon.h"

#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

void rs_profile::validate() const
{
    // IEEE 802.16-2004 Table 215 and the mother code of 8.3.3.2.
    static const unsigned allowed[][3] = { { 12, 12, 0 },   { 32, 24, 4 },  { 40, 36, 2 },
                                           { 64, 48, 8 },   { 80, 72, 4 },  { 108, 96, 6 },
                                           { 120, 108, 6 }, { 255, 239, 8 } };
    for (const auto& a : allowed)
        if (n == a[0] && k == a[1] && t == a[2])
            return;
    throw std::invalid_argument(
        "profile: (N,K,T) = (" + std::to_string(n) + "," + std::to_string(k) + "," +
        std::to_string(t) +
        ") is not an 802.16 RS profile; allowed (12,12,0), (32,24,4), (40,36,2), (64,48,8), "
        "(80,72,4), (108,96,6), (120,108,6), (255,239,8)");
}

reed_solomon::reed_solomon(const rs_profile& p) : d_profile(p)
{
    d_profile.validate();
    d_code = rs_make_code(p.n, p.k, p.t);
}

void reed_solomon_params::validate() const
{
    profile.validate();
    if (batch > (size_t(1) << 24))
        throw std::invalid_argument("batch: must be in 0 .. 16777216 codewords, got " +
                                    std::to_string(batch));
}

std::unique_ptr<reed_solomon> make_reed_solomon(const reed_solomon_params& p,
                                                const device_spec& dev)
{
    p.validate();
    if (!dev.is_cuda())
        return make_reed_solomon_cpu(p.profile);
#ifdef GPUOFDM_HAVE_CUDA
    return make_reed_solomon_cuda(p.profile, dev, p.codewords_per_launch());
#else
    throw std::runtime_error("gr-gpuofdm was built without CUDA (GPUOFDM_CUDA=OFF)");
#endif
}

} // namespace gr::gpuofdm::core
