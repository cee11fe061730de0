/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_PARAM_ERROR_H
#define GPUOFDM_CORE_PARAM_ERROR_H

#include <sstream>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

//! Throws std::invalid_argument("name: range, got value"), the form every validate() uses.
[[noreturn]] inline void throw_param_error(const char* name, const std::string& range, double got)
{
    std::ostringstream msg;
    msg.precision(12);
    msg << name << ": " << range << ", got " << got;
    throw std::invalid_argument(msg.str());
}

} // namespace gr::gpuofdm::core

#endif // GPUOFDM_CORE_PARAM_ERROR_H
