/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CUDA 802.11a transmitter: all frames of a batch through the bit stages' device entry
// points, one batched inverse cuFFT, and one kernel for preambles, CP and windowing. The
// arithmetic after the FFT mirrors the CPU twin's (scale, then the half-and-half overlap).

#include "fec/conv_code.h"
#include "fec/interleaver.h"
#include "fec/bit_launch.cuh"
#include "ofdm/map_launch.cuh"
#include "wifi/wifi_tx_common.h"
#include "wifi/wifi_tx_cuda.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

namespace {

constexpr size_t align16(size_t n) { return (n + 15) / 16 * 16; }

// SIGNAL's 24 bits, then SERVICE + PSDU + tail + pad, for every frame (17.3.4, 17.3.5.2).
__global__ void wifi_bits_kernel(const wifi_frame_desc* __restrict__ frames,
                                 const uint8_t* __restrict__ psdu,
                                 uint8_t* __restrict__ bits,
                                 unsigned long long n_frames)
{
    for (unsigned long long f = blockIdx.y; f < n_frames; f += gridDim.y) {
        const wifi_frame_desc d = frames[f];
        const unsigned long long n = wifi_signal_bits + (unsigned long long)d.n_sym * d.n_dbps;
        const uint8_t* p = psdu + d.psdu_offset;
        for (unsigned long long i = blockIdx.x * 256ull + threadIdx.x; i < n;
             i += 256ull * gridDim.x)
            bits[d.bit_offset + i] = i < wifi_signal_bits
                                         ? wifi_signal_bit(d.rate_bits, d.len, unsigned(i))
                                         : wifi_data_bit(p, d.len, i - wifi_signal_bits);
    }
}

// The 16 non-data bins of every symbol: pilots (1, 1, 1, -1) p_j, DC and guards 0 (17.3.5.9).
__global__ void wifi_pilots_kernel(const wifi_frame_desc* __restrict__ frames,
                                   float2* __restrict__ bins,
                                   unsigned long long n_frames)
{
    for (unsigned long long f = blockIdx.y; f < n_frames; f += gridDim.y) {
        const wifi_frame_desc d = frames[f];
        const unsigned long long n = (1ull + d.n_sym) * 16;
        for (unsigned long long i = blockIdx.x * 256ull + threadIdx.x; i < n;
             i += 256ull * gridDim.x) {
            const unsigned long long j = i / 16;
            const unsigned int e = unsigned(i % 16);
            bins[(d.symbol_offset + j) * 64 + wifi_nondata_bin(e)] =
                make_float2(wifi_nondata_value(e, j), 0.0f);
        }
    }
}

__device__ inline float2 scaled(float2 v, float s) { return make_float2(s * v.x, s * v.y); }

// Every sample of every frame: the preamble, then each symbol's CP (body samples 48..63)
// and body from the unscaled IFFT output, times scale; with windowing a symbol's first
// sample is the mean of itself and the previous field's continuation (its body sample 0),
// and the frame ends with half of the last symbol's continuation (Annex G).
__global__ void wifi_assemble_kernel(const wifi_frame_desc* __restrict__ frames,
                                     const float2* __restrict__ time,
                                     const float2* __restrict__ preamble,
                                     float2* __restrict__ out,
                                     float scale,
                                     bool window,
                                     unsigned long long n_frames)
{
    for (unsigned long long f = blockIdx.y; f < n_frames; f += gridDim.y) {
        const wifi_frame_desc d = frames[f];
        const unsigned long long n_symbols = 1ull + d.n_sym;
        const unsigned long long n = 320 + 80 * n_symbols + (window ? 1 : 0);
        const float2* sym = time + d.symbol_offset * 64;
        for (unsigned long long k = blockIdx.x * 256ull + threadIdx.x; k < n;
             k += 256ull * gridDim.x) {
            float2 v;
            if (k < 320) {
                v = preamble[k];
            } else {
                const unsigned long long j = (k - 320) / 80;
                const unsigned int t = unsigned((k - 320) % 80);
                if (j == n_symbols) {
                    const float2 c = scaled(sym[(j - 1) * 64], scale);
                    v = make_float2(0.5f * c.x, 0.5f * c.y);
                } else {
                    v = scaled(sym[j * 64 + (t < 16 ? 48 + t : t - 16)], scale);
                    if (window && t == 0) {
                        const float2 prev =
                            j == 0 ? preamble[320] : scaled(sym[(j - 1) * 64], scale);
                        v = make_float2(0.5f * v.x + 0.5f * prev.x, 0.5f * v.y + 0.5f * prev.y);
                    }
                }
            }
            out[d.sample_offset + k] = v;
        }
    }
}

size_t rate_index(int mbps)
{
    const auto& rates = wifi_rates();
    for (size_t i = 0; i < rates.size(); i++)
        if (rates[i].mbps == mbps)
            return i;
    throw std::invalid_argument("rate_mbps: must be 6, 9, 12, 18, 24, 36, 48 or 54, got " +
                                std::to_string(mbps));
}

} // namespace

device_spec wifi_tx_cuda::activate(const device_spec& dev)
{
    use_device(dev.cuda_index);
    return dev;
}

wifi_tx_cuda::wifi_tx_cuda(const wifi_tx_params& p, const device_spec& dev)
    : wifi_tx(p), d_device(activate(dev)), d_table(lfsr_for(phy_standard::ieee80211a))
{
    const size_t n_fr = p.max_frames_per_batch;
    const size_t n_sym = d_max_symbols;

    // Constant tables.
    d_seq = device_buffer<uint8_t>(d_table.period());
    GPUOFDM_CUDA_CHECK(
        cudaMemcpy(d_seq.get(), d_table.bits().data(), d_table.period(), cudaMemcpyHostToDevice));
    std::vector<uint32_t> perm;
    for (const auto& r : wifi_rates()) {
        // One table per N_CBPS (BPSK 48 serves SIGNAL, 6 and 9 Mb/s).
        size_t at = perm.size();
        for (size_t q = 0; q < d_perm_offset.size(); q++)
            if (wifi_rates()[q].n_cbps == r.n_cbps)
                at = d_perm_offset[q];
        if (at == perm.size()) {
            const auto t = interleaver_permutation(phy_standard::ieee80211a, r.n_cbps, r.n_bpsc);
            perm.insert(perm.end(), t.begin(), t.end());
        }
        d_perm_offset.push_back(unsigned(at));
        d_codes.push_back(make_conv_code(phy_standard::ieee80211a, r.rate));
    }
    d_signal_code = make_conv_code(phy_standard::ieee80211a, code_rate::r1_2);
    d_perm = device_buffer<uint32_t>(perm.size());
    GPUOFDM_CUDA_CHECK(cudaMemcpy(d_perm.get(), perm.data(), perm.size() * sizeof(uint32_t),
                                  cudaMemcpyHostToDevice));
    std::vector<uint32_t> place(wifi_data_carriers);
    for (unsigned k = 0; k < wifi_data_carriers; k++)
        place[k] = wifi_bin(wifi_data_subcarrier(k));
    d_place = device_buffer<uint32_t>(place.size());
    GPUOFDM_CUDA_CHECK(cudaMemcpy(d_place.get(), place.data(), place.size() * sizeof(uint32_t),
                                  cudaMemcpyHostToDevice));
    d_dev_preamble = device_buffer<cfloat>(d_preamble.size());
    GPUOFDM_CUDA_CHECK(cudaMemcpy(d_dev_preamble.get(), d_preamble.data(),
                                  d_preamble.size() * sizeof(cfloat), cudaMemcpyHostToDevice));

    // Staging: frame table, run tables (SIGNAL and DATA runs per frame), PSDU octets.
    d_off_scramble = align16(n_fr * sizeof(wifi_frame_desc));
    d_off_conv = d_off_scramble + align16(n_fr * sizeof(scramble_run));
    d_off_permute = d_off_conv + align16(2 * n_fr * sizeof(conv_run));
    d_off_map = d_off_permute + align16(2 * n_fr * sizeof(permute_run));
    d_off_psdu = d_off_map + align16(2 * n_fr * sizeof(map_run));
    d_stage_bytes = d_off_psdu + n_fr * p.max_psdu_bytes;
    d_host_stage = pinned_buffer<unsigned char>(d_stage_bytes);
    d_stage = device_buffer<unsigned char>(d_stage_bytes);

    // A symbol holds at most 216 data and 288 coded bits (54 Mb/s); SIGNAL 24 and 48.
    d_bits = device_buffer<uint8_t>(n_fr * wifi_signal_bits + n_sym * 216);
    d_coded = device_buffer<uint8_t>(n_sym * 288);
    d_interleaved = device_buffer<uint8_t>(n_sym * 288);
    d_bins = device_buffer<cfloat>(n_sym * fft_len);
    d_time = device_buffer<cfloat>(n_sym * fft_len);
    const size_t max_out = n_fr * (preamble_samples + 1) + n_sym * symbol_samples;
    d_out = device_buffer<cfloat>(max_out);
    d_host_out = pinned_buffer<cfloat>(max_out);
    d_plans = std::make_unique<cufft_batch_plans>(fft_len, n_sym, d_stream.get());
}

size_t wifi_tx_cuda::batch_size(const wifi_frame_request* frames, size_t n) const
{
    size_t k = 0;
    size_t symbols = 0;
    while (k < n && k < d_params.max_frames_per_batch) {
        const size_t s = frame_symbols(frames[k].len, frames[k].rate_mbps);
        if (k > 0 && symbols + s > d_max_symbols)
            break;
        symbols += s;
        k++;
    }
    return k;
}

void wifi_tx_cuda::stage(const wifi_frame_request* frames, size_t n)
{
    use_device(d_device.cuda_index);
    validate(frames, n);
    if (n == 0 || n > batch_size(frames, n))
        throw std::invalid_argument(
            "n_frames: a staged batch must hold 1..batch_size() frames, got " + std::to_string(n));
    // The previous batch's copies must be done with the staging buffers.
    d_stream.synchronize();

    unsigned char* h = d_host_stage.get();
    auto* descs = reinterpret_cast<wifi_frame_desc*>(h);
    auto* sr = reinterpret_cast<scramble_run*>(h + d_off_scramble);
    auto* cr = reinterpret_cast<conv_run*>(h + d_off_conv);
    auto* pr = reinterpret_cast<permute_run*>(h + d_off_permute);
    auto* mr = reinterpret_cast<map_run*>(h + d_off_map);
    unsigned long long psdu_off = 0, bit_off = 0, coded_off = 0, sym_off = 0, sample_off = 0;
    d_max_bits = d_max_coded = d_max_symbols_frame = d_max_samples = 0;
    for (size_t i = 0; i < n; i++) {
        const wifi_frame_request& f = frames[i];
        const size_t ri = rate_index(f.rate_mbps);
        const wifi_rate_info& r = wifi_rates()[ri];
        const unsigned long long n_sym = wifi_n_sym(f.len, f.rate_mbps);
        const unsigned long long n_data = n_sym * unsigned(r.n_dbps);
        const unsigned long long n_coded = n_sym * unsigned(r.n_cbps);
        const size_t samples = frame_samples(f.len, f.rate_mbps);

        descs[i] =
            wifi_frame_desc{ psdu_off,   bit_off,         coded_off,       sym_off,
                             sample_off, unsigned(f.len), unsigned(n_sym), unsigned(r.n_dbps),
                             r.rate_bits };
        std::memcpy(h + d_off_psdu + psdu_off, f.psdu, f.len);
        // DATA only is scrambled, from the seed (x7..x1 is the register, as scrambler.cc),
        // and its six tail bits are zeroed after scrambling (17.3.5.2).
        sr[i] =
            scramble_run{ bit_off + wifi_signal_bits, n_data, d_table.index_of(uint32_t(f.seed)),
                          unsigned(wifi_service_bits + 8 * f.len), wifi_tail_bits };
        // Both fields are encoded from the zero state; SIGNAL at rate 1/2 (17.3.4).
        cr[2 * i] = conv_run{ bit_off, coded_off, wifi_signal_bits, d_signal_code, 0, 0 };
        cr[2 * i + 1] =
            conv_run{ bit_off + wifi_signal_bits, coded_off + 48, n_data, d_codes[ri], 0, 0 };
        pr[2 * i] = permute_run{ coded_off, coded_off, 48, d_perm_offset[0], 48 };
        pr[2 * i + 1] = permute_run{ coded_off + 48, coded_off + 48, n_coded, d_perm_offset[ri],
                                     unsigned(r.n_cbps) };
        // The mapper writes each symbol's 48 points straight onto its data subcarriers.
        mr[2 * i] = map_run{ coded_off,        sym_off * fft_len,  wifi_data_carriers,
                             modulation::bpsk, wifi_data_carriers, unsigned(fft_len) };
        mr[2 * i + 1] =
            map_run{ coded_off + 48, (sym_off + 1) * fft_len, n_sym * wifi_data_carriers,
                     r.mod,          wifi_data_carriers,      unsigned(fft_len) };

        d_max_bits = std::max<size_t>(d_max_bits, wifi_signal_bits + n_data);
        d_max_coded = std::max<size_t>(d_max_coded, n_coded);
        d_max_symbols_frame = std::max<size_t>(d_max_symbols_frame, 1 + n_sym);
        d_max_samples = std::max(d_max_samples, samples);
        psdu_off += f.len;
        bit_off += wifi_signal_bits + n_data;
        coded_off += 48 + n_coded;
        sym_off += 1 + n_sym;
        sample_off += samples;
    }
    GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_stage.get(), h, d_off_psdu + psdu_off,
                                       cudaMemcpyHostToDevice, d_stream.get()));
    d_n_frames = n;
    d_n_symbols = sym_off;
    d_n_samples = sample_off;
}

void wifi_tx_cuda::launch_bins()
{
    use_device(d_device.cuda_index);
    if (d_n_frames == 0)
        return;
    const cudaStream_t s = d_stream.get();
    const size_t n_fr = d_n_frames;
    const unsigned char* st = d_stage.get();
    const auto* descs = reinterpret_cast<const wifi_frame_desc*>(st);
    const auto* sr = reinterpret_cast<const scramble_run*>(st + d_off_scramble);
    const auto* cr = reinterpret_cast<const conv_run*>(st + d_off_conv);
    const auto* pr = reinterpret_cast<const permute_run*>(st + d_off_permute);
    const auto* mr = reinterpret_cast<const map_run*>(st + d_off_map);

    wifi_bits_kernel<<<runs_grid(d_max_bits, n_fr), 256, 0, s>>>(descs, st + d_off_psdu,
                                                                 d_bits.get(), n_fr);
    GPUOFDM_CUDA_CHECK_LAUNCH(wifi_bits_kernel);
    launch_scramble(d_bits.get(), d_bits.get(), d_seq.get(), d_table.period(), sr, n_fr, d_max_bits,
                    s);
    launch_conv_encode(d_bits.get(), d_coded.get(), cr, 2 * n_fr, d_max_bits, s);
    launch_permute(d_coded.get(), d_interleaved.get(), d_perm.get(), pr, 2 * n_fr, d_max_coded,
                   false, s);
    launch_map(d_interleaved.get(), d_bins.get(), d_place.get(), mr, 2 * n_fr,
               d_max_symbols_frame * wifi_data_carriers, s);
    wifi_pilots_kernel<<<runs_grid(d_max_symbols_frame * 16, n_fr), 256, 0, s>>>(
        descs, reinterpret_cast<float2*>(d_bins.get()), n_fr);
    GPUOFDM_CUDA_CHECK_LAUNCH(wifi_pilots_kernel);
}

void wifi_tx_cuda::launch()
{
    if (d_n_frames == 0)
        return;
    launch_bins();
    d_plans->exec(reinterpret_cast<cufftComplex*>(d_bins.get()),
                  reinterpret_cast<cufftComplex*>(d_time.get()), d_n_symbols, CUFFT_INVERSE);
    // The same float as the CPU twin's OFDM modulator scale.
    const float scale = d_params.scale / float(fft_len);
    wifi_assemble_kernel<<<runs_grid(d_max_samples, d_n_frames), 256, 0, d_stream.get()>>>(
        reinterpret_cast<const wifi_frame_desc*>(d_stage.get()),
        reinterpret_cast<const float2*>(d_time.get()),
        reinterpret_cast<const float2*>(d_dev_preamble.get()),
        reinterpret_cast<float2*>(d_out.get()), scale, d_params.window, d_n_frames);
    GPUOFDM_CUDA_CHECK_LAUNCH(wifi_assemble_kernel);
}

void wifi_tx_cuda::fetch(cfloat* out)
{
    use_device(d_device.cuda_index);
    const size_t bytes = d_n_samples * sizeof(cfloat);
    GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_host_out.get(), d_out.get(), bytes, cudaMemcpyDeviceToHost,
                                       d_stream.get()));
    d_stream.synchronize();
    std::memcpy(out, d_host_out.get(), bytes);
}

void wifi_tx_cuda::fetch_bins(cfloat* out)
{
    use_device(d_device.cuda_index);
    const size_t bytes = d_n_symbols * fft_len * sizeof(cfloat);
    GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_host_out.get(), d_bins.get(), bytes,
                                       cudaMemcpyDeviceToHost, d_stream.get()));
    d_stream.synchronize();
    std::memcpy(out, d_host_out.get(), bytes);
}

void wifi_tx_cuda::process(const wifi_frame_request* frames, size_t n_frames, cfloat* out)
{
    validate(frames, n_frames);
    while (n_frames > 0) {
        const size_t k = batch_size(frames, n_frames);
        stage(frames, k);
        launch();
        fetch(out);
        out += d_n_samples;
        frames += k;
        n_frames -= k;
    }
}

void wifi_tx_cuda::process_bins(const wifi_frame_request* frames, size_t n_frames, cfloat* bins)
{
    validate(frames, n_frames);
    while (n_frames > 0) {
        const size_t k = batch_size(frames, n_frames);
        stage(frames, k);
        launch_bins();
        fetch_bins(bins);
        bins += d_n_symbols * fft_len;
        frames += k;
        n_frames -= k;
    }
}

} // namespace gr::gpuofdm::core
