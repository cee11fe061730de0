/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpuofdm/cell_searcher_cc.h>

namespace py = pybind11;

void bind_cell_searcher_cc(py::module& m)
{
    using searcher = gr::gpuofdm::cell_searcher_cc;
    py::class_<searcher, gr::block, gr::basic_block, std::shared_ptr<searcher>>(
        m, "cell_searcher_cc",
        "Cell searcher: every 5G NR, LTE or 5GTF cell in the stream at every raster position "
        "of the band, unknown timing and frequency. Samples pass through (about a window "
        "and a quarter late), each detected sync block tagged 'cell' and reported as a dict "
        "on message port 'cells'. At high rates give the source a large output buffer "
        "(set_min_output_buffer(1 << 20)); the block's own is 2^20 items.")
        .def(py::init(&searcher::make), py::arg("standard") = "nr", py::arg("samp_rate") = 30.72e6,
             py::arg("center_freq") = 0.0, py::arg("offsets_hz") = std::vector<double>{},
             py::arg("ssb_scs_khz") = 30, py::arg("cfo_range_hz") = 0.0,
             py::arg("pss_threshold") = 16.0, py::arg("sss_threshold") = 0.0,
             py::arg("combine_periods") = 1, py::arg("window_ms") = 20.0,
             py::arg("device") = "auto", py::arg("sro_ppm") = 20.0,
             py::arg("combine_symbols") = false, py::arg("pss_steps") = -1,
             "Make a cell_searcher_cc. standard nr, lte or 5gtf; samp_rate whole Hz "
             "1.92e6..245.76e6; center_freq the stream's centre (0: unknown; NR then needs "
             "offsets_hz); offsets_hz the candidates (empty: the standard's raster: NR GSCNs, "
             "LTE 100 kHz points, the 5GTF centre); ssb_scs_khz 15 or 30 (NR); cfo_range_hz "
             "(0: +-10 ppm of the carrier when center_freq is known, at least one subcarrier "
             "spacing); pss_threshold and sss_threshold (> 1; metrics are 1 "
             "on average in noise; sss_threshold 0: the standard's, 14.75 or LTE's 13.5; with "
             "combine_periods > 1 the combined metrics are held "
             "to the levels that noise passes as rarely); "
             "combine_periods 1..16, the sync "
             "periods whose PSS metrics are averaged and SSS added; window_ms 5..1000; "
             "device auto, "
             "cpu, cuda or cuda:N; sro_ppm 0..100, the sample-clock offset that combining "
             "periods allows for (the periods' PSS metrics added along the best drift path); "
             "combine_symbols (5GTF only) also averages the PSS and SSS over each sync "
             "subframe's 14 symbols: one detection per subframe, at its symbol 0; pss_steps "
             "the steps of levels below the thresholds, each a PSS 1 lower with an SSS "
             "higher, for weaker cells at about e times the SSS readings of noise a step "
             "(-1: 3 with NR's or LTE's periods combined, none with one period; 0..6).")
        .def("device", &searcher::device, "The device the search runs on: cpu or cuda:N.")
        .def("candidates", &searcher::candidates, "How many raster candidates are searched.");
}
