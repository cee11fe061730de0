/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "ofdm_sync_cc_impl.h"

#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>
#include <gnuradio/io_signature.h>

#include <boost/thread/thread.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <complex>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpuofdm {

namespace {

constexpr int max_batch = 1 << 26;
constexpr int max_failures = 10;                // failed synchronizer calls in a row
constexpr uint64_t wifi_start_before_ltf = 192; // 10 short periods + GI2
constexpr uint64_t wifi_resume_after_ltf = 208; // T1, T2, SIGNAL (wifi_sync's resume)
constexpr size_t rotator_block = 512;           // exact phase every this many samples

} // namespace

ofdm_sync_cc::sptr ofdm_sync_cc::make(const std::string& standard,
                                      float threshold,
                                      int min_plateau,
                                      int batch_samples,
                                      double sample_rate,
                                      const std::string& device,
                                      int cp_div)
{
    ofdm_sync_config cfg;
    cfg.wimax = core::parse_phy_standard(standard) == core::phy_standard::ieee80216;
    cfg.threshold = threshold;
    cfg.min_plateau = min_plateau;
    cfg.batch_samples = batch_samples;
    cfg.sample_rate = sample_rate;
    cfg.cp_div = cp_div;
    if (min_plateau < 16 || min_plateau > 96)
        throw std::invalid_argument("min_plateau: must be 16 .. 96, got " +
                                    std::to_string(min_plateau));
    if (!(sample_rate > 0.0) || !std::isfinite(sample_rate))
        throw std::invalid_argument("sample_rate: must be finite and > 0, got " +
                                    std::to_string(sample_rate));

    std::unique_ptr<core::wifi_sync> wifi;
    std::unique_ptr<core::wimax_sync> wimax;
    size_t lookback;
    if (!cfg.wimax) {
        if (!(threshold > 0.0f && threshold < 1.0f))
            throw std::invalid_argument("threshold: must be in (0, 1) for 802.11a, got " +
                                        std::to_string(threshold));
        lookback = core::wifi_sync::lookback();
    } else {
        core::wimax_sync_params p;
        p.cp_div = cp_div;
        p.threshold = threshold;
        p.min_plateau = size_t(min_plateau);
        wimax = core::make_wimax_sync(p, core::device_spec{}); // checks cp_div, threshold
        lookback = wimax->lookback();
    }
    const int min_batch = int(std::max<size_t>(1024, 2 * lookback));
    if (batch_samples < min_batch || batch_samples > max_batch)
        throw std::invalid_argument("batch_samples: must be " + std::to_string(min_batch) + " .. " +
                                    std::to_string(max_batch) +
                                    " (at least twice the synchronizer's lookback), got " +
                                    std::to_string(batch_samples));
    if (!cfg.wimax) {
        core::wifi_sync_params p;
        p.threshold = threshold;
        p.min_plateau = size_t(min_plateau);
        p.max_samples_per_batch = std::max<size_t>(4096, size_t(batch_samples));
        wifi = core::make_wifi_sync(p, core::resolve_device(device));
    } else {
        // The CPU twin above checked the parameters and gave the lookback; the device's
        // backend (the CUDA one for "cuda", "cuda:N" or "auto" with a GPU) replaces it.
        const core::wimax_sync_params p = wimax->params();
        wimax = core::make_wimax_sync(p, core::resolve_device(device));
    }
    return gnuradio::make_block_sptr<ofdm_sync_cc_impl>(cfg, std::move(wifi), std::move(wimax));
}

ofdm_sync_cc_impl::ofdm_sync_cc_impl(const ofdm_sync_config& cfg,
                                     std::unique_ptr<core::wifi_sync> wifi,
                                     std::unique_ptr<core::wimax_sync> wimax)
    : gr::block("ofdm_sync_cc",
                gr::io_signature::make(1, 1, sizeof(gr_complex)),
                gr::io_signature::make(1, 1, sizeof(gr_complex))),
      d_cfg(cfg), d_wifi(std::move(wifi)), d_wimax(std::move(wimax)),
      d_lookback(d_wifi ? core::wifi_sync::lookback() : d_wimax->lookback()),
      d_tag_key(pmt::mp("ofdm_sync")), d_port(pmt::mp("frames"))
{
    set_relative_rate(1, 1);
    set_tag_propagation_policy(TPP_DONT); // input tags are passed on in general_work
    message_port_register_out(d_port);
    d_buf.reserve(size_t(cfg.batch_samples));
    d_logger->debug("{} synchronizer on {}, {} samples per call, {} samples held back", standard(),
                    device(), cfg.batch_samples, d_lookback + 1);
}

std::string ofdm_sync_cc_impl::device() const
{
    return d_wifi ? d_wifi->device().to_string() : d_wimax->device().to_string();
}

bool ofdm_sync_cc_impl::start()
{
    // A new run: the stream counters start again at 0.
    d_buf.clear();
    d_head = 0;
    d_ingested = d_searched = d_decided = d_next_search = 0;
    d_frames.clear();
    d_tags.clear();
    d_active = false;
    d_failures = 0;
    return block::start();
}

void ofdm_sync_cc_impl::forecast(int, gr_vector_int& ninput_items_required)
{
    // One sample is enough to make progress (or to see the end of the stream): the block
    // keeps what it has read and outputs what is decided.
    ninput_items_required[0] = 1;
}

bool ofdm_sync_cc_impl::search(uint64_t buf_abs)
{
    const size_t n = d_buf.size() - d_head;
    const size_t from = d_next_search > buf_abs ? size_t(d_next_search - buf_abs) : 0;
    const auto* x = reinterpret_cast<const core::cfloat*>(d_buf.data() + d_head);
    std::vector<frame> found;
    bool ok = false;
    try {
        if (d_wifi) {
            for (const auto& r : d_wifi->detect(x, n, from)) {
                const uint64_t ltf = buf_abs + r.ltf_start;
                found.push_back({ ltf >= wifi_start_before_ltf ? ltf - wifi_start_before_ltf : 0,
                                  ltf, double(r.cfo), r.metric, r.ltf_metric });
            }
        } else {
            const uint64_t cp = d_wimax->cp_len(), l1 = d_wimax->symbol_len();
            for (const auto& r : d_wimax->detect(x, n, from)) {
                const uint64_t s = buf_abs + r.start;
                found.push_back({ s, s + l1 + cp, double(r.cfo), r.metric, r.preamble_metric });
            }
        }
        ok = true;
    } catch (const boost::thread_interrupted&) {
        throw; // the scheduler's own way of stopping a thread
    } catch (const std::exception& e) {
        d_logger->error("synchronizer: {}", e.what());
    } catch (...) {
        d_logger->error("synchronizer: unknown exception");
    }
    d_failures = ok ? 0 : d_failures + 1;

    for (const auto& f : found) {
        const uint64_t last =
            !d_frames.empty() ? d_frames.back().start : (d_active ? d_active_start : 0);
        if ((!d_frames.empty() || d_active) && f.start <= last) {
            d_logger->debug("frame at {} dropped: not after the frame at {}", f.start, last);
            continue;
        }
        d_frames.push_back(f);
        // The next search starts where the synchronizer resumes after this frame.
        d_next_search =
            d_wifi ? f.ltf_start + wifi_resume_after_ltf : f.start + 2 * d_wimax->symbol_len();
    }
    return ok;
}

pmt::pmt_t ofdm_sync_cc_impl::frame_dict(const frame& f) const
{
    pmt::pmt_t d = pmt::make_dict();
    d = pmt::dict_add(d, pmt::mp("cfo"), pmt::from_double(f.cfo));
    d = pmt::dict_add(d, pmt::mp("cfo_hz"),
                      pmt::from_double(f.cfo * d_cfg.sample_rate / (2.0 * M_PI)));
    d = pmt::dict_add(d, pmt::mp("metric"), pmt::from_double(f.metric));
    d = pmt::dict_add(d, pmt::mp("ltf_metric"), pmt::from_double(f.ltf_metric));
    d = pmt::dict_add(d, pmt::mp("ltf_start"), pmt::from_uint64(f.ltf_start));
    return d;
}

void ofdm_sync_cc_impl::emit(gr_complex* out, uint64_t out_abs, size_t n)
{
    const gr_complex* in = d_buf.data() + d_head;
    const uint64_t end = out_abs + n;
    uint64_t i = out_abs;
    while (i < end) {
        // A frame that starts here (or, never expected, already passed) takes over.
        while (!d_frames.empty() && d_frames.front().start <= i) {
            const frame f = d_frames.front();
            d_frames.pop_front();
            d_active = true;
            d_active_start = f.start;
            d_active_cfo = f.cfo;
            const pmt::pmt_t d = frame_dict(f);
            add_item_tag(0, i, d_tag_key, d, alias_pmt());
            message_port_pub(d_port, pmt::dict_add(d, pmt::mp("offset"), pmt::from_uint64(i)));
            d_frames_out++;
        }
        const uint64_t seg_end = d_frames.empty() ? end : std::min(end, d_frames.front().start);
        if (!d_active) {
            std::copy(in + (i - out_abs), in + (seg_end - out_abs), out + (i - out_abs));
        } else {
            // x[k] exp(-j cfo (k - start)): the phase exact (double) every rotator_block
            // samples, a double-precision rotator in between.
            const std::complex<double> step = std::polar(1.0, -d_active_cfo);
            for (uint64_t k = i; k < seg_end;) {
                const uint64_t blk_end = std::min(seg_end, k + rotator_block);
                const double ph = std::fmod(-d_active_cfo * double(k - d_active_start), 2.0 * M_PI);
                std::complex<double> r = std::polar(1.0, ph);
                for (; k < blk_end; k++) {
                    const size_t j = size_t(k - out_abs);
                    out[j] = in[j] * gr_complex(float(r.real()), float(r.imag()));
                    r *= step;
                }
            }
        }
        i = seg_end;
    }
    // Input tags at the same offsets.
    while (!d_tags.empty() && d_tags.front().offset < end) {
        add_item_tag(0, d_tags.front());
        d_tags.pop_front();
    }
}

void ofdm_sync_cc_impl::wait_for_input()
{
    // No interruption point here: a tb.stop() meanwhile ends the thread at the
    // scheduler's next one, right after this returns.
    boost::this_thread::disable_interruption no_interrupt;
    gr::block_detail* d = detail().get();
    gr::thread::scoped_lock guard(d->d_tpb.mutex);
    if (!d->d_tpb.input_changed)
        d->d_tpb.input_cond.timed_wait(guard, boost::get_system_time() +
                                                  boost::posix_time::milliseconds(100));
}

int ofdm_sync_cc_impl::general_work(int noutput_items,
                                    gr_vector_int& ninput_items,
                                    gr_vector_const_void_star& input_items,
                                    gr_vector_void_star& output_items)
{
    const uint64_t r0 = nitems_read(0), w0 = nitems_written(0);
    const uint64_t avail_end = r0 + uint64_t(std::max(ninput_items[0], 0));
    if (d_ingested < r0) // never expected: keep the bookkeeping consistent
        d_ingested = d_searched = d_decided = r0;

    // The end of the stream: the upstream has finished and this call holds everything it
    // wrote. GNU Radio 3.10 calls general_work() no more once a finished input is empty, so
    // until everything is output the block always leaves one input sample unconsumed.
    bool at_end = false;
    {
        const gr::buffer_reader_sptr& r = detail()->input(0);
        gr::thread::scoped_lock guard(*r->mutex());
        at_end = r->done() && r->items_available() <= ninput_items[0];
    }

    // 1. Read while everything decided is out (d_buf then holds only undecided samples);
    // search once d_buf holds a whole batch, or everything at the end of the stream.
    const uint64_t limit = at_end ? avail_end : (avail_end > r0 ? avail_end - 1 : r0);
    if (w0 == d_decided && d_ingested < limit) {
        // Output samples leave d_buf here, at most lookback() of them move.
        d_buf.erase(d_buf.begin(), d_buf.begin() + long(d_head));
        d_head = 0;
        const size_t room = size_t(d_cfg.batch_samples) - d_buf.size();
        const size_t take = size_t(std::min<uint64_t>(limit - d_ingested, room));
        const auto* in = static_cast<const gr_complex*>(input_items[0]);
        const gr_complex* from = in + (d_ingested - r0);
        d_buf.insert(d_buf.end(), from, from + take);
        std::vector<gr::tag_t> tags;
        get_tags_in_range(tags, 0, d_ingested, d_ingested + take);
        std::sort(tags.begin(), tags.end(), gr::tag_t::offset_compare);
        d_tags.insert(d_tags.end(), tags.begin(), tags.end());
        d_ingested += take;
    }
    const bool all_in = at_end && d_ingested == avail_end;
    if (d_ingested > d_searched &&
        (d_buf.size() - d_head == size_t(d_cfg.batch_samples) || all_in)) {
        search(w0);
        d_searched = d_ingested;
        if (d_failures >= max_failures) {
            d_logger->error("{} synchronizer calls failed in a row: the block stops", d_failures);
            return WORK_DONE;
        }
        const uint64_t settled = d_ingested > d_lookback ? d_ingested - d_lookback : 0;
        d_decided = std::max(d_decided, settled);
    }
    // Everything read and searched, the stream at its end: all is final.
    if (all_in && d_searched == d_ingested)
        d_decided = d_ingested;

    // 2. Output what is decided.
    const size_t n_out = size_t(std::min<uint64_t>(uint64_t(noutput_items), d_decided - w0));
    if (n_out > 0) {
        emit(static_cast<gr_complex*>(output_items[0]), w0, n_out);
        d_head += n_out;
    }

    // 3. Consume what was read, but one sample until everything is out.
    const bool flushed = at_end && d_ingested == avail_end && w0 + n_out == d_ingested;
    const uint64_t consume_to =
        flushed ? d_ingested : std::min(d_ingested, avail_end > r0 ? avail_end - 1 : r0);
    if (consume_to > r0)
        consume(0, int(consume_to - r0));
    if (n_out == 0 && consume_to <= r0)
        wait_for_input(); // only the sample kept back: sleep, do not spin
    return int(n_out);
}

} // namespace gpuofdm
} // namespace gr
