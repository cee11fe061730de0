/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_OFDM_SYNC_H
#define GPUOFDM_CORE_OFDM_SYNC_H

// The frame synchronizer of the ofdm_sync_cc block, GNU Radio-free: an 802.11a or 802.16
// synchronizer (wifi_sync, wimax_sync: CPU twin or CUDA) over a stretch of a stream, its
// results turned into frames in stream indices with the standard's geometry (where a frame
// starts, where its long training field is, where the search resumes after it), and the
// derotation of a frame's samples by its CFO.

#include "ofdm/constellation.h"
#include "runtime/device.h"
#include "runtime/phy_standard.h"
#include "wifi/wifi_sync.h"
#include "wimax/wimax_rx.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace gr::gpuofdm::core {

//! One frame, in stream indices.
struct ofdm_sync_frame {
    /*!
     * The frame's first sample, the derotation's phase reference: 802.11a the start of the
     * short training field (T1 - 192, 0 when T1 is earlier), 802.16 the preamble's first
     * cyclic prefix.
     */
    uint64_t start = 0;
    //! 802.11a T1's first sample; 802.16 the second preamble symbol's useful part.
    uint64_t ltf_start = 0;
    //! The synchronizer's search resumes here after this frame.
    uint64_t resume = 0;
    double cfo = 0.0;    //!< radians per sample
    float metric = 0.0f; //!< the detection plateau's metric
    //! 802.11a the long training field's matched filter, 802.16 the preamble's.
    float ltf_metric = 0.0f;
};

//! What make_ofdm_sync() builds: the standard's synchronizer and the stretches it searches.
struct ofdm_sync_params {
    phy_standard standard = phy_standard::ieee80211a;
    /*!
     * Detection threshold: 802.11a in (0, 1) (wifi_sync_params::threshold), 802.16
     * 0.2 .. 0.8 (wimax_sync_params::threshold).
     */
    float threshold = 0.56f;
    //! Consecutive samples above the threshold that make a detection: 16 .. 96.
    size_t min_plateau = 32;
    /*!
     * Samples one detect() call searches (the 802.11a CUDA backend's buffers are sized for
     * the larger of this and 4096): at least twice the synchronizer's lookback (and 1024)
     * .. 2^26. The lookback is 512 samples for 802.11a; for 802.16 it depends on cp_div,
     * threshold and min_plateau (wimax_sync::lookback(): 985 at cp_div 4, threshold 0.5,
     * min_plateau 32; at most 1071).
     */
    size_t batch_samples = 65536;
    //! Samples per second, for the frequencies a user sees (cfo in Hz): finite and > 0.
    double sample_rate = 20e6;
    //! 802.16 only: 1/G, 4, 8, 16 or 32 (wimax_sync_params::cp_div).
    int cp_div = 4;

    /*!
     * The ranges above, the synchronizer's through its validate(); throws
     * std::invalid_argument("name: range, got value").
     */
    void validate() const;
    //! The 802.11a synchronizer's parameters.
    wifi_sync_params wifi() const;
    //! The 802.16 synchronizer's parameters.
    wimax_sync_params wimax() const;
};

/*!
 * \brief Frames of an 802.11a or 802.16 stream from its synchronizer.
 */
class ofdm_sync
{
public:
    //! 802.11a frames from \p s.
    explicit ofdm_sync(std::unique_ptr<wifi_sync> s);
    //! 802.16 bursts from \p s.
    explicit ofdm_sync(std::unique_ptr<wimax_sync> s);

    bool wimax() const { return d_wimax != nullptr; }
    //! Where the synchronizer runs.
    device_spec device() const;
    //! Samples before a stretch's end in which a frame may start but not be found yet.
    size_t lookback() const;

    /*!
     * The frames of x[0 .. n), x[0] being stream sample \p x_start, whose synchronizer
     * results start at or after x[search_from] (wifi_sync::detect, wimax_sync::detect), in
     * increasing order.
     */
    std::vector<ofdm_sync_frame> detect(const cfloat* x,
                                        size_t n,
                                        uint64_t x_start,
                                        size_t search_from);

private:
    std::unique_ptr<wifi_sync> d_wifi;
    std::unique_ptr<wimax_sync> d_wimax;
};

/*!
 * \brief The synchronizer of \p p.standard on \p dev (CPU twin or CUDA; on CUDA enqueued
 * on \p ctx, null: its own). Throws std::invalid_argument for a bad parameter
 * (ofdm_sync_params::validate(), before any backend is built).
 */
std::unique_ptr<ofdm_sync> make_ofdm_sync(const ofdm_sync_params& p,
                                          const device_spec& dev,
                                          const cuda_context_ptr& ctx = nullptr);

/*!
 * \brief out[i] = in[i] exp(-j cfo (offset + i)) for i < n: a frame's samples derotated,
 * \p offset the index of in[0] from the frame's start. The phase is exact (double) at
 * in[0] and every 512 samples after it, a double-precision rotator in between; the
 * factors are rounded to float. in and out may be the same.
 */
void ofdm_sync_derotate(const cfloat* in, cfloat* out, size_t n, double cfo, uint64_t offset);

} // namespace gr::gpuofdm::core

#endif
