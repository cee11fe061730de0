/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CUDA backend of the PRACH detector. One call: the bins are uploaded once, then on the
// context's stream
//   1. correlate: per (cell, occasion, root, antenna) the repetitions summed, times the
//      root's reference, zero-padded to N (one thread per bin);
//   2. one batched cuFFT inverse transform of all of them;
//   3. PDP: |.|^2 summed over the antennas and scaled (one thread per sample);
//   4. windows and decisions: a block per (cell, occasion) scans its 64 windows, then a
//      warp decides with the CPU twin's pieces (prach_detector_common.h);
// and only the preambles found come back (28 bytes each, a few a call).

#include "prach/prach_detector.h"
#include "runtime/cuda_context.h"
#include "runtime/cufft_plans.h"

#include <cuComplex.h>

#include <algorithm>
#include <memory>

namespace gr::gpuofdm::core {

namespace {

constexpr int threads = 256;
constexpr unsigned max_grid_y = 65535;

//! What one PDP row needs: its root's reference and its antenna-0 channel.
struct prach_row_job {
    int ref;      //!< reference index (row of d_refs)
    int channel0; //!< input channel of antenna 0; antenna a adds a * n_occasions
};

//! Each channel's bins summed over the repetitions, in the CPU twin's order (rep 0, 1, ...):
//! once a channel, not once a root.
__global__ void sum_repetitions_kernel(const cuFloatComplex* __restrict__ bins,
                                       size_t stride,
                                       cuFloatComplex* __restrict__ sums,
                                       int n_channels,
                                       int length,
                                       int reps)
{
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= length)
        return;
    for (int ch = blockIdx.y; ch < n_channels; ch += gridDim.y) {
        const cuFloatComplex* x = bins + size_t(ch) * stride + size_t(k);
        cuFloatComplex z = x[0];
        for (int rep = 1; rep < reps; rep++) {
            const cuFloatComplex t = x[size_t(rep) * size_t(length)];
            z = make_cuFloatComplex(__fadd_rn(z.x, t.x), __fadd_rn(z.y, t.y));
        }
        sums[size_t(ch) * size_t(length) + size_t(k)] = z;
    }
}

//! Each (row, antenna) job: its channel's summed bins times the root's reference, zero-padded
//! to n points.
__global__ void correlate_kernel(const cuFloatComplex* __restrict__ sums,
                                 size_t stride,
                                 const cuFloatComplex* __restrict__ refs,
                                 const prach_row_job* __restrict__ rows,
                                 cuFloatComplex* __restrict__ out,
                                 int n_rows,
                                 int n_antennas,
                                 int n_occasions,
                                 int length,
                                 int n)
{
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n)
        return;
    const int n_jobs = n_rows * n_antennas;
    for (int job = blockIdx.y; job < n_jobs; job += gridDim.y) {
        const int row = job / n_antennas;
        const int a = job % n_antennas;
        cuFloatComplex v = make_cuFloatComplex(0.0f, 0.0f);
        if (k < length) {
            const prach_row_job r = rows[row];
            const cuFloatComplex z =
                sums[size_t(r.channel0 + a * n_occasions) * stride + size_t(k)];
            const cuFloatComplex f = refs[size_t(r.ref) * size_t(length) + size_t(k)];
            // z * f with the twin's rounding (std::complex: re = a c - b d, im = a d + b c).
            v = make_cuFloatComplex(__fsub_rn(__fmul_rn(z.x, f.x), __fmul_rn(z.y, f.y)),
                                    __fadd_rn(__fmul_rn(z.x, f.y), __fmul_rn(z.y, f.x)));
        }
        out[size_t(job) * size_t(n) + size_t(k)] = v;
    }
}

__global__ void pdp_kernel(const cuFloatComplex* __restrict__ spec,
                           float* __restrict__ pdp,
                           int n_rows,
                           int n_antennas,
                           int n,
                           float scale)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    for (int row = blockIdx.y; row < n_rows; row += gridDim.y) {
        float acc = 0.0f;
        for (int a = 0; a < n_antennas; a++) {
            const cuFloatComplex c = spec[(size_t(row) * n_antennas + a) * size_t(n) + i];
            acc = __fadd_rn(acc, __fadd_rn(__fmul_rn(c.x, c.x), __fmul_rn(c.y, c.y)));
        }
        pdp[size_t(row) * size_t(n) + i] = __fmul_rn(acc, scale);
    }
}

constexpr int decide_threads = 512; //!< 16 warps, 4 windows each
constexpr unsigned full_warp = 0xffffffffu;

//! prach_tree_sum() on a warp: each lane holds windows 2 lane (\p a) and 2 lane + 1 (\p b);
//! every lane gets the sum.
__device__ double warp_tree_sum(double a, double b)
{
    double s = __dadd_rn(a, b);
    for (int off = 1; off < 32; off *= 2)
        s = __dadd_rn(s, __shfl_down_sync(full_warp, s, off));
    return __shfl_sync(full_warp, s, 0);
}

__device__ int warp_int_sum(int v)
{
    for (int off = 16; off > 0; off /= 2)
        v += __shfl_xor_sync(full_warp, v, off);
    return v;
}

//! A bit a window from two ballots: \p even's bit j for window 2 j, \p odd's for 2 j + 1.
__device__ uint64_t interleave_bits(unsigned even, unsigned odd)
{
    auto spread = [](uint64_t v) {
        v = (v | (v << 16)) & 0x0000FFFF0000FFFFull;
        v = (v | (v << 8)) & 0x00FF00FF00FF00FFull;
        v = (v | (v << 4)) & 0x0F0F0F0F0F0F0F0Full;
        v = (v | (v << 2)) & 0x3333333333333333ull;
        return (v | (v << 1)) & 0x5555555555555555ull;
    };
    return spread(even) | (spread(odd) << 1);
}

/*!
 * One block a (cell, occasion): each warp scans windows (their combined peak and where,
 * the sum of the main samples and, apart, those around the peak) into shared memory; then
 * warp 0 decides with the CPU twin's pieces (prach_detector_common.h), a lane for windows
 * 2 lane and 2 lane + 1, its sums in prach_tree_sum()'s order, and appends the preambles
 * found to \p found; \p n_found counts them.
 */
__global__ void window_decide_kernel(const float* __restrict__ pdp,
                                     const prach_window* __restrict__ windows,
                                     const float* __restrict__ thresholds,
                                     prach_found* __restrict__ found,
                                     int* __restrict__ n_found,
                                     int n_occasions,
                                     int n,
                                     int length,
                                     int reps)
{
    __shared__ prach_window win[prach_preambles];
    __shared__ prach_window_stats scans[prach_preambles];
    __shared__ double pw[prach_preambles];
    __shared__ double floor[prach_preambles];
    __shared__ prach_found decided[prach_preambles];
    const int cell = int(blockIdx.x) / n_occasions;
    const int o = int(blockIdx.x) % n_occasions;
    if (threadIdx.x < prach_preambles)
        win[threadIdx.x] = windows[cell * prach_preambles + int(threadIdx.x)];
    __syncthreads();
    const int lane = int(threadIdx.x) % 32;
    for (int p = int(threadIdx.x) / 32; p < prach_preambles; p += decide_threads / 32) {
        const prach_window& w = win[p];
        const float* row = pdp + size_t(w.row_base + o * w.row_step) * size_t(n);
        float peak = -1.0f;
        int pos = 0;
        float sum = 0.0f;
        for (int j = lane; j < w.length; j += 32) {
            const float v = prach_combined(row, n, w, j);
            if (prach_peak_before(v, j, peak, pos)) {
                peak = v;
                pos = j;
            }
            sum += row[prach_wrap(w.start + j, n)];
        }
        for (int off = 16; off > 0; off /= 2) {
            const float other_peak = __shfl_down_sync(full_warp, peak, off);
            const int other_pos = __shfl_down_sync(full_warp, pos, off);
            sum += __shfl_down_sync(full_warp, sum, off);
            if (prach_peak_before(other_peak, other_pos, peak, pos)) {
                peak = other_peak;
                pos = other_pos;
            }
        }
        if (lane == 0) {
            prach_window_stats st;
            st.peak = peak;
            st.peak_pos = pos;
            st.sum = sum;
            prach_peak_region(row, n, w, pos, st.peak_sum, st.peak_count);
            scans[p] = st;
        }
    }
    __syncthreads();
    if (threadIdx.x >= 32)
        return;
    // Warp 0: prach_decide() with a lane for windows p0 and p1.
    const int p0 = 2 * lane, p1 = p0 + 1;
    const prach_window_stats s0 = scans[p0], s1 = scans[p1];
    const prach_decide_consts k = prach_decide_consts_of(win[0], thresholds[cell], length, n, reps);
    const double floor1 = __ddiv_rn(warp_tree_sum(s0.sum, s1.sum),
                                    double(warp_int_sum(win[p0].length + win[p1].length)));
    if (!isfinite(floor1)) {
        if (lane == 0)
            found[atomicAdd(n_found, 1)] = prach_bad_input(cell, o);
        return;
    }
    const double level = __dmul_rn(__dmul_rn(k.threshold, k.images), floor1);
    const bool strong0 = double(s0.peak) > level, strong1 = double(s1.peak) > level;
    const uint64_t strong =
        interleave_bits(__ballot_sync(full_warp, strong0), __ballot_sync(full_warp, strong1));
    pw[p0] = strong0 ? prach_leak_power(s0, floor1, k) : 0.0;
    pw[p1] = strong1 ? prach_leak_power(s1, floor1, k) : 0.0;
    const double total = warp_tree_sum(pw[p0], pw[p1]);
    __syncwarp();
    const double leak0 = prach_root_leak(win, pw, strong, p0, total);
    const double leak1 = prach_root_leak(win, pw, strong, p1, total);
    double sum0, sum1;
    int n0, n1;
    prach_noise_terms(win[p0], s0, strong0, leak0, sum0, n0);
    prach_noise_terms(win[p1], s1, strong1, leak1, sum1, n1);
    const double quiet_sum = warp_tree_sum(strong0 ? 0.0 : sum0, strong1 ? 0.0 : sum1);
    const double loud_sum = warp_tree_sum(strong0 ? sum0 : 0.0, strong1 ? sum1 : 0.0);
    const int quiet_count = warp_int_sum((strong0 ? 0 : n0) + (strong1 ? 0 : n1));
    const int loud_count = warp_int_sum((strong0 ? n0 : 0) + (strong1 ? n1 : 0));
    const double noise = prach_noise(quiet_sum, quiet_count, loud_sum, loud_count, floor1);
    floor[p0] = __dadd_rn(noise, leak0);
    floor[p1] = __dadd_rn(noise, leak1);
    const uint64_t candidates =
        interleave_bits(__ballot_sync(full_warp, prach_is_candidate(s0, floor[p0], k)),
                        __ballot_sync(full_warp, prach_is_candidate(s1, floor[p1], k)));
    __syncwarp();
    if (lane == 0 && candidates != 0) {
        const int kept = prach_keep(win, scans, floor, candidates, k, cell, o, decided);
        const int first = atomicAdd(n_found, kept);
        for (int i = 0; i < kept; i++)
            found[first + i] = decided[i];
    }
}

//! 16-bit I/Q to float, times scale (the CPU twin's conversion, bit for bit).
__global__ void cs16_to_float_kernel(const short2* __restrict__ in,
                                     cuFloatComplex* out,
                                     size_t n,
                                     float scale)
{
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = make_cuFloatComplex(float(in[i].x) * scale, float(in[i].y) * scale);
}

} // namespace

//! CUDA PRACH detector: the whole batch in four or five launches on one stream.
class prach_detector_cuda : public prach_detector
{
public:
    prach_detector_cuda(const prach_detector_params& p,
                        const device_spec& dev,
                        const cuda_context_ptr& ctx);
    device_spec device() const override { return d_ctx->device(); }
    std::vector<float> power_delay_profiles() override;

private:
    void scan(const cfloat* bins, size_t stride) override;
    void scan_device(const cfloat* d_bins, size_t stride) override;
    void scan_cs16(const std::complex<int16_t>* bins, size_t stride, float scale) override;
    //! Steps 1..4 on \p d_bins (device memory, \p stride bins between channels), and the
    //! preambles found back into d_found.
    void enqueue_scan(const cuFloatComplex* d_bins, size_t stride);
    //! The (cell, occasion) pairs of a call: a block each in the decide kernel.
    size_t n_occasion_cells() const { return d_params.cells.size() * size_t(d_params.n_occasions); }

    cuda_context_ptr d_ctx;
    size_t d_n_jobs;
    device_buffer<cuFloatComplex> d_in;   //!< the input, channel_bins() per channel
    device_buffer<short2> d_in_cs16;      //!< scan_cs16()'s input, once it is used
    device_buffer<cuFloatComplex> d_sum;  //!< channel_bins() summed over the repetitions
    device_buffer<cuFloatComplex> d_ref;  //!< d_refs
    device_buffer<prach_row_job> d_rows;  //!< per PDP row
    device_buffer<prach_window> d_win;    //!< d_windows
    device_buffer<cuFloatComplex> d_spec; //!< n_jobs x N correlations, then their IDFTs
    device_buffer<float> d_pdp;           //!< n_rows x N
    device_buffer<float> d_thr;           //!< d_thresholds
    //! The decide kernel's output: record 0 holds the count (its first int), then the
    //! preambles found, up to 64 a (cell, occasion).
    device_buffer<prach_found> d_found_dev;
    //! The count and the first size() - 1 records come back in one copy; more, rarely, in
    //! a second.
    pinned_buffer<prach_found> d_found_host;
    cufft_batch_plans d_plans;
};

prach_detector_cuda::prach_detector_cuda(const prach_detector_params& p,
                                         const device_spec& dev,
                                         const cuda_context_ptr& ctx)
    : prach_detector(p), d_ctx(cuda_context::for_stage(dev, ctx)),
      d_n_jobs(d_n_rows * size_t(p.n_antennas)), d_in(n_channels() * channel_bins()),
      d_sum(d_format.repetitions > 1 ? n_channels() * size_t(d_format.length) : 0),
      d_ref(d_refs.size()), d_rows(d_n_rows), d_win(d_windows.size()),
      d_spec(d_n_jobs * size_t(d_idft)), d_pdp(d_n_rows * size_t(d_idft)),
      d_thr(d_thresholds.size()), d_found_dev(1 + n_occasion_cells() * prach_preambles),
      d_found_host(1 + std::min<size_t>(n_occasion_cells() * prach_preambles, 256)),
      d_plans(size_t(d_idft), d_n_jobs, d_ctx->stream(), true)
{
    std::vector<prach_row_job> rows(d_n_rows);
    const int A = p.n_antennas;
    const int O = p.n_occasions;
    for (size_t c = 0; c < p.cells.size(); c++)
        for (int o = 0; o < O; o++)
            for (int root = 0; root < d_cell_roots[c]; root++)
                rows[d_row_offset[c] + size_t(o * d_cell_roots[c] + root)] = {
                    int(d_ref_offset[c]) + root, int(c) * A * O + o
                };
    const cudaStream_t s = d_ctx->stream();
    GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_ref.get(), d_refs.data(),
                                       d_refs.size() * sizeof(cuFloatComplex),
                                       cudaMemcpyHostToDevice, s));
    GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(
        d_rows.get(), rows.data(), rows.size() * sizeof(prach_row_job), cudaMemcpyHostToDevice, s));
    GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_win.get(), d_windows.data(),
                                       d_windows.size() * sizeof(prach_window),
                                       cudaMemcpyHostToDevice, s));
    GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_thr.get(), d_thresholds.data(),
                                       d_thresholds.size() * sizeof(float), cudaMemcpyHostToDevice,
                                       s));
    d_ctx->synchronize(); // rows and the windows are locals / may change
}

void prach_detector_cuda::scan(const cfloat* bins, size_t stride)
{
    d_ctx->activate();
    const size_t row_bytes = channel_bins() * sizeof(cfloat);
    GPUOFDM_CUDA_CHECK(cudaMemcpy2DAsync(d_in.get(), row_bytes, bins, stride * sizeof(cfloat),
                                         row_bytes, n_channels(), cudaMemcpyHostToDevice,
                                         d_ctx->stream()));
    enqueue_scan(d_in.get(), channel_bins());
}

void prach_detector_cuda::scan_cs16(const std::complex<int16_t>* bins, size_t stride, float scale)
{
    d_ctx->activate();
    const size_t n = n_channels() * channel_bins();
    if (d_in_cs16.size() != n)
        d_in_cs16 = device_buffer<short2>(n);
    const size_t row_bytes = channel_bins() * sizeof(short2);
    GPUOFDM_CUDA_CHECK(cudaMemcpy2DAsync(d_in_cs16.get(), row_bytes, bins, stride * sizeof(short2),
                                         row_bytes, n_channels(), cudaMemcpyHostToDevice,
                                         d_ctx->stream()));
    const int threads = 256;
    cs16_to_float_kernel<<<unsigned((n + threads - 1) / threads), threads, 0, d_ctx->stream()>>>(
        d_in_cs16.get(), d_in.get(), n, scale);
    GPUOFDM_CUDA_CHECK(cudaGetLastError());
    enqueue_scan(d_in.get(), channel_bins());
}

void prach_detector_cuda::scan_device(const cfloat* d_bins, size_t stride)
{
    d_ctx->activate();
    enqueue_scan(reinterpret_cast<const cuFloatComplex*>(d_bins), stride);
}

void prach_detector_cuda::enqueue_scan(const cuFloatComplex* d_bins, size_t stride)
{
    const cudaStream_t s = d_ctx->stream();
    const int N = d_idft;
    const int L = d_format.length;
    if (d_format.repetitions > 1) {
        const dim3 grid_sum(unsigned((L + threads - 1) / threads),
                            unsigned(std::min<size_t>(n_channels(), max_grid_y)));
        sum_repetitions_kernel<<<grid_sum, threads, 0, s>>>(
            d_bins, stride, d_sum.get(), int(n_channels()), L, d_format.repetitions);
        GPUOFDM_CUDA_CHECK_LAUNCH(sum_repetitions_kernel);
        d_bins = d_sum.get();
        stride = size_t(L);
    }
    const dim3 grid_corr(unsigned((N + threads - 1) / threads),
                         unsigned(std::min<size_t>(d_n_jobs, max_grid_y)));
    correlate_kernel<<<grid_corr, threads, 0, s>>>(d_bins, stride, d_ref.get(), d_rows.get(),
                                                   d_spec.get(), int(d_n_rows), d_params.n_antennas,
                                                   d_params.n_occasions, L, N);
    GPUOFDM_CUDA_CHECK_LAUNCH(correlate_kernel);
    d_plans.exec(d_spec.get(), d_spec.get(), d_n_jobs, CUFFT_INVERSE);
    const dim3 grid_pdp(unsigned((N + threads - 1) / threads),
                        unsigned(std::min<size_t>(d_n_rows, max_grid_y)));
    pdp_kernel<<<grid_pdp, threads, 0, s>>>(d_spec.get(), d_pdp.get(), int(d_n_rows),
                                            d_params.n_antennas, N, d_scale);
    GPUOFDM_CUDA_CHECK_LAUNCH(pdp_kernel);
    // Record 0's first int is the count (prach_found starts with an int).
    int* const count = &d_found_dev.get()->cell;
    GPUOFDM_CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(int), s));
    window_decide_kernel<<<unsigned(n_occasion_cells()), decide_threads, 0, s>>>(
        d_pdp.get(), d_win.get(), d_thr.get(), d_found_dev.get() + 1, count, d_params.n_occasions,
        N, L, d_format.repetitions);
    GPUOFDM_CUDA_CHECK_LAUNCH(window_decide_kernel);
    GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_found_host.get(), d_found_dev.get(),
                                       d_found_host.size() * sizeof(prach_found),
                                       cudaMemcpyDeviceToHost, s));
    d_ctx->synchronize();
    const size_t n_found = size_t(d_found_host.get()->cell);
    const size_t first = std::min(n_found, d_found_host.size() - 1);
    d_found.assign(d_found_host.get() + 1, d_found_host.get() + 1 + first);
    if (n_found > first) {
        d_found.resize(n_found);
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_found.data() + first, d_found_dev.get() + 1 + first,
                                           (n_found - first) * sizeof(prach_found),
                                           cudaMemcpyDeviceToHost, s));
        d_ctx->synchronize();
    }
}

std::vector<float> prach_detector_cuda::power_delay_profiles()
{
    d_ctx->activate();
    std::vector<float> out(d_n_rows * size_t(d_idft));
    GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(out.data(), d_pdp.get(), out.size() * sizeof(float),
                                       cudaMemcpyDeviceToHost, d_ctx->stream()));
    d_ctx->synchronize();
    return out;
}

std::unique_ptr<prach_detector> make_prach_detector_cuda(const prach_detector_params& p,
                                                         const device_spec& dev,
                                                         const cuda_context_ptr& ctx)
{
    return std::make_unique<prach_detector_cuda>(p, dev, ctx);
}

} // namespace gr::gpuofdm::core
