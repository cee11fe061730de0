/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_WIMAX_TX_CPU_H
#define GPUOFDM_CORE_WIMAX_TX_CPU_H

// CPU twin of the 802.16 transmitter (private to the core; users call make_wimax_tx).

#include "fec/conv_encoder.h"
#include "fec/interleaver.h"
#include "ofdm/mapper.h"
#include "ofdm/ofdm_stage.h"
#include "fec/reed_solomon.h"
#include "wimax/wimax_tx.h"

#include <memory>
#include <vector>

namespace gr::gpuofdm::core {

/*!
 * \brief The CPU twin: burst by burst through the CPU stages (make_scrambler,
 * reed_solomon_cpu, make_conv_encoder, make_interleaver, make_mapper with the 802.16
 * labels) and the CPU OFDM modulator (make_ofdm_ifft, 256 bins in IFFT order, CP
 * 256/cp_div, scale params().scale / 256).
 */
class wimax_tx_cpu : public wimax_tx
{
public:
    explicit wimax_tx_cpu(const wimax_tx_params& p);
    using wimax_tx::process;
    using wimax_tx::process_bins;
    device_spec device() const override { return {}; }
    void process(const wimax_burst_request* bursts, size_t n, cfloat* out) override;
    void process_bins(const wimax_burst_request* bursts, size_t n, cfloat* bins) override;
    void trace(const wimax_burst_request& burst, wimax_burst_trace& out) override;

private:
    //! The bit stages of one burst into d_interleaved (and \p t when not null).
    void burst_bits(const wimax_burst_request& b, wimax_burst_trace* t);
    //! The bins of one burst's data symbols into \p bins (burst_symbols() x 256).
    void burst_bins(const wimax_burst_request& b, cfloat* bins);

    std::vector<std::unique_ptr<reed_solomon>> d_rs;          //!< one per profile
    std::vector<std::unique_ptr<conv_encoder>> d_encoders;    //!< one per profile
    std::vector<std::unique_ptr<interleaver>> d_interleavers; //!< one per profile
    std::vector<std::unique_ptr<mapper>> d_mappers;           //!< one per profile
    std::unique_ptr<ofdm_stage> d_ifft;

    std::vector<uint8_t> d_bits, d_bytes, d_rs_bytes, d_rs_bits, d_coded, d_interleaved;
    std::vector<cfloat> d_points, d_bins, d_time;
};

} // namespace gr::gpuofdm::core

#endif
