/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_SCRAMBLER_H
#define GPUOFDM_CORE_SCRAMBLER_H

#include "fec/scrambler_common.h"
#include "runtime/bit_stage.h"
#include "runtime/device.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace gr::gpuofdm::core {

/*!
 * \brief Scrambler parameters.
 *
 * seed < 0 picks the standard's default: 802.11a 1011101 (the Annex G example; the
 * standard asks for a pseudo-random nonzero seed per frame), 802.16 100101010000000
 * (8.3.3.1, the downlink frame start).
 *
 * The seed is written as the standard prints it, first register bit first: for 802.11a
 * x7..x1 (gr-ieee802-11's integer, 93 for Annex G), for 802.16 reg1..reg15 as in
 * 8.3.3.1 and Figure 204 (so 100101010000000 is 0x4A80).
 */
struct scrambler_params {
    phy_standard standard = phy_standard::ieee80211a;
    int seed = -1;    //!< 1..127 (802.11a) or 1..32767 (802.16); < 0: default
    size_t batch = 0; //!< bits per CUDA launch; 0: default_bit_batch, else 1..2^31

    //! The ranges above; throws std::invalid_argument("name: range, got value").
    void validate() const;
};

//! The register content of a scrambler between calls (bit i-1 = x_i / reg_i).
struct scrambler_state {
    uint32_t reg = 0;
};

/*!
 * \brief Additive scrambler/descrambler: 802.11a x^7+x^4+1 (17.3.5.4) or the 802.16
 * randomizer 1+x^14+x^15 (8.3.3.1).
 *
 * Scrambling and descrambling are the same operation. The sequence does not depend on the
 * data, so a batch can start anywhere: the state says where. A frame or burst starts from
 * initial_state(); the 802.11a tail zeroing after scrambling is the caller's.
 */
class scrambler
{
public:
    virtual ~scrambler() = default;

    const scrambler_params& params() const { return d_params; }
    lfsr_spec spec() const { return d_spec; }
    //! The register loaded from the seed, for the first bit of a frame or burst.
    scrambler_state initial_state() const { return { d_initial }; }
    virtual device_spec device() const = 0;

    /*!
     * XORs the scrambling sequence onto n_bits bits (one per byte; only bit 0 is read,
     * the output is 0/1) starting from \p state, and advances \p state by n_bits steps.
     * \p in and \p out may be the same buffer.
     */
    virtual void process(const uint8_t* in,
                         uint8_t* out,
                         size_t n_bits,
                         scrambler_state& state) = 0;

protected:
    //! Validates \p p (scrambler_params::validate()).
    explicit scrambler(const scrambler_params& p);
    //! Throws std::invalid_argument when \p state cannot be this scrambler's register.
    void check_state(const scrambler_state& state) const;

    scrambler_params d_params;
    lfsr_spec d_spec;
    uint32_t d_initial;
    size_t d_batch;
};

//! The CPU twin (bit-serial LFSR) or the CUDA backend (jump-ahead via the period table).
std::unique_ptr<scrambler> make_scrambler(const scrambler_params& p, const device_spec& dev);

//! The backends make_scrambler() picks (scrambler_cpu.cc, scrambler_cuda.cu); callers use make_scrambler().
std::unique_ptr<scrambler> make_scrambler_cpu(const scrambler_params& p);
#ifdef GPUOFDM_HAVE_CUDA
std::unique_ptr<scrambler> make_scrambler_cuda(const scrambler_params& p, const device_spec& dev);
#endif

} // namespace gr::gpuofdm::core

#endif
