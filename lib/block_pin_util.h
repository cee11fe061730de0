/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_BLOCK_PIN_UTIL_H
#define INCLUDED_GPUOFDM_BLOCK_PIN_UTIL_H

// Page-locking a block's GNU Radio buffers for a GPU stage of any kind (OFDM stages, the
// Viterbi decoder): the stage supplies pin(ptr, bytes), e.g. its pin_host_range().

#include <gnuradio/block.h>
#include <gnuradio/block_detail.h>
#include <gnuradio/buffer.h>
#include <gnuradio/buffer_reader.h>
#include <gnuradio/logger.h>

#include <cstdlib>
#include <functional>
#include <string>

namespace gr {
namespace gpuofdm {

//! False when GPUOFDM_PIN_BUFFERS=0 is set in the environment.
inline bool pin_buffers_enabled()
{
    const char* env = std::getenv("GPUOFDM_PIN_BUFFERS");
    return !(env && std::string(env) == "0");
}

/*!
 * Page-locks GNU Radio buffer \p buf of \p item_size items through \p pin: a double-mapped
 * buffer shows its memory twice, back to back, and both views are pinned.
 */
inline bool pin_buffer(const gr::buffer_sptr& buf,
                       size_t item_size,
                       const std::function<bool(const void*, size_t)>& pin)
{
    const size_t views = buf->get_mapping_type() == gr::buffer_mapping_type::double_mapped ? 2 : 1;
    return pin(buf->base(), views * buf->bufsize() * item_size);
}

/*!
 * Page-locks the block's input 0 and output 0 GNU Radio buffers through \p pin so a GPU
 * stage copies straight between them and the device, without its own staging memcpy
 * (which would bound the block at host memcpy speed). Call it from start() on a CUDA
 * stage and undo it in stop(). A refusal only costs speed. GPUOFDM_PIN_BUFFERS=0 in the
 * environment turns it off (every transfer then stages through the stage's own pinned
 * memory).
 */
inline void pin_block_buffers(gr::block& b,
                              const gr::logger_ptr& logger,
                              size_t in_item_size,
                              size_t out_item_size,
                              const std::function<bool(const void*, size_t)>& pin)
{
    if (!pin_buffers_enabled())
        return;
    const bool in_ok = pin_buffer(b.detail()->input(0)->buffer(), in_item_size, pin);
    const bool out_ok = pin_buffer(b.detail()->output(0), out_item_size, pin);
    if (!in_ok || !out_ok)
        logger->debug("could not page-lock the {} buffer; staging through pinned memory",
                      in_ok ? "output" : "input");
}

} // namespace gpuofdm
} // namespace gr

#endif
