/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpuofdm/ofdm_sync_cc.h>

namespace py = pybind11;

void bind_ofdm_sync_cc(py::module& m)
{
    using ofdm_sync_cc = gr::gpuofdm::ofdm_sync_cc;
    py::class_<ofdm_sync_cc, gr::block, gr::basic_block, std::shared_ptr<ofdm_sync_cc>>(
        m, "ofdm_sync_cc",
        "OFDM synchronizer: 802.11a frames (short training detection, coarse and fine CFO, "
        "long training timing; CPU twin or CUDA) or 802.16 OFDM-256 long-preamble bursts "
        "(CPU). Output: the input samples derotated by each frame's CFO from its start on, "
        "a tag 'ofdm_sync' at each frame start (dict: cfo, cfo_hz, metric, ltf_metric, "
        "ltf_start) and the same dict plus 'offset' on the message port 'frames'. One "
        "synchronizer call per batch_samples samples; a sample comes out after between "
        "lookback() + 1 and batch_samples later samples; everything at the end of the stream.")
        .def(py::init(&ofdm_sync_cc::make), py::arg("standard") = "802.11a",
             py::arg("threshold") = 0.56f, py::arg("min_plateau") = 32,
             py::arg("batch_samples") = 65536, py::arg("sample_rate") = 20e6,
             py::arg("device") = "auto", py::arg("cp_div") = 4,
             "Make an ofdm_sync_cc block. standard: '802.11a' ('80211a') or '802.16' "
             "('80216'); threshold: 802.11a (0, 1), 802.16 0.2 .. 0.8; min_plateau: 16 .. 96; "
             "batch_samples: samples per synchronizer call, 2 * lookback .. 2**26 (>= 1024); "
             "sample_rate: for cfo_hz; device: auto, cpu, cuda or cuda:N; "
             "cp_div: 802.16 cyclic prefix 1/G, 4, 8, 16 or 32.")
        .def("device", &ofdm_sync_cc::device, "The device the synchronizer runs on: cpu or cuda:N.")
        .def("standard", &ofdm_sync_cc::standard, "'802.11a' or '802.16'.")
        .def("threshold", &ofdm_sync_cc::threshold)
        .def("min_plateau", &ofdm_sync_cc::min_plateau)
        .def("batch_samples", &ofdm_sync_cc::batch_samples)
        .def("sample_rate", &ofdm_sync_cc::sample_rate)
        .def("lookback", &ofdm_sync_cc::lookback,
             "Samples before the newest that are not yet decided (held back).")
        .def("frames_detected", &ofdm_sync_cc::frames_detected, "Frames tagged so far.");
}
