/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_CUDA_PINNED_H
#define GPUOFDM_CORE_CUDA_PINNED_H

#include <cstddef>
#include <vector>

namespace gr::gpuofdm::core {

/*!
 * \brief Caller memory a CUDA stage has page-locked (cudaHostRegister), so its transfers
 * go straight between that memory and the device instead of through a staging memcpy.
 *
 * Used by the CUDA OFDM stages and the CUDA Viterbi decoder for GNU Radio's buffers
 * (pinned from a block's start(), released from stop()). A range someone else already
 * registered (e.g. the neighbouring block, which shares the buffer) is used but not
 * released here. Not copyable: it owns the registrations.
 */
class pinned_ranges
{
public:
    explicit pinned_ranges(int cuda_index) : d_cuda_index(cuda_index) {}
    ~pinned_ranges() { clear(); }
    pinned_ranges(const pinned_ranges&) = delete;
    pinned_ranges& operator=(const pinned_ranges&) = delete;

    //! Page-locks [p, p + bytes); false (and nothing recorded) when CUDA refuses.
    bool pin(const void* p, size_t bytes);
    //! Releases this object's counts on the registrations (the last user unregisters) and
    //! forgets the ranges.
    void clear();
    //! True when [p, p + bytes) lies in one pinned range.
    bool contains(const void* p, size_t bytes) const;

private:
    struct range {
        const char* begin;
        const char* end;
        //! The start of the process-wide registration this range holds a count on (null:
        //! page-locked by other means, not ours to release).
        const char* registration;
    };
    int d_cuda_index;
    std::vector<range> d_ranges;
};

} // namespace gr::gpuofdm::core

#endif
