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
// rx_stream_end holds that logic; rx_sink_block<Iface, Packet> is the impl's base class that
// makes start(), stop() and work() of it and publishes on a thread of its own, leaving the
// block its receiver's calls and the PDUs' contents.

#include "ordered_worker.h"

#include <gnuradio/block.h>
#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>
#include <gnuradio/gr_complex.h>
#include <gnuradio/logger.h>
#include <gnuradio/types.h>

#include <boost/thread/thread.hpp>

#include <algorithm>

#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

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
        // The history (rx_sink_block::room_for_batch) comes first in the input and is
        // counted among the items available: the new samples follow it.
        const int history = int(b.history()) - 1;
        in += history;
        bool at_end = false;
        {
            const gr::buffer_reader_sptr& r = b.detail()->input(0);
            gr::thread::scoped_lock guard(*r->mutex());
            at_end = r->done() && r->items_available() - history <= noutput_items;
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
 * impl derives from rx_sink_block<its public interface, its receiver's packet type> and
 * supplies receive(), receive_end(), samples_fed(), publish(), refresh_counters() and
 * log_end(). The receiver calls run on the block's thread (with d_end's mutex held);
 * publish() runs on a thread of its own, in order, so that work() goes on decoding while
 * GNU Radio delivers the PDUs; everything is published before the end of a stream
 * returns from work() or stop(), so no subscriber misses a PDU.
 */
template <typename Iface, typename Packet>
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
        d_publisher.drain();
        return Iface::stop();
    }

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star&) override
    {
        return d_end.work(
            *this, noutput_items, static_cast<const gr_complex*>(input_items[0]),
            [this](const gr_complex* x, size_t n) {
                std::vector<Packet> got;
                if (d_end.guarded("receiver", [&] { got = receive(x, n); }))
                    publish_later(std::move(got));
            },
            [this](const char* where) { finish_stream(where); });
    }

protected:
    //! The most derived class constructs the gr::sync_block (a virtual base) first, so
    //! the block's logger exists here.
    rx_sink_block()
        : d_end(this->d_logger, [this] { refresh_counters(); }),
          d_publisher(max_pending_batches, [this](const std::string& what) {
              this->d_logger->error("publishing PDUs: {}", what);
          })
    {
    }

    /*!
     * Makes GNU Radio give the upstream block room for two batches of \p batch samples
     * besides what this block reads, so the upstream fills the next batch while one
     * decodes (with room for one batch only, a source that writes in bursts makes the two
     * take turns): a history of 2 batches, at most max_history_room samples, which GNU
     * Radio honours by sizing the buffer (twice the history); work() skips it. More room
     * for larger batches is the upstream's min_output_buffer (the block docs say so).
     */
    void room_for_batch(size_t batch)
    {
        this->set_history(unsigned(std::min(2 * batch, max_history_room)) + 1);
    }
    //! 2^21 samples (16 MiB): GNU Radio then allocates buffers of 2^22+ samples.
    static constexpr size_t max_history_room = size_t(1) << 21;

    //! The impl's destructor calls this first: no publish() may run on a half-destroyed
    //! block.
    void drain_publisher() { d_publisher.drain(); }

    //! The receiver's process(x, n): the packets the samples complete.
    virtual std::vector<Packet> receive(const gr_complex* x, size_t n) = 0;
    //! The receiver's finish(): the packets held at the end of a stream.
    virtual std::vector<Packet> receive_end() = 0;
    //! Samples fed to the receiver since its construction.
    virtual uint64_t samples_fed() const = 0;
    /*!
     * Posts the packets as PDUs; \p base is the stream index the receiver's sample 0 has
     * in this run (samples fed before the last end of stream). On the publishing thread.
     */
    virtual void publish(const std::vector<Packet>& packets, uint64_t base) = 0;
    //! Copies the receiver's counters into the block's atomics.
    virtual void refresh_counters() = 0;
    //! Logs the counters at an end of stream.
    virtual void log_end(const char* where) = 0;

    rx_stream_end d_end; //!< end of stream, failures, the receiver's mutex

private:
    //! Batches of packets that may wait for publishing before work() waits too.
    static constexpr size_t max_pending_batches = 8;

    void publish_later(std::vector<Packet> packets)
    {
        if (packets.empty())
            return;
        d_publisher.post([this, p = std::move(packets), base = d_base] { publish(p, base); });
    }

    //! End of stream: decodes what the receiver holds and publishes everything.
    void finish_stream(const char* where)
    {
        std::vector<Packet> got;
        if (d_end.guarded("end of stream", [&] { got = receive_end(); }))
            publish_later(std::move(got));
        d_base = samples_fed();
        d_publisher.drain();
        log_end(where);
    }

    uint64_t d_base = 0; //!< samples fed before the last end of stream (a rerun)
    ordered_worker d_publisher;
};

} // namespace gpuofdm
} // namespace gr

#endif
