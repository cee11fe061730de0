/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CPU twin of the Reed-Solomon codec: rs_encode_one / rs_decode_one over the batch.

#include "fec/reed_solomon.h"

#include <memory>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

//! CPU twin: rs_encode_one / rs_decode_one over the batch.
class reed_solomon_cpu : public reed_solomon
{
public:
    explicit reed_solomon_cpu(const rs_profile& p);
    device_spec device() const override { return {}; }
    void encode(const uint8_t* in, uint8_t* out, size_t n_codewords) override;
    size_t decode(const uint8_t* in, uint8_t* out, int32_t* status, size_t n_codewords) override;
};

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

std::unique_ptr<reed_solomon> make_reed_solomon_cpu(const rs_profile& p)
{
    return std::make_unique<reed_solomon_cpu>(p);
}

} // namespace gr::gpuofdm::core
