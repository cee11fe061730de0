/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The CPU twin of the wideband channelizer (FFTW).

#include "runtime/fftw_plan.h"
#include "sync/wideband_channelizer.h"

#include <algorithm>
#include <cmath>

namespace gr::gpuofdm::core {

namespace {

using cf = std::complex<float>;

class wideband_channelizer_cpu : public wideband_channelizer
{
public:
    explicit wideband_channelizer_cpu(const channelizer_params& params)
        : wideband_channelizer(params), d_fwd(d_plan.fft_in, true), d_inv(d_plan.fft_out, false),
          d_pending(d_plan.overlap_in / 2, cf(0, 0)) // the first block reaches back before 0
    {
    }

    std::vector<cf> push(const cf* in, size_t n, size_t& produced) override
    {
        d_pending.insert(d_pending.end(), in, in + n);
        d_captured += n;
        return drain(produced);
    }

    std::vector<cf> flush(size_t& produced) override
    {
        // Zeros until every capture sample so far has its outputs, then nothing more.
        const size_t owed = expected_outputs() - d_emitted;
        std::vector<cf> out;
        produced = 0;
        if (owed == 0) {
            return out;
        }
        d_pending.resize(d_pending.size() + d_plan.fft_in, cf(0, 0));
        auto rows = drain(produced);
        // Keep only what the capture owns, channel-major.
        std::vector<cf> kept(static_cast<size_t>(channels()) * owed);
        for (int c = 0; c < channels(); c++) {
            std::copy_n(rows.begin() + static_cast<size_t>(c) * produced, owed,
                        kept.begin() + static_cast<size_t>(c) * owed);
        }
        produced = owed;
        d_pending.clear();
        return kept;
    }

private:
    // Outputs j cover capture samples j * L / M; a capture of n samples owns ceil(n M / L).
    size_t expected_outputs() const
    {
        return (d_captured * d_plan.fft_out + d_plan.fft_in - 1) / d_plan.fft_in;
    }

    std::vector<cf> drain(size_t& produced)
    {
        const size_t blocks = d_pending.size() >= d_plan.fft_in
                                  ? (d_pending.size() - d_plan.fft_in) / d_plan.hop_in + 1
                                  : 0;
        produced = blocks * d_plan.hop_out;
        std::vector<cf> out(static_cast<size_t>(channels()) * produced);
        const double norm = 1.0 / static_cast<double>(d_plan.fft_in);
        for (size_t k = 0; k < blocks; k++) {
            const size_t base = k * d_plan.hop_in;
            std::copy_n(d_pending.begin() + base, d_plan.fft_in, d_fwd.input());
            d_fwd.execute();
            // This block starts at capture sample start = block index x hop - overlap / 2.
            const long long start = static_cast<long long>(d_blocks * d_plan.hop_in) -
                                    static_cast<long long>(d_plan.overlap_in / 2);
            for (int c = 0; c < channels(); c++) {
                const long long center = d_plan.center_bin[c];
                for (size_t b = 0; b < d_plan.fft_out; b++) {
                    const long long sb =
                        b < d_plan.fft_out / 2
                            ? static_cast<long long>(b)
                            : static_cast<long long>(b) - static_cast<long long>(d_plan.fft_out);
                    const long long in_bin = (center + sb + static_cast<long long>(d_plan.fft_in)) %
                                             static_cast<long long>(d_plan.fft_in);
                    d_inv.input()[b] = d_fwd.output()[in_bin] * d_plan.window[b];
                }
                d_inv.execute();
                // The block's FFT measured phase from `start`; the bin's own rotation since
                // sample 0 and the offset left over from the nearest bin come back here.
                const double block_cycles =
                    -static_cast<double>((center * start) % static_cast<long long>(d_plan.fft_in)) /
                    static_cast<double>(d_plan.fft_in);
                const std::complex<double> block_phase = std::polar(norm, 2 * M_PI * block_cycles);
                for (size_t j = 0; j < d_plan.hop_out; j++) {
                    const size_t out_index = d_emitted + k * d_plan.hop_out + j;
                    const double cycles = -d_plan.residual_hz[c] * static_cast<double>(out_index) /
                                          d_params.output_rate;
                    const std::complex<double> v =
                        std::complex<double>(d_inv.output()[d_plan.overlap_out / 2 + j]) *
                        block_phase * std::polar(1.0, 2 * M_PI * (cycles - std::floor(cycles)));
                    out[static_cast<size_t>(c) * produced + k * d_plan.hop_out + j] = cf(v);
                }
            }
            d_blocks++;
        }
        d_pending.erase(d_pending.begin(), d_pending.begin() + blocks * d_plan.hop_in);
        d_emitted += produced;
        return out;
    }

    fftw_plan_1d d_fwd, d_inv;
    std::vector<cf> d_pending;
    size_t d_blocks = 0, d_emitted = 0, d_captured = 0;
};

} // namespace

std::unique_ptr<wideband_channelizer> make_wideband_channelizer_cpu(
    const channelizer_params& params)
{
    return std::make_unique<wideband_channelizer_cpu>(params);
}

} // namespace gr::gpuofdm::core
