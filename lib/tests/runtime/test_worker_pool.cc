/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The worker pool: every slice of a run called once, on the thread its index names, and
// none beyond; the slices of parallel_slices_indexed() covering [0, n) once; runs back to
// back (a worker still going to sleep from the last run must not miss the next).

#include "runtime/worker_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>
#include <vector>

using namespace gr::gpuofdm::core;

namespace {

struct slice_log {
    std::vector<std::atomic<int>> calls;
    std::vector<std::thread::id> thread;
    explicit slice_log(size_t n) : calls(n), thread(n) {}
};

} // namespace

TEST(worker_pool, every_slice_once_a_run)
{
    worker_pool pool(7);
    ASSERT_EQ(pool.size(), 7u);
    slice_log log(8);
    for (int run = 0; run < 3000; run++) {
        const unsigned n = 1 + static_cast<unsigned>(run) % 8;
        for (auto& c : log.calls) {
            c = 0;
        }
        pool.run(
            n,
            [](void* ctx, unsigned i) {
                auto& l = *static_cast<slice_log*>(ctx);
                l.calls[i]++;
                l.thread[i] = std::this_thread::get_id();
            },
            &log);
        for (unsigned i = 0; i < 8; i++) {
            ASSERT_EQ(log.calls[i].load(), i < n ? 1 : 0) << "run " << run << ", slice " << i;
        }
        ASSERT_EQ(log.thread[0], std::this_thread::get_id()); // slice 0 is the caller's
        std::set<std::thread::id> threads(log.thread.begin(), log.thread.begin() + n);
        ASSERT_EQ(threads.size(), n) << "run " << run; // a thread a slice
    }
}

TEST(worker_pool, slices_cover_the_range_once)
{
    auto pool = make_worker_pool(5);
    const size_t n = 1001;
    std::vector<std::atomic<int>> seen(n);
    std::vector<std::atomic<int>> slice_used(max_slices(pool.get()));
    parallel_slices_indexed(pool.get(), n, 1, [&](size_t slice, size_t begin, size_t end) {
        slice_used[slice]++;
        for (size_t i = begin; i < end; i++) {
            seen[i]++;
        }
    });
    for (size_t i = 0; i < n; i++) {
        ASSERT_EQ(seen[i].load(), 1) << i;
    }
    for (auto& s : slice_used) {
        EXPECT_EQ(s.load(), 1);
    }
}

TEST(worker_pool, destroyed_idle_or_never_used)
{
    for (unsigned workers : { 0u, 1u, 4u }) {
        worker_pool unused(workers);
        EXPECT_EQ(unused.size(), workers);
    }
    worker_pool used(3);
    std::atomic<int> calls{ 0 };
    used.run(
        4, [](void* ctx, unsigned) { ++*static_cast<std::atomic<int>*>(ctx); }, &calls);
    EXPECT_EQ(calls.load(), 4);
}
