/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#include <gnuradio/gpuofdm/rs_decoder_bb.h>
#include <gnuradio/gpuofdm/rs_encoder_bb.h>

namespace py = pybind11;

void bind_rs_codec(py::module& m)
{
    using enc = gr::gpuofdm::rs_encoder_bb;
    using dec = gr::gpuofdm::rs_decoder_bb;
    py::class_<enc, gr::block, gr::basic_block, std::shared_ptr<enc>>(
        m, "rs_encoder_bb",
        "802.16 Reed-Solomon encoder: K bytes in, N = K + 2T bytes out per codeword "
        "(parity first), on the GPU or the CPU twin.")
        .def(py::init(&enc::make), py::arg("n") = 40, py::arg("k") = 36, py::arg("t") = 2,
             py::arg("batch") = 0, py::arg("device") = "auto")
        .def("device", &enc::device);
    py::class_<dec, gr::block, gr::basic_block, std::shared_ptr<dec>>(
        m, "rs_decoder_bb",
        "802.16 Reed-Solomon decoder: N bytes in, K bytes out per codeword; up to T byte "
        "errors corrected, others tagged rs_uncorrectable and counted.")
        .def(py::init(&dec::make), py::arg("n") = 40, py::arg("k") = 36, py::arg("t") = 2,
             py::arg("batch") = 0, py::arg("device") = "auto")
        .def("device", &dec::device)
        .def("codewords", &dec::codewords)
        .def("corrected_bytes", &dec::corrected_bytes)
        .def("uncorrectable", &dec::uncorrectable);
}
