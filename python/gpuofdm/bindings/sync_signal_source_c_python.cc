/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpuofdm/sync_signal_source_c.h>

namespace py = pybind11;

void bind_sync_signal_source_c(py::module& m)
{
    using source = gr::gpuofdm::sync_signal_source_c;
    py::class_<source, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<source>>(
        m, "sync_signal_source_c",
        "Synchronization signals of cells (5G NR SS/PBCH blocks, LTE PSS/SSS, 5GTF "
        "PSS/SSS/ESS) plus white noise, at any sample rate: for tests, demos and the cell "
        "searcher.")
        .def(py::init(&source::make), py::arg("standard") = "nr", py::arg("samp_rate") = 7.68e6,
             py::arg("cell_ids") = std::vector<int>{ 0 },
             py::arg("power_db") = std::vector<double>{},
             py::arg("offsets_hz") = std::vector<double>{},
             py::arg("cfo_hz") = std::vector<double>{}, py::arg("start_s") = std::vector<double>{},
             py::arg("snr_db") = 10.0, py::arg("ssb_scs_khz") = 30, py::arg("sro_ppm") = 0.0,
             py::arg("center_freq") = 0.0, py::arg("seed") = 1,
             "Make a sync_signal_source_c. standard is nr, lte or 5gtf; samp_rate "
             "1.92e6..245.76e6; cell_ids one per cell (NR 0..1007, LTE/5GTF 0..503); power_db, "
             "offsets_hz (raster position from the centre), cfo_hz and start_s (frame start) "
             "empty or one per cell; snr_db the SNR of a 0 dB cell over its sync signal's "
             "band (float('inf'): no noise); ssb_scs_khz 15 or 30 (NR); sro_ppm the "
             "receiver's sample-clock offset; center_freq the carrier (NR's symbol phase); "
             "seed for the noise and PBCH data.");
}
