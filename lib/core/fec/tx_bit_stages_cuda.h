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

#include "runtime/bit_stage_cuda.h"
#include "fec/conv_encoder.h"
#include "fec/interleaver.h"
#include "ofdm/mapper.h"
#include "fec/scrambler.h"

namespace gr::gpuofdm::core {

// ---- Device-level entry points ----
//
// The kernels of the stage classes below, callable on device buffers: each takes device
// pointers and a stream, enqueues its kernel there and returns (no copy, no sync). A
// "runs" form processes many independent runs (the frames of a fused transmitter, each
// with its own start state, code or table) in one launch; the single-run form is what the
// stage classes call. Offsets and counts are in items (bits, values, points).

//! The grid of a runs launch: x covers the longest run (256 threads a block, strided),
//! y the runs (strided past 65535).
inline dim3 runs_grid(size_t max_n, size_t n_runs)
{
    return dim3(grid_for(max_n), unsigned(n_runs < 65535 ? (n_runs ? n_runs : 1) : 65535));
}

/*!
 * \brief One run of launch_scramble(): out[offset + i] = in[offset + i] ^ seq[(start + i)
 * mod period], then run bits zero_from .. zero_from + n_zero - 1 set to 0 (the 802.11a
 * tail bits, zeroed after scrambling, 17.3.5.2; n_zero = 0 for none).
 */
struct scramble_run {
    unsigned long long offset; //!< first bit of the run in in and out
    unsigned long long n;      //!< bits in the run
    unsigned int start;        //!< period-table index of the run's first scrambling bit
    unsigned int zero_from;
    unsigned int n_zero;
};

//! Scrambles every run of the device array \p runs (max_n: the longest run); \p seq is
//! the LFSR's period table (lfsr_period_table::bits()) on the device. in may equal out.
void launch_scramble(const uint8_t* in,
                     uint8_t* out,
                     const uint8_t* seq,
                     unsigned period,
                     const scramble_run* runs,
                     size_t n_runs,
                     size_t max_n,
                     cudaStream_t stream);
//! One run, passed by value.
void launch_scramble(const uint8_t* in,
                     uint8_t* out,
                     const uint8_t* seq,
                     unsigned period,
                     const scramble_run& run,
                     cudaStream_t stream);

/*!
 * \brief One run of launch_conv_encode(): n input bits from in[in_offset] encoded with
 * \p code from the state (reg, phase) into out[out_offset ...], code.output_offset(phase,
 * n) bits.
 */
struct conv_run {
    unsigned long long in_offset;
    unsigned long long out_offset;
    unsigned long long n;
    conv_code code;
    unsigned int reg;   //!< the six inputs before the run, newest in bit 5
    unsigned int phase; //!< puncturing phase of the run's first bit
};

//! Encodes every run of the device array \p runs (max_n: the longest run, in input bits).
void launch_conv_encode(const uint8_t* in,
                        uint8_t* out,
                        const conv_run* runs,
                        size_t n_runs,
                        size_t max_n,
                        cudaStream_t stream);
//! One run, passed by value.
void launch_conv_encode(const uint8_t* in, uint8_t* out, const conv_run& run, cudaStream_t stream);

/*!
 * \brief One run of launch_permute(): n values (whole symbols of n_cbps) from
 * in[in_offset] to out[out_offset] through the table perm[perm_offset .. + n_cbps)
 * (interleaver::permutation()): out[s N + perm[k]] = in[s N + k], or the inverse.
 */
struct permute_run {
    unsigned long long in_offset;
    unsigned long long out_offset;
    unsigned long long n;
    unsigned int perm_offset;
    unsigned int n_cbps;
};

//! Interleaves (inverse = false) or deinterleaves every run of the device array \p runs.
void launch_permute(const uint8_t* in,
                    uint8_t* out,
                    const uint32_t* perm,
                    const permute_run* runs,
                    size_t n_runs,
                    size_t max_n,
                    bool inverse,
                    cudaStream_t stream);
void launch_permute(const float* in,
                    float* out,
                    const uint32_t* perm,
                    const permute_run* runs,
                    size_t n_runs,
                    size_t max_n,
                    bool inverse,
                    cudaStream_t stream);
//! One run, passed by value.
void launch_permute(const uint8_t* in,
                    uint8_t* out,
                    const uint32_t* perm,
                    const permute_run& run,
                    bool inverse,
                    cudaStream_t stream);
void launch_permute(const float* in,
                    float* out,
                    const uint32_t* perm,
                    const permute_run& run,
                    bool inverse,
                    cudaStream_t stream);

/*!
 * \brief One run of launch_map(): n_points points of \p mod from the bits at
 * bits[in_offset] (bits_per_symbol(mod) per point, labelled per standard). With group = 0 point i goes to
 * out[out_offset + i]; else to out[out_offset + (i / group) out_stride + place[i % group]]
 * (placing each OFDM symbol's data points on their subcarriers).
 */
struct map_run {
    unsigned long long in_offset;
    unsigned long long out_offset;
    unsigned long long n_points;
    modulation mod;
    unsigned int group;
    unsigned int out_stride;
    //! Whose labels (constellation.h); 802.11a when left out.
    phy_standard standard = phy_standard::ieee80211a;
};

//! Maps every run of the device array \p runs (max_n: the most points of a run);
//! \p place: a device table of the largest group (may be null when every group is 0).
void launch_map(const uint8_t* bits,
                cfloat* out,
                const uint32_t* place,
                const map_run* runs,
                size_t n_runs,
                size_t max_n,
                cudaStream_t stream);
//! One run, passed by value.
void launch_map(const uint8_t* bits,
                cfloat* out,
                const uint32_t* place,
                const map_run& run,
                cudaStream_t stream);

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
    size_t process(const uint8_t* in,
                   uint8_t* out,
                   size_t n_in,
                   conv_encoder_state& state) override;

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
