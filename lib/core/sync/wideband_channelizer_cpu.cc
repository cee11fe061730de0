/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The CPU twin of the wideband channelizer (FFTW).

#include "runtime/fftw_plan.h"
#include "sync/wideband_channelizer.h"
#include "sync/wideband_channelizer_common.h"

#include <algorithm>

namespace gr::gpuofdm::core {

namespace {

using cf = std::complex<float>;

class wideband_channelizer_cpu : public wideband_channelizer
{
public:
    explicit wideband_channelizer_cpu(const channelizer_params& params)
        : wideband_channelizer(params), d_fwd(d_plan.fft_in, true), d_inv(d_plan.fft_out, false)
    {
    }

private:
    void run_blocks(const cf* in,
                    size_t blocks,
                    size_t first_block,
                    size_t first_output,
                    cf* out,
                    size_t produced) override
    {
        const channel_geometry g = channel_geometry::of(d_plan);
        for (size_t k = 0; k < blocks; k++) {
            std::copy_n(in + k * d_plan.hop_in, d_plan.fft_in, d_fwd.input());
            d_fwd.execute();
            for (int c = 0; c < channels(); c++) {
                for (size_t b = 0; b < d_plan.fft_out; b++) {
                    d_inv.input()[b] =
                        d_fwd.output()[g.input_bin(d_plan.center_bin[c], b)] * d_plan.window[b];
                }
                d_inv.execute();
                for (size_t j = 0; j < d_plan.hop_out; j++) {
                    const size_t out_index = first_output + k * d_plan.hop_out + j;
                    out[static_cast<size_t>(c) * produced + k * d_plan.hop_out + j] = g.output(
                        d_inv.output()[d_plan.overlap_out / 2 + j], d_plan.center_bin[c],
                        first_block + k, d_plan.residual_hz[c], out_index, d_params.output_rate);
                }
            }
        }
    }

    fftw_plan_1d d_fwd, d_inv;
};

} // namespace

std::unique_ptr<wideband_channelizer> make_wideband_channelizer_cpu(
    const channelizer_params& params)
{
    return std::make_unique<wideband_channelizer_cpu>(params);
}

} // namespace gr::gpuofdm::core
