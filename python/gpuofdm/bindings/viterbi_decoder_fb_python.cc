/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpuofdm/viterbi_decoder_fb.h>

namespace py = pybind11;

void bind_viterbi_decoder_fb(py::module& m)
{
    using blk = gr::gpuofdm::viterbi_decoder_fb;
    py::class_<blk, gr::tagged_stream_block, gr::block, gr::basic_block, std::shared_ptr<blk>>(
        m, "viterbi_decoder_fb",
        "Soft-decision K=7 Viterbi decoder (133/171) of 802.11a or 802.16, any punctured "
        "rate, on the GPU or the CPU twin. Float LLRs in (positive means bit 0), decoded "
        "bits (0/1 bytes) out.")
        .def(py::init(&blk::make), py::arg("standard") = "802.11a", py::arg("rate") = "1/2",
             py::arg("mode") = "stream", py::arg("len_tag_key") = "packet_len",
             py::arg("batch") = 0, py::arg("device") = "auto",
             "Make a viterbi_decoder_fb block. mode: stream (continuous, flushed at the end) "
             "or frame (terminated frames framed by len_tag_key); batch: trellis steps per "
             "GPU launch (0: 2^20); device: auto, cpu, cuda or cuda:N.")
        .def("device", &blk::device, "The device the block runs on: cpu or cuda:N.")
        .def("batch", &blk::batch, "Trellis steps per launch.")
        .def("period_steps", &blk::period_steps, "Trellis steps per puncturing period.")
        .def("period_llrs", &blk::period_llrs, "LLRs per puncturing period.");
}
