/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpuofdm/wifi_rx.h>

namespace py = pybind11;

void bind_wifi_rx(py::module& m)
{
    using wifi_rx = gr::gpuofdm::wifi_rx;
    py::class_<wifi_rx, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<wifi_rx>>(
        m, "wifi_rx",
        "IEEE 802.11a receiver: complex baseband at 20 Msps in, decoded PSDUs (FCS included) "
        "out as PDUs on the message port 'pdus' with the metadata rate, psdu_len, crc_ok, "
        "seed, snr_db, cfo_hz, start, sync_metric; optionally written to a libpcap file; on "
        "the GPU (a batch of samples per launch) or on the CPU twin. Frames held at the end "
        "of the stream are decoded and published before the block ends.")
        .def(py::init(&wifi_rx::make), py::arg("batch_samples") = 262144,
             py::arg("threshold") = 0.56f, py::arg("pass_bad_crc") = false,
             py::arg("pcap_file") = "", py::arg("device") = "auto", py::arg("fft_backoff") = 3,
             py::arg("pilot_interpolation") = false,
             "Make a wifi_rx block. batch_samples: samples per decoding batch, 131072 .. "
             "16777216 (latency batch_samples / 20e6 s); threshold: detection threshold in "
             "(0, 1); pass_bad_crc: publish frames with a bad FCS too (crc_ok False); "
             "pcap_file: '' or a libpcap file (link type 105) every published frame is "
             "written to; device is auto, cpu, cuda or cuda:N; fft_backoff: FFT window "
             "advance into the cyclic prefix, 0 .. 8 samples; pilot_interpolation: the pilots' "
             "channel ratios interpolated across the subcarriers every symbol instead of "
             "their common phase.")
        .def("device", &wifi_rx::device, "The device the block runs on: cpu or cuda:N.")
        .def("frames_received", &wifi_rx::frames_received, "Frames decoded with a good FCS so far.")
        .def("crc_errors", &wifi_rx::crc_errors,
             "Frames decoded with a bad FCS so far (published or not).")
        .def("signal_errors", &wifi_rx::signal_errors,
             "Detections whose SIGNAL field failed (parity, rate, length).")
        .def("truncated", &wifi_rx::truncated, "Frames cut off by the end of the stream.")
        .def("samples", &wifi_rx::samples, "Samples handed to the receiver so far.")
        .def("pdus_published", &wifi_rx::pdus_published, "PDUs published on 'pdus' so far.")
        .def("set_pass_bad_crc", &wifi_rx::set_pass_bad_crc, py::arg("pass_bad_crc"),
             "Publish frames with a bad FCS too.")
        .def("pass_bad_crc", &wifi_rx::pass_bad_crc)
        .def("batch_samples", &wifi_rx::batch_samples)
        .def("threshold", &wifi_rx::threshold)
        .def("pcap_file", &wifi_rx::pcap_file)
        .def("fft_backoff", &wifi_rx::fft_backoff)
        .def("pilot_interpolation", &wifi_rx::pilot_interpolation);
}
