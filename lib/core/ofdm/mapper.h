/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_MAPPER_H
#define GPUOFDM_CORE_MAPPER_H

#include "ofdm/constellation.h"
#include "runtime/device.h"

#include <memory>

namespace gr::gpuofdm::core {

//! Mapper parameters.
struct mapper_params {
    modulation mod = modulation::qam16;
    size_t batch = 0; //!< points per CUDA launch; 0: 2^20
    //! Whose labels: 802.11a 17.3.5.7 or 802.16-2004 8.3.3.4.1 (see constellation.h).
    phy_standard standard = phy_standard::ieee80211a;

    //! The ranges above; throws std::invalid_argument("name: range, got value").
    void validate() const;
};

/*!
 * \brief Gray mapper of 802.11a 17.3.5.7 or 802.16-2004 8.3.3.4.1 (BPSK, QPSK, 16-QAM,
 * 64-QAM, normalised to unit average power); see constellation.h for both labellings.
 */
class mapper
{
public:
    virtual ~mapper() = default;

    const mapper_params& params() const { return d_params; }
    unsigned bits_per_point() const { return bits_per_symbol(d_params.mod); }
    virtual device_spec device() const = 0;

    //! Maps n_points * bits_per_point() bits (one per byte, bit 0 read) to n_points points.
    virtual void process(const uint8_t* bits, cfloat* out, size_t n_points) = 0;

protected:
    explicit mapper(const mapper_params& p);

    mapper_params d_params;
    size_t d_batch; //!< points per launch
};

//! The CPU twin or the CUDA backend.
std::unique_ptr<mapper> make_mapper(const mapper_params& p, const device_spec& dev);

//! The backends make_mapper() picks (mapper_cpu.cc, mapper_cuda.cu); callers use make_mapper().
std::unique_ptr<mapper> make_mapper_cpu(const mapper_params& p);
#ifdef GPUOFDM_HAVE_CUDA
std::unique_ptr<mapper> make_mapper_cuda(const mapper_params& p, const device_spec& dev);
#endif

} // namespace gr::gpuofdm::core

#endif
