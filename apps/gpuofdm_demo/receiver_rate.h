/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_DEMO_RECEIVER_RATE_H
#define GPUOFDM_DEMO_RECEIVER_RATE_H

// The receiver's own rate, beside the loopback's: the loopback records what the channel
// model hands the receiver block (record_sink), and the same samples are decoded again by
// the receiver's core alone (no GNU Radio, no transmitter, no channel model), timed.

#include <gnuradio/gr_complex.h>
#include <gnuradio/sync_block.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace gpuofdm_demo {

//! The most samples a loopback records (256 MiB): longer runs time their first part.
constexpr size_t max_recorded = size_t(1) << 25;

//! Keeps the first max_samples samples of its input and reads the rest unkept.
class record_sink : public gr::sync_block
{
public:
    explicit record_sink(size_t max_samples);
    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;
    const std::vector<gr_complex>& samples() const { return d_samples; }
    //! Samples seen, kept or not.
    size_t seen() const { return d_seen; }

private:
    size_t d_max;
    size_t d_seen = 0;
    std::vector<gr_complex> d_samples;
};

std::shared_ptr<record_sink> make_record_sink(size_t max_samples);

//! What decoding the recording again gave.
struct receiver_rate {
    double seconds = 0.0; //!< process() and finish() over the recording, after a warm-up
    size_t good = 0;      //!< frames with a good FCS / bursts ok
    std::string device;   //!< where the core receiver ran
};

/*!
 * The 802.11a core receiver on \p device with the block's batch and threshold, fed \p x in
 * 65536-sample pieces from page-locked memory (as the block's chunks are) and finished.
 */
receiver_rate time_wifi_receiver(const std::vector<gr_complex>& x,
                                 const std::string& device,
                                 size_t batch_samples,
                                 float threshold);

//! The 802.16 core receiver with the block's parameters, the same way.
receiver_rate time_wimax_receiver(const std::vector<gr_complex>& x,
                                  const std::string& device,
                                  int rate_id,
                                  int burst_bytes,
                                  int cp_div,
                                  int seed);

/*!
 * The line that puts the receiver's rate beside the loopback's: \p block_name "wifi" or
 * "wimax", \p unit "frames" or "bursts", \p fs the air rate for real time; \p recorded of
 * \p seen samples kept.
 */
void print_receiver_rate(const receiver_rate& r,
                         size_t recorded,
                         size_t seen,
                         double fs,
                         const char* block_name,
                         const char* unit);

} // namespace gpuofdm_demo

#endif
