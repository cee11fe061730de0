/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_BURST_QUEUE_H
#define INCLUDED_GPUOFDM_BURST_QUEUE_H

// What the PDU-driven transmitters (wifi_tx, wimax_tx) share: the queue their message
// handler fills with checked bursts, and the writer their general_work calls, which encodes
// as many bursts as fit in one batch, opens the gaps between them, tags each start, and
// spills a burst longer than the free output space over several calls.

#include <gnuradio/gr_complex.h>
#include <pmt/pmt.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace gr {
namespace gpuofdm {

/*!
 * An integer from a PDU metadata value: a PMT integer, or a real with an integral value (as
 * pmt.to_pmt(36.0) gives). False for anything else.
 */
inline bool pmt_integer(const pmt::pmt_t& v, long& out)
{
    if (pmt::is_integer(v)) {
        out = pmt::to_long(v);
        return true;
    }
    if (pmt::is_uint64(v)) {
        const uint64_t u = pmt::to_uint64(v);
        if (u > 1000000)
            return false;
        out = long(u);
        return true;
    }
    if (pmt::is_real(v)) {
        const double d = pmt::to_double(v);
        if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 1e6)
            return false;
        out = long(d);
        return true;
    }
    return false;
}

/*!
 * The checks every PDU-driven transmitter makes of a message: a pair of a metadata dict
 * and a u8vector of 1..max_len octets (\p what names them in the reason). Returns "" and
 * sets \p meta and \p data, or the reason to drop it.
 */
inline std::string unpack_pdu(const pmt::pmt_t& msg,
                              size_t max_len,
                              const std::string& what,
                              pmt::pmt_t& meta,
                              pmt::pmt_t& data)
{
    if (!pmt::is_pair(msg))
        return "not a PDU (a pair of a metadata dict and a u8vector)";
    meta = pmt::car(msg);
    data = pmt::cdr(msg);
    if (!pmt::is_dict(meta))
        return "the metadata is not a dict";
    if (!pmt::is_u8vector(data))
        return "the " + what + " is not a u8vector";
    const size_t len = pmt::length(data);
    if (len == 0)
        return "empty " + what;
    if (len > max_len)
        return what + " of " + std::to_string(len) + " octets; at most " + std::to_string(max_len);
    return "";
}

/*!
 * \tparam Request the core transmitter's request, {const uint8_t* data; size_t len;
 *         int rate; int seed;} (core::wifi_frame_request, core::wimax_burst_request)
 */
template <typename Request>
class burst_queue
{
public:
    //! Most bursts waiting; push() refuses more.
    static constexpr size_t limit = 8192;

    //! A checked burst: what to encode, its length on air and its start tag's value.
    struct burst {
        std::vector<uint8_t> data;
        int rate;
        int seed;
        size_t n_samples; //!< gap not counted
        pmt::pmt_t tag;
    };
    //! Encodes n requests back to back into out (the core transmitter's process()).
    using encode_fn = std::function<void(const Request*, size_t, gr_complex*)>;
    //! Adds the start tag at an absolute output offset (the block's add_item_tag()).
    using tag_fn = std::function<void(uint64_t, const pmt::pmt_t&)>;

    burst_queue(size_t gap, size_t max_batch) : d_gap(gap), d_max_batch(max_batch)
    {
        d_requests.reserve(max_batch);
        d_packed.resize(max_batch);
    }

    //! Message handler thread. False (and nothing queued) when \p limit bursts wait.
    bool push(burst&& b)
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        if (d_queue.size() >= limit)
            return false;
        d_queue.push_back(std::move(b));
        return true;
    }

    //! Bursts written out completely so far.
    uint64_t sent() const { return d_sent.load(); }

    /*!
     * Work thread: writes at most n_out samples to out (absolute offset \p written) and
     * returns how many. 0 when nothing waits, so the scheduler sleeps until a message.
     */
    size_t write(
        gr_complex* out, size_t n_out, uint64_t written, const encode_fn& encode, const tag_fn& tag)
    {
        size_t produced = 0;
        // The rest of a burst that did not fit last time goes first.
        if (!d_spill.empty()) {
            produced = write_spill(out, n_out, written, tag);
            if (!d_spill.empty())
                return produced;
        }
        take_queued();

        // As many waiting bursts as fit, in one batch.
        size_t k = 0, total = 0;
        while (k < d_bursts.size() && k < d_max_batch) {
            const size_t s = d_bursts[k].n_samples + d_gap;
            if (produced + total + s > n_out)
                break;
            total += s;
            k++;
        }
        if (k > 0) {
            d_requests.clear();
            for (size_t i = 0; i < k; i++)
                d_requests.push_back(request_of(d_bursts[i]));
            gr_complex* dst = out + produced;
            encode(d_requests.data(), k, dst); // the bursts back to back

            // Open the gaps: move each burst to its place, last first (it only moves later).
            size_t p = 0;
            for (size_t i = 0; i < k; i++) {
                d_packed[i] = p;
                p += d_bursts[i].n_samples;
            }
            for (size_t i = k; i-- > 0;) {
                const size_t to = d_packed[i] + i * d_gap;
                const size_t n = d_bursts[i].n_samples;
                if (to != d_packed[i])
                    std::memmove(dst + to, dst + d_packed[i], n * sizeof(gr_complex));
                std::fill_n(dst + to + n, d_gap, gr_complex(0.0f, 0.0f));
            }
            for (size_t i = 0; i < k; i++)
                tag(written + produced + d_packed[i] + i * d_gap, d_bursts[i].tag);
            produced += total;
            d_sent += k;
            d_bursts.erase(d_bursts.begin(), d_bursts.begin() + std::ptrdiff_t(k));
        } else if (produced == 0 && !d_bursts.empty()) {
            // The next burst is longer than the free output space: encode it aside and
            // write it out over several calls.
            const burst& b = d_bursts.front();
            const Request r = request_of(b);
            d_spill.assign(b.n_samples + d_gap, gr_complex(0.0f, 0.0f));
            encode(&r, 1, d_spill.data());
            d_spill_pos = 0;
            d_spill_tag = b.tag;
            d_spill_tagged = false;
            d_bursts.pop_front();
            produced = write_spill(out, n_out, written, tag);
        }
        return produced;
    }

private:
    static Request request_of(const burst& b)
    {
        return Request{ b.data.data(), b.data.size(), b.rate, b.seed };
    }

    void take_queued()
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        while (d_bursts.size() < d_max_batch && !d_queue.empty()) {
            d_bursts.push_back(std::move(d_queue.front()));
            d_queue.pop_front();
        }
    }

    size_t write_spill(gr_complex* out, size_t n, uint64_t first_item, const tag_fn& tag)
    {
        const size_t m = std::min(d_spill.size() - d_spill_pos, n);
        if (m == 0)
            return 0;
        if (!d_spill_tagged) {
            tag(first_item, d_spill_tag);
            d_spill_tagged = true;
        }
        std::memcpy(out, d_spill.data() + d_spill_pos, m * sizeof(gr_complex));
        d_spill_pos += m;
        if (d_spill_pos == d_spill.size()) {
            d_spill.clear();
            d_spill_pos = 0;
            ++d_sent;
        }
        return m;
    }

    const size_t d_gap;
    const size_t d_max_batch;
    std::mutex d_mutex;         //!< guards d_queue
    std::deque<burst> d_queue;  //!< filled by the handler
    std::deque<burst> d_bursts; //!< taken by the work thread, not yet encoded
    std::atomic<uint64_t> d_sent{ 0 };
    std::vector<Request> d_requests;
    std::vector<size_t> d_packed;    //!< each burst's first sample, bursts back to back
    std::vector<gr_complex> d_spill; //!< one encoded burst (and gap) that did not fit
    size_t d_spill_pos = 0;
    pmt::pmt_t d_spill_tag;
    bool d_spill_tagged = false; //!< its start tag is out
};

} // namespace gpuofdm
} // namespace gr

#endif
