/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Device depuncturing: one thread per output value, the CPU twin's depunctured_llr(); and
// the CUDA frames path of depuncturing_decoder.

#include "runtime/cuda_check.h"
#include "fec/depuncture.h"

#include <algorithm>

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

struct depuncturing_decoder::device_frames {
    explicit device_frames(size_t max_llr) : punctured(max_llr), mother(max_llr) {}
    cuda_stream stream;
    device_buffer<float> punctured; //!< the frames as they came
    device_buffer<float> mother;    //!< depunctured, for device_load_from_device()
};

void depuncturing_decoder::device_frames_deleter::operator()(device_frames* p) const { delete p; }

depuncturing_decoder::device_frames* depuncturing_decoder::make_device_frames(
    const viterbi_decoder& dec)
{
    // One launch decodes at most max_steps steps: 2 max_steps mother-code values, fewer
    // punctured ones.
    use_device(dec.device().cuda_index);
    return new device_frames(2 * dec.params().max_steps);
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
    use_device(d_dec->device().cuda_index);
    for (size_t f = 0; f < n_frames; f += group) {
        const size_t k = std::min(group, n_frames - f);
        const size_t n = k * frame_in;
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_device->punctured.get(), in + f * frame_in,
                                           n * sizeof(float), cudaMemcpyHostToDevice,
                                           d_device->stream.get()));
        depuncture_cuda(d_device->punctured.get(), n, d_device->mother.get(), d_pattern,
                        d_device->stream.get());
        // device_load_from_device() copies on the decoder's stream: ours must be done.
        d_device->stream.synchronize();
        d_dec->device_load_from_device(d_device->mother.get(), 2 * k * frame_steps);
        d_dec->device_decode_frames(frame_steps, k);
        d_dec->device_fetch(out + f * frame_steps, k * frame_steps);
    }
}

} // namespace gr::gpuofdm::core
