/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The CUDA backend of the cell search: the PSS metric of every timing of every candidate
// on the device (overlap-save: one kernel per block takes its window energies and
// spectrum, multiplies the spectrum by every replica, inverse-transforms the product in
// shared memory and takes the metric, the replicas in the CPU twin's order so the best
// hypothesis is its choice), the candidates compacted there; only they come back to the
// host, for cell_search::finish().

#include "runtime/cuda_check.h"
#include "runtime/cuda_context.h"
#include "runtime/cufft_plans.h"
#include "runtime/cuda_phase_timer.h"
#include "sync/cell_search.h"
#include "sync/cell_search_common.h"
#include "sync/stockham16.h"

#include <cub/block/block_scan.cuh>

#include <chrono>

namespace gr::gpuofdm::core {

namespace {

namespace s16 = stockham16;

constexpr unsigned int max_candidates = 1u << 16;
// The correlation blocks here are 4096 samples whatever the standard (the CPU twin's are 8
// symbols: 1024 or 2048), the size of the shared-memory transform; still a power of two
// (pss_metric), so the metric is the same up to rounding.
constexpr size_t device_block = s16::points;

struct device_candidate {
    int channel, nid2;
    unsigned int index; // timing from span.lo
    float metric;
    int hyp[max_combine_periods];
    int drift[max_combine_periods];
};

__device__ inline size_t global_index() { return blockIdx.x * size_t(blockDim.x) + threadIdx.x; }
__device__ inline size_t grid_stride() { return size_t(gridDim.x) * blockDim.x; }

unsigned int grid_for(size_t total)
{
    return static_cast<unsigned int>(std::min<size_t>((total + 255) / 256, 65535));
}

__device__ inline float2 finite_or_zero(float2 v)
{
    return isfinite(v.x) && isfinite(v.y) ? v : make_float2(0.0f, 0.0f);
}

// The shared-memory index of transform value i: one padding value every 16, so the 16
// threads of a half-warp, whose 8-byte accesses go together, hit 16 different banks in
// every pass (Stockham's first pass writes 16 apart).
__device__ inline int padded(int i) { return i + (i >> 4); }

// The metric of every timing of one block (blockIdx.x = channel * nb + block) for every
// replica. The block is row c's samples rows[c * stride + lo + b * hop + t], t < 4096,
// zero past the row's end and where not finite (as the CPU twin's rows); the kernel takes
// its window energies (a block scan in double: every window of a timing t < hop lies
// inside the block) and its spectrum (stockham16.h run on the conjugate: the forward DFT,
// as cuFFT's), then for every replica the product, its inverse transform and |.|^2 over
// the energies; per N_ID^(2) the best replica, taken in the CPU twin's order (the first of
// equal values wins). Thread j holds the spectrum's values j + 256 k, and the last pass
// leaves it the timings j + 256 k of the block in its registers (write_index(j, 2, k)),
// so they are never stored. The two exchanges between
// the passes go through two buffers: a pass writes the buffer the one before last read,
// which every thread has left by the barrier between them, so each pass needs one barrier.
// pss_metric() is taken as |raw|^2 * replica_scale * (1 / window energy), the reciprocal
// once a timing and the scale fft / (block^2 replica energy) once a replica: the same
// value to double rounding, without a division per timing and replica.
constexpr size_t correlate_buf_bytes = (s16::points + s16::points / 16) * sizeof(s16::cpx);
constexpr size_t correlate_shared_bytes = 2 * correlate_buf_bytes + s16::points * sizeof(double);
static_assert(s16::passes == 3, "correlate_kernel exchanges twice, through two buffers");
static_assert((s16::points + 1) * sizeof(double) <= correlate_buf_bytes,
              "the energies' running sum fits an exchange buffer");
using correlate_scan = cub::BlockScan<double, s16::threads>;

// The three passes on v (thread j's values j + 256 k), the transform left in v the same way.
__device__ inline void idft4096(s16::cpx v[s16::radix], s16::cpx* const exchange[2], int j)
{
#pragma unroll
    for (int pass = 0; pass < s16::passes; pass++) {
        if (pass > 0) {
            __syncthreads(); // pass - 1's writes are in
            const s16::cpx* in = exchange[(pass - 1) % 2];
#pragma unroll
            for (int k = 0; k < s16::radix; k++) {
                v[k] = in[padded(j + k * s16::read_stride)];
            }
        }
        s16::pass_step(j, pass, v);
        if (pass + 1 < s16::passes) {
            s16::cpx* out = exchange[pass % 2];
#pragma unroll
            for (int q = 0; q < s16::radix; q++) {
                out[padded(s16::write_index(j, pass, q))] = v[q];
            }
        }
    }
}

__global__ void __launch_bounds__(s16::threads, 2)
    correlate_kernel(const float2* __restrict__ rows,
                     size_t stride,
                     const float2* __restrict__ replicas,
                     const double* __restrict__ replica_scale,
                     float* __restrict__ metric,
                     int* __restrict__ best,
                     unsigned char* __restrict__ above, // or null
                     float above_threshold,
                     size_t n,
                     size_t lo,
                     size_t fft,
                     size_t nb,
                     size_t hop,
                     size_t count,
                     int hyps)
{
    __shared__ typename correlate_scan::TempStorage scan_storage;
    extern __shared__ double correlate_shared[]; // two exchange buffers, 1 / window energy
    s16::cpx* const exchange[2] = { reinterpret_cast<s16::cpx*>(correlate_shared),
                                    reinterpret_cast<s16::cpx*>(
                                        correlate_shared + correlate_buf_bytes / sizeof(double)) };
    double* const inv_window = correlate_shared + 2 * correlate_buf_bytes / sizeof(double);
    const size_t c = blockIdx.x / nb, b = blockIdx.x % nb;
    const int j = static_cast<int>(threadIdx.x);
    const float2* block = rows + c * stride + lo + b * hop;
    const size_t valid = lo + b * hop < n ? n - (lo + b * hop) : 0;

    // The block's samples (conjugated, for the forward transform) and |x|^2 at sums[t + 1].
    s16::cpx x[s16::radix];
    double* sums = reinterpret_cast<double*>(exchange[1]);
#pragma unroll
    for (int k = 0; k < s16::radix; k++) {
        const int t = j + k * s16::read_stride;
        const float2 v = size_t(t) < valid ? finite_or_zero(block[t]) : make_float2(0.0f, 0.0f);
        x[k] = { v.x, -v.y };
        sums[t + 1] = double(v.x) * v.x + double(v.y) * v.y;
    }
    __syncthreads();
    {
        double items[s16::radix]; // thread j's 16 consecutive samples: a running sum
#pragma unroll
        for (int k = 0; k < s16::radix; k++) {
            items[k] = sums[j * s16::radix + k + 1];
        }
        correlate_scan(scan_storage).InclusiveSum(items, items);
#pragma unroll
        for (int k = 0; k < s16::radix; k++) {
            sums[j * s16::radix + k + 1] = items[k];
        }
        if (j == 0) {
            sums[0] = 0.0;
        }
    }
    __syncthreads();
    // Each thread's own timings (no other thread reads them): 0 where there is no timing
    // or no energy, so the metric there is 0 and never the best.
#pragma unroll 1
    for (int k = 0; k < s16::radix; k++) {
        const size_t t = size_t(j) + size_t(k) * s16::read_stride;
        const size_t u = b * hop + t;
        const double e = t < hop && u < count ? sums[t + fft] - sums[t] : 0.0;
        inv_window[t] = e > 0 ? 1.0 / e : 0.0;
    }
    // The spectrum: conj(IDFT(conj(x))). Its first pass writes exchange[0]; the second
    // writes exchange[1] (the sums) after the barrier that follows every thread's reads.
    idft4096(x, exchange, j);
#pragma unroll
    for (int k = 0; k < s16::radix; k++) {
        x[k].im = -x[k].im;
    }
    for (int nid2 = 0; nid2 < nid2_count; nid2++) {
        float m_best[s16::radix];
        // The best hypothesis of timing k in half k % 2 of h_best[k / 2] (hypotheses fit 16
        // bits: validate() allows 257): eight registers fewer than one each.
        unsigned int h_best[s16::radix / 2];
#pragma unroll
        for (int k = 0; k < s16::radix; k++) {
            m_best[k] = 0.0f;
        }
#pragma unroll
        for (int k = 0; k < s16::radix / 2; k++) {
            h_best[k] = 0;
        }
        for (int h = 0; h < hyps; h++) {
            const int r = nid2 * hyps + h;
            const float2* replica = replicas + size_t(r) * s16::points;
            s16::cpx v[s16::radix];
#pragma unroll
            for (int k = 0; k < s16::radix; k++) {
                const float2 w = replica[j + k * s16::read_stride];
                v[k] = s16::mul(x[k], { w.x, w.y });
            }
            idft4096(v, exchange, j);
            const double scale = replica_scale[r];
#pragma unroll
            for (int k = 0; k < s16::radix; k++) { // timing j + 256 k: write_index(j, 2, k)
                const int t = j + k * s16::read_stride;
                const float m =
                    static_cast<float>(static_cast<double>(v[k].re * v[k].re + v[k].im * v[k].im) *
                                       scale * inv_window[t]);
                if (m > m_best[k]) {
                    m_best[k] = m;
                    const int shift = 16 * (k % 2);
                    h_best[k / 2] = (h_best[k / 2] & ~(0xffffu << shift)) |
                                    (static_cast<unsigned int>(h) << shift);
                }
            }
        }
        bool seen = false;
#pragma unroll
        for (int k = 0; k < s16::radix; k++) {
            const size_t t = size_t(j) + size_t(k) * s16::read_stride;
            const size_t u = b * hop + t;
            if (t < hop && u < count) {
                const size_t at = (c * nid2_count + nid2) * count + u;
                metric[at] = m_best[k];
                best[at] = static_cast<int>((h_best[k / 2] >> (16 * (k % 2))) & 0xffffu);
                seen = seen || m_best[k] >= above_threshold;
            }
        }
        if (above != nullptr && seen) {
            above[(c * nid2_count + nid2) * nb + b] = 1; // every writer writes 1
        }
    }
}

// The candidate at timing u (from span.lo) of row cn (channel * nid2_count + nid2), if
// that timing is one.
__device__ void take_candidate(const float* metric,
                               const int* best,
                               device_candidate* out,
                               unsigned int* found,
                               const pss_span& span,
                               size_t count,
                               const pss_combining& combining,
                               float threshold,
                               size_t cn,
                               size_t u)
{
    const float* m = metric + cn * count;
    const int* row_hyp = best + cn * count;
    if (!is_pss_candidate(m, u, span, combining, threshold)) {
        return;
    }
    const unsigned int slot = atomicAdd(found, 1u);
    if (slot >= max_candidates) {
        return;
    }
    device_candidate& d = out[slot];
    d.channel = static_cast<int>(cn / nid2_count);
    d.nid2 = static_cast<int>(cn % nid2_count);
    d.index = static_cast<unsigned int>(u);
    int path = 0;
    d.metric = combined_metric(m, u, combining, &path);
    for (int k = 0; k < max_combine_periods; k++) { // all of it: the record is copied back
        if (k < combining.periods) {
            d.hyp[k] = period_hypothesis(m, row_hyp, u, combining, k, path);
            d.drift[k] = drift_offset(k, path, combining.periods);
        } else {
            d.hyp[k] = 0;
            d.drift[k] = 0;
        }
    }
}

// Every timing of every row: periods combined (a timing's metric then draws on later ones).
__global__ void candidates_kernel(const float* __restrict__ metric,
                                  const int* __restrict__ best,
                                  device_candidate* __restrict__ out,
                                  unsigned int* __restrict__ found,
                                  pss_span span,
                                  size_t count,
                                  pss_combining combining,
                                  float threshold,
                                  size_t total)
{
    const size_t timings = span.hi - span.lo;
    for (size_t i = global_index(); i < total; i += grid_stride()) {
        take_candidate(metric, best, out, found, span, count, combining, threshold, i / timings,
                       i % timings);
    }
}

// One period: only the tiles (a correlation block of one row, blockIdx.x = row * nb +
// block) where correlate_kernel saw a metric at or above the threshold; the others, nearly
// all in noise, return at once instead of reading their metrics.
__global__ void candidates_in_tiles_kernel(const float* __restrict__ metric,
                                           const int* __restrict__ best,
                                           const unsigned char* __restrict__ above,
                                           device_candidate* __restrict__ out,
                                           unsigned int* __restrict__ found,
                                           pss_span span,
                                           size_t count,
                                           pss_combining combining,
                                           float threshold,
                                           size_t nb,
                                           size_t hop)
{
    const size_t tile = blockIdx.x;
    if (above[tile] == 0) {
        return;
    }
    const size_t cn = tile / nb, b = tile % nb;
    const size_t timings = span.hi - span.lo,
                 end = (b + 1) * hop < timings ? (b + 1) * hop : timings;
    for (size_t u = b * hop + threadIdx.x; u < end; u += blockDim.x) {
        take_candidate(metric, best, out, found, span, count, combining, threshold, cn, u);
    }
}

// The samples of the windows finish() asks for, one after another (sanitized, as the
// correlation read them).
__global__ void windows_kernel(const float2* __restrict__ x,
                               const unsigned long long* __restrict__ starts, // c * stride + from
                               float2* __restrict__ out,
                               size_t windows,
                               size_t count)
{
    for (size_t i = global_index(); i < windows * count; i += grid_stride()) {
        const size_t w = i / count, t = i % count;
        out[i] = finite_or_zero(x[starts[w] + t]);
    }
}

class cell_search_cuda : public cell_search
{
public:
    cell_search_cuda(const cell_search_params& params,
                     const device_spec& dev,
                     const cuda_context_ptr& ctx)
        : cell_search(params), d_ctx(cuda_context::for_stage(dev, ctx)), d_block(device_block),
          d_spectra(d_replicas.size() * d_block), d_candidates(max_candidates), d_found(1)
    {
        d_device = dev;
        // The replicas' conjugate spectra, zero-padded to the block (cuFFT, as they are used).
        std::vector<float2> time(d_replicas.size() * d_block, make_float2(0.0f, 0.0f));
        for (size_t r = 0; r < d_replicas.size(); r++) {
            for (size_t t = 0; t < d_replicas[r].time.size(); t++) {
                time[r * d_block + t] =
                    make_float2(static_cast<float>(d_replicas[r].time[t].real()),
                                static_cast<float>(d_replicas[r].time[t].imag()));
            }
        }
        const cudaStream_t s = d_ctx->stream();
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(
            d_spectra.get(), time.data(), time.size() * sizeof(float2), cudaMemcpyHostToDevice, s));
        cufft_batch_plans plans(d_block, d_replicas.size(), s);
        auto* spectra = reinterpret_cast<cufftComplex*>(d_spectra.get());
        plans.exec(spectra, spectra, d_replicas.size(), CUFFT_FORWARD);
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(
            time.data(), d_spectra.get(), time.size() * sizeof(float2), cudaMemcpyDeviceToHost, s));
        d_ctx->synchronize();
        for (auto& v : time) {
            v.y = -v.y;
        }
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(
            d_spectra.get(), time.data(), time.size() * sizeof(float2), cudaMemcpyHostToDevice, s));
        // pss_metric()'s factors of each replica: fft / (block^2 energy).
        std::vector<double> scales;
        const double block = static_cast<double>(d_block);
        for (const auto& r : d_replicas) {
            scales.push_back(static_cast<double>(d_layout.fft_size) / (block * block * r.energy));
        }
        d_replica_scale = device_buffer<double>(scales.size());
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_replica_scale.get(), scales.data(),
                                           scales.size() * sizeof(double), cudaMemcpyHostToDevice,
                                           s));
        GPUOFDM_CUDA_CHECK(cudaFuncSetAttribute(correlate_kernel,
                                                cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                static_cast<int>(correlate_shared_bytes)));
        d_ctx->synchronize();
    }

    std::vector<cell_detection> search(const std::complex<float>* x,
                                       size_t stride,
                                       int channels,
                                       size_t n,
                                       int64_t first_sample) override
    {
        auto rows = host_rows(x, stride);
        return run(x, stride, cudaMemcpyHostToDevice, channels, n, first_sample, *rows);
    }

    std::vector<cell_detection> search_device(const std::complex<float>* rows,
                                              size_t stride,
                                              int channels,
                                              size_t n,
                                              int64_t first_sample) override
    {
        device_row_reader reader(*this, reinterpret_cast<const float2*>(rows), stride);
        return run(rows, stride, cudaMemcpyDeviceToDevice, channels, n, first_sample, reader);
    }

private:
    // Windows of the rows on the device, gathered there and copied back at once.
    class device_row_reader : public row_reader
    {
    public:
        device_row_reader(cell_search_cuda& owner, const float2* rows, size_t stride)
            : d_owner(owner), d_rows(rows), d_stride(stride)
        {
        }
        void read(const std::vector<window_request>& windows,
                  size_t count,
                  std::vector<std::complex<float>>& out) override
        {
            const size_t total = windows.size() * count;
            out.resize(total);
            if (windows.empty()) {
                return;
            }
            auto& o = d_owner;
            const cudaStream_t s = o.d_ctx->stream();
            std::vector<unsigned long long> starts(windows.size());
            for (size_t w = 0; w < windows.size(); w++) {
                starts[w] = static_cast<unsigned long long>(windows[w].channel) * d_stride +
                            windows[w].from;
            }
            // Kept between calls: a cudaFree would wait for the whole device.
            if (starts.size() > o.d_window_starts.size()) {
                o.d_window_starts = device_buffer<unsigned long long>(2 * starts.size());
            }
            if (total > o.d_window_samples.size()) {
                o.d_window_samples = device_buffer<float2>(2 * total);
            }
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(o.d_window_starts.get(), starts.data(),
                                               starts.size() * sizeof(unsigned long long),
                                               cudaMemcpyHostToDevice, s));
            windows_kernel<<<grid_for(total), 256, 0, s>>>(
                d_rows, o.d_window_starts.get(), o.d_window_samples.get(), windows.size(), count);
            GPUOFDM_CUDA_CHECK_LAUNCH("windows_kernel");
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(out.data(), o.d_window_samples.get(),
                                               total * sizeof(float2), cudaMemcpyDeviceToHost, s));
            o.d_ctx->synchronize();
        }

    private:
        cell_search_cuda& d_owner;
        const float2* d_rows;
        size_t d_stride;
    };

    std::vector<cell_detection> run(const std::complex<float>* x,
                                    size_t stride,
                                    cudaMemcpyKind kind,
                                    int channels,
                                    size_t n,
                                    int64_t first_sample,
                                    row_reader& reader)
    {
        check_channels(channels);
        const pss_span span = pss_search_span(*this, n);
        if (!span.valid || channels <= 0) {
            return finish(reader, n, first_sample, {});
        }
        d_ctx->activate();
        const cudaStream_t s = d_ctx->stream();
        const size_t ch = static_cast<size_t>(channels);
        const size_t fft = d_layout.fft_size;
        const size_t hop = d_block - fft + 1;
        const size_t count = span.corr_hi - span.lo;
        const size_t nb = (count + hop - 1) / hop;
        reserve(ch, nb, count);
        cuda_phase_timer timer("cell_search", s);

        // Rows from the host go up as they are: the kernels sanitize what they read.
        const float2* rows = reinterpret_cast<const float2*>(x);
        size_t row_stride = stride;
        if (kind == cudaMemcpyHostToDevice) {
            if (ch * n > d_x.size()) {
                d_x = device_buffer<float2>(ch * n);
            }
            GPUOFDM_CUDA_CHECK(cudaMemcpy2DAsync(d_x.get(), n * sizeof(float2), x,
                                                 stride * sizeof(float2), n * sizeof(float2), ch,
                                                 kind, s));
            rows = d_x.get();
            row_stride = n;
        }
        timer.mark("rows");
        // Every block's energies and spectrum and every replica of it in one kernel: the
        // products stay in shared memory. One period: correlate_kernel marks the tiles with
        // a metric at the threshold.
        const bool one_period = d_params.combine_periods == 1 && !d_params.combine_symbols;
        const size_t tiles = ch * nid2_count * nb;
        if (one_period) {
            GPUOFDM_CUDA_CHECK(cudaMemsetAsync(d_above.get(), 0, tiles, s));
        }
        correlate_kernel<<<static_cast<unsigned int>(ch * nb), s16::threads, correlate_shared_bytes,
                           s>>>(rows, row_stride, d_spectra.get(), d_replica_scale.get(),
                                d_metric.get(), d_best.get(), one_period ? d_above.get() : nullptr,
                                pss_floor(), n, span.lo, fft, nb, hop, count,
                                static_cast<int>(d_hyp.size()));
        GPUOFDM_CUDA_CHECK_LAUNCH("correlate_kernel");
        timer.mark("correlate");

        GPUOFDM_CUDA_CHECK(cudaMemsetAsync(d_found.get(), 0, sizeof(unsigned int), s));
        if (one_period) {
            candidates_in_tiles_kernel<<<static_cast<unsigned int>(tiles), 256, 0, s>>>(
                d_metric.get(), d_best.get(), d_above.get(), d_candidates.get(), d_found.get(),
                span, count, make_pss_combining(*this), pss_floor(), nb, hop);
            GPUOFDM_CUDA_CHECK_LAUNCH("candidates_in_tiles_kernel");
        } else {
            const size_t timings = ch * nid2_count * (span.hi - span.lo);
            candidates_kernel<<<grid_for(timings), 256, 0, s>>>(
                d_metric.get(), d_best.get(), d_candidates.get(), d_found.get(), span, count,
                make_pss_combining(*this), pss_floor(), timings);
            GPUOFDM_CUDA_CHECK_LAUNCH("candidates_kernel");
        }
        timer.mark("candidates");
        unsigned int found = 0;
        GPUOFDM_CUDA_CHECK(
            cudaMemcpyAsync(&found, d_found.get(), sizeof(found), cudaMemcpyDeviceToHost, s));
        d_ctx->synchronize();
        if (found > max_candidates) {
            throw std::runtime_error(
                "cell search: more than 65536 PSS candidates in one call; raise pss_threshold "
                "or search shorter windows");
        }
        std::vector<device_candidate> raw(found);
        if (found > 0) {
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(raw.data(), d_candidates.get(),
                                               found * sizeof(device_candidate),
                                               cudaMemcpyDeviceToHost, s));
            d_ctx->synchronize();
        }
        std::vector<pss_candidate> candidates;
        candidates.reserve(found);
        for (const auto& d : raw) {
            pss_candidate pk;
            pk.channel = d.channel;
            pk.nid2 = d.nid2;
            pk.u = span.lo + d.index;
            pk.metric = d.metric;
            pk.hyp.assign(d.hyp, d.hyp + d_params.combine_periods);
            pk.drift.assign(d.drift, d.drift + d_params.combine_periods);
            candidates.push_back(std::move(pk));
        }
        const auto host0 = std::chrono::steady_clock::now();
        auto detections = finish(reader, n, first_sample, std::move(candidates));
        timer.host("finish(host)", ms_since(host0));
        timer.report();
        return detections;
    }

    void reserve(size_t ch, size_t nb, size_t count)
    {
        if (ch * nid2_count * nb > d_above.size()) {
            d_above = device_buffer<unsigned char>(ch * nid2_count * nb);
        }
        if (ch * nid2_count * count > d_metric.size()) {
            d_metric = device_buffer<float>(ch * nid2_count * count);
            d_best = device_buffer<int>(ch * nid2_count * count);
        }
    }

    cuda_context_ptr d_ctx;
    size_t d_block;
    device_buffer<float2> d_spectra; // conj(FFT) of each replica
    device_buffer<device_candidate> d_candidates;
    device_buffer<unsigned int> d_found;
    device_buffer<float2> d_x; //!< rows from the host
    device_buffer<float> d_metric;
    device_buffer<int> d_best;
    device_buffer<unsigned char> d_above;  //!< per row and block: a metric at the threshold
    device_buffer<double> d_replica_scale; //!< fft / (block^2 energy) of each replica
    device_buffer<unsigned long long> d_window_starts; //!< finish()'s windows
    device_buffer<float2> d_window_samples;
};

} // namespace

std::unique_ptr<cell_search> make_cell_search_cuda(const cell_search_params& params,
                                                   const device_spec& dev,
                                                   const cuda_context_ptr& ctx)
{
    return std::make_unique<cell_search_cuda>(params, dev, ctx);
}

} // namespace gr::gpuofdm::core
