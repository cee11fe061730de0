/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CUDA 802.16 transmitter: all bursts of a batch through the bit stages' device entry
// points and the RS code of the CPU twin, one batched inverse cuFFT, and one kernel for
// preambles, CP and scale. The arithmetic mirrors the CPU twin's.

#include "fec/conv_code.h"
#include "fec/interleaver.h"
#include "fec/bit_launch.cuh"
#include "ofdm/map_launch.cuh"
#include "wimax/wimax_tx_common.h"
#include "wimax/wimax_tx_cuda.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

namespace {

constexpr size_t align16(size_t n) { return (n + 15) / 16 * 16; }
// Most bits per data symbol: source K x 8 (108), RS N x 8 (120), coded N_cbps (1152).
constexpr size_t max_src_per_symbol = 108 * 8;
constexpr size_t max_rs_per_symbol = 120 * 8;
constexpr size_t max_coded_per_symbol = 1152;

// Source bits of every burst: data, 0xFF padding, 0x00 tail, each octet MSB first.
__global__ void wimax_src_kernel(const wimax_burst_desc* __restrict__ bursts,
                                 const uint8_t* __restrict__ data,
                                 uint8_t* __restrict__ bits,
                                 unsigned long long n_bursts)
{
    for (unsigned long long b = blockIdx.y; b < n_bursts; b += gridDim.y) {
        const wimax_burst_desc d = bursts[b];
        const unsigned long long total = (unsigned long long)d.n_blocks * d.code.k;
        for (unsigned long long i = blockIdx.x * 256ull + threadIdx.x; i < 8 * total;
             i += 256ull * gridDim.x)
            bits[d.src_offset + i] = wimax_source_bit(data + d.data_offset, d.len, total, i);
    }
}

// One thread per RS block: packs K randomized octets, rs_encode_one, unpacks N octets.
__global__ void wimax_rs_kernel(const wimax_burst_desc* __restrict__ bursts,
                                const uint8_t* __restrict__ src,
                                uint8_t* __restrict__ rs,
                                unsigned long long n_bursts)
{
    for (unsigned long long b = blockIdx.y; b < n_bursts; b += gridDim.y) {
        const wimax_burst_desc d = bursts[b];
        for (unsigned long long blk = blockIdx.x * 256ull + threadIdx.x; blk < d.n_blocks;
             blk += 256ull * gridDim.x) {
            uint8_t in[rs_mother_k];
            uint8_t out[rs_mother_k + rs_mother_parity];
            const uint8_t* s = src + d.src_offset + blk * d.code.k * 8;
            for (unsigned j = 0; j < d.code.k; j++) {
                unsigned v = 0;
                for (unsigned i = 0; i < 8; i++)
                    v = (v << 1) | (s[8 * j + i] & 1u);
                in[j] = uint8_t(v);
            }
            rs_encode_one(d.code, in, out);
            uint8_t* o = rs + d.rs_offset + blk * d.code.n * 8;
            for (unsigned j = 0; j < d.code.n; j++)
                for (unsigned i = 0; i < 8; i++)
                    o[8 * j + i] = uint8_t((out[j] >> (7 - i)) & 1u);
        }
    }
}

// The 64 non-data bins of every data symbol: pilots from w_k, DC and guards 0 (8.3.3.4.2).
__global__ void wimax_pilots_kernel(const wimax_burst_desc* __restrict__ bursts,
                                    const uint8_t* __restrict__ w,
                                    float2* __restrict__ bins,
                                    unsigned int n_pre,
                                    bool uplink,
                                    unsigned long long n_bursts)
{
    for (unsigned long long b = blockIdx.y; b < n_bursts; b += gridDim.y) {
        const wimax_burst_desc d = bursts[b];
        const unsigned long long n = (unsigned long long)d.n_blocks * wimax_nondata;
        for (unsigned long long i = blockIdx.x * 256ull + threadIdx.x; i < n;
             i += 256ull * gridDim.x) {
            const unsigned long long j = i / wimax_nondata;
            const unsigned int e = unsigned(i % wimax_nondata);
            const unsigned int wk = w[(n_pre + j) % wimax_pilot_period];
            bins[(d.symbol_offset + j) * 256 + wimax_nondata_bin(e)] =
                make_float2(e < 8 ? wimax_pilot_from_w(e, wk, uplink) : 0.0f, 0.0f);
        }
    }
}

// Every sample of every burst: the preamble, then each data symbol's CP (the last cp body
// samples) and body from the unscaled IFFT output, times scale.
__global__ void wimax_assemble_kernel(const wimax_burst_desc* __restrict__ bursts,
                                      const float2* __restrict__ time,
                                      const float2* __restrict__ preamble,
                                      float2* __restrict__ out,
                                      unsigned int n_preamble,
                                      unsigned int cp,
                                      float scale,
                                      unsigned long long n_bursts)
{
    const unsigned int sym = 256 + cp;
    for (unsigned long long b = blockIdx.y; b < n_bursts; b += gridDim.y) {
        const wimax_burst_desc d = bursts[b];
        const unsigned long long n = n_preamble + (unsigned long long)d.n_blocks * sym;
        const float2* t = time + d.symbol_offset * 256;
        for (unsigned long long k = blockIdx.x * 256ull + threadIdx.x; k < n;
             k += 256ull * gridDim.x) {
            float2 v;
            if (k < n_preamble) {
                v = preamble[k];
            } else {
                const unsigned long long j = (k - n_preamble) / sym;
                const unsigned int s = unsigned((k - n_preamble) % sym);
                const float2 x = t[j * 256 + (s < cp ? 256 - cp + s : s - cp)];
                v = make_float2(scale * x.x, scale * x.y);
            }
            out[d.sample_offset + k] = v;
        }
    }
}

unsigned table_index(int n_cbps)
{
    return n_cbps == 192 ? 0 : n_cbps == 384 ? 1 : n_cbps == 768 ? 2 : 3;
}

} // namespace

device_spec wimax_tx_cuda::activate(const device_spec& dev)
{
    use_device(dev.cuda_index);
    return dev;
}

wimax_tx_cuda::wimax_tx_cuda(const wimax_tx_params& p, const device_spec& dev)
    : wimax_tx(p), d_device(activate(dev)), d_table(lfsr_for(phy_standard::ieee80216))
{
    const size_t n_b = p.max_bursts_per_batch;
    const size_t n_sym = d_max_symbols;

    // Constant tables.
    d_seq = device_buffer<uint8_t>(d_table.period());
    GPUOFDM_CUDA_CHECK(
        cudaMemcpy(d_seq.get(), d_table.bits().data(), d_table.period(), cudaMemcpyHostToDevice));
    std::vector<uint32_t> perm;
    std::vector<unsigned> table_at(4, 0);
    const int n_cbps[4] = { 192, 384, 768, 1152 };
    for (unsigned t = 0; t < 4; t++) {
        table_at[t] = unsigned(perm.size());
        const auto tab =
            interleaver_permutation(phy_standard::ieee80216, n_cbps[t], n_cbps[t] / 192);
        perm.insert(perm.end(), tab.begin(), tab.end());
    }
    for (const auto& r : wimax_profiles()) {
        d_perm_offset.push_back(table_at[table_index(r.n_cbps)]);
        d_codes.push_back(make_conv_code(phy_standard::ieee80216, r.cc_rate));
    }
    d_perm = device_buffer<uint32_t>(perm.size());
    GPUOFDM_CUDA_CHECK(cudaMemcpy(d_perm.get(), perm.data(), perm.size() * sizeof(uint32_t),
                                  cudaMemcpyHostToDevice));
    const auto& place = wimax_data_bins();
    d_place = device_buffer<uint32_t>(place.size());
    GPUOFDM_CUDA_CHECK(cudaMemcpy(d_place.get(), place.data(), place.size() * sizeof(uint32_t),
                                  cudaMemcpyHostToDevice));
    std::vector<uint8_t> w(wimax_pilot_period);
    for (unsigned k = 0; k < wimax_pilot_period; k++)
        w[k] = uint8_t(wimax_pilot_w(k, p.uplink));
    d_w = device_buffer<uint8_t>(w.size());
    GPUOFDM_CUDA_CHECK(cudaMemcpy(d_w.get(), w.data(), w.size(), cudaMemcpyHostToDevice));
    d_dev_preamble = device_buffer<cfloat>(std::max<size_t>(1, d_preamble.size()));
    if (!d_preamble.empty())
        GPUOFDM_CUDA_CHECK(cudaMemcpy(d_dev_preamble.get(), d_preamble.data(),
                                      d_preamble.size() * sizeof(cfloat), cudaMemcpyHostToDevice));

    // Staging: burst table, one run of each stage per burst, data octets.
    d_off_scramble = align16(n_b * sizeof(wimax_burst_desc));
    d_off_conv = d_off_scramble + align16(n_b * sizeof(scramble_run));
    d_off_permute = d_off_conv + align16(n_b * sizeof(conv_run));
    d_off_map = d_off_permute + align16(n_b * sizeof(permute_run));
    d_off_data = d_off_map + align16(n_b * sizeof(map_run));
    d_stage_bytes = d_off_data + n_b * p.max_burst_bytes;
    d_host_stage = pinned_buffer<unsigned char>(d_stage_bytes);
    d_stage = device_buffer<unsigned char>(d_stage_bytes);

    d_src = device_buffer<uint8_t>(n_sym * max_src_per_symbol);
    d_rs = device_buffer<uint8_t>(n_sym * max_rs_per_symbol);
    d_coded = device_buffer<uint8_t>(n_sym * max_coded_per_symbol);
    d_interleaved = device_buffer<uint8_t>(n_sym * max_coded_per_symbol);
    d_bins = device_buffer<cfloat>(n_sym * fft_len);
    d_time = device_buffer<cfloat>(n_sym * fft_len);
    const size_t max_out = n_b * preamble_samples() + n_sym * symbol_samples();
    d_out = device_buffer<cfloat>(max_out);
    d_host_out = pinned_buffer<cfloat>(std::max(max_out, n_sym * fft_len));
    d_host_bits = pinned_buffer<uint8_t>(n_sym * max_coded_per_symbol);
    d_plans = std::make_unique<cufft_batch_plans>(fft_len, n_sym, d_stream.get());
}

size_t wimax_tx_cuda::batch_size(const wimax_burst_request* bursts, size_t n) const
{
    size_t k = 0, symbols = 0;
    while (k < n && k < d_params.max_bursts_per_batch) {
        const size_t s = burst_symbols(bursts[k].len, bursts[k].rate_id);
        if (k > 0 && symbols + s > d_max_symbols)
            break;
        symbols += s;
        k++;
    }
    return k;
}

void wimax_tx_cuda::stage(const wimax_burst_request* bursts, size_t n)
{
    use_device(d_device.cuda_index);
    validate(bursts, n);
    if (n == 0 || n > batch_size(bursts, n))
        throw std::invalid_argument(
            "n_bursts: a staged batch must hold 1..batch_size() bursts, got " + std::to_string(n));
    d_stream.synchronize(); // the previous batch's copies are done with the staging

    unsigned char* h = d_host_stage.get();
    auto* descs = reinterpret_cast<wimax_burst_desc*>(h);
    auto* sr = reinterpret_cast<scramble_run*>(h + d_off_scramble);
    auto* cr = reinterpret_cast<conv_run*>(h + d_off_conv);
    auto* pr = reinterpret_cast<permute_run*>(h + d_off_permute);
    auto* mr = reinterpret_cast<map_run*>(h + d_off_map);
    unsigned long long data_off = 0, src_off = 0, rs_off = 0, coded_off = 0, sym_off = 0,
                       sample_off = 0;
    d_max_src = d_max_rs = d_max_coded = d_max_blocks = d_max_samples = 0;
    for (size_t i = 0; i < n; i++) {
        const wimax_burst_request& b = bursts[i];
        const wimax_profile_info& r = wimax_profiles()[size_t(b.rate_id)];
        const unsigned long long blocks = burst_symbols(b.len, b.rate_id);
        const unsigned long long n_src = blocks * r.rs.k * 8;
        const unsigned long long n_rs = blocks * r.rs.n * 8;
        const unsigned long long n_coded = blocks * unsigned(r.n_cbps);
        const size_t samples = burst_samples(b.len, b.rate_id);

        descs[i] = wimax_burst_desc{ data_off,         src_off,
                                     rs_off,           sym_off,
                                     sample_off,       unsigned(b.len),
                                     unsigned(blocks), rs_make_code(r.rs.n, r.rs.k, r.rs.t) };
        std::memcpy(h + d_off_data + data_off, b.data, b.len);
        // The randomizer from the burst's seed (the register as scrambler.cc loads it),
        // over data and padding; the tail byte stays 0x00 (8.3.3.1, 8.3.3.2).
        scrambler_params sp;
        sp.standard = phy_standard::ieee80216;
        sp.seed = b.seed;
        const uint32_t reg = make_scrambler(sp, device_spec{})->initial_state().reg;
        sr[i] = scramble_run{ src_off, n_src - 8, d_table.index_of(reg), 0, 0 };
        // The code over the whole burst from the zero state (8.3.3.2).
        cr[i] = conv_run{ rs_off, coded_off, n_rs, d_codes[size_t(b.rate_id)], 0, 0 };
        pr[i] = permute_run{ coded_off, coded_off, n_coded, d_perm_offset[size_t(b.rate_id)],
                             unsigned(r.n_cbps) };
        // The mapper writes each symbol's 192 points straight onto its data subcarriers.
        mr[i] = map_run{ coded_off,
                         sym_off * fft_len,
                         blocks * data_carriers,
                         r.mod,
                         unsigned(data_carriers),
                         unsigned(fft_len),
                         phy_standard::ieee80216 };

        d_max_src = std::max<size_t>(d_max_src, n_src);
        d_max_rs = std::max<size_t>(d_max_rs, n_rs);
        d_max_coded = std::max<size_t>(d_max_coded, n_coded);
        d_max_blocks = std::max<size_t>(d_max_blocks, blocks);
        d_max_samples = std::max(d_max_samples, samples);
        data_off += b.len;
        src_off += n_src;
        rs_off += n_rs;
        coded_off += n_coded;
        sym_off += blocks;
        sample_off += samples;
    }
    GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_stage.get(), h, d_off_data + data_off,
                                       cudaMemcpyHostToDevice, d_stream.get()));
    d_n_bursts = n;
    d_n_symbols = sym_off;
    d_n_samples = sample_off;
    d_n_src = src_off;
    d_n_rs = rs_off;
    d_n_coded = coded_off;
}

void wimax_tx_cuda::launch_bins()
{
    use_device(d_device.cuda_index);
    if (d_n_bursts == 0)
        return;
    const cudaStream_t s = d_stream.get();
    const size_t n_b = d_n_bursts;
    const unsigned char* st = d_stage.get();
    const auto* descs = reinterpret_cast<const wimax_burst_desc*>(st);
    const auto* sr = reinterpret_cast<const scramble_run*>(st + d_off_scramble);
    const auto* cr = reinterpret_cast<const conv_run*>(st + d_off_conv);
    const auto* pr = reinterpret_cast<const permute_run*>(st + d_off_permute);
    const auto* mr = reinterpret_cast<const map_run*>(st + d_off_map);

    wimax_src_kernel<<<runs_grid(d_max_src, n_b), 256, 0, s>>>(descs, st + d_off_data, d_src.get(),
                                                               n_b);
    GPUOFDM_CUDA_CHECK_LAUNCH(wimax_src_kernel);
    launch_scramble(d_src.get(), d_src.get(), d_seq.get(), d_table.period(), sr, n_b, d_max_src, s);
    wimax_rs_kernel<<<runs_grid(d_max_blocks, n_b), 256, 0, s>>>(descs, d_src.get(), d_rs.get(),
                                                                 n_b);
    GPUOFDM_CUDA_CHECK_LAUNCH(wimax_rs_kernel);
    launch_conv_encode(d_rs.get(), d_coded.get(), cr, n_b, d_max_rs, s);
    launch_permute(d_coded.get(), d_interleaved.get(), d_perm.get(), pr, n_b, d_max_coded, false,
                   s);
    launch_map(d_interleaved.get(), d_bins.get(), d_place.get(), mr, n_b,
               d_max_blocks * data_carriers, s);
    wimax_pilots_kernel<<<runs_grid(d_max_blocks * wimax_nondata, n_b), 256, 0, s>>>(
        descs, d_w.get(), reinterpret_cast<float2*>(d_bins.get()),
        wimax_preamble_symbols(d_params.preamble), d_params.uplink, n_b);
    GPUOFDM_CUDA_CHECK_LAUNCH(wimax_pilots_kernel);
}

void wimax_tx_cuda::launch()
{
    if (d_n_bursts == 0)
        return;
    launch_bins();
    d_plans->exec(reinterpret_cast<cufftComplex*>(d_bins.get()),
                  reinterpret_cast<cufftComplex*>(d_time.get()), d_n_symbols, CUFFT_INVERSE);
    // The same float as the CPU twin's OFDM modulator scale.
    const float scale = d_params.scale / float(fft_len);
    wimax_assemble_kernel<<<runs_grid(d_max_samples, d_n_bursts), 256, 0, d_stream.get()>>>(
        reinterpret_cast<const wimax_burst_desc*>(d_stage.get()),
        reinterpret_cast<const float2*>(d_time.get()),
        reinterpret_cast<const float2*>(d_dev_preamble.get()),
        reinterpret_cast<float2*>(d_out.get()), unsigned(preamble_samples()), unsigned(cp_len()),
        scale, d_n_bursts);
    GPUOFDM_CUDA_CHECK_LAUNCH(wimax_assemble_kernel);
}

void wimax_tx_cuda::fetch(cfloat* out)
{
    use_device(d_device.cuda_index);
    const size_t bytes = d_n_samples * sizeof(cfloat);
    GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_host_out.get(), d_out.get(), bytes, cudaMemcpyDeviceToHost,
                                       d_stream.get()));
    d_stream.synchronize();
    std::memcpy(out, d_host_out.get(), bytes);
}

void wimax_tx_cuda::fetch_bins(cfloat* out)
{
    use_device(d_device.cuda_index);
    const size_t bytes = d_n_symbols * fft_len * sizeof(cfloat);
    GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_host_out.get(), d_bins.get(), bytes,
                                       cudaMemcpyDeviceToHost, d_stream.get()));
    d_stream.synchronize();
    std::memcpy(out, d_host_out.get(), bytes);
}

void wimax_tx_cuda::trace(const wimax_burst_request& burst, wimax_burst_trace& out)
{
    validate(&burst, 1);
    stage(&burst, 1);
    launch_bins();
    auto bits_of = [&](const uint8_t* dev, size_t n) {
        GPUOFDM_CUDA_CHECK(
            cudaMemcpyAsync(d_host_bits.get(), dev, n, cudaMemcpyDeviceToHost, d_stream.get()));
        d_stream.synchronize();
        return std::vector<uint8_t>(d_host_bits.get(), d_host_bits.get() + n);
    };
    auto octets = [](const std::vector<uint8_t>& bits, size_t n_octets) {
        std::vector<uint8_t> o(n_octets, 0);
        for (size_t i = 0; i < 8 * n_octets; i++)
            o[i >> 3] |= uint8_t((bits[i] & 1u) << (7 - (i & 7)));
        return o;
    };
    out.randomized = octets(bits_of(d_src.get(), d_n_src), d_n_src / 8 - 1);
    out.rs_encoded = octets(bits_of(d_rs.get(), d_n_rs), d_n_rs / 8);
    out.cc_encoded = bits_of(d_coded.get(), d_n_coded);
    out.interleaved = bits_of(d_interleaved.get(), d_n_coded);
}

void wimax_tx_cuda::process(const wimax_burst_request* bursts, size_t n, cfloat* out)
{
    validate(bursts, n);
    while (n > 0) {
        const size_t k = batch_size(bursts, n);
        stage(bursts, k);
        launch();
        fetch(out);
        out += d_n_samples;
        bursts += k;
        n -= k;
    }
}

void wimax_tx_cuda::process_bins(const wimax_burst_request* bursts, size_t n, cfloat* bins)
{
    validate(bursts, n);
    while (n > 0) {
        const size_t k = batch_size(bursts, n);
        stage(bursts, k);
        launch_bins();
        fetch_bins(bins);
        bins += d_n_symbols * fft_len;
        bursts += k;
        n -= k;
    }
}

} // namespace gr::gpuofdm::core
