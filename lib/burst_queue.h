/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_BURST_QUEUE_H
#define INCLUDED_GPUOFDM_BURST_QUEUE_H

// What the PDU-driven transmitters (wifi_tx, wimax_tx) share: the checks of make()'s common
// parameters and of a PDU; the queue their message handler fills with checked bursts; the
// writer their general_work calls, which encodes as many bursts as fit in one batch, opens
// the gaps between them, tags each start, and spills a burst longer than the free output
// space over several calls; and pdu_burst_block, the block side around them.

#include "work_guard.h"

#include <gnuradio/block.h>
#include <gnuradio/gr_complex.h>
#include <pmt/pmt.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
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
 * The range of gap_samples, the zeros a PDU-driven transmitter block writes after each
 * burst: 0..2^24. (Its other parameters are the core transmitter's, checked by its
 * params' validate().)
 */
inline void check_gap_samples(int gap_samples)
{
    constexpr int max_gap = 1 << 24;
    if (gap_samples < 0 || gap_samples > max_gap)
        throw std::invalid_argument("gap_samples: must be 0.." + std::to_string(max_gap) +
                                    ", got " + std::to_string(gap_samples));
}

/*!
 * The integer at \p key of PDU metadata into \p value, when the key is there. Returns ""
 * (absent: value unchanged) or, for a value that is no integer or fails \p valid, the
 * reason to drop the PDU: "metadata <key> <value> is <what>".
 */
template <typename Valid>
std::string metadata_integer(
    const pmt::pmt_t& meta, const char* key, long& value, Valid valid, const std::string& what)
{
    const pmt::pmt_t k = pmt::mp(key);
    if (!pmt::dict_has_key(meta, k))
        return "";
    const pmt::pmt_t v = pmt::dict_ref(meta, k, pmt::PMT_NIL);
    if (!pmt_integer(v, value) || !valid(value))
        return "metadata " + std::string(key) + " " + pmt::write_string(v) + " is " + what;
    return "";
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

/*!
 * \brief The block side of a PDU-driven transmitter: the "pdus" port, the queue of checked
 * bursts, the drop counter, and general_work, which writes the queued bursts through the
 * core transmitter in batches. The block parses a PDU (handle_pdu()) and queues it.
 *
 * \tparam Iface the public block (wifi_tx, wimax_tx), a virtual gr::block: the most
 *         derived class constructs gr::block
 * \tparam Core the core transmitter (core::wifi_tx, core::wimax_tx)
 * \tparam Request its request
 */
template <typename Iface, typename Core, typename Request>
class pdu_burst_block : public Iface
{
public:
    std::string device() const override { return d_tx->device().to_string(); }
    uint64_t pdus_dropped() const override { return d_pdus_dropped.load(); }
    int gap_samples() const override { return int(d_gap); }
    float scale() const override { return d_tx->params().scale; }

    int general_work(int noutput_items,
                     gr_vector_int&,
                     gr_vector_const_void_star&,
                     gr_vector_void_star& output_items) override
    {
        // Nothing to write returns 0: the scheduler then sleeps until a message arrives (a
        // block without stream inputs waits as if blocked on input), or ends the block when
        // its PDU senders are done.
        return stop_on_error(this->d_logger, [&]() -> int {
            return int(d_queue.write(
                static_cast<gr_complex*>(output_items[0]), size_t(noutput_items),
                this->nitems_written(0),
                [this](const Request* r, size_t n, gr_complex* out) { d_tx->process(r, n, out); },
                [this](uint64_t offset, const pmt::pmt_t& value) {
                    this->add_item_tag(0, offset, d_start_key, value, this->alias_pmt());
                }));
        });
    }

protected:
    using queue = burst_queue<Request>;

    /*!
     * Registers the "pdus" port. \p start_key tags each burst's first sample; the output
     * buffer holds two batches of bursts of \p typical_samples (gap not counted) on the
     * GPU, four such bursts on the CPU (longer bursts still go out, over several calls).
     */
    pdu_burst_block(std::unique_ptr<Core> tx,
                    size_t gap,
                    size_t max_batch,
                    const char* start_key,
                    const char* unit)
        : d_tx(std::move(tx)), d_gap(gap), d_max_batch(max_batch), d_queue(gap, max_batch),
          d_start_key(pmt::mp(start_key)), d_unit(unit)
    {
        this->message_port_register_in(pdus_port());
        this->set_msg_handler(pdus_port(), [this](const pmt::pmt_t& msg) { handle_pdu(msg); });
    }

    //! Sizes the output buffer for bursts of \p typical_samples (the gap not counted).
    void size_output_buffer(size_t typical_samples)
    {
        const size_t typical = typical_samples + d_gap;
        const size_t n = d_tx->device().is_cuda() ? 2 * d_max_batch : 4;
        this->set_min_output_buffer(0, long(std::min(n * typical, size_t(1) << 23)));
        if (d_tx->device().is_cuda())
            this->d_logger->debug("on {}, up to {} {} per launch", d_tx->device().to_string(),
                                  d_max_batch, d_unit);
        else
            this->d_logger->debug("on the CPU twin");
    }

    //! The "pdus" handler: checks the PDU and queue()s it, or drop()s it.
    virtual void handle_pdu(const pmt::pmt_t& msg) = 0;

    //! Logs and counts a dropped PDU.
    void drop(const std::string& why)
    {
        const uint64_t n = ++d_pdus_dropped;
        this->d_logger->warn("dropped PDU ({} so far): {}", n, why);
    }

    //! Queues a checked burst; false (and a drop) when queue::limit bursts wait.
    bool queue_burst(typename queue::burst&& b)
    {
        if (d_queue.push(std::move(b)))
            return true;
        drop(std::to_string(queue::limit) + " PDUs already waiting");
        return false;
    }

    uint64_t sent() const { return d_queue.sent(); }

    const std::unique_ptr<Core> d_tx; //!< CPU twin or CUDA backend
    const size_t d_gap;
    const size_t d_max_batch;

private:
    static const pmt::pmt_t& pdus_port()
    {
        static const pmt::pmt_t p = pmt::mp("pdus");
        return p;
    }

    std::atomic<uint64_t> d_pdus_dropped{ 0 };
    queue d_queue; //!< checked bursts, and the writer of the output
    const pmt::pmt_t d_start_key;
    const char* const d_unit; //!< "frames" or "bursts", for the log
};

} // namespace gpuofdm
} // namespace gr

#endif
