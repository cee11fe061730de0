/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// A stream's candidate rows in device memory: the channelizer writes them and they wait
// there for their window, on one stream; the search runs on a stream of its own (its
// window's copy made on the first, joined by an event), so a search in flight on another
// thread does not hold up the samples coming in.

#include "runtime/cuda_check.h"
#include "runtime/cuda_context.h"
#include "runtime/cuda_pinned.h"
#include "sync/cell_search_rows.h"

#include <cub/block/block_reduce.cuh>

#include <algorithm>

namespace gr::gpuofdm::core {

namespace {

constexpr int dc_threads = 256;
constexpr size_t dc_tile = 16 * dc_threads; // samples a block sums

__device__ inline double2 tone(double cycles_per_sample, size_t j)
{
    double s, c;
    sincospi(2.0 * cycles_per_sample * static_cast<double>(j), &s, &c);
    return make_double2(c, s);
}

// Partial sums of row[j] e^(2 pi i f j) over tiles of each DC row (blockIdx.y): the
// tone's amplitude, in double like the CPU twin's remove_capture_dc.
__global__ void __launch_bounds__(dc_threads) dc_sum_kernel(const float2* __restrict__ rows,
                                                            size_t stride,
                                                            const int* __restrict__ channels,
                                                            const double* __restrict__ cycles,
                                                            size_t skip,
                                                            size_t n,
                                                            double2* __restrict__ partial)
{
    using reduce = cub::BlockReduce<double, dc_threads>;
    __shared__ typename reduce::TempStorage storage;
    const float2* row = rows + static_cast<size_t>(channels[blockIdx.y]) * stride + skip;
    const double f = cycles[blockIdx.y];
    double re = 0, im = 0;
    const size_t end = min(n, (blockIdx.x + 1) * dc_tile);
    for (size_t j = blockIdx.x * dc_tile + threadIdx.x; j < end; j += dc_threads) {
        const double2 r = tone(f, j);
        const float2 v = row[j];
        re += v.x * r.x - v.y * r.y;
        im += v.x * r.y + v.y * r.x;
    }
    re = reduce(storage).Sum(re);
    __syncthreads();
    im = reduce(storage).Sum(im);
    if (threadIdx.x == 0) {
        partial[blockIdx.y * gridDim.x + blockIdx.x] = make_double2(re, im);
    }
}

// Each DC row (blockIdx.y) less its tone: the partial sums added in order by every block.
__global__ void __launch_bounds__(dc_threads) dc_remove_kernel(float2* __restrict__ rows,
                                                               size_t stride,
                                                               const int* __restrict__ channels,
                                                               const double* __restrict__ cycles,
                                                               size_t skip,
                                                               size_t n,
                                                               const double2* __restrict__ partial,
                                                               unsigned int tiles)
{
    __shared__ double2 amplitude;
    if (threadIdx.x == 0) {
        double re = 0, im = 0;
        for (unsigned int t = 0; t < tiles; t++) {
            re += partial[blockIdx.y * tiles + t].x;
            im += partial[blockIdx.y * tiles + t].y;
        }
        amplitude = make_double2(re / static_cast<double>(n), im / static_cast<double>(n));
    }
    __syncthreads();
    float2* row = rows + static_cast<size_t>(channels[blockIdx.y]) * stride + skip;
    const double f = cycles[blockIdx.y];
    for (size_t j = blockIdx.x * size_t(blockDim.x) + threadIdx.x; j < n;
         j += size_t(gridDim.x) * blockDim.x) {
        const double2 r = tone(f, j); // amplitude x conj(r)
        row[j].x -= static_cast<float>(amplitude.x * r.x + amplitude.y * r.y);
        row[j].y -= static_cast<float>(amplitude.y * r.x - amplitude.x * r.y);
    }
}

class device_rows_store : public cell_search_rows
{
public:
    device_rows_store(const channelizer_params& channels,
                      const cell_search_params& search,
                      const std::vector<capture_dc_row>& dc,
                      const device_spec& dev)
        // The samples coming in first: a search in flight must not hold them up.
        : cell_search_rows(dc), d_ctx(make_cuda_context(dev, true)),
          d_search_ctx(make_cuda_context(dev)), d_up_ctx(make_cuda_context(dev, true)),
          d_down_ctx(make_cuda_context(dev, true)), d_channels(channels.offsets_hz.size()),
          d_pinned(dev.cuda_index), d_dc_channels(dc.size()), d_dc_cycles(dc.size())
    {
        d_channelizer = make_wideband_channelizer_cuda(channels, dev, d_ctx);
        d_search = make_cell_search_cuda(search, dev, d_search_ctx);
        // The DC rows go up once.
        std::vector<int> rows;
        std::vector<double> cycles;
        for (const auto& d : d_dc) {
            rows.push_back(d.channel);
            cycles.push_back(d.cycles_per_sample);
        }
        if (!d_dc.empty()) {
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_dc_channels.get(), rows.data(),
                                               rows.size() * sizeof(int), cudaMemcpyHostToDevice,
                                               d_ctx->stream()));
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_dc_cycles.get(), cycles.data(),
                                               cycles.size() * sizeof(double),
                                               cudaMemcpyHostToDevice, d_ctx->stream()));
        }
        d_ctx->synchronize();
    }

    void reset(size_t zeros) override
    {
        d_channelizer->reset();
        d_ctx->activate();
        d_kept_in = d_kept_out = 0;
        reserve(zeros);
        d_size = zeros;
        GPUOFDM_CUDA_CHECK(cudaMemset2DAsync(d_rows.get(), d_stride * sizeof(float2), 0,
                                             zeros * sizeof(float2), d_channels, d_ctx->stream()));
    }

    size_t size() const override { return d_size; }

    void append(const std::complex<float>* x, size_t n, size_t min_blocks) override
    {
        d_ctx->activate();
        if (d_kept.size() == 0) {
            append_rows(d_channelizer->push_device(x, n, min_blocks));
        } else {
            // Up once, into the delay line, on a stream of its own; the channelizer reads it
            // there once it is up. Only the upload is waited for: x is the caller's again,
            // and the channelizer's kernels run on while the caller goes on. (The slots
            // written were taken, so searched: the channelizer has read them.)
            check_room(n, d_kept.size());
            ring_pieces(d_kept_in, n, d_kept.size(), [&](size_t at, size_t offset, size_t count) {
                GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_kept.get() + at, x + offset,
                                                   count * sizeof(float2), cudaMemcpyDefault,
                                                   d_up_ctx->stream()));
            });
            d_up_ctx->record(d_uploaded);
            d_ctx->wait(d_uploaded);
            ring_pieces(d_kept_in, n, d_kept.size(), [&](size_t at, size_t, size_t count) {
                append_rows(d_channelizer->push_device(
                    reinterpret_cast<const std::complex<float>*>(d_kept.get() + at), count,
                    min_blocks));
            });
            d_kept_in += n;
            GPUOFDM_CUDA_CHECK(cudaEventSynchronize(d_uploaded.get()));
            return;
        }
        d_ctx->synchronize(); // x is the caller's again
    }

    void keep_samples(size_t capacity) override
    {
        d_ctx->activate();
        d_kept = device_buffer<float2>(capacity);
        d_kept_in = d_kept_out = 0;
    }

    void take_kept(std::complex<float>* out, size_t n) override
    {
        // Down on a stream of its own (the other copy engine), beside the channelizer's
        // kernels and the next upload; these samples were up before their search began.
        d_down_ctx->activate();
        ring_pieces(d_kept_out, n, d_kept.size(), [&](size_t at, size_t offset, size_t count) {
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(out + offset, d_kept.get() + at,
                                               count * sizeof(float2), cudaMemcpyDeviceToHost,
                                               d_down_ctx->stream()));
        });
        d_down_ctx->synchronize();
        d_kept_out += n;
    }

    void append_end() override
    {
        d_ctx->activate();
        append_rows(d_channelizer->flush_device());
    }

    pending_search snapshot(size_t n, size_t skip, int64_t first_sample) override
    {
        d_ctx->activate();
        if (d_copy.size() < d_channels * n) {
            d_copy = device_buffer<float2>(d_channels * n);
        }
        GPUOFDM_CUDA_CHECK(cudaMemcpy2DAsync(
            d_copy.get(), n * sizeof(float2), d_rows.get(), d_stride * sizeof(float2),
            n * sizeof(float2), d_channels, cudaMemcpyDeviceToDevice, d_ctx->stream()));
        if (!d_dc.empty() && skip < n) {
            remove_dc(d_copy.get(), n, skip);
        }
        d_ctx->record(d_copied);
        const auto* rows = reinterpret_cast<const std::complex<float>*>(d_copy.get());
        const int channels = static_cast<int>(d_channels);
        cell_search* search = d_search.get();
        cuda_context* search_ctx = d_search_ctx.get();
        const cuda_event* copied = &d_copied;
        return [=] {
            search_ctx->activate();
            search_ctx->wait(*copied); // the copy is made
            return search->search_device(rows, n, channels, n, first_sample);
        };
    }

    bool pin(const void* p, size_t bytes) override { return d_pinned.pin(p, bytes); }
    void unpin_all() override { d_pinned.clear(); }

    void drop(size_t k) override
    {
        d_ctx->activate();
        k = std::min(k, d_size);
        if (d_spare.size() < d_rows.size()) {
            d_spare = device_buffer<float2>(d_rows.size());
        }
        GPUOFDM_CUDA_CHECK(cudaMemcpy2DAsync(
            d_spare.get(), d_stride * sizeof(float2), d_rows.get() + k, d_stride * sizeof(float2),
            (d_size - k) * sizeof(float2), d_channels, cudaMemcpyDeviceToDevice, d_ctx->stream()));
        std::swap(d_rows, d_spare);
        d_size -= k;
    }

private:
    // Room for \p samples a row, the rows kept.
    void reserve(size_t samples)
    {
        if (samples <= d_stride) {
            return;
        }
        const size_t stride = std::max(samples, d_stride + d_stride / 2);
        device_buffer<float2> grown(d_channels * stride);
        if (d_size > 0) {
            GPUOFDM_CUDA_CHECK(cudaMemcpy2DAsync(
                grown.get(), stride * sizeof(float2), d_rows.get(), d_stride * sizeof(float2),
                d_size * sizeof(float2), d_channels, cudaMemcpyDeviceToDevice, d_ctx->stream()));
        }
        d_ctx->synchronize(); // the old rows are freed below
        d_rows = std::move(grown);
        d_spare = device_buffer<float2>();
        d_stride = stride;
    }

    void append_rows(const wideband_channelizer::device_rows& r)
    {
        if (r.count == 0) {
            return;
        }
        reserve(d_size + r.count);
        GPUOFDM_CUDA_CHECK(cudaMemcpy2DAsync(
            d_rows.get() + d_size, d_stride * sizeof(float2), r.rows, r.stride * sizeof(float2),
            r.count * sizeof(float2), d_channels, cudaMemcpyDeviceToDevice, d_ctx->stream()));
        d_size += r.count;
    }

    // The DC rows of \p rows (stride samples each) less their tone from sample skip on.
    void remove_dc(float2* rows, size_t stride, size_t skip)
    {
        const size_t n = stride - skip;
        const auto tiles = static_cast<unsigned int>((n + dc_tile - 1) / dc_tile);
        if (d_dc_partial.size() < d_dc.size() * tiles) {
            d_dc_partial = device_buffer<double2>(d_dc.size() * tiles);
        }
        const cudaStream_t s = d_ctx->stream();
        const dim3 sum_grid(tiles, static_cast<unsigned int>(d_dc.size()));
        dc_sum_kernel<<<sum_grid, dc_threads, 0, s>>>(
            rows, stride, d_dc_channels.get(), d_dc_cycles.get(), skip, n, d_dc_partial.get());
        GPUOFDM_CUDA_CHECK_LAUNCH("dc_sum_kernel");
        const dim3 remove_grid(std::min<unsigned int>(tiles, 1024),
                               static_cast<unsigned int>(d_dc.size()));
        dc_remove_kernel<<<remove_grid, dc_threads, 0, s>>>(rows, stride, d_dc_channels.get(),
                                                            d_dc_cycles.get(), skip, n,
                                                            d_dc_partial.get(), tiles);
        GPUOFDM_CUDA_CHECK_LAUNCH("dc_remove_kernel");
    }

    cuda_context_ptr d_ctx;        // the channelizer's, the rows' and the delay line's stream
    cuda_context_ptr d_search_ctx; // the search's
    cuda_context_ptr d_up_ctx;     // the delay line's uploads
    cuda_context_ptr d_down_ctx;   // the delay line's downloads
    cuda_event d_copied;           // the window's copy for the search is made
    cuda_event d_uploaded;         // an append()'s samples are in the delay line
    size_t d_channels;
    pinned_ranges d_pinned;
    size_t d_stride = 0, d_size = 0;
    device_buffer<float2> d_rows, d_spare, d_copy, d_kept;
    device_buffer<int> d_dc_channels;
    device_buffer<double> d_dc_cycles;
    device_buffer<double2> d_dc_partial;
};

} // namespace

std::unique_ptr<cell_search_rows> make_cell_search_rows_cuda(const channelizer_params& channels,
                                                             const cell_search_params& search,
                                                             const std::vector<capture_dc_row>& dc,
                                                             const device_spec& dev)
{
    channels.validate();
    search.validate();
    return std::make_unique<device_rows_store>(channels, search, dc, dev);
}

} // namespace gr::gpuofdm::core
