/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_ORDERED_WORKER_H
#define INCLUDED_GPUOFDM_ORDERED_WORKER_H

// One thread that runs jobs in the order they were posted: the receiver blocks publish
// their PDUs there, so that work() does not wait on GNU Radio's message delivery (per
// message a registry look-up, a queue lock and a wake-up of the subscriber's thread:
// several microseconds, a large part of a frame's decoding budget at 10x real time).

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace gr {
namespace gpuofdm {

class ordered_worker
{
public:
    /*!
     * \param max_pending post() waits while this many jobs wait to run (back-pressure)
     * \param on_error called on the worker's thread with the message of a job that threw
     */
    ordered_worker(size_t max_pending, std::function<void(const std::string&)> on_error)
        : d_max_pending(max_pending), d_on_error(std::move(on_error)), d_thread([this] { loop(); })
    {
    }

    ~ordered_worker()
    {
        {
            std::lock_guard<std::mutex> lock(d_mutex);
            d_stop = true;
        }
        d_changed.notify_all();
        d_thread.join(); // runs what is queued first
    }

    ordered_worker(const ordered_worker&) = delete;
    ordered_worker& operator=(const ordered_worker&) = delete;

    //! Queues \p job after the jobs posted before it.
    void post(std::function<void()> job)
    {
        std::unique_lock<std::mutex> lock(d_mutex);
        d_changed.wait(lock, [this] { return d_jobs.size() < d_max_pending; });
        d_jobs.push_back(std::move(job));
        lock.unlock();
        d_changed.notify_all();
    }

    //! Returns when every job posted so far has run.
    void drain()
    {
        std::unique_lock<std::mutex> lock(d_mutex);
        d_changed.wait(lock, [this] { return d_jobs.empty() && !d_running; });
    }

private:
    void loop()
    {
        std::unique_lock<std::mutex> lock(d_mutex);
        for (;;) {
            d_changed.wait(lock, [this] { return d_stop || !d_jobs.empty(); });
            if (d_jobs.empty())
                return; // stopped, nothing left
            std::function<void()> job = std::move(d_jobs.front());
            d_jobs.pop_front();
            d_running = true;
            lock.unlock();
            d_changed.notify_all(); // room for post()
            try {
                job();
            } catch (const std::exception& e) {
                d_on_error(e.what());
            } catch (...) {
                d_on_error("unknown exception");
            }
            lock.lock();
            d_running = false;
            if (d_jobs.empty())
                d_changed.notify_all(); // drain()
        }
    }

    const size_t d_max_pending;
    const std::function<void(const std::string&)> d_on_error;
    std::mutex d_mutex;
    std::condition_variable d_changed; //!< a job queued, taken or finished; stop
    std::deque<std::function<void()>> d_jobs;
    bool d_running = false;
    bool d_stop = false;
    std::thread d_thread; //!< last: starts once the rest is constructed
};

} // namespace gpuofdm
} // namespace gr

#endif
