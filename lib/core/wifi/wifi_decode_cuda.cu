/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CUDA 802.11a DATA-field decoder: every frame of a batch through the stages' device entry
// points (launch_demap, launch_permute, depuncture_cuda) after one H2D copy of all frames'
// symbols, gains and run tables; then the CUDA Viterbi decoder on the frames grouped by
// code rate and length, its input gathered device-to-device from the mother-code LLRs
// (device_load_from_device), and only the decoded bits copied back for the shared host step
// (descrambling, octets, FCS: a few bytes a frame). Every stage is bit-exact with its CPU
// twin, so the results equal wifi_decode_cpu.cc's. The decoder and its Viterbi decoders
// share one context (a receiver's, when it hands one): every step is queued on its stream,
// and the host waits only for each launch's decoded bits.

#include "runtime/cuda_check.h"
#include "runtime/cuda_context.h"
#include "ofdm/demapper.h"
#include "fec/depuncture.h"
#include "fec/interleaver.h"
#include "fec/bit_launch.cuh"
#include "ofdm/map_launch.cuh"
#include "fec/viterbi.h"
#include "wifi/wifi_decode.h"
#include "wifi/wifi_tx.h"
#include "runtime/worker_pool.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <utility>

namespace gr::gpuofdm::core {

namespace {

constexpr size_t align16(size_t n) { return (n + 15) / 16 * 16; }
constexpr size_t max_cbps = 288; //!< 64-QAM
constexpr size_t max_dbps = 216; //!< 54 Mb/s

size_t rate_index(int mbps)
{
    const auto& rates = wifi_rates();
    size_t i = 0;
    while (rates[i].mbps != mbps) // validated before
        i++;
    return i;
}

class wifi_decoder_cuda : public wifi_decoder
{
public:
    wifi_decoder_cuda(const wifi_decode_params& p,
                      const device_spec& dev,
                      const cuda_context_ptr& ctx)
        : wifi_decoder(p), d_device(dev), d_ctx(cuda_context::for_stage(dev, ctx))
    {
        const size_t n_fr = p.max_frames_per_batch;
        const size_t n_sym = p.max_symbols_per_batch;

        // Permutation tables, one per N_CBPS (17.3.5.6), and per rate its table's offset.
        std::vector<uint32_t> perm;
        std::map<int, unsigned> table_at;
        for (const auto& r : wifi_rates()) {
            if (!table_at.count(r.n_cbps)) {
                table_at[r.n_cbps] = unsigned(perm.size());
                const auto t =
                    interleaver_permutation(phy_standard::ieee80211a, r.n_cbps, r.n_bpsc);
                perm.insert(perm.end(), t.begin(), t.end());
            }
            d_perm_offset.push_back(table_at[r.n_cbps]);
        }
        d_perm = device_buffer<uint32_t>(perm.size());
        GPUOFDM_CUDA_CHECK(cudaMemcpy(d_perm.get(), perm.data(), perm.size() * sizeof(uint32_t),
                                      cudaMemcpyHostToDevice));

        // Viterbi decoders: one per code rate (the parameters depend on nothing else).
        for (const auto& r : wifi_rates()) {
            const int cr = int(r.rate);
            if (!d_viterbi.count(cr))
                d_viterbi[cr] = make_viterbi_decoder(
                    viterbi_params::for_protocol("80211a", to_string(r.rate)), dev, d_ctx);
        }

        // Staging: run tables, gains, then the symbols (the used prefix goes in one copy).
        d_off_permute = align16(n_fr * sizeof(demap_run));
        d_off_gain = d_off_permute + align16(n_fr * sizeof(permute_run));
        d_off_symbols = d_off_gain + align16(n_fr * 48 * sizeof(float));
        const size_t stage_bytes = d_off_symbols + n_sym * 48 * sizeof(cfloat);
        d_host_stage = pinned_buffer<unsigned char>(stage_bytes);
        d_stage = device_buffer<unsigned char>(stage_bytes);

        d_llr = device_buffer<float>(n_sym * max_cbps);
        d_deint = device_buffer<float>(n_sym * max_cbps);
        d_mother = device_buffer<float>(n_sym * 2 * max_dbps);
        // A launch decodes at most a batch's trellis steps (every step a data bit).
        d_bits = pinned_buffer<uint8_t>(n_sym * max_dbps);
    }

    device_spec device() const override { return d_device; }

protected:
    void run(const wifi_rx_frame* frames, size_t n_frames, wifi_rx_result* out) override
    {
        decode(frames, n_frames, out, false);
    }

    void run_device(const wifi_rx_frame* frames, size_t n_frames, wifi_rx_result* out) override
    {
        decode(frames, n_frames, out, true);
    }

private:
    //! The batch: symbols (and gains) copied from the host into the staging area, or
    //! (on_device) read where the frames point on the device.
    void decode(const wifi_rx_frame* frames, size_t n_frames, wifi_rx_result* out, bool on_device)
    {
        if (n_frames == 0)
            return;
        use_device(d_device.cuda_index);
        unsigned char* hs = d_host_stage.get();
        auto* h_demap = reinterpret_cast<demap_run*>(hs);
        auto* h_perm = reinterpret_cast<permute_run*>(hs + d_off_permute);
        auto* h_gain = reinterpret_cast<float*>(hs + d_off_gain);
        auto* h_sym = reinterpret_cast<cfloat*>(hs + d_off_symbols);

        // Device input: offsets from the lowest symbol and gain pointers.
        const cfloat* sym_base = frames[0].symbols;
        const float* gain_base = nullptr;
        for (size_t i = 0; i < n_frames; i++) {
            sym_base = std::min(sym_base, frames[i].symbols);
            if (frames[i].gain)
                gain_base = gain_base ? std::min(gain_base, frames[i].gain) : frames[i].gain;
        }

        // Per frame: points from P, coded values from L, mother-code LLRs from M.
        d_mother_at.assign(n_frames + 1, 0);
        std::vector<size_t> coded_at(n_frames + 1, 0);
        size_t points = 0, max_points = 0, max_coded = 0;
        for (size_t i = 0; i < n_frames; i++) {
            const wifi_rx_frame& f = frames[i];
            const wifi_rate_info& r = wifi_rates()[rate_index(f.rate_mbps)];
            const size_t n_sym = wifi_n_sym(f.len, f.rate_mbps);
            const size_t n_points = 48 * n_sym;
            const size_t n_coded = size_t(r.n_cbps) * n_sym;
            size_t in_at = points, gain_at = 48 * i;
            if (on_device) {
                in_at = size_t(f.symbols - sym_base);
                gain_at = f.gain ? size_t(f.gain - gain_base) : 0;
            } else {
                std::memcpy(h_sym + points, f.symbols, n_points * sizeof(cfloat));
                if (f.gain)
                    std::memcpy(h_gain + 48 * i, f.gain, 48 * sizeof(float));
            }
            // w = 1 / noise_var as demapper::process() computes it.
            h_demap[i] = demap_run{ in_at, coded_at[i],       n_points, gain_at, f.gain ? 48u : 0u,
                                    r.mod, 1.0f / f.noise_var };
            h_perm[i] = permute_run{ coded_at[i], coded_at[i], n_coded,
                                     d_perm_offset[rate_index(f.rate_mbps)], unsigned(r.n_cbps) };
            points += n_points;
            coded_at[i + 1] = coded_at[i] + n_coded;
            d_mother_at[i + 1] = d_mother_at[i] + 2 * size_t(r.n_dbps) * n_sym;
            max_points = std::max(max_points, n_points);
            max_coded = std::max(max_coded, n_coded);
        }

        // One H2D copy: run tables (gains and symbols too unless they are on the device).
        const cudaStream_t s = d_ctx->stream();
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(
            d_stage.get(), hs, on_device ? d_off_gain : d_off_symbols + points * sizeof(cfloat),
            cudaMemcpyHostToDevice, s));
        unsigned char* ds = d_stage.get();
        const cfloat* d_sym =
            on_device ? sym_base : reinterpret_cast<const cfloat*>(ds + d_off_symbols);
        const float* d_gain =
            on_device ? gain_base : reinterpret_cast<const float*>(ds + d_off_gain);
        // 17.3.5.7 soft demapping, 17.3.5.6 deinterleaving: one launch each for all frames.
        launch_demap(d_sym, d_gain, d_llr.get(), reinterpret_cast<const demap_run*>(ds), n_frames,
                     max_points, false, s);
        launch_permute(d_llr.get(), d_deint.get(), d_perm.get(),
                       reinterpret_cast<const permute_run*>(ds + d_off_permute), n_frames,
                       max_coded, true, s);
        // 17.3.5.6 depuncturing: frames are whole periods, so neighbours of one code rate
        // go in one call.
        for (size_t i = 0; i < n_frames;) {
            const code_rate cr = wifi_rate(frames[i].rate_mbps).rate;
            size_t j = i + 1;
            while (j < n_frames && wifi_rate(frames[j].rate_mbps).rate == cr)
                j++;
            depuncture_cuda(d_deint.get() + coded_at[i], coded_at[j] - coded_at[i],
                            d_mother.get() + d_mother_at[i],
                            depuncture_pattern::make("80211a", to_string(cr)), s);
            i = j;
        }
        // The depunctured LLRs stay on the device: the Viterbi decoders, on the same
        // stream, copy them device-to-device from d_mother after the depuncturer wrote it.

        // 17.3.5.5: the frames of one code rate and length decode together as terminated
        // frames of their first decoded_steps(len) steps (the pad bits are not decoded),
        // gathered device-to-device into the decoder's LLR buffer, as many as one launch
        // takes; only the decoded bits (one byte a step) come back to the host.
        std::map<std::pair<int, size_t>, std::vector<size_t>> groups;
        for (size_t i = 0; i < n_frames; i++)
            groups[{ int(wifi_rate(frames[i].rate_mbps).rate), frames[i].len }].push_back(i);
        for (const auto& [key, members] : groups) {
            const size_t steps = decoded_steps(key.second);
            viterbi_decoder& vit = *d_viterbi.at(key.first);
            const size_t per_launch = vit.frames_per_launch(steps);
            for (size_t g = 0; g < members.size(); g += per_launch) {
                const size_t n = std::min(per_launch, members.size() - g);
                // Runs of frames evenly spaced in d_mother (neighbours of one rate and
                // length: the usual case) go in one strided copy.
                for (size_t m = 0; m < n;) {
                    const size_t first = d_mother_at[members[g + m]];
                    size_t rows = 1, pitch = 0;
                    if (m + 1 < n) {
                        pitch = d_mother_at[members[g + m + 1]] - first;
                        while (m + rows < n && pitch >= 2 * steps &&
                               d_mother_at[members[g + m + rows]] == first + rows * pitch)
                            rows++;
                    }
                    vit.device_load_from_device(d_mother.get() + first, 2 * steps, 2 * steps * m,
                                                rows, rows > 1 ? pitch : 0);
                    m += rows;
                }
                vit.enqueue_decode_frames(steps, n);
                vit.device_fetch(d_bits.get(), steps * n);
                // Descrambling, octets and FCS on the host: many frames, so many threads.
                const size_t len = key.second;
                const std::vector<size_t>& who = members;
                parallel_slices(d_pool.get(), n, 8, [&, len, g](size_t b, size_t e) {
                    for (size_t m = b; m < e; m++)
                        finish_frame(d_bits.get() + steps * m, len, out[who[g + m]]);
                });
            }
        }
    }

    device_spec d_device;
    cuda_context_ptr d_ctx;              //!< made current before the buffers are allocated
    std::vector<unsigned> d_perm_offset; //!< per rate of wifi_rates()
    device_buffer<uint32_t> d_perm;
    std::map<int, std::unique_ptr<viterbi_decoder>> d_viterbi; //!< by code_rate
    size_t d_off_permute = 0, d_off_gain = 0, d_off_symbols = 0;
    pinned_buffer<unsigned char> d_host_stage;
    device_buffer<unsigned char> d_stage;
    device_buffer<float> d_llr;      //!< demapped, frame after frame
    device_buffer<float> d_deint;    //!< deinterleaved
    device_buffer<float> d_mother;   //!< depunctured: rate-1/2 LLR pairs
    std::vector<size_t> d_mother_at; //!< first mother-code LLR of each frame
    //! Decoded bits of one launch, one a byte (pinned: the D2H copy runs at PCIe speed).
    pinned_buffer<uint8_t> d_bits;
    std::unique_ptr<worker_pool> d_pool = make_worker_pool(8);
};

} // namespace

std::unique_ptr<wifi_decoder> make_wifi_decoder_cuda(const wifi_decode_params& p,
                                                     const device_spec& dev,
                                                     const cuda_context_ptr& ctx)
{
    return std::make_unique<wifi_decoder_cuda>(p, dev, ctx);
}

} // namespace gr::gpuofdm::core
