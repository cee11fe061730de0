/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CUDA 802.11a receiver front end. The batch's samples go to the device once (straight from
// the caller's memory when it is page-locked, else through a pinned staging copy; non-finite
// values cleared on the device), and what a batch leaves for the next stays there; one kernel
// estimates the channel and equalizes SIGNAL for every frame (a block of 64 threads a
// frame: derotation, 64-point DFT of T1, T2 and SIGNAL, wifi_rx_common.h's estimate and
// equalizer) and decodes SIGNAL's 24 bits (decode_signal_bits's trellis, a state a thread),
// and only the scalars the host decides with come back (noise, SNR, SIGNAL's bits: the
// channels stay on the device); a second kernel equalizes every DATA symbol of the frames
// taken (a block a symbol, pilot phase removed; the frames' channels found through their
// estimate slots) into device memory, which the CUDA DATA decoder reads in place
// (wifi_decoder::process_device): only the decoded bits come back. The synchronizer, the
// front end, the decoder and its Viterbi decoders share one cuda_context: the whole chain
// runs on one stream, and the host waits only for detections, estimates' scalars and bits.

#include "runtime/cuda_check.h"
#include "runtime/cuda_context.h"
#include "runtime/cuda_pinned.h"
#include "wifi/wifi_rx.h"
#include "wifi/wifi_rx_common.h"
#include "wifi/wifi_tx.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <utility>

namespace gr::gpuofdm::core {

namespace {

using namespace wifi_rx_detail;

//! A frame for the kernels.
struct rx_job {
    unsigned long long ltf_start;
    float cfo;
    int known; //!< 1: the channel (and noise_var) are in the estimate already (copied in)
};

//! What the host decides with, of a frame's estimate (its channel stays on the device).
struct rx_scalars {
    float noise_var;
    float snr;
    uint32_t signal_bits;
};

//! Non-finite values of n words (floats) as +0, as the CPU twin's copy_finite().
__global__ void scrub_kernel(uint32_t* w, size_t n)
{
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
         i += size_t(gridDim.x) * blockDim.x)
        w[i] = rounded::finite_bits(w[i]);
}

__constant__ float c_ltf[64];
__constant__ int c_used[52];
__constant__ uint32_t c_signal_perm[48];

/*!
 * The 64-point forward DFT (no scaling) of the derotated samples x[from .. from + 64),
 * bin threadIdx.x into y; s is 64 values of shared scratch. Derotation by
 * exp(-j cfo (i - ltf_start)) with the phase in double, as the CPU twin steps it.
 */
__device__ void dft_symbol(
    const cpx* x, unsigned long long from, unsigned long long ltf_start, float cfo, cpx* s, cpx* y)
{
    const int t = threadIdx.x;
    const double ph = -double(cfo) * (double(from + t) - double(ltf_start));
    double sn, cs;
    sincos(ph, &sn, &cs);
    const cpx v = x[from + t];
    s[t] = mul(v, cpx{ float(cs), float(sn) });
    __syncthreads();
    cpx acc{ 0.0f, 0.0f };
    for (int n = 0; n < 64; n++) {
        float ws, wc;
        // e^{-j 2 pi b n / 64}, the angle reduced to one turn first.
        sincospif(-float((t * n) & 63) / 32.0f, &ws, &wc);
        const cpx m = mul(s[n], cpx{ wc, ws });
        acc.re += m.re;
        acc.im += m.im;
    }
    __syncthreads();
    y[t] = acc;
}

//! Frame b's channel into chan[64 b ..], its scalars into sc[b].
__global__ void estimate_kernel(const cpx* x,
                                const rx_job* jobs,
                                int backoff,
                                int mode,
                                const cpx* fit,
                                const cpx* basis,
                                int taps,
                                cpx* chan,
                                rx_scalars* sc)
{
    __shared__ cpx s[64], y1[64], y2[64], h[64], ls[64], g[64];
    __shared__ pilot_state ps;
    __shared__ float inv_noise, llr[48];
    __shared__ double m[2][signal_states];
    __shared__ uint8_t from[signal_steps][signal_states];
    const rx_job j = jobs[blockIdx.x];
    cpx* e_h = chan + 64ull * blockIdx.x;
    rx_scalars& e = sc[blockIdx.x];
    const int t = threadIdx.x;
    dft_symbol(x, j.ltf_start - backoff, j.ltf_start, j.cfo, s, y1);
    dft_symbol(x, j.ltf_start + 64 - backoff, j.ltf_start, j.cfo, s, y2);
    __syncthreads();
    if (j.known)
        h[t] = e_h[t];
    else if (t == 0)
        estimate_channel(y1, y2, c_ltf, ls, &e.noise_var);
    __syncthreads();
    if (!j.known) {
        h[t] = ls[t];
        __syncthreads();
        if (taps > 0 && t < taps)
            g[t] = fit_tap(ls, fit, c_used, t);
        __syncthreads();
        if (taps > 0 && t < 52)
            h[c_used[t]] = channel_from_taps(g, basis, taps, t);
    }
    __syncthreads();
    if (t == 0) {
        e.snr = channel_snr(h, c_used, e.noise_var);
        inv_noise = rounded::div(1.0f, e.noise_var);
    }
    e_h[t] = h[t];
    dft_symbol(x, j.ltf_start + 128 + 16 - backoff, j.ltf_start, j.cfo, s, y1);
    __syncthreads();
    if (t == 0)
        ps = pilot_track(y1, h, 1.0f, mode);
    __syncthreads();
    // SIGNAL: equalized, demapped, then decoded here, one trellis state a thread
    // (decode_signal_bits's steps, in the same order).
    if (t < 48) {
        const cpx z = equalize_carrier(y1, h, ps, mode, t);
        demap_point(z.re, z.im, modulation::bpsk, carrier_weight(h[data_bin(t)], inv_noise), false,
                    &llr[t]);
    }
    m[0][t] = t == 0 ? 0.0 : -HUGE_VAL;
    __syncthreads();
    for (int step = 0; step < signal_steps; step++) {
        signal_acs(t, m[step & 1], llr[c_signal_perm[2 * step]], llr[c_signal_perm[2 * step + 1]],
                   m[(step + 1) & 1], from[step]);
        __syncthreads();
    }
    if (t == 0)
        e.signal_bits = signal_traceback(from);
}

/*!
 * One DATA symbol a block: symbol sym_index[b] of the frame in estimate slot sym_frame[b]
 * (its job and channel where estimate_kernel left them); writes its 48 equalized carriers
 * to out[48 b ..] and, for a frame's first symbol, the frame's gains to gain[48 slot ..].
 */
__global__ void equalize_kernel(const cpx* x,
                                const rx_job* jobs,
                                const cpx* chan,
                                const unsigned* sym_frame,
                                const unsigned* sym_index,
                                const float* polarity,
                                int backoff,
                                int mode,
                                cpx* out,
                                float* gain)
{
    __shared__ cpx s[64], y[64], h[64];
    __shared__ pilot_state ps;
    const unsigned f = sym_frame[blockIdx.x];
    const unsigned k = sym_index[blockIdx.x];
    const rx_job j = jobs[f];
    const int t = threadIdx.x;
    h[t] = chan[64ull * f + t];
    dft_symbol(x, j.ltf_start + 128 + 80ull * (k + 1) + 16 - backoff, j.ltf_start, j.cfo, s, y);
    __syncthreads();
    if (t == 0)
        ps = pilot_track(y, h, polarity[(k + 1) % 127], mode);
    __syncthreads();
    if (t < 48) {
        out[48ull * blockIdx.x + t] = equalize_carrier(y, h, ps, mode, t);
        if (k == 0)
            gain[48ull * f + t] = norm(h[data_bin(t)]);
    }
}

class wifi_receiver_cuda : public wifi_receiver
{
public:
    wifi_receiver_cuda(const wifi_rx_params& p, const device_spec& dev)
        : wifi_receiver_cuda(p, dev, make_cuda_context(dev))
    {
    }

    //! The chain's stages (synchronizer, decoder, its Viterbi decoders) all on \p ctx.
    wifi_receiver_cuda(const wifi_rx_params& p, const device_spec& dev, cuda_context_ptr ctx)
        : wifi_receiver(p, dev, ctx), d_device(dev), d_ctx(std::move(ctx)), d_pinned(dev.cuda_index)
    {
        d_ctx->activate();
        d_decoder = make_wifi_decoder(p.decode, dev, d_ctx);
        const size_t n = p.batch_samples;
        // At most one frame per 208 samples (the synchronizer's resume), one DATA
        // symbol per 80.
        d_max_frames = n / 208 + 2;
        d_max_symbols = n / 80 + 2;
        d_host_x = pinned_buffer<cfloat>(n);
        d_x = device_buffer<cpx>(n);
        d_x_spare = device_buffer<cpx>(n);
        d_host_jobs = pinned_buffer<rx_job>(d_max_frames);
        d_jobs = device_buffer<rx_job>(d_max_frames);
        d_host_chan = pinned_buffer<cpx>(64 * d_max_frames);
        d_chan = device_buffer<cpx>(64 * d_max_frames);
        d_host_scalars = pinned_buffer<rx_scalars>(d_max_frames);
        d_scalars = device_buffer<rx_scalars>(d_max_frames);
        d_host_sym_map = pinned_buffer<unsigned>(2 * d_max_symbols);
        d_sym_map = device_buffer<unsigned>(2 * d_max_symbols);
        d_sym = device_buffer<cpx>(48 * d_max_symbols);
        d_gain = device_buffer<float>(48 * d_max_frames);
        float ltf[64], pol[127];
        const auto l = wifi_long_training_bins();
        for (int b = 0; b < 64; b++)
            ltf[b] = l[b].real();
        for (unsigned i = 0; i < 127; i++)
            pol[i] = float(wifi_pilot_polarity(i));
        GPUOFDM_CUDA_CHECK(cudaMemcpyToSymbol(c_ltf, ltf, sizeof(ltf)));
        const auto used = wifi_used_bins();
        GPUOFDM_CUDA_CHECK(cudaMemcpyToSymbol(c_used, used.data(), 52 * sizeof(int)));
        GPUOFDM_CUDA_CHECK(
            cudaMemcpyToSymbol(c_signal_perm, wifi_signal_permutation(), 48 * sizeof(uint32_t)));
        // The channel fit: fit (taps x 52) then basis (52 x taps) in one buffer.
        const auto fit = wifi_channel_smoother(p.channel_taps);
        d_taps = size_t(fit.taps);
        d_fit = device_buffer<cpx>(2 * 52 * d_taps);
        GPUOFDM_CUDA_CHECK(cudaMemcpy(d_fit.get(), fit.fit.data(), 52 * d_taps * sizeof(cpx),
                                      cudaMemcpyHostToDevice));
        GPUOFDM_CUDA_CHECK(cudaMemcpy(d_fit.get() + 52 * d_taps, fit.basis.data(),
                                      52 * d_taps * sizeof(cpx), cudaMemcpyHostToDevice));
        d_polarity = device_buffer<float>(127);
        GPUOFDM_CUDA_CHECK(cudaMemcpy(d_polarity.get(), pol, sizeof(pol), cudaMemcpyHostToDevice));
    }

    ~wifi_receiver_cuda() override { unpin_host_ranges(); }

    device_spec device() const override { return d_device; }

    bool pin_host_range(const void* p, size_t bytes) override
    {
        use_device(d_device.cuda_index);
        return d_pinned.pin(p, bytes);
    }

    void unpin_host_ranges() override
    {
        use_device(d_device.cuda_index);
        d_pinned.clear();
    }

protected:
    void append(const cfloat* x, size_t n, size_t at) override
    {
        if (n == 0)
            return;
        use_device(d_device.cuda_index);
        const cudaStream_t s = d_ctx->stream();
        const size_t bytes = n * sizeof(cfloat);
        if (d_pinned.contains(x, bytes)) {
            // Straight from the caller's page-locked memory, cleared on the device. The
            // caller may reuse x once this returns: wait for the copy.
            GPUOFDM_CUDA_CHECK(
                cudaMemcpyAsync(d_x.get() + at, x, bytes, cudaMemcpyHostToDevice, s));
            const size_t words = 2 * n;
            const unsigned blocks = unsigned(std::min<size_t>((words + 255) / 256, 1024));
            scrub_kernel<<<blocks, 256, 0, s>>>(reinterpret_cast<uint32_t*>(d_x.get() + at), words);
            GPUOFDM_CUDA_CHECK(cudaGetLastError());
            d_ctx->synchronize();
        } else {
            // Through this batch's own part of the staging buffer, which no copy of the
            // batch reads again: the upload runs on while the caller goes on.
            copy_finite(x, n, d_host_x.get() + at);
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_x.get() + at, d_host_x.get() + at, bytes,
                                               cudaMemcpyHostToDevice, s));
        }
    }

    void keep(size_t from, size_t n) override
    {
        if (from == 0 || n == 0)
            return;
        use_device(d_device.cuda_index);
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_x_spare.get(), d_x.get() + from, n * sizeof(cpx),
                                           cudaMemcpyDeviceToDevice, d_ctx->stream()));
        std::swap(d_x, d_x_spare);
    }

    //! Nothing to wait for: the synchronizer reads d_x on the same stream, after the uploads.
    void load(size_t) override {}

    std::vector<wifi_sync_result> find_frames(size_t n, size_t search_from) override
    {
        return d_sync->detect_device(reinterpret_cast<const cfloat*>(d_x.get()), n, search_from);
    }

    void estimate(const frame_job* jobs, size_t n, frame_estimate* out) override
    {
        if (n == 0)
            return;
        if (n > d_max_frames)
            throw std::runtime_error("wifi_rx: more frames in a batch than sized for");
        const cudaStream_t s = d_ctx->stream();
        bool any_known = false;
        for (size_t i = 0; i < n; i++) {
            d_host_jobs.get()[i] =
                rx_job{ jobs[i].ltf_start, jobs[i].cfo, jobs[i].channel ? 1 : 0 };
            if (jobs[i].channel) {
                any_known = true;
                std::memcpy(d_host_chan.get() + 64 * i, jobs[i].channel, 64 * sizeof(cpx));
                d_host_scalars.get()[i].noise_var = jobs[i].noise_var;
            }
        }
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_jobs.get(), d_host_jobs.get(), n * sizeof(rx_job),
                                           cudaMemcpyHostToDevice, s));
        if (any_known) {
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_chan.get(), d_host_chan.get(),
                                               64 * n * sizeof(cpx), cudaMemcpyHostToDevice, s));
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_scalars.get(), d_host_scalars.get(),
                                               n * sizeof(rx_scalars), cudaMemcpyHostToDevice, s));
        }
        estimate_kernel<<<unsigned(n), 64, 0, s>>>(
            d_x.get(), d_jobs.get(), d_params.fft_backoff, pilot_mode(), d_fit.get(),
            d_fit.get() + 52 * d_taps, d_params.channel_taps, d_chan.get(), d_scalars.get());
        GPUOFDM_CUDA_CHECK(cudaGetLastError());
        // The channels stay on the device (equalize_and_decode() reads them by slot).
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_host_scalars.get(), d_scalars.get(),
                                           n * sizeof(rx_scalars), cudaMemcpyDeviceToHost, s));
        d_ctx->synchronize();
        for (size_t i = 0; i < n; i++) {
            const rx_scalars& e = d_host_scalars.get()[i];
            out[i].noise_var = e.noise_var;
            out[i].snr = e.snr;
            out[i].signal_bits = e.signal_bits;
            out[i].slot = uint32_t(i);
        }
    }

    void equalize_and_decode(const frame_job* /*jobs: on the device since estimate()*/,
                             const frame_estimate* est,
                             const wifi_signal_field* sig,
                             size_t n,
                             wifi_rx_result* out) override
    {
        if (n == 0)
            return;
        // The frames taken are some of the estimated ones, whose jobs and channels are on
        // the device still: only the map of symbols to (estimate slot, symbol) goes up,
        // the slots first, then the symbol indices.
        const cudaStream_t s = d_ctx->stream();
        std::vector<size_t> at(n + 1, 0);
        for (size_t i = 0; i < n; i++) {
            if (est[i].slot >= d_max_frames)
                throw std::logic_error("wifi_rx: estimate slot out of range");
            at[i + 1] = at[i] + wifi_n_sym(sig[i].len, sig[i].rate_mbps);
        }
        const size_t total = at[n];
        if (total > d_max_symbols)
            throw std::runtime_error("wifi_rx: more symbols in a batch than sized for");
        unsigned* map = d_host_sym_map.get();
        for (size_t i = 0; i < n; i++)
            for (size_t k = 0; k < at[i + 1] - at[i]; k++) {
                map[at[i] + k] = est[i].slot;
                map[total + at[i] + k] = unsigned(k);
            }
        if (total > 0) {
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_sym_map.get(), map, 2 * total * sizeof(unsigned),
                                               cudaMemcpyHostToDevice, s));
            equalize_kernel<<<unsigned(total), 64, 0, s>>>(
                d_x.get(), d_jobs.get(), d_chan.get(), d_sym_map.get(), d_sym_map.get() + total,
                d_polarity.get(), d_params.fft_backoff, pilot_mode(), d_sym.get(), d_gain.get());
            GPUOFDM_CUDA_CHECK(cudaGetLastError());
        }
        // The decoder queues after the equalizer on the same stream: nothing to wait for.

        std::vector<wifi_rx_frame> frames(n);
        for (size_t i = 0; i < n; i++) {
            frames[i].symbols = reinterpret_cast<const cfloat*>(d_sym.get()) + 48 * at[i];
            frames[i].n_symbols = at[i + 1] - at[i];
            frames[i].gain = d_gain.get() + 48 * size_t(est[i].slot);
            frames[i].noise_var = est[i].noise_var;
            frames[i].rate_mbps = sig[i].rate_mbps;
            frames[i].len = sig[i].len;
        }
        const auto t0 = std::chrono::steady_clock::now();
        d_decoder->process_device(frames.data(), n, out);
        d_stats.t_decode +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }

private:
    device_spec d_device;
    cuda_context_ptr d_ctx; //!< the chain's: this front end, d_sync and d_decoder
    std::unique_ptr<wifi_decoder> d_decoder;
    size_t d_max_frames = 0, d_max_symbols = 0;
    pinned_ranges d_pinned;         //!< caller memory page-locked through pin_host_range()
    pinned_buffer<cfloat> d_host_x; //!< staging for input that is not page-locked
    device_buffer<cpx> d_x;         //!< the batch
    device_buffer<cpx> d_x_spare;   //!< keep() moves what the next batch needs here, then swaps
    pinned_buffer<rx_job> d_host_jobs;
    device_buffer<rx_job> d_jobs;
    pinned_buffer<cpx> d_host_chan; //!< known channels going up
    device_buffer<cpx> d_chan;      //!< 64 bins a frame, by estimate slot
    pinned_buffer<rx_scalars> d_host_scalars;
    device_buffer<rx_scalars> d_scalars;
    pinned_buffer<unsigned> d_host_sym_map; //!< per DATA symbol: estimate slots, then indices
    device_buffer<unsigned> d_sym_map;
    device_buffer<cpx> d_sym;
    device_buffer<float> d_gain; //!< 48 a frame, by estimate slot
    device_buffer<float> d_polarity;
    size_t d_taps = 0;
    device_buffer<cpx> d_fit; //!< wifi_channel_smoother(): fit, then basis
};

} // namespace

std::unique_ptr<wifi_receiver> make_wifi_receiver_cuda(const wifi_rx_params& p,
                                                       const device_spec& dev)
{
    return std::make_unique<wifi_receiver_cuda>(p, dev);
}

} // namespace gr::gpuofdm::core
