/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Device depuncturing: one thread per output value, the CPU twin's depunctured_llr(); and
// the CUDA paths of depuncturing_decoder (frames and stream windows): the punctured values
// go up once, on the decoder's stream, and are depunctured and decoded there.

#include "runtime/cuda_check.h"
#include "runtime/cuda_context.h"
#include "fec/depuncture.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace gr::gpuofdm::core {

namespace {

__global__ void depuncture_kernel(const float* __restrict__ in,
                                  float* __restrict__ out,
                                  uint64_t n_out,
                                  depuncture_pattern p)
{
    for (uint64_t j = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; j < n_out;
         j += uint64_t(gridDim.x) * blockDim.x)
        out[j] = depunctured_llr(in, j, p);
}

} // namespace

void depuncture_cuda(
    const float* d_in, size_t n_in, float* d_out, const depuncture_pattern& p, cudaStream_t stream)
{
    const uint64_t n_out = n_in / p.kept * 2 * p.period;
    if (n_out == 0)
        return;
    const uint64_t blocks = (n_out + 255) / 256;
    depuncture_kernel<<<unsigned(blocks < 65535 ? blocks : 65535), 256, 0, stream>>>(d_in, d_out,
                                                                                     n_out, p);
    GPUOFDM_CUDA_CHECK_LAUNCH(depuncture_kernel);
}

struct depuncturing_decoder::device_state {
    device_state(cuda_context_ptr c, size_t max_llr)
        : ctx(std::move(c)), punctured(max_llr), mother(max_llr)
    {
    }
    cuda_context_ptr ctx;           //!< the decoder's: upload, depuncturing, decoding in order
    device_buffer<float> punctured; //!< the values as they came
    device_buffer<float> mother;    //!< depunctured, read by the decoder
};

void depuncturing_decoder::device_state_deleter::operator()(device_state* p) const { delete p; }

depuncturing_decoder::device_state* depuncturing_decoder::make_device_state(
    const viterbi_decoder& dec)
{
    // One launch of frames decodes at most max_steps steps: 2 max_steps mother-code
    // values, fewer punctured ones. Windows grow the buffers (reserve()).
    cuda_context_ptr ctx = dec.context();
    ctx->activate();
    return new device_state(std::move(ctx), 2 * dec.params().max_steps);
}

void depuncturing_decoder::reserve_device(size_t n_in)
{
    device_state& d = *d_device;
    const size_t n_out = n_in / d_pattern.kept * 2 * d_pattern.period;
    if (d.punctured.size() >= n_in && d.mother.size() >= n_out)
        return;
    d.ctx->activate();
    d.ctx->synchronize(); // queued work may still read the old buffers
    if (d.punctured.size() < n_in)
        d.punctured = device_buffer<float>(n_in);
    if (d.mother.size() < n_out)
        d.mother = device_buffer<float>(n_out);
}

const float* depuncturing_decoder::device_mother(const float* in, size_t n_in)
{
    reserve_device(n_in);
    device_state& d = *d_device;
    d.ctx->activate();
    if (n_in > 0) {
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d.punctured.get(), in, n_in * sizeof(float),
                                           cudaMemcpyHostToDevice, d.ctx->stream()));
        depuncture_cuda(d.punctured.get(), n_in, d.mother.get(), d_pattern, d.ctx->stream());
    }
    return d.mother.get();
}

void depuncturing_decoder::decode_frames_on_device(const float* in,
                                                   size_t n_in,
                                                   size_t frame_steps,
                                                   uint8_t* out)
{
    const size_t group = d_dec->frames_per_launch(frame_steps); // checks frame_steps
    const size_t frame_in = frame_steps / d_pattern.period * d_pattern.kept;
    if (n_in % frame_in != 0)
        throw std::invalid_argument("n_in: must hold whole frames of " + std::to_string(frame_in) +
                                    " values, got " + std::to_string(n_in));
    const size_t n_frames = n_in / frame_in;
    for (size_t f = 0; f < n_frames; f += group) {
        const size_t k = std::min(group, n_frames - f);
        // All on the decoder's stream: only the bits are waited for.
        const float* mother = device_mother(in + f * frame_in, k * frame_in);
        d_dec->device_load_from_device(mother, 2 * k * frame_steps);
        d_dec->enqueue_decode_frames(frame_steps, k);
        d_dec->device_fetch(out + f * frame_steps, k * frame_steps);
    }
}

size_t depuncturing_decoder::decode_window_on_device(const float* in,
                                                     uint64_t base,
                                                     size_t n_periods,
                                                     uint64_t next_out,
                                                     bool zero_start,
                                                     bool end,
                                                     bool zero_end,
                                                     uint8_t* out,
                                                     size_t max_bits)
{
    const float* mother = device_mother(in, n_periods * d_pattern.kept);
    size_t written = 0;
    try {
        written = d_dec->decode_window_device(mother, base, n_periods * d_pattern.period, next_out,
                                              zero_start, end, zero_end, out, max_bits);
    } catch (...) {
        d_device->ctx->synchronize(); // the upload reads the caller's memory
        throw;
    }
    // Every launch waited for its bits, the upload before them; with none, wait for the
    // upload, which reads the caller's memory.
    if (written == 0)
        d_device->ctx->synchronize();
    return written;
}

} // namespace gr::gpuofdm::core
