/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpuofdm/demapper_cf.h>

namespace py = pybind11;

void bind_demapper_cf(py::module& m)
{
    using blk = gr::gpuofdm::demapper_cf;
    py::class_<blk, gr::sync_interpolator, gr::sync_block, gr::block, gr::basic_block,
               std::shared_ptr<blk>>(
        m, "demapper_cf",
        "Max-log soft demapper of the 802.11a Gray constellations (BPSK, QPSK, 16QAM, "
        "64QAM), on the GPU or the CPU twin. Complex points in, N_BPSC float LLRs out per "
        "point (positive means bit 0), or +1/-1 decisions with hard=True.")
        .def(py::init(&blk::make), py::arg("modulation") = "QPSK", py::arg("noise_var") = 1.0f,
             py::arg("hard") = false, py::arg("batch") = 0, py::arg("device") = "auto",
             "Make a demapper_cf block. noise_var: noise power per complex point (> 0); "
             "batch: points per GPU launch (0: 2^20); device: auto, cpu, cuda or cuda:N.")
        .def("device", &blk::device, "The device the block runs on: cpu or cuda:N.")
        .def("batch", &blk::batch, "Points per launch.")
        .def("noise_var", &blk::noise_var, "The noise variance in use.")
        .def("set_noise_var", &blk::set_noise_var, py::arg("noise_var"),
             "Sets the noise variance (finite, > 0).");
}
