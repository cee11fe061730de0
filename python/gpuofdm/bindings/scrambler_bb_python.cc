/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpuofdm/scrambler_bb.h>

namespace py = pybind11;

void bind_scrambler_bb(py::module& m)
{
    using scrambler_bb = gr::gpuofdm::scrambler_bb;
    py::class_<scrambler_bb, gr::sync_block, gr::block, gr::basic_block,
               std::shared_ptr<scrambler_bb>>(
        m, "scrambler_bb",
        "Additive scrambler/descrambler of 802.11a (x^7+x^4+1) or the 802.16 randomizer "
        "(1+x^14+x^15), on the GPU or on the CPU twin. Bits one per byte in and out; the "
        "same block descrambles.")
        .def(py::init(&scrambler_bb::make), py::arg("standard") = "802.11a", py::arg("seed") = -1,
             py::arg("reset_tag_key") = "", py::arg("batch") = 0, py::arg("device") = "auto",
             "Make a scrambler_bb block. standard is 802.11a or 802.16; seed is the register "
             "as the standard prints it, first register bit the MSB (802.11a x7..x1, 1..127; "
             "802.16 reg1..reg15, 1..32767), negative for the standard's default (93 / "
             "0x4A80); a tag with key reset_tag_key restarts the register from the seed at "
             "its item; batch 0 picks 2^22 bits per GPU launch; device is auto, cpu, cuda or "
             "cuda:N.")
        .def("device", &scrambler_bb::device, "The device the block runs on: cpu or cuda:N.")
        .def("batch", &scrambler_bb::batch, "Bits per GPU launch.")
        .def("reset", &scrambler_bb::reset,
             "Restart the register from the seed at the next item the block processes.");
}
