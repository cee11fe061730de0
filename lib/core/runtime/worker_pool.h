/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_WORKER_POOL_H
#define GPUOFDM_CORE_WORKER_POOL_H

// Host worker threads for the CPU parts of the stages: the CPU twins' heavy loops and the
// per-frame host steps of the CUDA backends (SIGNAL decoding, descrambling, FCS).

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace gr::gpuofdm::core {

/*!
 * Worker threads started once: run(n, f, ctx) calls f(ctx, 0) here and f(ctx, i) on
 * worker i - 1 for i < n, and returns when all are done. No allocation per run.
 *
 * Each worker sleeps on its own condition variable and mutex, and run() wakes only the
 * workers it needs, one by one: with one shared mutex (notify_all) the woken threads took
 * it in turn, each waiting for the one before to be scheduled, which on some hosts left
 * the last of 16 workers starting hundreds of microseconds late.
 */
class worker_pool
{
public:
    using task_fn = void (*)(void*, unsigned);

    explicit worker_pool(unsigned n_workers) : d_workers(n_workers)
    {
        d_threads.reserve(n_workers);
        for (unsigned i = 0; i < n_workers; i++)
            d_threads.emplace_back([this, i] { loop(i); });
    }

    ~worker_pool()
    {
        for (auto& w : d_workers) {
            {
                std::lock_guard<std::mutex> lk(w.mutex);
                w.stop = true;
            }
            w.go.notify_one();
        }
        for (auto& t : d_threads)
            t.join();
    }

    worker_pool(const worker_pool&) = delete;
    worker_pool& operator=(const worker_pool&) = delete;

    //! Worker threads (the caller of run() is one more).
    unsigned size() const { return unsigned(d_threads.size()); }

    //! One caller at a time.
    void run(unsigned n_slices, task_fn f, void* ctx)
    {
        const unsigned helpers = n_slices > 1 ? std::min(n_slices - 1, size()) : 0;
        d_fn = f; // published to each worker by its mutex
        d_ctx = ctx;
        d_pending.store(helpers);
        for (unsigned i = 0; i < helpers; i++) {
            worker& w = d_workers[i];
            {
                std::lock_guard<std::mutex> lk(w.mutex);
                w.task = true;
            }
            w.go.notify_one();
        }
        f(ctx, 0);
        std::unique_lock<std::mutex> lk(d_done_mutex);
        d_done.wait(lk, [this] { return d_pending.load() == 0; });
    }

private:
    struct worker {
        std::mutex mutex;
        std::condition_variable go;
        bool task = false, stop = false;
    };

    void loop(unsigned i)
    {
        worker& w = d_workers[i];
        for (;;) {
            {
                std::unique_lock<std::mutex> lk(w.mutex);
                w.go.wait(lk, [&] { return w.stop || w.task; });
                if (!w.task)
                    return; // stopped
                w.task = false;
            }
            d_fn(d_ctx, i + 1);
            if (d_pending.fetch_sub(1) == 1) {
                // Under the mutex: run() either sees 0 or is waiting when this comes.
                std::lock_guard<std::mutex> lk(d_done_mutex);
                d_done.notify_one();
            }
        }
    }

    std::vector<worker> d_workers; // sized once: workers hold their address
    std::vector<std::thread> d_threads;
    task_fn d_fn = nullptr;
    void* d_ctx = nullptr;
    std::atomic<unsigned> d_pending{ 0 };
    std::mutex d_done_mutex;
    std::condition_variable d_done;
};

/*!
 * \brief Calls fn(begin, end) on contiguous slices of [0, n) on up to pool.size() + 1
 * threads (the caller's among them), at least \p min_per_slice items a slice, and returns
 * when all are done. \p pool may be null (one slice, here).
 */
void parallel_slices(worker_pool* pool,
                     size_t n,
                     size_t min_per_slice,
                     const std::function<void(size_t, size_t)>& fn);

/*!
 * \brief parallel_slices() that also tells fn(slice, begin, end) its slice, 0 ..
 * max_slices(pool) - 1 (for per-slice scratch).
 */
void parallel_slices_indexed(worker_pool* pool,
                             size_t n,
                             size_t min_per_slice,
                             const std::function<void(size_t, size_t, size_t)>& fn);

//! The most slices parallel_slices() makes: the pool's workers and the caller.
inline size_t max_slices(const worker_pool* pool) { return pool ? size_t(pool->size()) + 1 : 1; }

//! A pool of min(hardware threads, max_threads) - 1 workers, or null for one thread.
std::unique_ptr<worker_pool> make_worker_pool(unsigned max_threads);

} // namespace gr::gpuofdm::core

#endif
