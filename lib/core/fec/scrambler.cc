/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Scrambler parameters, the period table and the factory (shared by both backends).

#include "fec/scrambler.h"

#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

namespace {

// 802.16 prints reg1 first; the register keeps reg1 in bit 0.
uint32_t reverse_bits(uint32_t v, unsigned n)
{
    uint32_t r = 0;
    for (unsigned i = 0; i < n; i++)
        r |= ((v >> i) & 1u) << (n - 1 - i);
    return r;
}

} // namespace

void scrambler_params::validate() const
{
    if (standard != phy_standard::ieee80211a && standard != phy_standard::ieee80216)
        throw std::invalid_argument("standard: must be 802.11a or 802.16, got " +
                                    std::to_string(int(standard)));
    const int max_seed = int(lfsr_for(standard).mask());
    if (seed == 0 || seed > max_seed)
        throw std::invalid_argument("seed: must be 1.." + std::to_string(max_seed) + " for " +
                                    to_string(standard) + " (the all-zero register never " +
                                    "scrambles), or negative for the default, got " +
                                    std::to_string(seed));
    if (batch > (size_t(1) << 31))
        throw std::invalid_argument("batch: must be 0 (default) or 1..2^31 bits, got " +
                                    std::to_string(batch));
}

lfsr_period_table::lfsr_period_table(lfsr_spec spec)
    : d_bits(spec.period()), d_state(spec.period()), d_index(size_t(spec.mask()) + 1, 0)
{
    uint32_t reg = 1;
    for (uint32_t i = 0; i < spec.period(); i++) {
        if (i > 0 && reg == 1)
            throw std::logic_error("lfsr_period_table: polynomial is not primitive");
        d_state[i] = reg;
        d_index[reg] = i;
        d_bits[i] = uint8_t(lfsr_feedback(reg, spec));
        reg = lfsr_step(reg, spec);
    }
}

scrambler::scrambler(const scrambler_params& p)
    : d_params(validated(p)), d_spec(lfsr_for(p.standard)),
      d_batch(p.batch ? p.batch : default_bit_batch)
{
    const bool wifi = p.standard == phy_standard::ieee80211a;
    const uint32_t seed = p.seed < 0 ? (wifi ? 0x5Du : 0x4A80u) : uint32_t(p.seed);
    d_initial = wifi ? seed : reverse_bits(seed, d_spec.length);
}

void scrambler::check_state(const scrambler_state& state) const
{
    if (state.reg == 0 || state.reg > d_spec.mask())
        throw std::invalid_argument("state: register must be 1.." + std::to_string(d_spec.mask()) +
                                    "; start from initial_state()");
}

std::unique_ptr<scrambler> make_scrambler(const scrambler_params& p, const device_spec& dev)
{
    p.validate();
    if (!dev.is_cuda())
        return make_scrambler_cpu(p);
#ifdef GPUOFDM_HAVE_CUDA
    return make_scrambler_cuda(p, dev);
#else
    throw std::runtime_error("gr-gpuofdm was built without CUDA (GPUOFDM_CUDA=OFF)");
#endif
}

} // namespace gr::gpuofdm::core
