/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_TX_BIT_STAGES_CUDA_H
#define GPUOFDM_CORE_TX_BIT_STAGES_CUDA_H

// CUDA backends of the transmit bit stages (private to the core). Each owns its stream and
// buffers through cuda_bit_staging, allocated once for its batch; process() splits any
// length into batches and carries the stage state across them on the host.

#include "bit_stage_cuda.h"
#include "conv_encoder.h"
#include "interleaver.h"
#include "mapper.h"
#include "scrambler.h"

namespace gr::gpuofdm::core {

//! CUDA scrambler: every bit indexes the LFSR's period table (jump-ahead).
class scrambler_cuda : public scrambler
{
public:
    scrambler_cuda(const scrambler_params& p, const device_spec& dev);
    device_spec device() const override { return d_staging.device(); }
    void process(const uint8_t* in, uint8_t* out, size_t n_bits, scrambler_state& state) override;

private:
    lfsr_period_table d_table;
    cuda_bit_staging d_staging;
    device_buffer<uint8_t> d_seq; //!< d_table.bits() on the device
};

//! CUDA convolutional encoder: one thread per input bit with a six-bit halo.
class conv_encoder_cuda : public conv_encoder
{
public:
    conv_encoder_cuda(const conv_encoder_params& p, const device_spec& dev);
    device_spec device() const override { return d_staging.device(); }
    size_t process(const uint8_t* in, uint8_t* out, size_t n_in, conv_encoder_state& state) override;

private:
    cuda_bit_staging d_staging;
};

//! CUDA interleaver: one thread per value through the permutation table.
class interleaver_cuda : public interleaver
{
public:
    interleaver_cuda(const interleaver_params& p, const device_spec& dev);
    device_spec device() const override { return d_staging.device(); }
    void interleave(const uint8_t* in, uint8_t* out, size_t n_symbols) override;
    void deinterleave(const uint8_t* in, uint8_t* out, size_t n_symbols) override;
    void deinterleave(const float* in, float* out, size_t n_symbols) override;

private:
    template <typename T>
    void run(const T* in, T* out, size_t n_symbols, bool inverse);

    cuda_bit_staging d_staging;
    device_buffer<uint32_t> d_dev_perm;
};

//! CUDA mapper: one thread per point.
class mapper_cuda : public mapper
{
public:
    mapper_cuda(const mapper_params& p, const device_spec& dev);
    device_spec device() const override { return d_staging.device(); }
    void process(const uint8_t* bits, cfloat* out, size_t n_points) override;

private:
    cuda_bit_staging d_staging;
};

} // namespace gr::gpuofdm::core

#endif
