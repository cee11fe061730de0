/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_RX_STREAM_END_H
#define INCLUDED_GPUOFDM_RX_STREAM_END_H

// What the burst receiver blocks (wifi_rx, wimax_rx: a sync_block sink with one gr_complex
// input and PDUs out) share: seeing the end of the stream in work(), calling the receiver's
// finish() exactly once per end, and never letting an exception out of work().
//
// GNU Radio 3.10 has no end-of-stream call and calls work() no more once a finished input
// is empty. So work() leaves the newest sample of each call unread until the next call;
// when the upstream has finished and a call holds everything it wrote, the block feeds it
// all and finishes. While only that one sample waits, the block sleeps until the upstream
// writes more (at most 100 ms), as the scheduler does for a block blocked on input.
//
// rx_stream_end holds that logic; rx_sink_block<Iface> is the impl's base class that makes
// start(), stop() and work() of it, leaving the block feed() and finish_stream().

#include <gnuradio/block.h>
#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>
#include <gnuradio/gr_complex.h>
#include <gnuradio/logger.h>
#include <gnuradio/types.h>

#include <boost/thread/thread.hpp>

#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <utility>

namespace gr {
namespace gpuofdm {

/*!
 * \brief The end-of-stream and error logic of a receiver block, as a member of it.
 *
 * The block's start() calls start(), its stop() finish_once(), its work() work(); its feed
 * and finish functions run their receiver calls through guarded(). feed(x, n) and
 * finish(where) are always called with this object's mutex held (work() and stop() may
 * run on different threads).
 */
class rx_stream_end
{
public:
    //! Failed receiver calls in a row after which work() returns WORK_DONE.
    static constexpr int max_failures = 10;

    /*!
     * \param logger the block's d_logger
     * \param refresh called after every guarded() call, failed or not (the block copies
     *        its receiver's counters into its atomics there)
     */
    rx_stream_end(gr::logger_ptr logger, std::function<void()> refresh)
        : d_logger(std::move(logger)), d_refresh(std::move(refresh))
    {
    }

    //! For the block's start(): a new run, a new end of stream to see.
    void start()
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        d_finished = false;
        d_failures = 0;
    }

    /*!
     * Runs a receiver call, catching everything but the scheduler's thread interruption
     * (work() must not throw): logs "what: message", counts the failure, returns false.
     * The refresh function runs either way.
     */
    template <typename F>
    bool guarded(const char* what, F&& f)
    {
        bool ok = false;
        try {
            f();
            ok = true;
        } catch (const boost::thread_interrupted&) {
            throw; // the scheduler's own way of stopping a thread
        } catch (const std::exception& e) {
            d_logger->error("{}: {}", what, e.what());
        } catch (...) {
            d_logger->error("{}: unknown exception", what);
        }
        d_failures = ok ? 0 : d_failures + 1;
        if (d_refresh)
            d_refresh();
        return ok;
    }

    /*!
     * The body of the block's work(): feeds all input but the newest sample (everything
     * at the end of the stream, then finish("end of input")), or sleeps when only that
     * sample waits. Returns what work() returns (WORK_DONE after max_failures failed
     * receiver calls in a row).
     */
    template <typename Feed, typename Finish>
    int work(gr::block& b, int noutput_items, const gr_complex* in, Feed&& feed,
             Finish&& finish)
    {
        bool at_end = false;
        {
            const gr::buffer_reader_sptr& r = b.detail()->input(0);
            gr::thread::scoped_lock guard(*r->mutex());
            at_end = r->done() && r->items_available() <= noutput_items;
        }
        const int take = at_end ? noutput_items : noutput_items - 1;
        if (take <= 0) {
            wait_for_input(b); // only the sample kept back: sleep, do not spin
            return 0;
        }

        std::lock_guard<std::mutex> lock(d_mutex);
        d_finished = false; // new samples: the next end of stream decodes them
        feed(in, size_t(take));
        if (d_failures >= max_failures) {
            d_logger->error("{} receiver calls failed in a row: the block stops", d_failures);
            return gr::block::WORK_DONE;
        }
        if (at_end)
            finish_locked("end of input", finish);
        return take;
    }

    /*!
     * For the block's stop() (the flowgraph was stopped, or the block ended without seeing
     * the end in work(): an upstream that finished with nothing left to read): finish(where)
     * unless it already ran for the samples fed. PDUs posted then may not reach
     * subscribers that have already ended.
     */
    template <typename Finish>
    void finish_once(const char* where, Finish&& finish)
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        finish_locked(where, finish);
    }

private:
    template <typename Finish>
    void finish_locked(const char* where, Finish& finish)
    {
        if (d_finished)
            return;
        d_finished = true;
        finish(where);
    }

    //! Sleeps until the upstream writes more or finishes (at most 100 ms).
    static void wait_for_input(gr::block& b)
    {
        // No interruption point here: a tb.stop() meanwhile ends the thread at the
        // scheduler's next one, right after this returns.
        boost::this_thread::disable_interruption no_interrupt;
        gr::block_detail* d = b.detail().get();
        gr::thread::scoped_lock guard(d->d_tpb.mutex);
        if (!d->d_tpb.input_changed)
            d->d_tpb.input_cond.timed_wait(guard, boost::get_system_time() +
                                                      boost::posix_time::milliseconds(100));
    }

    gr::logger_ptr d_logger;
    std::function<void()> d_refresh;
    std::mutex d_mutex;      //!< the receiver: work() and stop()
    bool d_finished = false; //!< finish() ran for the stream fed so far
    int d_failures = 0;      //!< failed receiver calls in a row
};

/*!
 * \brief start(), stop() and work() of a receiver sink over an rx_stream_end: the block's
 * impl derives from rx_sink_block<its public interface> and supplies feed() and
 * finish_stream() (both called with d_end's mutex held) and refresh_counters() (called
 * after every guarded() receiver call); they run their receiver calls through d_end.guarded().
 */
template <typename Iface>
class rx_sink_block : public Iface
{
public:
    bool start() override
    {
        d_end.start();
        return Iface::start();
    }

    bool stop() override
    {
        // The flowgraph was stopped, or the block ended without seeing the end in work():
        // the counters are complete, the PDUs posted now may not all be delivered.
        d_end.finish_once("stop", [this](const char* where) { finish_stream(where); });
        return Iface::stop();
    }

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star&) override
    {
        return d_end.work(
            *this, noutput_items, static_cast<const gr_complex*>(input_items[0]),
            [this](const gr_complex* x, size_t n) { feed(x, n); },
            [this](const char* where) { finish_stream(where); });
    }

protected:
    //! The most derived class constructs the gr::sync_block (a virtual base) first, so
    //! the block's logger exists here.
    rx_sink_block() : d_end(this->d_logger, [this] { refresh_counters(); }) {}

    //! Feeds n samples to the receiver and publishes what they complete.
    virtual void feed(const gr_complex* x, size_t n) = 0;
    //! End of stream: decodes what the receiver holds and publishes it.
    virtual void finish_stream(const char* where) = 0;
    //! Copies the receiver's counters into the block's atomics.
    virtual void refresh_counters() = 0;

    rx_stream_end d_end; //!< end of stream, failures, the receiver's mutex
};

} // namespace gpuofdm
} // namespace gr

#endif
