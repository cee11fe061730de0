/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpuofdm/conv_encoder_bb.h>

namespace py = pybind11;

void bind_conv_encoder_bb(py::module& m)
{
    using conv_encoder_bb = gr::gpuofdm::conv_encoder_bb;
    py::class_<conv_encoder_bb, gr::tagged_stream_block, gr::block, gr::basic_block,
               std::shared_ptr<conv_encoder_bb>>(
        m, "conv_encoder_bb",
        "K=7 convolutional encoder (133/171 octal) with the puncturing of 802.11a or 802.16, "
        "on the GPU or on the CPU twin. Bits one per byte in and out; tagged frames are "
        "encoded from the zero state, or a continuous stream with len_tag_key=''. Tail bits "
        "are the caller's.")
        .def(py::init(&conv_encoder_bb::make), py::arg("standard") = "802.11a",
             py::arg("rate") = "1/2", py::arg("len_tag_key") = "packet_len", py::arg("batch") = 0,
             py::arg("device") = "auto",
             "Make a conv_encoder_bb block. standard is 802.11a or 802.16; rate 1/2, 2/3, "
             "3/4 or 5/6; len_tag_key names the frames' length tags, '' for a continuous "
             "stream; batch 0 picks 2^22 input bits per GPU launch; device is auto, cpu, "
             "cuda or cuda:N.")
        .def("device", &conv_encoder_bb::device, "The device the block runs on: cpu or cuda:N.")
        .def("batch", &conv_encoder_bb::batch, "Input bits per GPU launch.")
        .def("output_len", &conv_encoder_bb::output_len, py::arg("n_in"),
             "Output bits that n_in input bits of a frame (from the zero state) become.");
}
