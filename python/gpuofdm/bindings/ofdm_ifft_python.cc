/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpuofdm/ofdm_ifft.h>

namespace py = pybind11;

void bind_ofdm_ifft(py::module& m)
{
    using ofdm_ifft = gr::gpuofdm::ofdm_ifft;
    py::class_<ofdm_ifft, gr::block, gr::basic_block, std::shared_ptr<ofdm_ifft>>(
        m, "ofdm_ifft",
        "OFDM modulator: inverse FFT of each vector of bins with a cyclic prefix in front, on the "
        "GPU "
        "(batched cuFFT) or on the CPU twin (FFTW). One vector of fft_len bins in per symbol, "
        "complex "
        "samples out.")
        .def(py::init(&ofdm_ifft::make), py::arg("fft_len"), py::arg("cp_lengths"),
             py::arg("shift") = true, py::arg("scale") = 1.0f, py::arg("batch") = 0,
             py::arg("device") = "auto",
             "Make an ofdm_ifft block. cp_lengths repeat round robin; batch 0 picks "
             "max(1, 2^18/fft_len) symbols per GPU launch; device is auto, cpu, cuda or "
             "cuda:N.")
        .def("device", &ofdm_ifft::device, "The device the block runs on: cpu or cuda:N.")
        .def("batch", &ofdm_ifft::batch, "Symbols per GPU launch.");
}
