/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Routes the core's log lines (device fallback and the like) to GNU Radio's logger.

#include "runtime/device.h"

#include <gnuradio/logger.h>

namespace gr::gpuofdm {

namespace {

void log_to_gnuradio(const std::string& line)
{
    static gr::logger logger("gpuofdm");
    logger.info("{}", line);
}

const bool installed = (core::set_log_sink(&log_to_gnuradio), true);

} // namespace

} // namespace gr::gpuofdm
