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
#include "fec/scrambler.h"
#include "ofdm/map_launch.cuh"
#include "runtime/burst_batch_cuda.h"
#include "wifi/wifi_tx.h"
#include "wifi/wifi_tx_common.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

namespace {

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

/*!
 * \brief The CUDA transmitter: every frame of a batch in one device-resident chain.
 *
 * Per batch (burst_batch_cuda): the frame table, the per-stage run tables and the PSDU
 * octets go to the device in one copy; then on the stream: the SIGNAL and DATA bits (one
 * kernel), the scrambler with tail zeroing (launch_scramble), the encoder with puncturing
 * (launch_conv_encode), the interleaver (launch_permute), the mapper writing straight into
 * the data subcarriers (launch_map), pilots and nulls (one kernel), one batched inverse
 * cuFFT over every SIGNAL and DATA symbol of every frame, and one kernel that writes the
 * preambles, the cyclic prefixes, the scale and the windowing into the frames; then one
 * copy of all frames back.
 */
class wifi_tx_cuda final : public burst_tx_cuda<wifi_tx, wifi_frame_request>
{
public:
    wifi_tx_cuda(const wifi_tx_params& p, const device_spec& dev);

private:
    size_t symbols_of(const wifi_frame_request& f) const override
    {
        return frame_symbols(f.len, f.rate_mbps);
    }
    staged_batch lay_out(const wifi_frame_request* frames, size_t n, unsigned char* h) override;
    void enqueue_bins() override;
    void enqueue_assembly() override;
    //! Staging: frame table, run tables (per frame one scrambler run, DATA, and two of each
    //! other stage, SIGNAL and DATA), PSDU octets.
    using tables = staged_tables<wifi_frame_desc, scramble_run, conv_run, permute_run, map_run>;
    static tables tables_for(size_t n_frames);
    //! The batch runner's sizes.
    static burst_batch_limits limits(const wifi_tx_params& p);

    const tables d_tables;
    lfsr_period_table d_table;

    // Constant tables on the device.
    device_buffer<uint8_t> d_seq;        //!< the scrambler's period table
    device_buffer<uint32_t> d_perm;      //!< the 4 interleaver tables (48/1, 96/2, 192/4, 288/6)
    device_buffer<uint32_t> d_place;     //!< bin of data subcarrier k = 0..47
    std::vector<unsigned> d_perm_offset; //!< per rate: its table in d_perm (SIGNAL: rate 6's)
    std::vector<conv_code> d_codes;      //!< per rate
    conv_code d_signal_code;             //!< rate 1/2

    // Work buffers, sized for max_frames_per_batch frames of d_max_symbols symbols.
    device_buffer<uint8_t> d_bits;
    device_buffer<uint8_t> d_coded;
    device_buffer<uint8_t> d_interleaved;

    // The staged batch.
    size_t d_max_bits = 0;  //!< most SIGNAL + DATA bits of a frame
    size_t d_max_coded = 0; //!< most DATA coded bits of a frame
    size_t d_max_symbols_frame = 0;
    size_t d_max_samples = 0; //!< most samples of a frame
};

wifi_tx_cuda::tables wifi_tx_cuda::tables_for(size_t n_frames)
{
    return tables(n_frames, { 1, 2, 2, 2 });
}

burst_batch_limits wifi_tx_cuda::limits(const wifi_tx_params& p)
{
    p.validate(); // before the sizes are computed from it
    const size_t max_symbols = p.symbols_per_batch();
    const size_t n_fr = p.max_frames_per_batch;
    return { fft_len,
             n_fr,
             max_symbols,
             n_fr * (preamble_samples + 1) + max_symbols * symbol_samples,
             tables_for(n_fr).octets() + n_fr * p.max_psdu_bytes,
             "frames" };
}

wifi_tx_cuda::wifi_tx_cuda(const wifi_tx_params& p, const device_spec& dev)
    : burst_tx_cuda(p, dev, limits(p)), d_tables(tables_for(p.max_frames_per_batch)),
      d_table(lfsr_for(phy_standard::ieee80211a))
{
    const size_t n_sym = d_max_symbols;

    // Constant tables.
    d_seq = upload(d_table.bits());
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
    d_perm = upload(perm);
    std::vector<uint32_t> place(wifi_data_carriers);
    for (unsigned k = 0; k < wifi_data_carriers; k++)
        place[k] = wifi_bin(wifi_data_subcarrier(k));
    d_place = upload(place);

    // A symbol holds at most 216 data and 288 coded bits (54 Mb/s); SIGNAL 24 and 48.
    d_bits = device_buffer<uint8_t>(p.max_frames_per_batch * wifi_signal_bits + n_sym * 216);
    d_coded = device_buffer<uint8_t>(n_sym * 288);
    d_interleaved = device_buffer<uint8_t>(n_sym * 288);
}

staged_batch wifi_tx_cuda::lay_out(const wifi_frame_request* frames, size_t n, unsigned char* h)
{
    const auto [descs, sr, cr, pr, mr] = d_tables.at(h);
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
        std::memcpy(h + d_tables.octets() + psdu_off, f.psdu, f.len);
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
    return { n, size_t(sym_off), size_t(sample_off), size_t(d_tables.octets() + psdu_off) };
}

void wifi_tx_cuda::enqueue_bins()
{
    const cudaStream_t s = stream();
    const size_t n_fr = staged().bursts;
    const unsigned char* st = device_stage();
    const auto [descs, sr, cr, pr, mr] = d_tables.at(st);

    wifi_bits_kernel<<<runs_grid(d_max_bits, n_fr), 256, 0, s>>>(descs, st + d_tables.octets(),
                                                                 d_bits.get(), n_fr);
    GPUOFDM_CUDA_CHECK_LAUNCH(wifi_bits_kernel);
    launch_scramble(d_bits.get(), d_bits.get(), d_seq.get(), d_table.period(), sr, n_fr, d_max_bits,
                    s);
    launch_conv_encode(d_bits.get(), d_coded.get(), cr, 2 * n_fr, d_max_bits, s);
    launch_permute(d_coded.get(), d_interleaved.get(), d_perm.get(), pr, 2 * n_fr, d_max_coded,
                   false, s);
    launch_map(d_interleaved.get(), bins(), d_place.get(), mr, 2 * n_fr,
               d_max_symbols_frame * wifi_data_carriers, s);
    wifi_pilots_kernel<<<runs_grid(d_max_symbols_frame * 16, n_fr), 256, 0, s>>>(
        descs, reinterpret_cast<float2*>(bins()), n_fr);
    GPUOFDM_CUDA_CHECK_LAUNCH(wifi_pilots_kernel);
}

void wifi_tx_cuda::enqueue_assembly()
{
    // The same float as the CPU twin's OFDM modulator scale.
    const float scale = d_params.scale / float(fft_len);
    wifi_assemble_kernel<<<runs_grid(d_max_samples, staged().bursts), 256, 0, stream()>>>(
        d_tables.descs(device_stage()), reinterpret_cast<const float2*>(time()),
        reinterpret_cast<const float2*>(device_preamble()), reinterpret_cast<float2*>(out()), scale,
        d_params.window, staged().bursts);
    GPUOFDM_CUDA_CHECK_LAUNCH(wifi_assemble_kernel);
}

std::unique_ptr<wifi_tx> make_wifi_tx_cuda(const wifi_tx_params& p, const device_spec& dev)
{
    return std::make_unique<wifi_tx_cuda>(p, dev);
}

} // namespace gr::gpuofdm::core
