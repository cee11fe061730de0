/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#include <gnuradio/gpuofdm/device.h>

namespace py = pybind11;

void bind_device(py::module& m)
{
    m.def("gpu_unusable_reason", &gr::gpuofdm::gpu_unusable_reason, py::arg("index") = 0,
          "Why CUDA device `index` cannot be used, or '' when it can.");
    m.def("resolve_device", &gr::gpuofdm::resolve_device, py::arg("device") = "auto",
          "The device a block given this device string runs on: 'cpu' or 'cuda:N'.");
}
