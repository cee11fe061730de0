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
// work() leaves the newest sample of each call unread until the next call; when the
// upstream has finished and a call holds everything it wrote, the block feeds it all and
// finishes; while only that one sample waits, forecast() asks for more (stream_end.h).
//
// rx_stream_end holds that logic; rx_sink_block<Iface, Packet> is the impl's base class that
// makes start(), stop(), forecast() and work() of it, leaving the block its receiver's calls and the
// PDUs' contents. work() only copies the samples into chunks of memory of the block's own
// (page-locked for a GPU receiver); a feed thread hands them to the receiver and a
// publishing thread posts the PDUs, so the upstream is never held up by a batch being
// decoded, whatever its buffer (a live source held up for a batch would overflow).
//
// The block declares a history of about two batches that it never reads: GNU Radio sizes
// the buffer in front of a block to at least twice its history, so the upstream writes
// ahead in large pieces instead of trading 8192-sample pieces with work() (the default
// buffer), which held a receiver that decodes 600 Msps to about 70 % of what a
// file_source alone moves.

#include "ordered_worker.h"
#include "runtime/device.h" // core::cuda_error
#include "stream_end.h"

#include <gnuradio/block.h>
#include <gnuradio/gr_complex.h>
#include <gnuradio/logger.h>
#include <gnuradio/types.h>

#include <boost/thread/thread.hpp>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace gr {
namespace gpuofdm {

/*!
 * \brief The end-of-stream and error logic of a receiver block, as a member of it.
 *
 * The block's start() calls start(), its stop() finish_once(), its work() work(); its
 * receiver calls run through guarded() (on any thread). feed(x, n) and finish(where) are
 * always called with this object's mutex held (work() and stop() may run on different
 * threads).
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
        d_stopped = false;
    }

    /*!
     * Runs a receiver call, catching everything but the scheduler's thread interruption
     * (work() must not throw): logs "what: message", counts the failure, returns false.
     * The refresh function runs either way.
     */
    template <typename F>
    bool guarded(const char* what, F&& f)
    {
        if (d_stopped)
            return false; // a CUDA error stopped the block: no more calls, no more messages
        bool ok = false;
        try {
            f();
            ok = true;
        } catch (const boost::thread_interrupted&) {
            throw; // the scheduler's own way of stopping a thread
        } catch (const core::cuda_error& e) {
            // The device's state is unknown: stop now rather than fail max_failures times.
            d_logger->error("{}: {}; the block stops", what, e.what());
            d_stopped = true;
        } catch (const std::exception& e) {
            d_logger->error("{}: {}", what, e.what());
        } catch (...) {
            d_logger->error("{}: unknown exception", what);
        }
        d_failures = ok ? 0 : d_failures.load() + 1;
        if (d_refresh)
            d_refresh();
        return ok;
    }

    /*!
     * The body of the block's work(): feeds all input but the newest sample (everything
     * at the end of the stream, then finish("end of input")). Returns what work() returns
     * (WORK_DONE after max_failures failed receiver calls in a row). \p in is the first
     * new sample (after the block's history).
     */
    template <typename Feed, typename Finish>
    int work(gr::block& b, int noutput_items, const gr_complex* in, Feed&& feed, Finish&& finish)
    {
        // The reader's items include the history that precedes the call's items.
        const bool at_end = input_at_end(b, noutput_items + int(b.history()) - 1);
        const int take = at_end ? noutput_items : noutput_items - 1;
        if (take <= 0)
            return 0; // only the sample kept back (forecast() keeps this from happening)

        std::lock_guard<std::mutex> lock(d_mutex);
        d_finished = false; // new samples: the next end of stream decodes them
        if (d_stopped)
            return gr::block::WORK_DONE; // said once, where the error happened
        feed(in, size_t(take));
        if (d_stopped)
            return gr::block::WORK_DONE;
        if (d_failures >= max_failures) {
            d_logger->error("{} receiver calls failed in a row: the block stops",
                            d_failures.load());
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

    gr::logger_ptr d_logger;
    std::function<void()> d_refresh;
    std::mutex d_mutex;                   //!< the receiver: work() and stop()
    bool d_finished = false;              //!< finish() ran for the stream fed so far
    std::atomic<int> d_failures{ 0 };     //!< failed receiver calls in a row (any thread)
    std::atomic<bool> d_stopped{ false }; //!< a CUDA error: the block ends, for good
};

/*!
 * \brief Chunks of samples of the block's own, filled by work() and handed to the feed
 * thread; acquire() waits while every chunk is taken (the back-pressure on the upstream).
 */
class sample_chunks
{
public:
    sample_chunks(size_t chunk_samples, size_t n_chunks)
        : d_samples(chunk_samples), d_mem(chunk_samples * n_chunks)
    {
        for (size_t i = 0; i < n_chunks; i++)
            d_free.push_back(d_mem.data() + i * chunk_samples);
    }

    size_t chunk_samples() const { return d_samples; }
    //! All chunks, one range (to page-lock).
    gr_complex* memory() { return d_mem.data(); }
    size_t bytes() const { return d_mem.size() * sizeof(gr_complex); }

    gr_complex* acquire()
    {
        std::unique_lock<std::mutex> lock(d_mutex);
        d_released.wait(lock, [this] { return !d_free.empty(); });
        gr_complex* c = d_free.back();
        d_free.pop_back();
        return c;
    }

    void release(gr_complex* c)
    {
        {
            std::lock_guard<std::mutex> lock(d_mutex);
            d_free.push_back(c);
        }
        d_released.notify_one();
    }

private:
    const size_t d_samples;
    std::vector<gr_complex> d_mem;
    std::mutex d_mutex;
    std::condition_variable d_released;
    std::vector<gr_complex*> d_free;
};

/*!
 * \brief start(), stop(), forecast() and work() of a receiver sink over an rx_stream_end: the block's
 * impl derives from rx_sink_block<its public interface, its receiver's packet type>, calls
 * size_chunks() in its constructor and supplies receive(), receive_end(), samples_fed(),
 * publish(), refresh_counters() and log_end() (and pin_samples()/unpin_samples() for a GPU
 * receiver). work() copies the samples into chunks; the receiver calls run on the feed
 * thread, in order; publish() runs on a publishing thread, in order. Everything is decoded
 * and published before the end of a stream returns from work() or stop(), so no
 * subscriber misses a PDU.
 */
template <typename Iface, typename Packet>
class rx_sink_block : public Iface
{
public:
    bool start() override
    {
        d_end.start();
        if (!pin_samples(d_chunks->memory(), d_chunks->bytes()))
            this->d_logger->debug("sample chunks not page-locked: the receiver copies them");
        return Iface::start();
    }

    bool stop() override
    {
        // The flowgraph was stopped, or the block ended without seeing the end in work():
        // the counters are complete, the PDUs posted now may not all be delivered.
        d_end.finish_once("stop", [this](const char* where) { finish_stream(where); });
        drain_workers();
        unpin_samples();
        return Iface::stop();
    }

    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override
    {
        // A call of one item, the one kept back, has nothing to feed before the end.
        ninput_items_required[0] =
            std::max(noutput_items, input_to_progress(*this)) + int(this->history()) - 1;
    }

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star&) override
    {
        // The history (size_chunks()) is only there to size the upstream buffer: skip it.
        return d_end.work(
            *this, noutput_items,
            static_cast<const gr_complex*>(input_items[0]) + (this->history() - 1),
            [this](const gr_complex* x, size_t n) { take(x, n); },
            [this](const char* where) { finish_stream(where); });
    }

protected:
    //! The most derived class constructs the gr::sync_block (a virtual base) first, so
    //! the block's logger exists here.
    rx_sink_block()
        : d_end(this->d_logger, [this] { refresh_counters(); }),
          d_feeder(max_pending_jobs,
                   [this](const std::string& what) {
                       this->d_logger->error("feeding the receiver: {}", what);
                   }),
          d_publisher(max_pending_jobs, [this](const std::string& what) {
              this->d_logger->error("publishing PDUs: {}", what);
          })
    {
    }

    /*!
     * Chunks for a receiver that decodes \p batch samples at a time: half a batch each (at
     * least 2^14, at most 2^19 samples), as many as hold 4 batches, 4 to 8 of them (at
     * most 2^22 samples, 32 MiB); and a history of two batches (at most 2^21 samples).
     */
    void size_chunks(size_t batch)
    {
        const size_t chunk = std::clamp(batch / 2, size_t(1) << 14, size_t(1) << 19);
        const size_t n = std::clamp(4 * batch / chunk, size_t(4), size_t(8));
        d_chunks = std::make_unique<sample_chunks>(chunk, n);
        // An upstream buffer of at least 4 batches (at most 2^22 samples, 32 MiB): see the
        // comment at the top.
        this->set_history(unsigned(std::min(2 * batch, size_t(1) << 21)) + 1);
    }

    //! The impl's destructor calls this first: no receiver call and no publish() may run
    //! on a half-destroyed block.
    void drain_workers()
    {
        d_feeder.drain();
        d_publisher.drain();
    }

    //! Page-locks the chunks for the receiver (start()); false: it copies them.
    virtual bool pin_samples(const void* /*p*/, size_t /*bytes*/) { return false; }
    //! Undoes pin_samples() (stop()).
    virtual void unpin_samples() {}
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
    //! Jobs that may wait on either thread before a post waits too.
    static constexpr size_t max_pending_jobs = 16;

    //! work(): the samples into chunks; a full chunk goes to the feed thread.
    void take(const gr_complex* x, size_t n)
    {
        while (n > 0) {
            if (!d_chunk) {
                d_chunk = d_chunks->acquire();
                d_fill = 0;
            }
            const size_t m = std::min(n, d_chunks->chunk_samples() - d_fill);
            std::memcpy(d_chunk + d_fill, x, m * sizeof(gr_complex));
            d_fill += m;
            x += m;
            n -= m;
            if (d_fill == d_chunks->chunk_samples())
                hand_over();
        }
    }

    //! The chunk being filled (if any) to the feed thread.
    void hand_over()
    {
        if (!d_chunk)
            return;
        gr_complex* const c = d_chunk;
        const size_t n = d_fill;
        d_chunk = nullptr;
        d_fill = 0;
        d_feeder.post([this, c, n] {
            std::vector<Packet> got;
            if (d_end.guarded("receiver", [&] { got = receive(c, n); }))
                publish_later(std::move(got));
            d_chunks->release(c);
        });
    }

    //! On the feed thread: packets to the publishing thread, with this run's base.
    void publish_later(std::vector<Packet> packets)
    {
        if (packets.empty())
            return;
        d_publisher.post([this, p = std::move(packets), base = d_base] { publish(p, base); });
    }

    //! End of stream: decodes everything held, publishes it, and waits for both.
    void finish_stream(const char* where)
    {
        hand_over();
        d_feeder.post([this] {
            std::vector<Packet> got;
            if (d_end.guarded("end of stream", [&] { got = receive_end(); }))
                publish_later(std::move(got));
            d_base = samples_fed();
        });
        drain_workers();
        log_end(where);
    }

    std::unique_ptr<sample_chunks> d_chunks; //!< size_chunks()
    gr_complex* d_chunk = nullptr;           //!< the chunk work() fills, if any
    size_t d_fill = 0;                       //!< samples in it
    uint64_t d_base = 0;        //!< samples fed before the last end of stream (feed thread)
    ordered_worker d_feeder;    //!< the receiver's calls
    ordered_worker d_publisher; //!< publish()
};

} // namespace gpuofdm
} // namespace gr

#endif
