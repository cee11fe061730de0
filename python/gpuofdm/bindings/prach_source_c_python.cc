/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/complex.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpuofdm/prach_source_c.h>

namespace py = pybind11;

void bind_prach_source_c(py::module& m)
{
    using source = gr::gpuofdm::prach_source_c;
    py::class_<source, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<source>>(
        m, "prach_source_c",
        "5G NR PRACH preambles of UEs (38.211 6.3.3) as received on several antennas, plus "
        "white noise: one output per antenna, for tests, demos and prach_detector_c.")
        .def(py::init(&source::make), py::arg("samp_rate") = 30.72e6, py::arg("format") = "0",
             py::arg("scs_khz") = 30, py::arg("n_antennas") = 1, py::arg("logical_root") = 0,
             py::arg("zero_correlation_zone") = 1, py::arg("restricted_set") = "unrestricted",
             py::arg("offset_hz") = 0.0, py::arg("start_sample") = 0, py::arg("period_samples") = 0,
             py::arg("preambles") = std::vector<int>{ 0 },
             py::arg("delays_samples") = std::vector<double>{},
             py::arg("cfo_hz") = std::vector<double>{}, py::arg("power_db") = std::vector<double>{},
             py::arg("gains") = std::vector<gr_complex>{}, py::arg("noise") = true,
             py::arg("seed") = 1,
             "Make a prach_source_c. samp_rate a multiple of the PRACH subcarrier spacing "
             "with whole CP samples (30.72 MHz x 2^k); format 0..3, A1..A3, B1..B4, C0, C2; "
             "scs_khz the short formats' spacing (15, 30, 60, 120); n_antennas 1..64 outputs; "
             "logical_root, zero_correlation_zone (0..15) and restricted_set (unrestricted, "
             "A, B) the cell; offset_hz the sequence's first subcarrier from the centre; "
             "occasions at start_sample + k period_samples (0: one); per UE: preambles "
             "(0..63), delays_samples, cfo_hz, power_db (per-subcarrier power, the SNR over "
             "unit noise), gains (n_antennas complex gains per UE, or empty); noise adds "
             "unit-variance white noise; seed for the noise.")
        .def("preamble_samples", &source::preamble_samples,
             "Samples of one preamble (CP and repetitions).");
}
