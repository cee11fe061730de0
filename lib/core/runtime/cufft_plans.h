/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_CUFFT_PLANS_H
#define GPUOFDM_CORE_CUFFT_PLANS_H

#include "runtime/cuda_check.h"

#include <vector>

namespace gr::gpuofdm::core {

/*!
 * \brief Batched cuFFT C2C plans of one size for any batch up to a maximum, made once.
 *
 * Plans exist for batches 1, 2, 4, ... up to the largest power of two <= max_batch and
 * share one work area; a call for n transforms runs the binary decomposition of n, so a
 * short last batch costs a few launches and no planning or allocation. With
 * \p exact_max, also a plan of max_batch itself: a caller whose batches are always full
 * (one detector's fixed batch) runs one launch instead of one per bit of max_batch.
 */
class cufft_batch_plans
{
public:
    cufft_batch_plans(size_t fft_len,
                      size_t max_batch,
                      cudaStream_t stream,
                      bool exact_max = false);
    ~cufft_batch_plans();
    cufft_batch_plans(const cufft_batch_plans&) = delete;
    cufft_batch_plans& operator=(const cufft_batch_plans&) = delete;

    //! n_batch transforms of in into out (may alias); direction CUFFT_FORWARD/INVERSE.
    void exec(cufftComplex* in, cufftComplex* out, size_t n_batch, int direction) const;

private:
    size_t d_fft_len;
    //! d_plans[i] transforms 2^i vectors; with an exact plan, it is the last one.
    std::vector<cufftHandle> d_plans;
    size_t d_max_batch = 0; // exact_max: the batch of the last plan; 0: none
    device_buffer<char> d_work;
};

} // namespace gr::gpuofdm::core

#endif
