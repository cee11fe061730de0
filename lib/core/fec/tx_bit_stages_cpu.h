/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_TX_BIT_STAGES_CPU_H
#define GPUOFDM_CORE_TX_BIT_STAGES_CPU_H

// CPU twins of the transmit bit stages (private to the core; users call make_<stage>).

#include "fec/conv_encoder.h"
#include "fec/interleaver.h"
#include "ofdm/mapper.h"
#include "fec/scrambler.h"

namespace gr::gpuofdm::core {

//! CPU twin of the scrambler: the LFSR stepped bit by bit.
class scrambler_cpu : public scrambler
{
public:
    explicit scrambler_cpu(const scrambler_params& p);
    device_spec device() const override { return {}; }
    void process(const uint8_t* in, uint8_t* out, size_t n_bits, scrambler_state& state) override;
};

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

//! CPU twin of the interleaver.
class interleaver_cpu : public interleaver
{
public:
    explicit interleaver_cpu(const interleaver_params& p);
    device_spec device() const override { return {}; }
    void interleave(const uint8_t* in, uint8_t* out, size_t n_symbols) override;
    void deinterleave(const uint8_t* in, uint8_t* out, size_t n_symbols) override;
    void deinterleave(const float* in, float* out, size_t n_symbols) override;
};

//! CPU twin of the mapper.
class mapper_cpu : public mapper
{
public:
    explicit mapper_cpu(const mapper_params& p);
    device_spec device() const override { return {}; }
    void process(const uint8_t* bits, cfloat* out, size_t n_points) override;
};

} // namespace gr::gpuofdm::core

#endif
