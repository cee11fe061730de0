/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

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

reed_solomon_cpu::reed_solomon_cpu(const rs_profile& p) : reed_solomon(p) {}

void reed_solomon_cpu::encode(const uint8_t* in, uint8_t* out, size_t n_codewords)
{
    for (size_t i = 0; i < n_codewords; i++)
        rs_encode_one(d_code, in + i * d_code.k, out + i * d_code.n);
}

size_t reed_solomon_cpu::decode(const uint8_t* in,
                                uint8_t* out,
                                int32_t* status,
                                size_t n_codewords)
{
    size_t failed = 0;
    for (size_t i = 0; i < n_codewords; i++) {
        status[i] = rs_decode_one(d_code, in + i * d_code.n, out + i * d_code.k);
        failed += status[i] < 0;
    }
    return failed;
}

std::unique_ptr<reed_solomon> make_reed_solomon(const rs_profile& p,
                                                const device_spec& dev,
                                                size_t batch)
{
    if (batch > (size_t(1) << 24))
        throw std::invalid_argument("batch: must be in 0 .. 16777216 codewords, got " +
                                    std::to_string(batch));
    if (!dev.is_cuda())
        return std::make_unique<reed_solomon_cpu>(p);
#ifdef GPUOFDM_HAVE_CUDA
    return make_reed_solomon_cuda(p, dev, batch ? batch : 16384);
#else
    (void)batch;
    throw std::runtime_error("gr-gpuofdm was built without CUDA (GPUOFDM_CUDA=OFF)");
#endif
}

} // namespace gr::gpuofdm::core
