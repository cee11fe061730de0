/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_PRACH_ROOT_TABLE_H
#define GPUOFDM_CORE_PRACH_ROOT_TABLE_H

#include <array>
#include <cstdint>

namespace gr::gpuofdm::core {

constexpr int prach_root_table_839_size = 838;

//! 38.211 Table 6.3.3.1-3 (prach_root_table.cc); read it through prach_root_u().
extern const std::array<uint16_t, prach_root_table_839_size> prach_root_table_839;

} // namespace gr::gpuofdm::core

#endif
