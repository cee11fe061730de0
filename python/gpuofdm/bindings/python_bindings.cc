/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

namespace py = pybind11;

// One bind_<block>() per public header, in <block>_python.cc.
void bind_device(py::module& m);
void bind_ofdm_fft(py::module& m);
void bind_ofdm_ifft(py::module& m);
void bind_scrambler_bb(py::module& m);
void bind_sync_signal_source_c(py::module& m);
void bind_cell_searcher_cc(py::module& m);
void bind_prach_source_c(py::module& m);
void bind_prach_detector_c(py::module& m);
void bind_conv_encoder_bb(py::module& m);
void bind_interleaver_bb(py::module& m);
void bind_interleaver_ff(py::module& m);
void bind_mapper_bc(py::module& m);
void bind_wifi_tx(py::module& m);
void bind_wifi_rx(py::module& m);
void bind_wimax_tx(py::module& m);
void bind_wimax_rx(py::module& m);
void bind_viterbi_decoder_fb(py::module& m);
void bind_demapper_cf(py::module& m);
void bind_rs_codec(py::module& m);
void bind_ofdm_sync_cc(py::module& m);
void bind_pfb_timing_sync_ccf(py::module& m);
void bind_pfb_timing_sync_multi_ccf(py::module& m);

PYBIND11_MODULE(gpuofdm_python, m)
{
    // The block base classes live in gnuradio.gr.
    py::module::import("gnuradio.gr");

    bind_device(m);
    bind_ofdm_fft(m);
    bind_ofdm_ifft(m);
    bind_scrambler_bb(m);
    bind_sync_signal_source_c(m);
    bind_cell_searcher_cc(m);
    bind_prach_source_c(m);
    bind_prach_detector_c(m);
    bind_conv_encoder_bb(m);
    bind_interleaver_bb(m);
    bind_interleaver_ff(m);
    bind_mapper_bc(m);
    bind_wifi_tx(m);
    bind_wifi_rx(m);
    bind_wimax_tx(m);
    bind_wimax_rx(m);
    bind_viterbi_decoder_fb(m);
    bind_demapper_cf(m);
    bind_rs_codec(m);
    bind_ofdm_sync_cc(m);
    bind_pfb_timing_sync_ccf(m);
    bind_pfb_timing_sync_multi_ccf(m);
}
