/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpuofdm/ofdm_fft.h>

namespace py = pybind11;

void bind_ofdm_fft(py::module& m)
{
    using ofdm_fft = gr::gpuofdm::ofdm_fft;
    py::class_<ofdm_fft, gr::block, gr::basic_block, std::shared_ptr<ofdm_fft>>(
        m, "ofdm_fft",
        "OFDM demodulator: drops each symbol's cyclic prefix and takes its FFT, on the GPU "
        "(batched cuFFT) or on the CPU twin (FFTW). Complex samples in, one vector of "
        "fft_len bins out per symbol.")
        .def(py::init(&ofdm_fft::make), py::arg("fft_len"), py::arg("cp_lengths"),
             py::arg("shift") = true, py::arg("scale") = 1.0f, py::arg("batch") = 0,
             py::arg("device") = "auto",
             "Make an ofdm_fft block. cp_lengths repeat round robin; batch 0 picks "
             "max(1, 2^18/fft_len) symbols per GPU launch; device is auto, cpu, cuda or "
             "cuda:N.")
        .def("device", &ofdm_fft::device, "The device the block runs on: cpu or cuda:N.")
        .def("batch", &ofdm_fft::batch, "Symbols per GPU launch.");
}
