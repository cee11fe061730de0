/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_SCRAMBLER_COMMON_H
#define GPUOFDM_CORE_SCRAMBLER_COMMON_H

// The scrambler's arithmetic, shared by the CPU twin, the CUDA kernels (GPUOFDM_HD) and
// the stages that scramble inside a fused chain (the transmitters, the receivers'
// descramblers): the LFSR step and its jump-ahead table.

#include "runtime/host_device.h"
#include "runtime/phy_standard.h"

#include <cstdint>
#include <vector>

namespace gr::gpuofdm::core {

/*!
 * \brief The shift register of a scrambler: a Fibonacci LFSR with feedback
 * x_length ^ x_tap into x_1.
 *
 * Register bit i-1 holds x_i (802.11a, 17.3.5.4, Figure 17-7) or reg_i (802.16-2004,
 * 8.3.3.1, Figure 202). Both polynomials are primitive, so every nonzero state lies on one
 * cycle of period 2^length - 1.
 */
struct lfsr_spec {
    unsigned length; //!< 7 (x^7 + x^4 + 1) or 15 (1 + x^14 + x^15)
    unsigned tap;    //!< 4 or 14

    GPUOFDM_HD unsigned mask() const { return (1u << length) - 1u; }
    GPUOFDM_HD unsigned period() const { return (1u << length) - 1u; }
};

//! The register of \p standard's scrambler.
inline lfsr_spec lfsr_for(phy_standard standard)
{
    return standard == phy_standard::ieee80211a ? lfsr_spec{ 7, 4 } : lfsr_spec{ 15, 14 };
}

//! The scrambling bit of register \p reg (XORed onto the data and fed back into x_1).
GPUOFDM_HD inline unsigned lfsr_feedback(unsigned reg, lfsr_spec s)
{
    return ((reg >> (s.length - 1)) ^ (reg >> (s.tap - 1))) & 1u;
}

//! The register one step later.
GPUOFDM_HD inline unsigned lfsr_step(unsigned reg, lfsr_spec s)
{
    return ((reg << 1) | lfsr_feedback(reg, s)) & s.mask();
}

/*!
 * \brief One whole period of an LFSR, for jump-ahead: the register after any number of
 * steps in O(1), and the scrambling bits as a table any thread can index.
 *
 * Index i is the state reached after i steps from the register value 1.
 */
class lfsr_period_table
{
public:
    explicit lfsr_period_table(lfsr_spec spec);

    uint32_t period() const { return uint32_t(d_bits.size()); }
    //! Where \p reg lies on the cycle (reg must be nonzero).
    uint32_t index_of(uint32_t reg) const { return d_index[reg]; }
    //! The register \p n steps after \p reg.
    uint32_t advance(uint32_t reg, uint64_t n) const
    {
        return d_state[uint32_t((uint64_t(d_index[reg]) + n % period()) % period())];
    }
    //! Scrambling bit emitted at cycle index i (0 .. period-1).
    const std::vector<uint8_t>& bits() const { return d_bits; }

private:
    std::vector<uint8_t> d_bits;
    std::vector<uint32_t> d_state;
    std::vector<uint32_t> d_index;
};

} // namespace gr::gpuofdm::core

#endif
