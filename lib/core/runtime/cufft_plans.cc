/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "runtime/cufft_plans.h"

#include <algorithm>

namespace gr::gpuofdm::core {

cufft_batch_plans::cufft_batch_plans(size_t fft_len,
                                     size_t max_batch,
                                     cudaStream_t stream,
                                     bool exact_max)
    : d_fft_len(fft_len)
{
    int n = int(fft_len);
    size_t work_size = 0;
    const auto make = [&](size_t batch) {
        cufftHandle plan;
        GPUOFDM_CUFFT_CHECK(cufftCreate(&plan));
        d_plans.push_back(plan);
        GPUOFDM_CUFFT_CHECK(cufftSetAutoAllocation(plan, 0));
        size_t size = 0;
        GPUOFDM_CUFFT_CHECK(cufftMakePlanMany(plan, 1, &n, nullptr, 1, n, nullptr, 1, n, CUFFT_C2C,
                                              int(batch), &size));
        GPUOFDM_CUFFT_CHECK(cufftSetStream(plan, stream));
        work_size = std::max(work_size, size);
    };
    try {
        for (size_t batch = 1; batch <= max_batch; batch *= 2)
            make(batch);
        if (exact_max && max_batch > 0 && (max_batch & (max_batch - 1)) != 0) {
            make(max_batch);
            d_max_batch = max_batch;
        }
        d_work = device_buffer<char>(work_size);
        for (cufftHandle plan : d_plans)
            GPUOFDM_CUFFT_CHECK(cufftSetWorkArea(plan, d_work.get()));
    } catch (...) {
        for (cufftHandle plan : d_plans)
            cufftDestroy(plan);
        throw;
    }
}

cufft_batch_plans::~cufft_batch_plans()
{
    for (cufftHandle plan : d_plans)
        cufftDestroy(plan);
}

void cufft_batch_plans::exec(cufftComplex* in,
                             cufftComplex* out,
                             size_t n_batch,
                             int direction) const
{
    if (d_max_batch && n_batch == d_max_batch) {
        GPUOFDM_CUFFT_CHECK(cufftExecC2C(d_plans.back(), in, out, direction));
        return;
    }
    size_t done = 0;
    const size_t n_pow2 = d_plans.size() - (d_max_batch ? 1 : 0);
    for (size_t i = n_pow2; i-- > 0;) {
        const size_t batch = size_t(1) << i;
        while (n_batch - done >= batch) {
            const size_t off = done * d_fft_len;
            GPUOFDM_CUFFT_CHECK(cufftExecC2C(d_plans[i], in + off, out + off, direction));
            done += batch;
        }
    }
}

} // namespace gr::gpuofdm::core
