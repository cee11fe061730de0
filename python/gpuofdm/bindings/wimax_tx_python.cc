/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpuofdm/wimax_tx.h>

namespace py = pybind11;

void bind_wimax_tx(py::module& m)
{
    using wimax_tx = gr::gpuofdm::wimax_tx;
    py::class_<wimax_tx, gr::block, gr::basic_block, std::shared_ptr<wimax_tx>>(
        m, "wimax_tx",
        "IEEE 802.16-2004 OFDM-256 burst transmitter: data bursts in as PDUs on the message "
        "port 'pdus' (metadata may carry 'rate_id' and 'seed'), complex baseband out "
        "(preamble, one OFDM symbol per RS-CC block), each burst followed by gap_samples "
        "zeros and tagged 'wimax_start' on its first sample; on the GPU (many bursts per "
        "launch) or on the CPU twin.")
        .def(py::init(&wimax_tx::make), py::arg("rate_id") = 1, py::arg("cp_div") = 4,
             py::arg("preamble") = "long", py::arg("uplink") = false, py::arg("pad") = true,
             py::arg("seed") = 19072, py::arg("gap_samples") = 400, py::arg("scale") = 18.1019336f,
             py::arg("max_bursts_per_batch") = 64, py::arg("device") = "auto",
             "Make a wimax_tx block. rate_id: default profile 0..6 (BPSK 1/2 .. 64-QAM 3/4); "
             "cp_div: 1/G (4, 8, 16, 32); preamble: long, short or none; uplink: uplink pilot "
             "polarity; pad: fill the last block with 0xFF; seed: randomizer reg1..reg15 "
             "(19072 = 100101010000000); scale: 256/sqrt(200) (the default) is unit average "
             "power; device is auto, cpu, cuda or cuda:N.")
        .def("device", &wimax_tx::device, "The device the block runs on: cpu or cuda:N.")
        .def("bursts_sent", &wimax_tx::bursts_sent, "Bursts written out so far.")
        .def("pdus_dropped", &wimax_tx::pdus_dropped,
             "PDUs dropped so far (bad PDUs, and PDUs beyond the 8192 waiting).")
        .def("set_rate_id", &wimax_tx::set_rate_id, py::arg("rate_id"),
             "Default profile for PDUs without 'rate_id' metadata (0..6).")
        .def("rate_id", &wimax_tx::rate_id)
        .def("set_seed", &wimax_tx::set_seed, py::arg("seed"),
             "Default randomizer seed for PDUs without 'seed' metadata (1..32767).")
        .def("seed", &wimax_tx::seed)
        .def("cp_div", &wimax_tx::cp_div)
        .def("gap_samples", &wimax_tx::gap_samples)
        .def("scale", &wimax_tx::scale)
        .def("max_bursts_per_batch", &wimax_tx::max_bursts_per_batch);
}
