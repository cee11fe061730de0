/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpuofdm/pfb_timing_sync_ccf.h>

namespace py = pybind11;

void bind_pfb_timing_sync_ccf(py::module& m)
{
    using blk = gr::gpuofdm::pfb_timing_sync_ccf;
    py::class_<blk, gr::block, gr::basic_block, std::shared_ptr<blk>>(
        m, "pfb_timing_sync_ccf",
        "Polyphase symbol timing recovery (CPU twin or CUDA), a drop-in for "
        "digital.pfb_clock_sync_ccf: the same banks (filter i = taps[i + j*filter_size], the "
        "derivative bank from the [-1, 0, 1] difference), the error (Re y Re dy + Im y Im dy)/2 "
        "and pfb_clock_sync_ccf's loop. Output 0: symbols (osps a symbol); optional outputs "
        "1-3: error, rate, phase. mode 'sequential' gives pfb_clock_sync_ccf's symbols within "
        "float rounding; 'chunked' runs a loop per chunk of chunk_samples from warmup_samples "
        "before it and stitches the chunks by symbol time; 'hybrid' computes every filter's output "
        "at every sample first (on the GPU) and walks the sequential loop through them on the "
        "host (the sequential symbols). time_est tags set the phase; other "
        "tags move to the first symbol whose filter centre is at or after them.")
        .def(py::init(&blk::make), py::arg("sps"), py::arg("loop_bw"), py::arg("taps"),
             py::arg("filter_size") = 32, py::arg("init_phase") = 0.0f,
             py::arg("max_rate_deviation") = 1.5f, py::arg("osps") = 1, py::arg("device") = "auto",
             py::arg("mode") = "sequential", py::arg("chunk_samples") = 16384,
             py::arg("warmup_samples") = 4096,
             "Make a pfb_timing_sync_ccf block. sps: 1..256; loop_bw: 0..1; taps: 3..65536 "
             "taps at filter_size*sps; filter_size: 1..1024; init_phase: -1e6..1e6; "
             "max_rate_deviation: 0..filter_size; osps: 1..floor(sps); device: auto, cpu, cuda "
             "or cuda:N; mode: 'sequential', 'chunked' or 'hybrid'; chunk_samples: 64*sps..2**24; "
             "warmup_samples: 0..2**24.")
        .def("device", &blk::device, "The device the loop runs on: cpu or cuda:N.")
        .def("mode", &blk::mode, "'sequential' or 'chunked'.")
        .def("loop_bandwidth", &blk::loop_bandwidth)
        .def("alpha", &blk::alpha, "The loop's proportional gain.")
        .def("beta", &blk::beta, "The loop's integral gain.")
        .def("error", &blk::error, "The timing error of the last symbol.")
        .def("rate", &blk::rate, "The rate after the last symbol (filter units a sample).")
        .def("phase", &blk::phase, "The phase k after the last symbol (filter units).")
        .def("taps", &blk::taps, "The matched-filter bank, [filter_size][taps per filter].")
        .def("diff_taps", &blk::diff_taps, "The derivative bank, the same shape.");
}
