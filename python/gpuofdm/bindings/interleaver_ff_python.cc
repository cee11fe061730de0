/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpuofdm/interleaver_ff.h>

namespace py = pybind11;

void bind_interleaver_ff(py::module& m)
{
    using interleaver_ff = gr::gpuofdm::interleaver_ff;
    py::class_<interleaver_ff, gr::sync_block, gr::block, gr::basic_block,
               std::shared_ptr<interleaver_ff>>(
        m, "interleaver_ff",
        "Deinterleaver of soft values (float LLRs, positive means bit 0) of 802.11a or 802.16: "
        "the inverse of interleaver_bb, whole symbols of n_cbps values, on the GPU or on the "
        "CPU twin.")
        .def(py::init(&interleaver_ff::make), py::arg("standard") = "802.11a",
             py::arg("n_cbps") = 192, py::arg("n_bpsc") = 4, py::arg("deinterleave") = true,
             py::arg("batch") = 0, py::arg("device") = "auto",
             "Make an interleaver_ff block. Parameters as interleaver_bb; deinterleave must be "
             "True (soft values are only deinterleaved).")
        .def("device", &interleaver_ff::device, "The device the block runs on: cpu or cuda:N.")
        .def("batch", &interleaver_ff::batch, "Symbols per GPU launch.")
        .def("permutation", &interleaver_ff::permutation,
             "perm[k] = j: input bit k of a symbol goes to position j when interleaving.");
}
