/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_STREAM_END_H
#define INCLUDED_GPUOFDM_STREAM_END_H

// Seeing the end of a stream in a block with one input (ofdm_sync_cc, the receiver sinks
// of rx_stream_end.h), through GNU Radio's public block interface.
//
// GNU Radio 3.10 has no end-of-stream call and calls work() no more once a finished input
// is empty. So such a block leaves the newest input sample unread until the next call;
// when the upstream has finished and a call holds everything it wrote, the block reads it
// all and ends its stream (input_at_end()).
//
// While only that one sample waits, there is nothing to do until the upstream writes more
// or finishes. The block's forecast() says so (input_to_progress()): the scheduler then
// finds too little input and waits itself (BLKD_IN, woken by the upstream's writes and by
// its end), where a work() that returned 0 would be called again at once (READY_NO_OUTPUT:
// a spinning thread).

#include <gnuradio/block.h>
#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>

namespace gr {
namespace gpuofdm {

//! Whether the upstream of \p b's input 0 has finished (it writes no more).
inline bool upstream_done(gr::block& b)
{
    const gr::buffer_reader_sptr& r = b.detail()->input(0);
    gr::thread::scoped_lock guard(*r->mutex());
    return r->done();
}

//! Whether the \p n items of input 0 a call holds are all that the finished upstream wrote.
inline bool input_at_end(gr::block& b, int n)
{
    const gr::buffer_reader_sptr& r = b.detail()->input(0);
    gr::thread::scoped_lock guard(*r->mutex());
    return r->done() && r->items_available() <= n;
}

/*!
 * For forecast(): the input items a call needs to read a new sample when the newest one is
 * kept back: 2 while the upstream runs (the one kept back and a new one), 1 once it has
 * finished (the one kept back, to end the stream).
 */
inline int input_to_progress(gr::block& b) { return upstream_done(b) ? 1 : 2; }

} // namespace gpuofdm
} // namespace gr

#endif
