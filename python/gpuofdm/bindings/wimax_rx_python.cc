/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpuofdm/wimax_rx.h>

namespace py = pybind11;

void bind_wimax_rx(py::module& m)
{
    using wimax_rx = gr::gpuofdm::wimax_rx;
    py::class_<wimax_rx, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<wimax_rx>>(
        m, "wimax_rx",
        "IEEE 802.16-2004 OFDM-256 burst receiver (the counterpart of wimax_tx, long "
        "preamble): complex baseband in, each burst's data octets out as a PDU on the "
        "message port 'pdus' with the metadata profile, burst_bytes, rs_corrected, "
        "rs_uncorrectable, ok, snr_db, cfo_hz, start, sync_metric, preamble_metric, "
        "coded_errors, coded_bits; on the GPU (a batch of samples per launch) or on the CPU "
        "twin. Bursts held at the end of the stream are decoded and published before the "
        "block ends.")
        .def(py::init(&wimax_rx::make), py::arg("rate_id") = 1, py::arg("burst_bytes") = 95,
             py::arg("cp_div") = 4, py::arg("uplink") = false, py::arg("pad") = true,
             py::arg("seed") = 19072, py::arg("pass_bad") = false, py::arg("sample_rate") = 4e6,
             py::arg("batch_samples") = 0, py::arg("device") = "auto", py::arg("threshold") = 0.5f,
             py::arg("fft_backoff") = 4, py::arg("channel_taps") = 24,
             py::arg("pilot_interpolation") = false,
             "Make a wimax_rx block. rate_id: burst profile 0..6; burst_bytes: data octets "
             "per burst, 1..65535 (without pad, burst_bytes + 1 a multiple of the profile's "
             "block); cp_div: 1/G, 4, 8, 16 or 32; uplink, pad, seed (1..32767): as the "
             "wimax_tx that sent the bursts; pass_bad: publish bursts that are not ok too "
             "(ok False); sample_rate: samples/s (> 0), for cfo_hz; batch_samples: 0 "
             "(automatic) or samples per decoding batch; device is auto, cpu, cuda or cuda:N; "
             "threshold: detection threshold 0.2..0.8; fft_backoff: FFT window advance into "
             "the cyclic prefix, 0..256/cp_div; channel_taps: 0 or 8..64; "
             "pilot_interpolation: the 8 pilots' channel ratios interpolated across the "
             "subcarriers every symbol instead of their common phase.")
        .def("device", &wimax_rx::device, "The device the block runs on: cpu or cuda:N.")
        .def("bursts_received", &wimax_rx::bursts_received, "Bursts decoded ok so far.")
        .def("bad_bursts", &wimax_rx::bad_bursts,
             "Bursts decoded not ok so far (published or not).")
        .def("truncated", &wimax_rx::truncated, "Bursts cut off by the end of the stream.")
        .def("samples", &wimax_rx::samples, "Samples handed to the receiver so far.")
        .def("pdus_published", &wimax_rx::pdus_published, "PDUs published on 'pdus' so far.")
        .def("set_pass_bad", &wimax_rx::set_pass_bad, py::arg("pass_bad"),
             "Publish bursts that are not ok too.")
        .def("pass_bad", &wimax_rx::pass_bad)
        .def("rate_id", &wimax_rx::rate_id)
        .def("burst_bytes", &wimax_rx::burst_bytes)
        .def("cp_div", &wimax_rx::cp_div)
        .def("uplink", &wimax_rx::uplink)
        .def("pad", &wimax_rx::pad)
        .def("seed", &wimax_rx::seed)
        .def("sample_rate", &wimax_rx::sample_rate)
        .def("batch_samples", &wimax_rx::batch_samples,
             "The batch in use (the automatic one when made with 0).")
        .def("threshold", &wimax_rx::threshold)
        .def("fft_backoff", &wimax_rx::fft_backoff)
        .def("channel_taps", &wimax_rx::channel_taps)
        .def("pilot_interpolation", &wimax_rx::pilot_interpolation)
        .def("burst_samples", &wimax_rx::burst_samples,
             "Samples of one burst, preamble included, no gap.");
}
