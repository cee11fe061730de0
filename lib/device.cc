/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "runtime/device.h"
#include <gnuradio/gpuofdm/device.h>

namespace gr {
namespace gpuofdm {

std::string gpu_unusable_reason(int index) { return core::cuda_unusable_reason(index); }

std::string resolve_device(const std::string& device)
{
    return core::resolve_device(device).to_string();
}

void set_cuda_fault(const std::string& spec) { core::set_cuda_fault(spec); }

} // namespace gpuofdm
} // namespace gr
