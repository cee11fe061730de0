/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_CELL_SEARCH_ROWS_H
#define GPUOFDM_CORE_CELL_SEARCH_ROWS_H

// Where a stream's candidate rows wait between the channelizer and the search
// (cell_search_stream): host vectors for the CPU twin; for CUDA, device memory, so the
// rows never cross the bus (the capture goes up once, only the candidates' windows come
// down), written on one context and searched on another (docs/DESIGN.md).

#include "sync/cell_search.h"
#include "sync/wideband_channelizer.h"

#include <algorithm>
#include <complex>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace gr::gpuofdm::core {

//! A row whose band holds the capture's centre: its DC offset is a tone there.
struct capture_dc_row {
    int channel = 0;
    double cycles_per_sample = 0; //!< the tone's frequency in the row, cycles a sample
};

/*!
 * \brief Removes the capture's DC offset from \p n samples of a row: the tone's amplitude
 * over them (a mean, in which the sync signals' share is negligible: a burst a few tens of
 * microseconds long on one of their subcarriers) is subtracted, so that it neither
 * correlates with the PSS nor raises the power its metric is normalised by.
 */
void remove_capture_dc(std::complex<float>* row, size_t n, double cycles_per_sample);

class cell_search_rows
{
public:
    virtual ~cell_search_rows() = default;

    const cell_search& searcher() const { return *d_search; }
    const wideband_channelizer& channelizer() const { return *d_channelizer; }

    //! Starts a new stream: every row is \p zeros zero samples.
    virtual void reset(size_t zeros) = 0;
    //! Samples in each row.
    virtual size_t size() const = 0;
    //! The channelized outputs of \p n more capture samples appended; the CUDA rows
    //! channelize once at least \p min_blocks channelizer blocks are complete.
    virtual void append(const std::complex<float>* x, size_t n, size_t min_blocks) = 0;
    //! The channelizer's outputs at the end of the stream appended.
    virtual void append_end() = 0;
    //! A search to run later, on any thread: what snapshot() returns.
    using pending_search = std::function<std::vector<cell_detection>()>;
    /*!
     * \brief A copy of the first \p n samples of every row, the DC rows (the factory's)
     * with the capture's DC offset removed from sample \p skip on, and the search over it,
     * to run before the next snapshot() (the rows meanwhile take more samples and drop
     * old ones).
     */
    virtual pending_search snapshot(size_t n, size_t skip, int64_t first_sample) = 0;
    //! The first \p k samples of every row dropped.
    virtual void drop(size_t k) = 0;
    /*!
     * \brief From now on append() also keeps its capture samples, up to \p capacity of them
     * (CUDA: in device memory, where the channelizer reads them), until take_kept() hands
     * them back: a pass-through block's delay line.
     */
    virtual void keep_samples(size_t capacity) = 0;
    //! The \p n oldest kept samples into \p out (host memory), and forgotten.
    virtual void take_kept(std::complex<float>* out, size_t n) = 0;
    //! Page-locks the caller's \p bytes at \p p (CUDA: transfers from and to it then run
    //! without a host copy); false if not (always on the host).
    virtual bool pin(const void* p, size_t bytes)
    {
        (void)p, (void)bytes;
        return false;
    }
    //! Releases what pin() locked.
    virtual void unpin_all() {}

protected:
    //! Where the kept samples \p from .. from + n - 1 lie in a ring of \p capacity: f(at,
    //! offset, count) for each of the (at most two) pieces, offset counted from \p from.
    template <typename F>
    static void ring_pieces(uint64_t from, size_t n, size_t capacity, F&& f)
    {
        for (size_t done = 0; done < n;) {
            const auto at = static_cast<size_t>((from + done) % capacity);
            const size_t count = std::min(n - done, capacity - at);
            f(at, done, count);
            done += count;
        }
    }
    //! Checks that \p n more samples fit beside those kept and not taken.
    void check_room(size_t n, size_t capacity) const;

    explicit cell_search_rows(std::vector<capture_dc_row> dc) : d_dc(std::move(dc)) {}

    std::unique_ptr<wideband_channelizer> d_channelizer;
    std::unique_ptr<cell_search> d_search;
    const std::vector<capture_dc_row> d_dc; //!< the rows whose band holds the capture's centre
    uint64_t d_kept_in = 0, d_kept_out = 0; //!< samples kept / taken since reset()
};

//! The rows of \p channels searched with \p search; \p dc: the rows whose DC offset
//! each snapshot removes.
std::unique_ptr<cell_search_rows> make_cell_search_rows(const channelizer_params& channels,
                                                        const cell_search_params& search,
                                                        const std::vector<capture_dc_row>& dc,
                                                        const device_spec& dev);
std::unique_ptr<cell_search_rows> make_cell_search_rows_cuda(const channelizer_params& channels,
                                                             const cell_search_params& search,
                                                             const std::vector<capture_dc_row>& dc,
                                                             const device_spec& dev);

} // namespace gr::gpuofdm::core

#endif // GPUOFDM_CORE_CELL_SEARCH_ROWS_H
