/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_WIFI_TX_CPU_H
#define GPUOFDM_CORE_WIFI_TX_CPU_H

// CPU twin of the 802.11a transmitter (private to the core; users call make_wifi_tx).

#include "fec/conv_encoder.h"
#include "fec/interleaver.h"
#include "ofdm/mapper.h"
#include "ofdm/ofdm_stage.h"
#include "wifi/wifi_tx.h"

#include <memory>
#include <vector>

namespace gr::gpuofdm::core {

/*!
 * \brief The CPU twin: frame by frame through the CPU stages (make_scrambler,
 * make_conv_encoder, make_interleaver, make_mapper with the CPU device) and the CPU OFDM
 * modulator (make_ofdm_ifft, 64 bins in IFFT order, CP 16, scale params().scale / 64).
 */
class wifi_tx_cpu : public wifi_tx
{
public:
    explicit wifi_tx_cpu(const wifi_tx_params& p);
    using wifi_tx::process;
    using wifi_tx::process_bins;
    device_spec device() const override { return {}; }
    void process(const wifi_frame_request* frames, size_t n_frames, cfloat* out) override;
    void process_bins(const wifi_frame_request* frames, size_t n_frames, cfloat* bins) override;

private:
    //! Index of the rate in wifi_rates().
    static size_t rate_index(int mbps);
    //! The bins of one frame's SIGNAL and DATA symbols into \p bins (frame_symbols() x 64).
    void frame_bins(const wifi_frame_request& f, cfloat* bins);

    std::unique_ptr<conv_encoder> d_signal_encoder;           //!< rate 1/2 for SIGNAL
    std::unique_ptr<interleaver> d_signal_interleaver;        //!< 48 bits, BPSK
    std::unique_ptr<mapper> d_signal_mapper;                  //!< BPSK
    std::vector<std::unique_ptr<conv_encoder>> d_encoders;    //!< one per rate
    std::vector<std::unique_ptr<interleaver>> d_interleavers; //!< one per rate
    std::vector<std::unique_ptr<mapper>> d_mappers;           //!< one per rate
    std::unique_ptr<ofdm_stage> d_ifft;

    std::vector<uint8_t> d_bits;
    std::vector<uint8_t> d_coded;
    std::vector<uint8_t> d_interleaved;
    std::vector<cfloat> d_points;
    std::vector<cfloat> d_bins;
    std::vector<cfloat> d_time;
};

} // namespace gr::gpuofdm::core

#endif
