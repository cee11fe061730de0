/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_WORKER_POOL_H
#define GPUOFDM_CORE_WORKER_POOL_H

// Host worker threads for the CPU parts of the stages: the CPU twins' heavy loops and the
// per-frame host steps of the CUDA backends (SIGNAL decoding, descrambling, FCS).

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
 */
class worker_pool
{
public:
    using task_fn = void (*)(void*, unsigned);

    explicit worker_pool(unsigned n_workers)
    {
        d_threads.reserve(n_workers);
        for (unsigned i = 0; i < n_workers; i++)
            d_threads.emplace_back([this, i] { loop(i + 1); });
    }

    ~worker_pool()
    {
        {
            std::lock_guard<std::mutex> lk(d_mutex);
            d_stop = true;
        }
        d_go.notify_all();
        for (auto& t : d_threads)
            t.join();
    }

    //! Worker threads (the caller of run() is one more).
    unsigned size() const { return unsigned(d_threads.size()); }

    void run(unsigned n_slices, task_fn f, void* ctx)
    {
        {
            std::lock_guard<std::mutex> lk(d_mutex);
            d_fn = f;
            d_ctx = ctx;
            d_slices = n_slices;
            d_pending = n_slices - 1;
            d_generation++;
        }
        d_go.notify_all();
        f(ctx, 0);
        std::unique_lock<std::mutex> lk(d_mutex);
        d_done.wait(lk, [this] { return d_pending == 0; });
    }

private:
    void loop(unsigned slice)
    {
        uint64_t seen = 0;
        std::unique_lock<std::mutex> lk(d_mutex);
        for (;;) {
            d_go.wait(lk, [&] { return d_stop || d_generation != seen; });
            if (d_stop)
                return;
            seen = d_generation;
            if (slice >= d_slices)
                continue; // not needed this round
            const task_fn f = d_fn;
            void* const ctx = d_ctx;
            lk.unlock();
            f(ctx, slice);
            lk.lock();
            if (--d_pending == 0)
                d_done.notify_one();
        }
    }

    std::mutex d_mutex;
    std::condition_variable d_go, d_done;
    std::vector<std::thread> d_threads;
    task_fn d_fn = nullptr;
    void* d_ctx = nullptr;
    unsigned d_slices = 0;
    unsigned d_pending = 0;
    uint64_t d_generation = 0;
    bool d_stop = false;
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
