/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The CUDA backend of the wideband channelizer: every block of a call in one batched cuFFT
// of the capture, every (block, channel) slice in one batched inverse cuFFT.

#include "runtime/cuda_check.h"
#include "runtime/cuda_context.h"
#include "runtime/cufft_plans.h"
#include "runtime/cuda_phase_timer.h"
#include "sync/wideband_channelizer.h"
#include "sync/wideband_channelizer_common.h"

#include <thrust/complex.h>

namespace gr::gpuofdm::core {

namespace {

using tc = thrust::complex<float>;

// Block k of the call: in[k * hop_in ..] into blocks[k * fft_in ..].
__global__ void gather_blocks_kernel(const float2* __restrict__ in,
                                     float2* __restrict__ blocks,
                                     size_t hop_in,
                                     size_t fft_in,
                                     size_t total)
{
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < total;
         i += size_t(gridDim.x) * blockDim.x) {
        const size_t k = i / fft_in, t = i % fft_in;
        blocks[i] = in[k * hop_in + t];
    }
}

// Each (block, channel) slice: the channel's bins times the window.
__global__ void slice_kernel(const float2* __restrict__ spectra,
                             float2* __restrict__ slices,
                             const int* __restrict__ centers,
                             const float* __restrict__ window,
                             channel_geometry g,
                             size_t channels,
                             size_t total)
{
    const size_t fft_out = static_cast<size_t>(g.fft_out);
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < total;
         i += size_t(gridDim.x) * blockDim.x) {
        const size_t b = i % fft_out;
        const size_t kc = i / fft_out;
        const size_t k = kc / channels, c = kc % channels;
        const float2 v = spectra[k * static_cast<size_t>(g.fft_in) + g.input_bin(centers[c], b)];
        slices[i] = make_float2(v.x * window[b], v.y * window[b]);
    }
}

// The kept outputs of each slice, as stream samples, channel-major.
__global__ void output_kernel(const float2* __restrict__ slices,
                              float2* __restrict__ out,
                              const int* __restrict__ centers,
                              const double* __restrict__ residual_hz,
                              channel_geometry g,
                              size_t channels,
                              size_t hop_out,
                              size_t overlap_out,
                              size_t first_block,
                              size_t first_output,
                              size_t produced,
                              double output_rate,
                              size_t total)
{
    const size_t fft_out = static_cast<size_t>(g.fft_out);
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < total;
         i += size_t(gridDim.x) * blockDim.x) {
        const size_t j = i % hop_out;
        const size_t kc = i / hop_out;
        const size_t k = kc / channels, c = kc % channels;
        const float2 v = slices[kc * fft_out + overlap_out / 2 + j];
        const tc r = g.output(tc(v.x, v.y), centers[c], first_block + k, residual_hz[c],
                              first_output + k * hop_out + j, output_rate);
        out[c * produced + k * hop_out + j] = make_float2(r.real(), r.imag());
    }
}

constexpr size_t upload_parts = 4; // capture_device() uploads and channelizes in parts

unsigned int grid_for(size_t total)
{
    return static_cast<unsigned int>(std::min<size_t>((total + 255) / 256, 65535));
}

class wideband_channelizer_cuda : public wideband_channelizer
{
public:
    wideband_channelizer_cuda(const channelizer_params& params,
                              const device_spec& dev,
                              const cuda_context_ptr& ctx)
        : wideband_channelizer(params), d_ctx(cuda_context::for_stage(dev, ctx)),
          d_centers(d_plan.center_bin.size()), d_residual(d_plan.residual_hz.size()),
          d_window(d_plan.window.size())
    {
        const cudaStream_t s = d_ctx->stream();
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_centers.get(), d_plan.center_bin.data(),
                                           d_centers.size() * sizeof(int), cudaMemcpyHostToDevice,
                                           s));
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_residual.get(), d_plan.residual_hz.data(),
                                           d_residual.size() * sizeof(double),
                                           cudaMemcpyHostToDevice, s));
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_window.get(), d_plan.window.data(),
                                           d_window.size() * sizeof(float), cudaMemcpyHostToDevice,
                                           s));
        reset(); // the waiting samples' leading zeros
        d_ctx->synchronize();
    }

private:
    void reserve(size_t blocks)
    {
        if (blocks <= d_capacity) {
            return;
        }
        d_capacity = blocks;
        const size_t ch = static_cast<size_t>(channels());
        d_in = device_buffer<float2>((blocks - 1) * d_plan.hop_in + d_plan.fft_in);
        d_spectra = device_buffer<float2>(blocks * d_plan.fft_in);
        d_slices = device_buffer<float2>(blocks * ch * d_plan.fft_out);
        d_out = device_buffer<float2>(blocks * ch * d_plan.hop_out);
        d_fwd = std::make_unique<cufft_batch_plans>(d_plan.fft_in, blocks, d_ctx->stream());
        d_inv = std::make_unique<cufft_batch_plans>(d_plan.fft_out, blocks * ch, d_ctx->stream());
    }

    void run_blocks(const std::complex<float>* in,
                    size_t blocks,
                    size_t first_block,
                    size_t first_output,
                    std::complex<float>* out,
                    size_t produced) override
    {
        d_ctx->activate();
        reserve(blocks);
        const cudaStream_t s = d_ctx->stream();
        const size_t samples = (blocks - 1) * d_plan.hop_in + d_plan.fft_in;
        GPUOFDM_CUDA_CHECK(
            cudaMemcpyAsync(d_in.get(), in, samples * sizeof(float2), cudaMemcpyHostToDevice, s));
        enqueue_range(d_in.get(), 0, blocks, first_block, first_output, produced);
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(
            out, d_out.get(), static_cast<size_t>(channels()) * produced * sizeof(float2),
            cudaMemcpyDeviceToHost, s));
        d_ctx->synchronize();
    }

public:
    void reset() override
    {
        wideband_channelizer::reset();
        d_ctx->activate();
        // Block 0 reaches overlap / 2 samples before the capture: zeros.
        d_waiting = 0;
        reserve_waiting(d_plan.overlap_in / 2 + 1);
        d_waiting = d_plan.overlap_in / 2;
        GPUOFDM_CUDA_CHECK(
            cudaMemsetAsync(d_wait.get(), 0, d_waiting * sizeof(float2), d_ctx->stream()));
    }

    device_rows push_device(const std::complex<float>* in, size_t n, size_t min_blocks) override
    {
        d_ctx->activate();
        reserve_waiting(d_waiting + n);
        if (n > 0) {
            // Host or device memory (unified addressing tells which).
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_wait.get() + d_waiting, in, n * sizeof(float2),
                                               cudaMemcpyDefault, d_ctx->stream()));
        }
        d_waiting += n;
        d_captured += n;
        return run_waiting(min_blocks);
    }

    device_rows flush_device() override
    {
        d_ctx->activate();
        const size_t owed = outputs_owned(d_captured) - d_emitted;
        device_rows r;
        if (owed > 0) {
            reserve_waiting(d_waiting + d_plan.fft_in);
            GPUOFDM_CUDA_CHECK(cudaMemsetAsync(d_wait.get() + d_waiting, 0,
                                               d_plan.fft_in * sizeof(float2), d_ctx->stream()));
            d_waiting += d_plan.fft_in;
            r = run_waiting(1);
            r.count = owed;
        }
        d_waiting = 0;
        return r;
    }

public:
    device_rows capture_device(const std::complex<float>* in, size_t n) override
    {
        reset();
        d_ctx->activate();
        // The capture as push() + flush() would see it: overlap / 2 zeros before, zeros after.
        const size_t lead = d_plan.overlap_in / 2;
        const size_t blocks = (lead + n) / d_plan.hop_in + 1;
        const size_t produced = blocks * d_plan.hop_out;
        reserve(blocks);
        const cudaStream_t s = d_ctx->stream();
        cuda_phase_timer timer("wideband_channelizer", s);
        const size_t samples = (blocks - 1) * d_plan.hop_in + d_plan.fft_in;
        // The capture goes up in parts on a stream of its own, each part's blocks
        // channelized as soon as their samples are there: the upload overlaps the work.
        if (!d_copy_stream) {
            d_copy_stream = std::make_unique<cuda_stream>();
        }
        const cudaStream_t up = d_copy_stream->get();
        GPUOFDM_CUDA_CHECK(cudaEventRecord(d_idle.get(), s)); // earlier work on d_in is done
        GPUOFDM_CUDA_CHECK(cudaStreamWaitEvent(up, d_idle.get(), 0));
        GPUOFDM_CUDA_CHECK(cudaMemsetAsync(d_in.get(), 0, samples * sizeof(float2), up));
        const size_t parts = blocks >= 4 * upload_parts ? upload_parts : 1;
        size_t uploaded = lead; // d_in index up to which the capture is queued
        for (size_t k = 0; k < parts; k++) {
            const size_t b0 = blocks * k / parts, b1 = blocks * (k + 1) / parts;
            const size_t need = std::min(lead + n, (b1 - 1) * d_plan.hop_in + d_plan.fft_in);
            if (need > uploaded) {
                GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_in.get() + uploaded, in + (uploaded - lead),
                                                   (need - uploaded) * sizeof(float2),
                                                   cudaMemcpyHostToDevice, up));
                uploaded = need;
            }
            GPUOFDM_CUDA_CHECK(cudaEventRecord(d_uploaded[k].get(), up));
            GPUOFDM_CUDA_CHECK(cudaStreamWaitEvent(s, d_uploaded[k].get(), 0));
            enqueue_range(d_in.get(), b0, b1, 0, 0, produced);
        }
        timer.mark("upload+channelize");
        d_ctx->synchronize();
        timer.report();
        device_rows r;
        r.rows = reinterpret_cast<const std::complex<float>*>(d_out.get());
        r.stride = produced;
        r.count = (n * d_plan.fft_out + d_plan.fft_in - 1) / d_plan.fft_in;
        return r;
    }

private:
    // The capture samples waiting on the device (push_device()) for room for \p samples.
    void reserve_waiting(size_t samples)
    {
        if (samples <= d_wait.size()) {
            return;
        }
        device_buffer<float2> grown(std::max(samples, 2 * d_wait.size()));
        if (d_waiting > 0) {
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(grown.get(), d_wait.get(),
                                               d_waiting * sizeof(float2), cudaMemcpyDeviceToDevice,
                                               d_ctx->stream()));
        }
        d_ctx->synchronize(); // the old buffer is freed below
        d_wait = std::move(grown);
        d_wait_spare = device_buffer<float2>(d_wait.size());
    }

    // The complete blocks among the waiting samples, once there are min_blocks of them.
    device_rows run_waiting(size_t min_blocks)
    {
        const size_t blocks = complete_blocks(d_waiting);
        if (blocks == 0 || blocks < min_blocks) {
            return {};
        }
        const size_t produced = blocks * d_plan.hop_out;
        reserve(blocks);
        enqueue_range(d_wait.get(), 0, blocks, d_blocks, d_emitted, produced);
        // The samples the next blocks need to the front, through the spare buffer.
        const size_t used = blocks * d_plan.hop_in;
        d_waiting -= used;
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_wait_spare.get(), d_wait.get() + used,
                                           d_waiting * sizeof(float2), cudaMemcpyDeviceToDevice,
                                           d_ctx->stream()));
        std::swap(d_wait, d_wait_spare);
        d_blocks += blocks;
        d_emitted += produced;
        device_rows r;
        r.rows = reinterpret_cast<const std::complex<float>*>(d_out.get());
        r.stride = r.count = produced;
        return r;
    }

    // Blocks b0 .. b1 - 1 of the samples at \p in into d_out (channel-major, stride
    // produced), on the stream.
    void enqueue_range(const float2* in,
                       size_t b0,
                       size_t b1,
                       size_t first_block,
                       size_t first_output,
                       size_t produced)
    {
        const cudaStream_t s = d_ctx->stream();
        const size_t ch = static_cast<size_t>(channels());
        const size_t blocks = b1 - b0;
        const channel_geometry g = channel_geometry::of(d_plan);
        float2* spectra = d_spectra.get() + b0 * d_plan.fft_in;
        float2* slices = d_slices.get() + b0 * ch * d_plan.fft_out;
        const size_t n_blocks = blocks * d_plan.fft_in;
        gather_blocks_kernel<<<grid_for(n_blocks), 256, 0, s>>>(
            in + b0 * d_plan.hop_in, spectra, d_plan.hop_in, d_plan.fft_in, n_blocks);
        GPUOFDM_CUDA_CHECK_LAUNCH("gather_blocks_kernel");
        d_fwd->exec(reinterpret_cast<cufftComplex*>(spectra),
                    reinterpret_cast<cufftComplex*>(spectra), blocks, CUFFT_FORWARD);
        const size_t n_slices = blocks * ch * d_plan.fft_out;
        slice_kernel<<<grid_for(n_slices), 256, 0, s>>>(spectra, slices, d_centers.get(),
                                                        d_window.get(), g, ch, n_slices);
        GPUOFDM_CUDA_CHECK_LAUNCH("slice_kernel");
        d_inv->exec(reinterpret_cast<cufftComplex*>(slices),
                    reinterpret_cast<cufftComplex*>(slices), blocks * ch, CUFFT_INVERSE);
        const size_t n_out = ch * blocks * d_plan.hop_out;
        output_kernel<<<grid_for(n_out), 256, 0, s>>>(
            slices, d_out.get() + b0 * d_plan.hop_out, d_centers.get(), d_residual.get(), g, ch,
            d_plan.hop_out, d_plan.overlap_out, first_block + b0,
            first_output + b0 * d_plan.hop_out, produced, d_params.output_rate, n_out);
        GPUOFDM_CUDA_CHECK_LAUNCH("output_kernel");
    }

    cuda_context_ptr d_ctx;
    device_buffer<int> d_centers;
    device_buffer<double> d_residual;
    device_buffer<float> d_window;
    size_t d_capacity = 0;
    device_buffer<float2> d_in, d_spectra, d_slices, d_out;
    std::unique_ptr<cufft_batch_plans> d_fwd, d_inv;
    std::unique_ptr<cuda_stream> d_copy_stream; // capture_device()'s upload
    cuda_event d_idle;
    cuda_event d_uploaded[upload_parts];
    // push_device(): the capture samples from the next block's first, on the device.
    device_buffer<float2> d_wait, d_wait_spare;
    size_t d_waiting = 0;
};

} // namespace

std::unique_ptr<wideband_channelizer> make_wideband_channelizer_cuda(
    const channelizer_params& params, const device_spec& dev, const cuda_context_ptr& ctx)
{
    return std::make_unique<wideband_channelizer_cuda>(params, dev, ctx);
}

} // namespace gr::gpuofdm::core
