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
#include "fec/scrambler.h"
#include "ofdm/map_launch.cuh"
#include "runtime/burst_batch_cuda.h"
#include "wimax/wimax_tx.h"
#include "wimax/wimax_tx_common.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

namespace {

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

/*!
 * \brief The CUDA transmitter: every burst of a batch in one device-resident chain.
 *
 * Per batch (burst_batch_cuda): the burst table, the per-stage run tables and the data
 * octets go to the device in one copy; then on the stream: the source bits (data, 0xFF pad,
 * tail; one kernel), the randomizer (launch_scramble, tail excluded), the RS encoder (one
 * thread per block, rs_encode_one of the CPU twin), the convolutional encoder with
 * puncturing (launch_conv_encode), the interleaver (launch_permute), the 802.16 mapper
 * writing straight onto the data subcarriers (launch_map), pilots and nulls (one kernel),
 * one batched inverse cuFFT over every data symbol of every burst, and one kernel writing
 * the preambles, cyclic prefixes and the scale; then one copy back.
 */
class wimax_tx_cuda final : public burst_tx_cuda<wimax_tx, wimax_burst_request>
{
public:
    wimax_tx_cuda(const wimax_tx_params& p, const device_spec& dev);
    //! Runs the burst alone through the device chain and copies its intermediates back.
    void trace(const wimax_burst_request& burst, wimax_burst_trace& out) override;

private:
    size_t symbols_of(const wimax_burst_request& b) const override
    {
        return burst_symbols(b.len, b.rate_id);
    }
    staged_batch lay_out(const wimax_burst_request* bursts, size_t n, unsigned char* h) override;
    void enqueue_bins() override;
    void enqueue_assembly() override;

    //! Staging: burst table, one run of each stage per burst, data octets.
    using tables = staged_tables<wimax_burst_desc, scramble_run, conv_run, permute_run, map_run>;
    static tables tables_for(size_t n_bursts);
    //! The batch runner's sizes.
    static burst_batch_limits limits(const wimax_tx_params& p);

    const tables d_tables;
    lfsr_period_table d_table;

    // Constant tables on the device.
    device_buffer<uint8_t> d_seq;        //!< the randomizer's period table
    device_buffer<uint32_t> d_perm;      //!< interleaver tables (192/1, 384/2, 768/4, 1152/6)
    device_buffer<uint32_t> d_place;     //!< bin of data subcarrier d = 0..191
    device_buffer<uint8_t> d_w;          //!< pilot PRBS w_k, k = 0..2046
    std::vector<unsigned> d_perm_offset; //!< per profile: its table in d_perm
    std::vector<conv_code> d_codes;      //!< per profile

    // Work buffers, sized for d_max_symbols data symbols.
    device_buffer<uint8_t> d_src; //!< source bits, randomized in place
    device_buffer<uint8_t> d_rs;  //!< RS-encoded bits
    device_buffer<uint8_t> d_coded;
    device_buffer<uint8_t> d_interleaved;

    // The staged batch.
    size_t d_n_src = 0, d_n_rs = 0, d_n_coded = 0; //!< bits in the batch's buffers
    size_t d_max_src = 0, d_max_rs = 0, d_max_coded = 0, d_max_blocks = 0, d_max_samples = 0;
};

wimax_tx_cuda::tables wimax_tx_cuda::tables_for(size_t n_bursts)
{
    return tables(n_bursts, { 1, 1, 1, 1 });
}

burst_batch_limits wimax_tx_cuda::limits(const wimax_tx_params& p)
{
    p.validate(); // before the sizes are computed from it
    const size_t max_symbols = p.symbols_per_batch();
    const size_t n_b = p.max_bursts_per_batch;
    const size_t symbol = fft_len + fft_len / size_t(p.cp_div);
    return { fft_len,
             n_b,
             max_symbols,
             n_b * wimax_preamble_symbols(p.preamble) * symbol + max_symbols * symbol,
             tables_for(n_b).octets() + n_b * p.max_burst_bytes,
             "bursts" };
}

wimax_tx_cuda::wimax_tx_cuda(const wimax_tx_params& p, const device_spec& dev)
    : burst_tx_cuda(p, dev, limits(p)), d_tables(tables_for(p.max_bursts_per_batch)),
      d_table(lfsr_for(phy_standard::ieee80216))
{
    const size_t n_sym = d_max_symbols;

    // Constant tables.
    d_seq = upload(d_table.bits());
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
    d_perm = upload(perm);
    d_place = upload(wimax_data_bins());
    std::vector<uint8_t> w(wimax_pilot_period);
    for (unsigned k = 0; k < wimax_pilot_period; k++)
        w[k] = uint8_t(wimax_pilot_w(k, p.uplink));
    d_w = upload(w);

    d_src = device_buffer<uint8_t>(n_sym * max_src_per_symbol);
    d_rs = device_buffer<uint8_t>(n_sym * max_rs_per_symbol);
    d_coded = device_buffer<uint8_t>(n_sym * max_coded_per_symbol);
    d_interleaved = device_buffer<uint8_t>(n_sym * max_coded_per_symbol);
}

staged_batch wimax_tx_cuda::lay_out(const wimax_burst_request* bursts, size_t n, unsigned char* h)
{
    const auto [descs, sr, cr, pr, mr] = d_tables.at(h);
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
        std::memcpy(h + d_tables.octets() + data_off, b.data, b.len);
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
    d_n_src = src_off;
    d_n_rs = rs_off;
    d_n_coded = coded_off;
    return { n, size_t(sym_off), size_t(sample_off), size_t(d_tables.octets() + data_off) };
}

void wimax_tx_cuda::enqueue_bins()
{
    const cudaStream_t s = stream();
    const size_t n_b = staged().bursts;
    const unsigned char* st = device_stage();
    const auto [descs, sr, cr, pr, mr] = d_tables.at(st);

    wimax_src_kernel<<<runs_grid(d_max_src, n_b), 256, 0, s>>>(descs, st + d_tables.octets(),
                                                               d_src.get(), n_b);
    GPUOFDM_CUDA_CHECK_LAUNCH(wimax_src_kernel);
    launch_scramble(d_src.get(), d_src.get(), d_seq.get(), d_table.period(), sr, n_b, d_max_src, s);
    wimax_rs_kernel<<<runs_grid(d_max_blocks, n_b), 256, 0, s>>>(descs, d_src.get(), d_rs.get(),
                                                                 n_b);
    GPUOFDM_CUDA_CHECK_LAUNCH(wimax_rs_kernel);
    launch_conv_encode(d_rs.get(), d_coded.get(), cr, n_b, d_max_rs, s);
    launch_permute(d_coded.get(), d_interleaved.get(), d_perm.get(), pr, n_b, d_max_coded, false,
                   s);
    launch_map(d_interleaved.get(), bins(), d_place.get(), mr, n_b, d_max_blocks * data_carriers,
               s);
    wimax_pilots_kernel<<<runs_grid(d_max_blocks * wimax_nondata, n_b), 256, 0, s>>>(
        descs, d_w.get(), reinterpret_cast<float2*>(bins()),
        wimax_preamble_symbols(d_params.preamble), d_params.uplink, n_b);
    GPUOFDM_CUDA_CHECK_LAUNCH(wimax_pilots_kernel);
}

void wimax_tx_cuda::enqueue_assembly()
{
    // The same float as the CPU twin's OFDM modulator scale.
    const float scale = d_params.scale / float(fft_len);
    wimax_assemble_kernel<<<runs_grid(d_max_samples, staged().bursts), 256, 0, stream()>>>(
        d_tables.descs(device_stage()), reinterpret_cast<const float2*>(time()),
        reinterpret_cast<const float2*>(device_preamble()), reinterpret_cast<float2*>(out()),
        unsigned(preamble_samples()), unsigned(cp_len()), scale, staged().bursts);
    GPUOFDM_CUDA_CHECK_LAUNCH(wimax_assemble_kernel);
}

void wimax_tx_cuda::trace(const wimax_burst_request& burst, wimax_burst_trace& out)
{
    validate(&burst, 1);
    stage(&burst, 1);
    launch_bins();
    auto bits_of = [&](const uint8_t* dev, size_t n) {
        std::vector<uint8_t> bits(n);
        copy_back(dev, n, bits.data());
        return bits;
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

std::unique_ptr<wimax_tx> make_wimax_tx_cuda(const wimax_tx_params& p, const device_spec& dev)
{
    return std::make_unique<wimax_tx_cuda>(p, dev);
}

} // namespace gr::gpuofdm::core
