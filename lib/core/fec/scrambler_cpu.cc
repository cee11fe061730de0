/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CPU twin of the scrambler: the LFSR stepped bit by bit, as the standards draw it.

#include "fec/scrambler.h"

#include <memory>

namespace gr::gpuofdm::core {

//! CPU twin of the scrambler: the LFSR stepped bit by bit.
class scrambler_cpu : public scrambler
{
public:
    explicit scrambler_cpu(const scrambler_params& p);
    device_spec device() const override { return {}; }
    void process(const uint8_t* in, uint8_t* out, size_t n_bits, scrambler_state& state) override;
};

scrambler_cpu::scrambler_cpu(const scrambler_params& p) : scrambler(p) {}

void scrambler_cpu::process(const uint8_t* in, uint8_t* out, size_t n_bits, scrambler_state& state)
{
    check_state(state);
    unsigned reg = state.reg;
    for (size_t i = 0; i < n_bits; i++) {
        out[i] = uint8_t((in[i] & 1u) ^ lfsr_feedback(reg, d_spec));
        reg = lfsr_step(reg, d_spec);
    }
    state.reg = reg;
}

std::unique_ptr<scrambler> make_scrambler_cpu(const scrambler_params& p)
{
    return std::make_unique<scrambler_cpu>(p);
}

} // namespace gr::gpuofdm::core
