/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_WIDEBAND_CHANNELIZER_H
#define GPUOFDM_CORE_WIDEBAND_CHANNELIZER_H

// The wideband front end: every candidate of a capture brought to baseband at a low rate
// at once. One long FFT per block of the capture (overlap-save); for each candidate the
// slice of bins around it, shaped by a flat-top window with raised-cosine edges, and a
// short inverse FFT; the block's phase and the candidate's offset from its nearest bin
// put back so each output is one continuous stream. The window is zero-phase, so output
// sample j of every channel is capture sample j * sample_rate / output_rate, exactly.

#include "runtime/device.h"

#include <complex>
#include <cstdint>
#include <memory>
#include <vector>

namespace gr::gpuofdm::core {

struct channelizer_params {
    double sample_rate = 30.72e6;   //!< the capture's rate, whole Hz, 1e6..250e6
    double output_rate = 1.92e6;    //!< each channel's rate, whole Hz, <= sample_rate
    std::vector<double> offsets_hz; //!< each channel's centre from the capture's, 1..4096 of them
    //! Half-width of the flat part of the response, Hz; 0: 0.47 x output_rate. The edges
    //! fall to zero at output_rate / 2.
    double passband_hz = 0;

    void validate() const;
};

//! The block sizes the rates lead to (the ratio sample_rate / output_rate = p / q in
//! lowest terms sets them).
struct channelizer_plan {
    size_t fft_in = 0, fft_out = 0;         //!< L (capture) and M (channel) FFT sizes
    size_t overlap_in = 0, overlap_out = 0; //!< discarded per block, half at each end
    size_t hop_in = 0, hop_out = 0;         //!< new capture samples / outputs per block
    std::vector<int> center_bin;            //!< each channel's nearest capture bin, 0..L-1
    std::vector<double> residual_hz;        //!< offset minus that bin's frequency
    std::vector<float> window;              //!< response over the M output bins (FFT order)
};
channelizer_plan make_channelizer_plan(const channelizer_params& params);

/*!
 * \brief Streams a capture into its channels. push() takes any number of samples and
 * returns the outputs they complete, channel-major (channel c at c * produced); flush()
 * returns the rest at the end of the stream (the capture padded with zeros), so every
 * capture sample reaches the channels.
 */
class wideband_channelizer
{
public:
    virtual ~wideband_channelizer() = default;

    const channelizer_params& params() const { return d_params; }
    const channelizer_plan& plan() const { return d_plan; }
    int channels() const { return static_cast<int>(d_params.offsets_hz.size()); }

    std::vector<std::complex<float>> push(const std::complex<float>* in,
                                          size_t n,
                                          size_t& produced);
    std::vector<std::complex<float>> flush(size_t& produced);
    //! Starts a new stream (after flush(), or to drop what is pending).
    virtual void reset();

    //! Channel rows left in device memory: row c at rows + c * stride, count samples.
    struct device_rows {
        const std::complex<float>* rows = nullptr;
        size_t stride = 0, count = 0;
    };
    /*!
     * \brief A whole capture at once, its rows left on the device (the CUDA backend; valid
     * until the next call): the outputs push() and flush() would give for it. Starts a new
     * stream. Other backends throw std::logic_error.
     */
    virtual device_rows capture_device(const std::complex<float>* in, size_t n);
    /*!
     * \brief push() with the outputs left on the device (the CUDA backend; valid until the
     * next call, queued on the backend's stream, not waited for): the capture (\p in in
     * host or device memory; from page-locked or device memory the copy is queued too, so
     * \p in must stay as it is until the stream has passed it) waits on the device; the
     * blocks run once \p min_blocks of them are complete, so a stream of small pushes
     * still runs in large batches (count 0 until then). A stream uses push() and flush()
     * or push_device() and flush_device(), not both. Other backends throw
     * std::logic_error.
     */
    virtual device_rows push_device(const std::complex<float>* in, size_t n, size_t min_blocks);
    //! flush() with the outputs left on the device.
    virtual device_rows flush_device();

protected:
    explicit wideband_channelizer(const channelizer_params& params);

    /*!
     * \brief The backend's part: \p blocks overlap-save blocks, block k reading
     * in[k * hop_in .. k * hop_in + fft_in) and being block number first_block + k of the
     * stream; its hop_out outputs go to out[c * produced + k * hop_out + j], numbered
     * first_output + k * hop_out + j in the stream.
     */
    virtual void run_blocks(const std::complex<float>* in,
                            size_t blocks,
                            size_t first_block,
                            size_t first_output,
                            std::complex<float>* out,
                            size_t produced) = 0;
    channelizer_params d_params;
    channelizer_plan d_plan;

    //! Outputs a capture of \p captured samples owns: output j covers capture sample
    //! j L / M, so ceil(captured M / L).
    size_t outputs_owned(size_t captured) const
    {
        return (captured * d_plan.fft_out + d_plan.fft_in - 1) / d_plan.fft_in;
    }
    //! The complete blocks in \p pending samples from a block's first.
    size_t complete_blocks(size_t pending) const
    {
        return pending >= d_plan.fft_in ? (pending - d_plan.fft_in) / d_plan.hop_in + 1 : 0;
    }

    //! The stream so far (push() or push_device()): blocks run, outputs given, samples in.
    size_t d_blocks = 0, d_emitted = 0, d_captured = 0;

private:
    //! The complete blocks pending through \p run(blocks, produced); returns produced.
    template <typename Run>
    size_t drain(Run&& run);

    std::vector<std::complex<float>> d_pending; //!< from the next block's first sample
};

std::unique_ptr<wideband_channelizer> make_wideband_channelizer(const channelizer_params& params,
                                                                const device_spec& dev);
std::unique_ptr<wideband_channelizer> make_wideband_channelizer_cpu(
    const channelizer_params& params);
std::unique_ptr<wideband_channelizer> make_wideband_channelizer_cuda(
    const channelizer_params& params,
    const device_spec& dev,
    const cuda_context_ptr& ctx = nullptr);

} // namespace gr::gpuofdm::core

#endif // GPUOFDM_CORE_WIDEBAND_CHANNELIZER_H
