/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpuofdm/wifi_tx.h>

namespace py = pybind11;

void bind_wifi_tx(py::module& m)
{
    using wifi_tx = gr::gpuofdm::wifi_tx;
    py::class_<wifi_tx, gr::block, gr::basic_block, std::shared_ptr<wifi_tx>>(
        m, "wifi_tx",
        "IEEE 802.11a transmitter: PSDUs in as PDUs on the message port 'pdus' (metadata may "
        "carry 'rate' and 'seed'), complex PPDUs out at 20 Msps, each followed by "
        "gap_samples zeros and tagged 'wifi_start' on its first sample; on the GPU (many "
        "frames per launch) or on the CPU twin.")
        .def(py::init(&wifi_tx::make), py::arg("rate") = 54, py::arg("seed") = 93,
             py::arg("gap_samples") = 400, py::arg("scale") = 8.87520336f,
             py::arg("max_frames_per_batch") = 64, py::arg("device") = "auto",
             "Make a wifi_tx block. rate: default Mb/s (6, 9, 12, 18, 24, 36, 48, 54); seed: "
             "default scrambler seed 1..127, 0 for 1, 2, .., 127, 1, .. frame by frame; scale: "
             "1 is the Annex G level, 64/sqrt(52) (the default) unit average power; device is "
             "auto, cpu, cuda or cuda:N.")
        .def("device", &wifi_tx::device, "The device the block runs on: cpu or cuda:N.")
        .def("frames_sent", &wifi_tx::frames_sent, "Frames written out so far.")
        .def("pdus_dropped", &wifi_tx::pdus_dropped,
             "PDUs dropped so far (bad PDUs, and PDUs beyond the 8192 waiting).")
        .def("set_rate", &wifi_tx::set_rate, py::arg("rate"),
             "Default rate for PDUs without 'rate' metadata (Mb/s).")
        .def("rate", &wifi_tx::rate)
        .def("set_seed", &wifi_tx::set_seed, py::arg("seed"),
             "Default seed for PDUs without 'seed' metadata (0: incrementing).")
        .def("seed", &wifi_tx::seed)
        .def("gap_samples", &wifi_tx::gap_samples)
        .def("scale", &wifi_tx::scale)
        .def("max_frames_per_batch", &wifi_tx::max_frames_per_batch);
}
