/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpuofdm/prach_detector_c.h>

namespace py = pybind11;

void bind_prach_detector_c(py::module& m)
{
    using detector = gr::gpuofdm::prach_detector_c;
    py::class_<detector, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<detector>>(
        m, "prach_detector_c",
        "5G NR PRACH detector (38.211 6.3.3): every preamble of one or several cells from "
        "one input per antenna, each detection a dict on message port 'detections'.")
        .def(py::init(&detector::make), py::arg("samp_rate") = 30.72e6, py::arg("format") = "0",
             py::arg("scs_khz") = 30, py::arg("n_antennas") = 1,
             py::arg("logical_roots") = std::vector<int>{ 0 },
             py::arg("zero_correlation_zones") = std::vector<int>{ 1 },
             py::arg("restricted_sets") = std::vector<std::string>{},
             py::arg("offsets_hz") = std::vector<double>{ 0.0 }, py::arg("n_fd_occasions") = 1,
             py::arg("fd_spacing_hz") = 0.0, py::arg("start_sample") = 0,
             py::arg("period_samples") = 0, py::arg("frame_start") = 0,
             py::arg("false_alarm") = 1e-3, py::arg("device") = "auto", py::arg("max_batch") = 8,
             py::arg("config_index") = -1, py::arg("spectrum") = "paired",
             "Make a prach_detector_c. samp_rate a multiple of the PRACH subcarrier spacing "
             "with whole CP samples (30.72 MHz x 2^k); format 0..3, A1..A3, B1..B4, C0, C2; "
             "scs_khz the uplink spacing (15, 30, 60, 120: the short formats' PRACH spacing, "
             "slots and timing advance); n_antennas 1..64 inputs; per cell (or one for all): "
             "logical_roots, zero_correlation_zones (0..15), restricted_sets (unrestricted, "
             "A, B; empty: unrestricted), offsets_hz (the sequence's first subcarrier from the "
             "centre); n_fd_occasions (msg1-FDM 1, 2, 4, 8) fd_spacing_hz apart; occasions at "
             "start_sample + k period_samples (0: one occasion); frame_start the first "
             "sample of an SFN 0 frame (an rx_time tag on input 0 sets SFN and slot instead); "
             "false_alarm the target per (cell, occasion), (0, "
             "0.5]; device auto, cpu, cuda or cuda:N; max_batch time occasions detected "
             "together, 1..64 / n_fd_occasions (detections up to max_batch - 1 periods "
             "later); config_index -1 (explicit occasions) or 0..255, prach-"
             "ConfigurationIndex: the occasions of its row of 38.211 Table 6.3.3.2-2 "
             "(spectrum 'paired') or 6.3.3.2-3 ('unpaired') in the frames from frame_start "
             "or an rx_time tag, start_sample and period_samples 0 (A1/B1, A2/B2, A3/B3 "
             "rows: the A format; each PRACH slot's last occasion, in B, is read too).")
        .def("device", &detector::device, "The device the detector runs on.")
        .def("max_batch", &detector::max_batch, "Time occasions detected together, at most.")
        .def("occasions", &detector::occasions, "Time occasions processed so far.")
        .def("detections", &detector::detections, "Preambles reported so far.");
}
