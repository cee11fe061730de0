/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CUDA Viterbi decoder: one warp per chunk, two states per lane, metrics in shared memory
// (double-buffered), decisions as two ballots a step, traceback by lane 0. All arithmetic
// comes from viterbi_common.h, as in the CPU twin.

#include "runtime/cuda_check.h"
#include "runtime/cuda_context.h"
#include "runtime/cuda_pinned.h"
#include "fec/viterbi.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

namespace {

constexpr unsigned warps_per_block = 4;
constexpr unsigned full_mask = 0xffffffffu;

__global__ void viterbi_chunk_kernel(const float* __restrict__ llr,
                                     viterbi_job job,
                                     uint64_t n_chunks,
                                     uint32_t* __restrict__ dec_all,
                                     uint64_t dec_words,
                                     uint8_t* __restrict__ out)
{
    __shared__ float metrics[warps_per_block][2][viterbi_states];
    const unsigned lane = threadIdx.x & 31u;
    const unsigned wib = threadIdx.x >> 5;
    const uint64_t warp = uint64_t(blockIdx.x) * warps_per_block + wib;
    if (warp >= job.n_segments * n_chunks)
        return; // whole warps leave together, so the full-mask shuffles below stay valid
    const uint64_t seg = warp / n_chunks;
    const viterbi_chunk k = viterbi_chunk_at(job, warp % n_chunks);
    const float* s_llr = llr + 2 * seg * job.seg_steps;
    uint32_t* dec = dec_all + warp * dec_words;
    float* cur = metrics[wib][0];
    float* nxt = metrics[wib][1];

    cur[lane] = k.known_start && lane != 0 ? viterbi_unreached : 0.0f;
    cur[lane + 32] = k.known_start ? viterbi_unreached : 0.0f;
    __syncwarp();
    for (uint64_t t = k.fwd_begin; t < k.fwd_end; t++) {
        const float l0 = s_llr[2 * (t - job.base)];
        const float l1 = s_llr[2 * (t - job.base) + 1];
        unsigned d0, d1;
        const float n0 = viterbi_acs(cur, lane, l0, l1, job.poly0, job.poly1, &d0);
        const float n1 = viterbi_acs(cur, lane + 32, l0, l1, job.poly0, job.poly1, &d1);
        const float norm = __shfl_sync(full_mask, n0, 0); // new metric of state 0
        const uint32_t w0 = __ballot_sync(full_mask, d0);
        const uint32_t w1 = __ballot_sync(full_mask, d1);
        nxt[lane] = n0 - norm;
        nxt[lane + 32] = n1 - norm;
        if (lane == 0 && t >= k.out_begin) {
            dec[2 * (t - k.out_begin)] = w0;
            dec[2 * (t - k.out_begin) + 1] = w1;
        }
        __syncwarp(); // every lane has read cur and written nxt
        float* tmp = cur;
        cur = nxt;
        nxt = tmp;
    }

    // Best state: the largest metric, the lowest index among equals (as the CPU scan).
    float v = cur[lane];
    unsigned s = lane;
    if (cur[lane + 32] > v) {
        v = cur[lane + 32];
        s = lane + 32;
    }
    for (unsigned off = 16; off > 0; off >>= 1) {
        const float ov = __shfl_xor_sync(full_mask, v, off);
        const unsigned os = __shfl_xor_sync(full_mask, s, off);
        if (ov > v || (ov == v && os < s)) {
            v = ov;
            s = os;
        }
    }
    if (lane == 0)
        viterbi_traceback(dec, k.out_begin, k.out_end, k.fwd_end, k.zero_end ? 0u : s,
                          out + seg * (job.out_end - job.out_begin) +
                              (k.out_begin - job.out_begin));
}

/*!
 * \brief CUDA backend of viterbi_decoder: device and pinned buffers sized once for
 * max_steps, its context's stream, one kernel launch per job.
 */
class viterbi_decoder_cuda : public viterbi_decoder
{
public:
    viterbi_decoder_cuda(const viterbi_params& p,
                         const device_spec& dev,
                         const cuda_context_ptr& ctx)
        : viterbi_decoder(p), d_device(dev),
          d_dec_words(2 * (d_params.chunk_len + d_params.traceback)),
          d_ctx(cuda_context::for_stage(dev, ctx)), d_llr(2 * d_params.max_steps),
          d_dec(max_chunks() * d_dec_words), d_out(d_params.max_steps),
          d_host_llr(2 * d_params.max_steps), d_host_out(d_params.max_steps),
          d_pinned(dev.cuda_index)
    {
    }

    ~viterbi_decoder_cuda() override { unpin_host_ranges(); }

    device_spec device() const override { return d_device; }

    void run(const float* llr, const viterbi_job& job, uint8_t* out) override
    {
        const uint64_t n_out = check_job(job);
        if (n_out == 0)
            return;
        use_device(d_device.cuda_index);
        // Pinned caller memory (a GNU Radio buffer) goes straight over PCIe; other memory
        // through our staging buffers.
        const size_t in_bytes = 2 * job.n_segments * job.seg_steps * sizeof(float);
        const bool direct_in = d_pinned.contains(llr, in_bytes);
        if (!direct_in)
            std::memcpy(d_host_llr.get(), llr, in_bytes);
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_llr.get(), direct_in ? llr : d_host_llr.get(),
                                           in_bytes, cudaMemcpyHostToDevice, d_ctx->stream()));
        launch_and_fetch(d_llr.get(), job, out, n_out);
    }

    cuda_context_ptr context() const override { return d_ctx; }

    bool pin_host_range(const void* p, size_t bytes) override { return d_pinned.pin(p, bytes); }
    void unpin_host_ranges() override { d_pinned.clear(); }

    void device_load(const float* llr, size_t n_llr) override
    {
        if (n_llr > 2 * d_params.max_steps)
            throw std::invalid_argument(
                "n_llr: at most 2 max_steps = " + std::to_string(2 * d_params.max_steps) +
                ", got " + std::to_string(n_llr));
        use_device(d_device.cuda_index);
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_llr.get(), llr, n_llr * sizeof(float),
                                           cudaMemcpyHostToDevice, d_ctx->stream()));
        d_ctx->synchronize();
    }

    void device_load_from_device(
        const float* d_src, size_t n_llr, size_t at, size_t rows, size_t src_pitch) override
    {
        const size_t total = n_llr * rows;
        if (at > 2 * d_params.max_steps || total > 2 * d_params.max_steps - at)
            throw std::invalid_argument("n_llr: at + rows n_llr at most 2 max_steps = " +
                                        std::to_string(2 * d_params.max_steps) + ", got " +
                                        std::to_string(at) + " + " + std::to_string(rows) + " x " +
                                        std::to_string(n_llr));
        if (rows > 1 && src_pitch < n_llr)
            throw std::invalid_argument("src_pitch: at least n_llr (" + std::to_string(n_llr) +
                                        "), got " + std::to_string(src_pitch));
        if (total == 0)
            return;
        use_device(d_device.cuda_index);
        // Queued on our stream: device_decode_frames() launches after it on the same stream.
        if (rows == 1)
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_llr.get() + at, d_src, n_llr * sizeof(float),
                                               cudaMemcpyDeviceToDevice, d_ctx->stream()));
        else
            GPUOFDM_CUDA_CHECK(cudaMemcpy2DAsync(d_llr.get() + at, n_llr * sizeof(float), d_src,
                                                 src_pitch * sizeof(float), n_llr * sizeof(float),
                                                 rows, cudaMemcpyDeviceToDevice, d_ctx->stream()));
    }

    void device_decode_frames(size_t frame_steps, size_t n_frames) override
    {
        enqueue_decode_frames(frame_steps, n_frames);
        d_ctx->synchronize();
    }

    void enqueue_decode_frames(size_t frame_steps, size_t n_frames) override
    {
        viterbi_job job = make_job();
        job.n_segments = n_frames;
        job.seg_steps = frame_steps;
        job.base = 0;
        job.out_begin = 0;
        job.out_end = frame_steps;
        job.known_start = true;
        job.zero_end = true;
        const uint64_t n_chunks = viterbi_chunks_per_segment(job);
        if (frame_steps == 0 || n_frames * frame_steps > d_params.max_steps ||
            n_frames * n_chunks > max_chunks())
            throw std::invalid_argument("device_decode_frames: n_frames * frame_steps must be "
                                        "in 1 .. max_steps");
        use_device(d_device.cuda_index);
        const uint64_t warps = n_frames * n_chunks;
        const unsigned blocks = unsigned((warps + warps_per_block - 1) / warps_per_block);
        viterbi_chunk_kernel<<<blocks, warps_per_block * 32, 0, d_ctx->stream()>>>(
            d_llr.get(), job, n_chunks, d_dec.get(), d_dec_words, d_out.get());
        GPUOFDM_CUDA_CHECK_LAUNCH(viterbi_chunk_kernel);
    }

    void device_fetch(uint8_t* out, size_t n_bits) override
    {
        if (n_bits > d_params.max_steps)
            throw std::invalid_argument("n_bits: at most max_steps");
        use_device(d_device.cuda_index);
        GPUOFDM_CUDA_CHECK(
            cudaMemcpyAsync(out, d_out.get(), n_bits, cudaMemcpyDeviceToHost, d_ctx->stream()));
        d_ctx->synchronize();
    }

protected:
    //! The kernel reads the job from device memory \p llr in place (on our stream, after
    //! what the caller queued there).
    void run_device(const float* llr, const viterbi_job& job, uint8_t* out) override
    {
        const uint64_t n_out = check_job(job);
        if (n_out == 0)
            return;
        use_device(d_device.cuda_index);
        launch_and_fetch(llr, job, out, n_out);
    }

private:
    //! A job's output bits; throws when it does not fit the buffers.
    uint64_t check_job(const viterbi_job& job) const
    {
        const uint64_t n_chunks = viterbi_chunks_per_segment(job);
        const uint64_t n_in = job.n_segments * job.seg_steps;
        const uint64_t n_out = job.n_segments * (job.out_end - job.out_begin);
        if (n_in > d_params.max_steps || n_out > d_params.max_steps ||
            job.n_segments * n_chunks > max_chunks())
            throw std::logic_error("viterbi_decoder_cuda: job larger than the buffers");
        return n_out;
    }

    //! The kernel over device LLRs \p llr, its n_out bits to \p out; waits for them.
    void launch_and_fetch(const float* llr, const viterbi_job& job, uint8_t* out, uint64_t n_out)
    {
        const uint64_t n_chunks = viterbi_chunks_per_segment(job);
        const bool direct_out = d_pinned.contains(out, n_out);
        const uint64_t warps = job.n_segments * n_chunks;
        const unsigned blocks = unsigned((warps + warps_per_block - 1) / warps_per_block);
        viterbi_chunk_kernel<<<blocks, warps_per_block * 32, 0, d_ctx->stream()>>>(
            llr, job, n_chunks, d_dec.get(), d_dec_words, d_out.get());
        GPUOFDM_CUDA_CHECK_LAUNCH(viterbi_chunk_kernel);
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(direct_out ? out : d_host_out.get(), d_out.get(), n_out,
                                           cudaMemcpyDeviceToHost, d_ctx->stream()));
        d_ctx->synchronize();
        if (!direct_out)
            std::memcpy(out, d_host_out.get(), n_out);
    }

    device_spec d_device;
    size_t d_dec_words;     //!< decision words per chunk: two per step of L_d + L_t
    cuda_context_ptr d_ctx; //!< made current before the buffers are allocated
    device_buffer<float> d_llr;
    device_buffer<uint32_t> d_dec;
    device_buffer<uint8_t> d_out;
    pinned_buffer<float> d_host_llr;
    pinned_buffer<uint8_t> d_host_out;
    pinned_ranges d_pinned; //!< caller memory transfers go straight from / to
};

} // namespace

std::unique_ptr<viterbi_decoder> make_viterbi_decoder_cuda(const viterbi_params& p,
                                                           const device_spec& dev,
                                                           const cuda_context_ptr& ctx)
{
    return std::make_unique<viterbi_decoder_cuda>(p, dev, ctx);
}

} // namespace gr::gpuofdm::core
