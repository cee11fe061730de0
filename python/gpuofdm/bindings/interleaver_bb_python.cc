/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpuofdm/interleaver_bb.h>

namespace py = pybind11;

void bind_interleaver_bb(py::module& m)
{
    using interleaver_bb = gr::gpuofdm::interleaver_bb;
    py::class_<interleaver_bb, gr::sync_block, gr::block, gr::basic_block,
               std::shared_ptr<interleaver_bb>>(
        m, "interleaver_bb",
        "Block interleaver/deinterleaver of 802.11a (16 columns) or 802.16 (12 columns) on "
        "bits one per byte, whole symbols of n_cbps bits, on the GPU or on the CPU twin.")
        .def(py::init(&interleaver_bb::make), py::arg("standard") = "802.11a",
             py::arg("n_cbps") = 192, py::arg("n_bpsc") = 4, py::arg("deinterleave") = false,
             py::arg("batch") = 0, py::arg("device") = "auto",
             "Make an interleaver_bb block. standard is 802.11a or 802.16; n_cbps a multiple "
             "of 16 (802.11a) or 12 (802.16) and of n_bpsc, at most 2^20; n_bpsc 1, 2, 4 or "
             "6; deinterleave applies the inverse; batch 0 picks max(1, 2^20/n_cbps) symbols "
             "per GPU launch; device is auto, cpu, cuda or cuda:N.")
        .def("device", &interleaver_bb::device, "The device the block runs on: cpu or cuda:N.")
        .def("batch", &interleaver_bb::batch, "Symbols per GPU launch.")
        .def("permutation", &interleaver_bb::permutation,
             "perm[k] = j: input bit k of a symbol goes to position j when interleaving.");
}
