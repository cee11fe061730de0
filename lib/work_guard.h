/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_WORK_GUARD_H
#define INCLUDED_GPUOFDM_WORK_GUARD_H

// What a block's work() does with an exception from its stage (a CUDA error, a bad
// input): GNU Radio 3.10 ends the block's thread on an exception without marking the block
// done, so the flowgraph's wait() would never return. The block logs the error once and
// returns WORK_DONE instead: its neighbours see it done and the flowgraph ends.

#include <gnuradio/block.h>
#include <gnuradio/logger.h>

#include <boost/thread/exceptions.hpp>

#include <exception>

namespace gr {
namespace gpuofdm {

/*!
 * Runs \p work (the block's work, returning what work() returns); on an exception logs
 * "<message>; the block stops" and returns WORK_DONE. The scheduler's thread interruption
 * (how a flowgraph's stop() ends a block) passes through.
 */
template <typename Work>
int stop_on_error(const gr::logger_ptr& logger, Work&& work)
{
    try {
        return work();
    } catch (const boost::thread_interrupted&) {
        throw;
    } catch (const std::exception& e) {
        logger->error("{}; the block stops", e.what());
    } catch (...) {
        logger->error("unknown exception; the block stops");
    }
    return gr::block::WORK_DONE;
}

} // namespace gpuofdm
} // namespace gr

#endif
