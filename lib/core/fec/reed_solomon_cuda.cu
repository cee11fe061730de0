/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CUDA Reed-Solomon codec: one codeword per thread, running the CPU twin's
// rs_encode_one / rs_decode_one (reed_solomon_common.h) unchanged.

#include "runtime/cuda_check.h"
#include "runtime/cuda_context.h"
#include "fec/reed_solomon.h"

#include <algorithm>
#include <cstring>

namespace gr::gpuofdm::core {

namespace {

constexpr unsigned rs_threads = 128;

__global__ void rs_encode_kernel(const uint8_t* __restrict__ in,
                                 uint8_t* __restrict__ out,
                                 uint32_t n_codewords,
                                 rs_code code)
{
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n_codewords)
        rs_encode_one(code, in + size_t(i) * code.k, out + size_t(i) * code.n);
}

__global__ void rs_decode_kernel(const uint8_t* __restrict__ in,
                                 uint8_t* __restrict__ out,
                                 int32_t* __restrict__ status,
                                 uint32_t n_codewords,
                                 rs_code code)
{
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n_codewords)
        status[i] = rs_decode_one(code, in + size_t(i) * code.n, out + size_t(i) * code.k);
}

/*!
 * \brief CUDA backend of reed_solomon: device and pinned buffers for \p batch codewords,
 * one stream, one launch per batch.
 */
class reed_solomon_cuda : public reed_solomon
{
public:
    reed_solomon_cuda(const rs_profile& p, const device_spec& dev, size_t batch)
        : reed_solomon(p), d_device(activate(dev)), d_batch(batch), d_in(batch * p.n),
          d_out(batch * p.n), d_status(batch), d_host_in(batch * p.n), d_host_out(batch * p.n),
          d_host_status(batch)
    {
    }

    device_spec device() const override { return d_device; }

    void encode(const uint8_t* in, uint8_t* out, size_t n_codewords) override
    {
        use_device(d_device.cuda_index);
        const size_t k = d_code.k, n = d_code.n;
        for (size_t done = 0; done < n_codewords; done += d_batch) {
            const size_t b = std::min(d_batch, n_codewords - done);
            std::memcpy(d_host_in.get(), in + done * k, b * k);
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_in.get(), d_host_in.get(), b * k,
                                               cudaMemcpyHostToDevice, d_ctx->stream()));
            rs_encode_kernel<<<blocks(b), rs_threads, 0, d_ctx->stream()>>>(d_in.get(), d_out.get(),
                                                                            uint32_t(b), d_code);
            GPUOFDM_CUDA_CHECK_LAUNCH(rs_encode_kernel);
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_host_out.get(), d_out.get(), b * n,
                                               cudaMemcpyDeviceToHost, d_ctx->stream()));
            d_ctx->synchronize();
            std::memcpy(out + done * n, d_host_out.get(), b * n);
        }
    }

    size_t decode(const uint8_t* in, uint8_t* out, int32_t* status, size_t n_codewords) override
    {
        use_device(d_device.cuda_index);
        const size_t k = d_code.k, n = d_code.n;
        size_t failed = 0;
        for (size_t done = 0; done < n_codewords; done += d_batch) {
            const size_t b = std::min(d_batch, n_codewords - done);
            std::memcpy(d_host_in.get(), in + done * n, b * n);
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_in.get(), d_host_in.get(), b * n,
                                               cudaMemcpyHostToDevice, d_ctx->stream()));
            rs_decode_kernel<<<blocks(b), rs_threads, 0, d_ctx->stream()>>>(
                d_in.get(), d_out.get(), d_status.get(), uint32_t(b), d_code);
            GPUOFDM_CUDA_CHECK_LAUNCH(rs_decode_kernel);
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_host_out.get(), d_out.get(), b * k,
                                               cudaMemcpyDeviceToHost, d_ctx->stream()));
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_host_status.get(), d_status.get(),
                                               b * sizeof(int32_t), cudaMemcpyDeviceToHost,
                                               d_ctx->stream()));
            d_ctx->synchronize();
            std::memcpy(out + done * k, d_host_out.get(), b * k);
            std::memcpy(status + done, d_host_status.get(), b * sizeof(int32_t));
            for (size_t i = 0; i < b; i++)
                failed += d_host_status.get()[i] < 0;
        }
        return failed;
    }

private:
    static unsigned blocks(size_t b) { return unsigned((b + rs_threads - 1) / rs_threads); }
    //! Makes dev current before the stream and buffers are created on it.
    static device_spec activate(const device_spec& dev)
    {
        use_device(dev.cuda_index);
        return dev;
    }

    device_spec d_device;
    size_t d_batch;
    cuda_context_ptr d_ctx = make_cuda_context(d_device); //!< its own: the stage runs alone
    device_buffer<uint8_t> d_in;
    device_buffer<uint8_t> d_out;
    device_buffer<int32_t> d_status;
    pinned_buffer<uint8_t> d_host_in;
    pinned_buffer<uint8_t> d_host_out;
    pinned_buffer<int32_t> d_host_status;
};

} // namespace

std::unique_ptr<reed_solomon> make_reed_solomon_cuda(const rs_profile& p,
                                                     const device_spec& dev,
                                                     size_t batch)
{
    p.validate(); // before sizing buffers with it
    return std::make_unique<reed_solomon_cuda>(p, dev, batch);
}

} // namespace gr::gpuofdm::core
