/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/complex.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpuofdm/mapper_bc.h>

namespace py = pybind11;

void bind_mapper_bc(py::module& m)
{
    using mapper_bc = gr::gpuofdm::mapper_bc;
    py::class_<mapper_bc, gr::sync_decimator, gr::sync_block, gr::block, gr::basic_block,
               std::shared_ptr<mapper_bc>>(
        m, "mapper_bc",
        "Gray mapper of 802.11a (BPSK, QPSK, 16-QAM, 64-QAM, unit average power), on the GPU "
        "or on the CPU twin. Bits one per byte in, one complex point per N_BPSC bits out.")
        .def(py::init(&mapper_bc::make), py::arg("modulation") = "16QAM", py::arg("batch") = 0,
             py::arg("device") = "auto",
             "Make a mapper_bc block. modulation is BPSK, QPSK, 16QAM or 64QAM; batch 0 picks "
             "2^20 points per GPU launch; device is auto, cpu, cuda or cuda:N.")
        .def("device", &mapper_bc::device, "The device the block runs on: cpu or cuda:N.")
        .def("batch", &mapper_bc::batch, "Points per GPU launch.")
        .def("bits_per_point", &mapper_bc::bits_per_point, "N_BPSC: input bits per point.")
        .def("points", &mapper_bc::points,
             "Every point, indexed by the label b0 b1 ... as a binary number, b0 the MSB.");
}
