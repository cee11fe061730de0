/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "runtime/worker_pool.h"

#include <algorithm>

namespace gr::gpuofdm::core {

void parallel_slices_indexed(worker_pool* pool,
                             size_t n,
                             size_t min_per_slice,
                             const std::function<void(size_t, size_t, size_t)>& fn)
{
    if (n == 0)
        return;
    const size_t slices =
        std::max<size_t>(1, std::min(max_slices(pool), n / std::max<size_t>(1, min_per_slice)));
    if (slices == 1) {
        fn(0, 0, n);
        return;
    }
    struct ctx_t {
        const std::function<void(size_t, size_t, size_t)>* fn;
        size_t n, slices;
    } ctx{ &fn, n, slices };
    pool->run(
        unsigned(slices),
        [](void* c, unsigned i) {
            const auto& x = *static_cast<const ctx_t*>(c);
            (*x.fn)(i, x.n * i / x.slices, x.n * (i + 1) / x.slices);
        },
        &ctx);
}

void parallel_slices(worker_pool* pool,
                     size_t n,
                     size_t min_per_slice,
                     const std::function<void(size_t, size_t)>& fn)
{
    parallel_slices_indexed(pool, n, min_per_slice,
                            [&fn](size_t, size_t b, size_t e) { fn(b, e); });
}

std::unique_ptr<worker_pool> make_worker_pool(unsigned max_threads)
{
    const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    const unsigned n = std::max(1u, std::min(hw, max_threads));
    return n > 1 ? std::make_unique<worker_pool>(n - 1) : nullptr;
}

} // namespace gr::gpuofdm::core
