/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CPU twin of the convolutional encoder: the shift register stepped bit by bit.

#include "fec/conv_encoder.h"

#include <memory>

namespace gr::gpuofdm::core {

//! CPU twin of the convolutional encoder: the shift register stepped bit by bit.
class conv_encoder_cpu : public conv_encoder
{
public:
    explicit conv_encoder_cpu(const conv_encoder_params& p);
    device_spec device() const override { return {}; }
    size_t process(const uint8_t* in,
                   uint8_t* out,
                   size_t n_in,
                   conv_encoder_state& state) override;
};

conv_encoder_cpu::conv_encoder_cpu(const conv_encoder_params& p) : conv_encoder(p) {}

size_t conv_encoder_cpu::process(const uint8_t* in,
                                 uint8_t* out,
                                 size_t n_in,
                                 conv_encoder_state& state)
{
    check_state(state);
    unsigned reg = state.reg;
    unsigned phase = state.phase;
    size_t n_out = 0;
    for (size_t i = 0; i < n_in; i++) {
        const unsigned window = ((in[i] & 1u) << 6) | reg;
        n_out += conv_encode_bit(d_code, window, phase, out + n_out);
        reg = window >> 1;
        phase = phase + 1 == d_code.period ? 0 : phase + 1;
    }
    state.reg = reg;
    state.phase = phase;
    return n_out;
}

std::unique_ptr<conv_encoder> make_conv_encoder_cpu(const conv_encoder_params& p)
{
    return std::make_unique<conv_encoder_cpu>(p);
}

} // namespace gr::gpuofdm::core
