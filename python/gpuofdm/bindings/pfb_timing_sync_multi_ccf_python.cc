/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpuofdm/pfb_timing_sync_multi_ccf.h>

namespace py = pybind11;

void bind_pfb_timing_sync_multi_ccf(py::module& m)
{
    using blk = gr::gpuofdm::pfb_timing_sync_multi_ccf;
    py::class_<blk, gr::block, gr::basic_block, std::shared_ptr<blk>>(
        m, "pfb_timing_sync_multi_ccf",
        "Polyphase symbol timing recovery of n_channels independent channels in one call "
        "(one GPU launch; one warp a channel): input i -> output i, each channel the loop of "
        "pfb_timing_sync_ccf (GNU Radio's pfb_clock_sync_ccf rules) with a state of its own. "
        "Tags go from input i to output i scaled by osps/sps; time_est is not read.")
        .def(py::init(&blk::make), py::arg("n_channels"), py::arg("sps"), py::arg("loop_bw"),
             py::arg("taps"), py::arg("filter_size") = 32, py::arg("init_phase") = 0.0f,
             py::arg("max_rate_deviation") = 1.5f, py::arg("osps") = 1, py::arg("device") = "auto",
             py::arg("mode") = "sequential", py::arg("chunk_samples") = 16384,
             py::arg("warmup_samples") = 4096, py::arg("vector_io") = false,
             "Make a pfb_timing_sync_multi_ccf block. n_channels: 1..1024; vector_io: one "
             "input and one output port of n_channels-item vectors instead of n_channels "
             "ports (an item out once every channel has its symbol; zeros fill the channels "
             "short of the longest at the end); the other parameters as pfb_timing_sync_ccf.")
        .def("device", &blk::device, "The device the loops run on: cpu or cuda:N.")
        .def("mode", &blk::mode, "'sequential' or 'chunked'.")
        .def("n_channels", &blk::n_channels)
        .def("vector_io", &blk::vector_io)
        .def("error", &blk::error, py::arg("c"), "Channel c's last timing error.")
        .def("rate", &blk::rate, py::arg("c"), "Channel c's rate (filter units a sample).")
        .def("phase", &blk::phase, py::arg("c"), "Channel c's phase k (filter units).");
}
