/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CUDA 802.16 receiver front end. The batch's samples go to the device once; per batch of
// bursts one kernel cuts and derotates every symbol's FFT window (preambles and data), one
// batched cuFFT transforms them all, one kernel per burst estimates the channel and noise
// on the preamble (the CPU twin's least squares, tap fit or interpolation), and one kernel
// per data symbol corrects by the pilots (their common phase, or their ratios interpolated
// across the band: wimax_rx_common.h), equalizes and demaps (demap_point with the 802.16
// labels' negative weight) into device LLRs. The LLRs stay on the device
// through the decoding chain's soft part (front_end_to_bits): one deinterleaving launch
// (launch_permute) and one depuncturing launch (depuncture_cuda) for the batch, then the
// CUDA Viterbi decoder on as many bursts a launch as it takes (they share the profile and
// length), gathered device-to-device in one strided copy; only the decoded bits, the
// packed hard decisions of the deinterleaved LLRs and the estimates come back, and the
// receiver finishes the chain (wimax_receiver::finish_bursts: coded errors on the host, the
// batch's RS blocks in one launch of the CUDA codec, derandomizing by one keystream), as
// for the CPU twin. Those stages are bit-exact with the CPU twin's, so
// on the same LLRs both give the same bursts (set_host_chain(true): the LLRs come back and
// the CPU stages run them, the reference). The synchronizer is wimax_sync's CUDA backend
// (wimax_sync_cuda.cu: detection metric and matched filter), detecting
// on the front end's device copy of the batch (detect_device: no second upload). The
// synchronizer's results are the same on both backends; the LLRs agree within float
// rounding (cuFFT vs FFTW, sums in another order). The synchronizer, the front end and
// the Viterbi decoder share one cuda_context: one stream, and the host waits only for the
// detections, the estimates, the hard decisions and the decoded bits.

#include "runtime/cuda_check.h"
#include "runtime/cuda_context.h"
#include "runtime/cufft_plans.h"
#include "ofdm/demapper.h"
#include "fec/depuncture.h"
#include "fec/interleaver.h"
#include "fec/bit_launch.cuh"
#include "fec/viterbi.h"
#include "wimax/wimax_rx.h"
#include "wimax/wimax_rx_common.h"
#include "wimax/wimax_tx.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace gr::gpuofdm::core {

namespace {

using namespace wimax_rx_detail;
using wifi_rx_detail::mul;
using wifi_rx_detail::norm;

//! A burst for the kernels.
struct wx_job {
    unsigned long long start;
    float cfo;
    int known; //!< 1: the channel and noise are in the device buffers already
};

//! Subcarrier of used carrier u (0 .. 199: -100..-1, 1..100) and of observed one o (0 .. 99).
__device__ inline int used_carrier(int u) { return u < 100 ? u - 100 : u - 99; }
__device__ inline int obs_carrier(int o) { return o < 50 ? -100 + 2 * o : 2 * (o - 49); }
__device__ inline int bin_of(int k) { return (k + 256) & 255; }

//! a / b (complex).
__device__ inline cpx cdiv(cpx a, cpx b)
{
    const float d = norm(b);
    const cpx t = wifi_rx_detail::mul_conj(a, b);
    return { t.re / d, t.im / d };
}

/*!
 * One FFT window a block (256 threads): symbol q (0, 1 the preamble, then the data) of
 * burst blockIdx.x / per_burst, derotated by exp(-j cfo (i - start)) (phase in double).
 */
__global__ void gather_kernel(const cpx* x,
                              const wx_job* jobs,
                              unsigned per_burst,
                              unsigned sym_len,
                              unsigned cp,
                              int backoff,
                              cpx* win)
{
    const unsigned b = blockIdx.x, t = threadIdx.x;
    const wx_job j = jobs[b / per_burst];
    const unsigned long long from =
        j.start + (unsigned long long)(b % per_burst) * sym_len + cp - unsigned(backoff);
    const double ph = -double(j.cfo) * (double(from + t) - double(j.start));
    double sn, cs;
    sincos(ph, &sn, &cs);
    win[256ull * b + t] = mul(x[from + t], cpx{ float(cs), float(sn) });
}

//! Block sum of v over 256 threads (s: 256 floats of shared scratch).
__device__ float block_sum(float v, float* s)
{
    const unsigned t = threadIdx.x;
    s[t] = v;
    __syncthreads();
    for (unsigned w = 128; w > 0; w >>= 1) {
        if (t < w)
            s[t] += s[t + w];
        __syncthreads();
    }
    const float r = s[0];
    __syncthreads();
    return r;
}

/*!
 * The channel and noise of one burst a block (256 threads), as the CPU twin's estimate():
 * least squares on the even carriers (the first symbol's multiples of 4 averaged in 2 : 1),
 * the noise on the empty carriers of both symbols, the tap fit (taps > 0: fit is taps x
 * 100, basis 200 x taps) or linear interpolation; the 1e-5 floor; the linear SNR.
 */
__global__ void estimate_kernel(const cpx* win,
                                const wx_job* jobs,
                                unsigned per_burst,
                                const cpx* pre,
                                const cpx* fit,
                                const cpx* basis,
                                int taps,
                                cpx* h_all,
                                float* noise,
                                float* snr)
{
    __shared__ cpx obs[100], g[64], h[256];
    __shared__ float red[256];
    const unsigned i = blockIdx.x;
    const int t = int(threadIdx.x);
    const cpx* y1 = win + 256ull * i * per_burst;
    const cpx* y2 = y1 + 256;
    if (jobs[i].known) {
        h[t] = h_all[256ull * i + t];
    } else {
        // Noise: bin t's share.
        const int k = t < 128 ? t : t - 256;
        float e = 0.0f;
        if (k != 0 && k >= -100 && k <= 100) {
            if (k % 4 != 0)
                e += norm(y1[t]);
            if (k % 2 != 0)
                e += norm(y2[t]);
        }
        const float nsum = block_sum(e, red);
        if (t < 100) {
            const int c = obs_carrier(t), b = bin_of(c);
            cpx v = cdiv(y2[b], pre[256 + b]);
            if (c % 4 == 0) {
                const cpx v1 = cdiv(y1[b], pre[b]);
                v = { (2.0f * v1.re + v.re) / 3.0f, (2.0f * v1.im + v.im) / 3.0f };
            }
            obs[t] = v;
        }
        h[t] = { 0.0f, 0.0f };
        __syncthreads();
        if (taps > 0 && t < taps) {
            cpx s{ 0.0f, 0.0f };
            for (int o = 0; o < 100; o++) {
                const cpx m = mul(fit[100 * t + o], obs[o]);
                s.re += m.re;
                s.im += m.im;
            }
            g[t] = s;
        }
        __syncthreads();
        if (t < 200) {
            const int c = used_carrier(t);
            cpx v{ 0.0f, 0.0f };
            if (taps > 0) {
                for (int q = 0; q < taps; q++) {
                    const cpx m = mul(basis[taps * t + q], g[q]);
                    v.re += m.re;
                    v.im += m.im;
                }
            } else {
                // obs index of even carrier c.
                auto at = [&](int cc) { return obs[cc < 0 ? (cc + 100) / 2 : 49 + cc / 2]; };
                if (c % 2 == 0) {
                    v = at(c);
                } else {
                    float wl = 0.5f, wr = 0.5f;
                    int l = c - 1, r = c + 1;
                    if (c == 1) {
                        l = -2;
                        wl = 0.25f;
                        wr = 0.75f;
                    } else if (c == -1) {
                        r = 2;
                        wl = 0.75f;
                        wr = 0.25f;
                    }
                    const cpx a = at(l), bb = at(r);
                    v = { wl * a.re + wr * bb.re, wl * a.im + wr * bb.im };
                }
            }
            h[bin_of(c)] = v;
        }
        __syncthreads();
        const int k2 = t < 128 ? t : t - 256;
        const bool used = k2 != 0 && k2 >= -100 && k2 <= 100;
        const float p = block_sum(used ? norm(h[t]) : 0.0f, red) / 200.0f;
        if (t == 0) {
            float nv = nsum / 250.0f;
            if (!(nv >= 1e-5f * p))
                nv = 1e-5f * p;
            if (!(nv > 0.0f))
                nv = 1e-30f;
            noise[i] = nv;
        }
        h_all[256ull * i + t] = h[t];
    }
    __syncthreads();
    const int k3 = t < 128 ? t : t - 256;
    const bool used3 = k3 != 0 && k3 >= -100 && k3 <= 100;
    const float p3 = block_sum(used3 ? norm(h[t]) : 0.0f, red) / 200.0f;
    if (t == 0)
        snr[i] = p3 / noise[i];
}

/*!
 * One data symbol a block (256 threads; 192 demap): symbol s of burst i (blockIdx.x =
 * i n_sym + s): the 8 pilots' correction (mode: wifi_rx_detail::pilot_mode), Y / H, max-log
 * LLRs weighted -|H|^2 / noise (the 802.16 labels) into llr[(i n_sym + s) 192 n_bpsc ..].
 */
__global__ void demap_kernel(const cpx* win,
                             const cpx* h_all,
                             const float* noise,
                             const unsigned char* pilot_w,
                             const unsigned* data_bins,
                             unsigned n_sym,
                             unsigned per_burst,
                             int uplink,
                             int mode,
                             modulation mod,
                             unsigned n_bpsc,
                             float* llr)
{
    __shared__ cpx y[256], h[256];
    __shared__ pilot_state ps;
    const unsigned b = blockIdx.x, i = b / n_sym, s = b % n_sym, t = threadIdx.x;
    y[t] = win[256ull * (i * per_burst + 2 + s) + t];
    h[t] = h_all[256ull * i + t];
    __syncthreads();
    if (t == 0) {
        const unsigned w = pilot_w[(2 + s) % wimax_pilot_period];
        float pilots[8];
        for (unsigned e = 0; e < 8; e++)
            pilots[e] = wimax_pilot_from_w(e, w, uplink != 0);
        ps = pilot_track(y, h, pilots, mode);
    }
    __syncthreads();
    if (t < 192) {
        const int bin = int(data_bins[t]);
        const cpx z = equalize_carrier(y, h, ps, mode, bin);
        demap_point(z.re, z.im, mod, -norm(h[bin]) / noise[i], false,
                    llr + (size_t(b) * 192 + t) * n_bpsc);
    }
}

/*!
 * The packed hard decisions of n bursts' deinterleaved LLRs, one byte a thread: byte q of
 * burst b holds bit i = 8 q + e of the burst at bit e, 1 where deint[b n_coded + i] < 0
 * (wimax_receiver::chain_bits's rule).
 */
__global__ void hard_kernel(const float* deint,
                            unsigned long long n_coded,
                            unsigned long long per,
                            unsigned long long total,
                            uint8_t* hard)
{
    for (unsigned long long q = blockIdx.x * 256ull + threadIdx.x; q < total;
         q += 256ull * gridDim.x) {
        const unsigned long long b = q / per, i0 = 8 * (q % per);
        const float* d = deint + b * n_coded;
        unsigned v = 0;
        for (unsigned e = 0; e < 8 && i0 + e < n_coded; e++)
            v |= (d[i0 + e] < 0.0f ? 1u : 0u) << e;
        hard[q] = uint8_t(v);
    }
}

class wimax_receiver_cuda : public wimax_receiver
{
public:
    wimax_receiver_cuda(const wimax_rx_params& p, const device_spec& dev)
        : wimax_receiver(p), d_device(dev), d_ctx(make_cuda_context(dev))
    {
        // The synchronizer's metric and matched filter on the device (wimax_sync_cuda.cu),
        // on the chain's stream; a batch's RS blocks in one launch of the CUDA codec (its
        // own stream: it runs after the decoded bits are back).
        use_sync_device(dev, d_ctx);
        use_rs_device(dev);
        const wimax_profile_info& r = wimax_profile(p.rate_id);
        d_per_burst = 2 + d_n_sym;
        d_max_bursts = std::max<size_t>(1, d_batch / burst_samples() + 1);
        d_llr_per_burst = d_n_sym * size_t(r.n_cbps);
        d_host_x = pinned_buffer<cfloat>(d_batch);
        d_x = device_buffer<cpx>(d_batch);
        d_host_jobs = pinned_buffer<wx_job>(d_max_bursts);
        d_jobs = device_buffer<wx_job>(d_max_bursts);
        d_win = device_buffer<cpx>(256 * d_max_bursts * d_per_burst);
        d_host_h = pinned_buffer<cpx>(256 * d_max_bursts);
        d_h = device_buffer<cpx>(256 * d_max_bursts);
        d_host_noise = pinned_buffer<float>(2 * d_max_bursts); // noise, then snr
        d_noise = device_buffer<float>(2 * d_max_bursts);
        d_host_llr = pinned_buffer<float>(d_llr_per_burst * d_max_bursts);
        d_llr = device_buffer<float>(d_llr_per_burst * d_max_bursts);
        d_fft =
            std::make_unique<cufft_batch_plans>(256, d_max_bursts * d_per_burst, d_ctx->stream());

        const auto pre = wimax_preamble_bins(wimax_preamble::long_dl);
        d_pre = device_buffer<cpx>(512);
        GPUOFDM_CUDA_CHECK(
            cudaMemcpy(d_pre.get(), pre.data(), 512 * sizeof(cpx), cudaMemcpyHostToDevice));
        d_taps = std::max(p.channel_taps, 0);
        d_fit = device_buffer<cpx>(300 * size_t(std::max(d_taps, 1)));
        if (d_taps > 0) {
            const auto f = wimax_channel_smoother(d_taps);
            GPUOFDM_CUDA_CHECK(cudaMemcpy(d_fit.get(), f.fit.data(), f.fit.size() * sizeof(cpx),
                                          cudaMemcpyHostToDevice));
            GPUOFDM_CUDA_CHECK(cudaMemcpy(d_fit.get() + 100 * size_t(d_taps), f.basis.data(),
                                          f.basis.size() * sizeof(cpx), cudaMemcpyHostToDevice));
        }
        std::vector<unsigned char> w(wimax_pilot_period);
        for (unsigned k = 0; k < wimax_pilot_period; k++)
            w[k] = (unsigned char)wimax_pilot_w(k, p.uplink);
        d_pilot_w = device_buffer<unsigned char>(wimax_pilot_period);
        GPUOFDM_CUDA_CHECK(cudaMemcpy(d_pilot_w.get(), w.data(), w.size(), cudaMemcpyHostToDevice));
        const auto& bins = wimax_data_bins();
        d_data_bins = device_buffer<unsigned>(bins.size());
        GPUOFDM_CUDA_CHECK(cudaMemcpy(d_data_bins.get(), bins.data(),
                                      bins.size() * sizeof(unsigned), cudaMemcpyHostToDevice));

        // The chain's soft part: the 8.3.3.3 table, the depuncturer's output per burst, the
        // Viterbi decoder with the CPU chain's parameters, bits of one launch.
        const auto perm = interleaver_permutation(phy_standard::ieee80216, r.n_cbps, r.n_bpsc);
        d_perm = device_buffer<uint32_t>(perm.size());
        GPUOFDM_CUDA_CHECK(cudaMemcpy(d_perm.get(), perm.data(), perm.size() * sizeof(uint32_t),
                                      cudaMemcpyHostToDevice));
        d_depuncture = std::make_unique<depuncturer>("80216", to_string(r.cc_rate));
        d_mother_per_burst = d_depuncture->output_len(d_llr_per_burst);
        d_deint = device_buffer<float>(d_llr_per_burst * d_max_bursts);
        d_mother = device_buffer<float>(d_mother_per_burst * d_max_bursts);
        d_host_hard = pinned_buffer<uint8_t>(hard_bytes() * d_max_bursts);
        d_hard = device_buffer<uint8_t>(hard_bytes() * d_max_bursts);
        d_viterbi = make_viterbi_decoder(
            viterbi_params::for_protocol("80216", to_string(r.cc_rate)), dev, d_ctx);
        d_per_launch = std::min(d_max_bursts, d_viterbi->frames_per_launch(decoded_steps()));
        d_host_bits = pinned_buffer<uint8_t>(decoded_steps() * d_per_launch);
    }

    device_spec device() const override { return d_device; }

protected:
    void load(const cfloat* x, size_t n) override
    {
        use_device(d_device.cuda_index);
        std::memcpy(d_host_x.get(), x, n * sizeof(cfloat));
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_x.get(), d_host_x.get(), n * sizeof(cfloat),
                                           cudaMemcpyHostToDevice, d_ctx->stream()));
    }

    //! On the batch load() queued (clean, on the shared stream): no second upload.
    std::vector<wimax_sync_result> find_bursts(size_t n, size_t search_from) override
    {
        return sync().detect_device(reinterpret_cast<const cfloat*>(d_x.get()), n, search_from);
    }

    //! The host-chain path (set_host_chain(true)): the LLRs come back.
    void front_end(const burst_job* jobs, size_t n, wimax_rx_burst* out, float* llr) override
    {
        const cudaStream_t s = d_ctx->stream();
        for (size_t first = 0; first < n; first += d_max_bursts) {
            const size_t nb = std::min(d_max_bursts, n - first);
            enqueue_front(jobs + first, nb);
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_host_llr.get(), d_llr.get(),
                                               nb * d_llr_per_burst * sizeof(float),
                                               cudaMemcpyDeviceToHost, s));
            d_ctx->synchronize();
            take_estimates(out + first, nb);
            std::memcpy(llr + first * d_llr_per_burst, d_host_llr.get(),
                        nb * d_llr_per_burst * sizeof(float));
        }
    }

    /*!
     * The device path: per batch of bursts the front end, one deinterleaving and one
     * depuncturing launch over all of them (whole symbols, whole puncturing periods a
     * burst), the hard decisions packed; then the Viterbi decoder on up to d_per_launch
     * bursts a launch, its input gathered device-to-device with the bursts' pitch in
     * d_mother; only bits and hard decisions come back.
     */
    bool front_end_to_bits(
        const burst_job* jobs, size_t n, wimax_rx_burst* out, uint8_t* bits, uint8_t* hard) override
    {
        const wimax_profile_info& r = wimax_profile(d_params.rate_id);
        const cudaStream_t s = d_ctx->stream();
        const size_t n_coded = d_llr_per_burst, steps = decoded_steps(), hb = hard_bytes();
        for (size_t first = 0; first < n; first += d_max_bursts) {
            const size_t nb = std::min(d_max_bursts, n - first);
            enqueue_front(jobs + first, nb);
            // 8.3.3.3 inverse, every symbol of every burst in one launch.
            launch_permute(d_llr.get(), d_deint.get(), d_perm.get(),
                           permute_run{ 0, 0, nb * n_coded, 0, unsigned(r.n_cbps) }, true, s);
            // 8.3.3.2.3: each burst is whole periods, so the batch is one call and burst i's
            // mother-code LLRs start at i d_mother_per_burst.
            depuncture_cuda(d_deint.get(), nb * n_coded, d_mother.get(), d_depuncture->pattern(),
                            s);
            hard_kernel<<<grid_for(nb * hb), 256, 0, s>>>(d_deint.get(), n_coded, hb, nb * hb,
                                                          d_hard.get());
            GPUOFDM_CUDA_CHECK(cudaGetLastError());
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_host_hard.get(), d_hard.get(), nb * hb,
                                               cudaMemcpyDeviceToHost, s));
            // The code over each whole burst from state 0 to state 0 (the tail byte): as
            // many bursts a launch as the decoder takes, one strided gather each, queued
            // after the depuncturer on the same stream.
            for (size_t g = 0; g < nb; g += d_per_launch) {
                const size_t m = std::min(d_per_launch, nb - g);
                d_viterbi->device_load_from_device(d_mother.get() + g * d_mother_per_burst,
                                                   2 * steps, 0, m, m > 1 ? d_mother_per_burst : 0);
                d_viterbi->enqueue_decode_frames(steps, m);
                d_viterbi->device_fetch(d_host_bits.get(), steps * m); // waits for the stream
                std::memcpy(bits + (first + g) * steps, d_host_bits.get(), steps * m);
            }
            // The fetches waited for the stream: the estimates and hard decisions queued
            // before them are back.
            take_estimates(out + first, nb);
            std::memcpy(hard + first * hb, d_host_hard.get(), nb * hb);
        }
        return true;
    }

private:
    //! The front end of nb bursts on the chain's stream (LLRs into d_llr, estimates queued back to
    //! d_host_noise); nothing waited for.
    void enqueue_front(const burst_job* jobs, size_t nb)
    {
        const wimax_profile_info& r = wimax_profile(d_params.rate_id);
        const cudaStream_t s = d_ctx->stream();
        {
            bool any_known = false;
            for (size_t i = 0; i < nb; i++) {
                const burst_job& j = jobs[i];
                d_host_jobs.get()[i] = wx_job{ j.start, j.cfo, j.channel ? 1 : 0 };
                if (j.channel) {
                    any_known = true;
                    std::memcpy(d_host_h.get() + 256 * i, j.channel, 256 * sizeof(cpx));
                    d_host_noise.get()[i] = j.noise_var;
                }
            }
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_jobs.get(), d_host_jobs.get(), nb * sizeof(wx_job),
                                               cudaMemcpyHostToDevice, s));
            if (any_known) {
                GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(
                    d_h.get(), d_host_h.get(), 256 * nb * sizeof(cpx), cudaMemcpyHostToDevice, s));
                GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_noise.get(), d_host_noise.get(),
                                                   nb * sizeof(float), cudaMemcpyHostToDevice, s));
            }
            const unsigned n_win = unsigned(nb * d_per_burst);
            gather_kernel<<<n_win, 256, 0, s>>>(d_x.get(), d_jobs.get(), unsigned(d_per_burst),
                                                unsigned(d_sym_len), unsigned(d_sym_len - 256),
                                                d_params.fft_backoff, d_win.get());
            GPUOFDM_CUDA_CHECK(cudaGetLastError());
            d_fft->exec(reinterpret_cast<cufftComplex*>(d_win.get()),
                        reinterpret_cast<cufftComplex*>(d_win.get()), n_win, CUFFT_FORWARD);
            estimate_kernel<<<unsigned(nb), 256, 0, s>>>(
                d_win.get(), d_jobs.get(), unsigned(d_per_burst), d_pre.get(), d_fit.get(),
                d_fit.get() + 100 * size_t(d_taps), d_taps, d_h.get(), d_noise.get(),
                d_noise.get() + d_max_bursts);
            GPUOFDM_CUDA_CHECK(cudaGetLastError());
            demap_kernel<<<unsigned(nb * d_n_sym), 256, 0, s>>>(
                d_win.get(), d_h.get(), d_noise.get(), d_pilot_w.get(), d_data_bins.get(),
                unsigned(d_n_sym), unsigned(d_per_burst), d_params.uplink ? 1 : 0, pilot_mode(),
                r.mod, unsigned(r.n_bpsc), d_llr.get());
            GPUOFDM_CUDA_CHECK(cudaGetLastError());
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_host_noise.get(), d_noise.get(),
                                               nb * sizeof(float), cudaMemcpyDeviceToHost, s));
            GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_host_noise.get() + d_max_bursts,
                                               d_noise.get() + d_max_bursts, nb * sizeof(float),
                                               cudaMemcpyDeviceToHost, s));
        }
    }

    //! The estimates enqueue_front() copied back (after the stream was waited for).
    void take_estimates(wimax_rx_burst* out, size_t nb) const
    {
        for (size_t i = 0; i < nb; i++) {
            out[i].noise_var = d_host_noise.get()[i];
            out[i].snr_db =
                10.0f * std::log10(std::max(d_host_noise.get()[d_max_bursts + i], 1e-30f));
        }
    }

    device_spec d_device;
    cuda_context_ptr d_ctx; //!< the chain's: this front end, d_sync and d_viterbi
    size_t d_per_burst = 0, d_max_bursts = 0, d_llr_per_burst = 0;
    int d_taps = 0;
    pinned_buffer<cfloat> d_host_x;
    device_buffer<cpx> d_x;
    pinned_buffer<wx_job> d_host_jobs;
    device_buffer<wx_job> d_jobs;
    device_buffer<cpx> d_win;
    pinned_buffer<cpx> d_host_h;
    device_buffer<cpx> d_h;
    pinned_buffer<float> d_host_noise;
    device_buffer<float> d_noise;
    pinned_buffer<float> d_host_llr;
    device_buffer<float> d_llr;
    std::unique_ptr<cufft_batch_plans> d_fft;
    device_buffer<cpx> d_pre;
    device_buffer<cpx> d_fit; //!< fit (taps x 100), then basis (200 x taps)
    device_buffer<unsigned char> d_pilot_w;
    device_buffer<unsigned> d_data_bins;
    // The chain's soft part (front_end_to_bits).
    device_buffer<uint32_t> d_perm;
    std::unique_ptr<depuncturer> d_depuncture;
    size_t d_mother_per_burst = 0, d_per_launch = 1;
    device_buffer<float> d_deint, d_mother;
    pinned_buffer<uint8_t> d_host_hard;
    device_buffer<uint8_t> d_hard;
    std::unique_ptr<viterbi_decoder> d_viterbi;
    pinned_buffer<uint8_t> d_host_bits; //!< decoded bits of one Viterbi launch
};

} // namespace

std::unique_ptr<wimax_receiver> make_wimax_receiver_cuda(const wimax_rx_params& p,
                                                         const device_spec& dev)
{
    return std::make_unique<wimax_receiver_cuda>(p, dev);
}

} // namespace gr::gpuofdm::core
