/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_APPS_GR_LOG_LEVEL_H
#define GPUOFDM_APPS_GR_LOG_LEVEL_H

// The apps set GNU Radio's log level themselves rather than take the system's
// (Debian's configuration logs at debug): warnings and errors by default, everything
// with --verbose. Call it before making any block, whose logger takes the level then.

#include <gnuradio/logger.h>

namespace gpuofdm_apps {

inline void set_gr_log_level(bool verbose)
{
    gr::logging::singleton().set_default_level(verbose ? gr::log_level::debug
                                                       : gr::log_level::warn);
}

} // namespace gpuofdm_apps

#endif
