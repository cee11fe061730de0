/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gpuofdm/prach_detector_c.h>

#include "block_params.h"
#include "ordered_worker.h"
#include "prach_block_util.h"
#include "work_guard.h"
#include "prach/prach_config_table.h"
#include "prach/prach_detector.h"
#include "prach/prach_frontend.h"
#ifdef GPUOFDM_HAVE_CUDA
#include "block_pin_util.h"
#include "runtime/cuda_context.h"
#include "runtime/cuda_pinned.h"
#endif

#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>
#include <gnuradio/io_signature.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <vector>

namespace gr {
namespace gpuofdm {

namespace {

using cf = gr_complex;

//! A time occasion's place: its CP's first sample (reported), and the first sample of its
//! row (the CP of N_CP^RA samples and the repetitions), later by the 16 kappa a 0 / 0.5 ms
//! instant adds to the CP of a short format (38.211 5.3.2), earlier for the B occasion of
//! an A/B row by the A's CP less the B's.
struct occasion_place {
    uint64_t cp = 0;
    uint64_t row = 0;
};

/*!
 * Where the time occasions start: explicit (start + k period; one occasion when the period
 * is 0), or a prach-ConfigurationIndex row's occasions in the frames of SFN mod x = y,
 * frames counted from a reference sample of SFN 0 that an rx_time tag moves.
 */
struct prach_timing {
    uint64_t start = 0;
    uint64_t period = 0; // 0: one occasion
    int frame_start = 0;
    int mu_pusch = 0;
    // From a configuration index (table_x > 0): places in a frame from its first sample.
    int table_x = 0, table_y = 0;
    int64_t frame_samples = 0;
    std::vector<int64_t> in_frame_cp, in_frame_extra; // sorted by in_frame_cp

    bool from_table() const { return table_x > 0; }

    /*!
     * Occasion \p k: explicit, start + k period; from the table, the first occasion whose
     * CP starts after \p after (when \p k > 0) and at or after \p floor, with SFN 0 at
     * sample \p frame_ref. Empty when there is none (an explicit single occasion taken).
     */
    std::optional<occasion_place> place(uint64_t k,
                                        uint64_t after,
                                        uint64_t floor,
                                        int64_t frame_ref) const
    {
        if (!from_table()) {
            if (period == 0 && k > 0)
                return std::nullopt;
            const uint64_t s = start + k * period;
            return occasion_place{ s, s };
        }
        const int64_t lo = std::max<int64_t>(int64_t(floor), k > 0 ? int64_t(after) + 1 : 0);
        // The frame holding lo, and the frames after it, up to a period of x frames.
        int64_t n = (lo - frame_ref) / frame_samples - 1;
        for (int i = 0; i <= table_x + 2; i++, n++) {
            const int64_t sfn = ((n % 1024) + 1024) % 1024;
            if (sfn % table_x != table_y)
                continue;
            for (size_t j = 0; j < in_frame_cp.size(); j++) {
                const int64_t cp = frame_ref + n * frame_samples + in_frame_cp[j];
                // (A B occasion's row before the first sample has no place in the stream.)
                if (cp >= lo && cp + in_frame_extra[j] >= 0)
                    return occasion_place{ uint64_t(cp), uint64_t(cp + in_frame_extra[j]) };
            }
        }
        throw std::logic_error("prach_timing::place: no occasion in x frames");
    }
};

//! A complete time occasion waiting in a batch: its number, first sample, SFN and slot.
struct occasion_ref {
    uint64_t number = 0;
    uint64_t sample = 0;
    long sfn = 0;
    long slot = 0;
};

//! Two batches taken in turn: work() fills one while the worker detects the other.
class batch_slots
{
public:
    //! A free batch's index (0 or 1), waiting while both are taken.
    size_t acquire()
    {
        std::unique_lock<std::mutex> lock(d_mutex);
        d_released.wait(lock, [this] { return !d_free.empty(); });
        const size_t i = d_free.back();
        d_free.pop_back();
        return i;
    }

    void release(size_t i)
    {
        {
            std::lock_guard<std::mutex> lock(d_mutex);
            d_free.push_back(i);
        }
        d_released.notify_one();
    }

private:
    std::mutex d_mutex;
    std::condition_variable d_released;
    std::vector<size_t> d_free = { 1, 0 };
};

//! One CUDA context for the front end and the detector, so the detector reads the front
//! end's bins where they are; none on the CPU.
core::cuda_context_ptr chain_context(const core::device_spec& dev)
{
#ifdef GPUOFDM_HAVE_CUDA
    if (dev.is_cuda())
        return core::make_cuda_context(dev);
#endif
    (void)dev;
    return nullptr;
}

#ifdef GPUOFDM_HAVE_CUDA
//! The batches on the GPU: work() uploads each occasion's samples straight from GNU
//! Radio's buffers (page-locked from start() to stop()) on a stream of its own; the worker
//! detects a batch on the chain's stream once its uploads are done (its event).
struct device_batches {
    device_batches(int cuda_index, size_t batch_samples, size_t n_bins)
        : rows(2 * batch_samples), bins(n_bins), pinned(cuda_index)
    {
        // Zeroed once: work() does not upload the cyclic prefixes (the front end skips
        // them), but cell 0's rows are copied to the other cells whole.
        GPUOFDM_CUDA_CHECK(cudaMemset(rows.get(), 0, rows.size() * sizeof(cf)));
    }
    core::cuda_stream upload;     // work()'s copies
    core::device_buffer<cf> rows; // the two batches
    core::device_buffer<cf> bins; // the front end's output, the detector's input
    core::cuda_event uploaded[2]; // a batch's uploads, recorded at its hand-over
    core::pinned_ranges pinned;   // GNU Radio's input buffers
};
#endif

/*
 * work() takes each time occasion's samples into a batch of max_batch occasions, whatever
 * the sizes of GNU Radio's calls: on the CPU a copy into a host batch of the block's own;
 * on CUDA an upload straight from GNU Radio's (page-locked) input buffers into a device
 * batch, which work() waits for before it consumes the input, but not for the detection.
 * A full batch goes to a worker thread, which runs the front end and the detector once
 * for all its (cell x antenna x occasion) rows (on CUDA on the device-resident batch) and
 * posts the detections; meanwhile work() fills the other batch, so the upstream is held
 * up only when both are taken. The end of the stream (stream_end.h: the newest sample
 * kept back until the upstream is done) hands over the last, partial batch and waits for
 * it.
 */
class prach_detector_c_impl : public prach_detector_c
{
public:
    prach_detector_c_impl(const core::prach_frontend_params& fp,
                          const core::prach_detector_params& dp,
                          const prach_timing& timing,
                          const core::device_spec& dev)
        : gr::sync_block("prach_detector_c",
                         gr::io_signature::make(fp.n_antennas, fp.n_antennas, sizeof(cf)),
                         gr::io_signature::make(0, 0, 0)),
          d_ctx(chain_context(dev)), d_frontend(core::make_prach_frontend(fp, dev, d_ctx)),
          d_detector(core::make_prach_detector(dp, dev, d_ctx)), d_timing(timing),
          d_rate(fp.sample_rate), d_port(pmt::mp("detections")),
          d_worker(1, [this](const std::string& what) {
              d_logger->error("{}; the block stops", what);
              d_failed = true;
          })
    {
        d_row = d_frontend->samples_per_row();
        d_cp = size_t(d_frontend->cp_samples());
        d_n_cells = fp.offset_hz.size();
        d_n_antennas = size_t(fp.n_antennas);
        d_batch = size_t(fp.n_time_occasions);
        d_n_fd = size_t(fp.n_fd_occasions);
        d_batch_samples = d_n_cells * d_n_antennas * d_batch * d_row;
        const size_t n_bins = d_frontend->n_outputs() * d_frontend->output_bins();
#ifdef GPUOFDM_HAVE_CUDA
        if (d_ctx)
            d_gpu = std::make_unique<device_batches>(d_ctx->device().cuda_index, d_batch_samples,
                                                     n_bins);
#endif
        if (!d_ctx) {
            d_host_rows.resize(2 * d_batch_samples);
            d_bins.resize(n_bins);
        }
        d_pending.reserve(d_batch);
        // A history the block never reads: GNU Radio sizes the buffer in front of a block
        // to at least twice its history, so the upstream writes ahead in pieces of up to
        // 2^18 samples instead of trading 8192-sample pieces with work() (the default
        // buffer), where each call waits for its own small uploads. At most 2^22 samples
        // (32 MiB) over all inputs.
        d_unused_history = std::min(size_t(1) << 18, (size_t(1) << 22) / d_n_antennas);
        set_history(unsigned(d_unused_history) + 1);
        message_port_register_out(d_port);
        d_logger->debug("{} cells, {} antennas, {} samples an occasion, {} occasions a batch, "
                        "on {}",
                        d_n_cells, d_n_antennas, d_row, d_batch, device());
    }

    ~prach_detector_c_impl() override { d_worker.drain(); }

    std::string device() const override { return d_detector->device().to_string(); }
    uint64_t occasions() const override { return d_processed; }
    uint64_t detections() const override { return d_found; }
    int max_batch() const override { return int(d_batch); }

    bool start() override
    {
        d_occasion = 0;
        d_place.reset();
        d_last_cp = 0;
        d_floor = 0;
        d_frame_ref = d_timing.frame_start;
        d_filled = 0;
        d_filling = no_batch;
        d_pending.clear();
        d_processed = 0;
        d_found = 0;
        d_failed = false;
        d_has_rx_time = false;
#ifdef GPUOFDM_HAVE_CUDA
        if (d_gpu && pin_buffers_enabled()) {
            // The uploads then run at PCIe speed, else the driver stages them.
            auto pin = [this](const void* p, size_t n) { return d_gpu->pinned.pin(p, n); };
            for (int i = 0; i < int(d_n_antennas); i++) {
                if (!pin_buffer(detail()->input(i)->buffer(), sizeof(cf), pin))
                    d_logger->debug("could not page-lock input {}: its uploads are staged", i);
            }
        }
#endif
        return true;
    }

    bool stop() override
    {
        // The flowgraph was stopped before the end of the stream: the complete occasions
        // held are detected; their messages may not reach subscribers that have ended.
        try {
            if (!d_failed)
                hand_over();
        } catch (const std::exception& e) {
            d_logger->error("{}; the block stops", e.what());
            d_failed = true;
        }
        d_worker.drain();
#ifdef GPUOFDM_HAVE_CUDA
        if (d_gpu) {
            // No copy reads the buffers released next. After a failure (reported already)
            // there is nothing to say.
            (void)cudaStreamSynchronize(d_gpu->upload.get());
            d_uploading = false;
            try {
                d_gpu->pinned.clear();
            } catch (const std::exception& e) {
                d_logger->debug("releasing the page-locked inputs: {}", e.what());
            }
        }
#endif
        return true;
    }

    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override
    {
        // A call of one item, the one kept back, has nothing to take before the end: an
        // input asks for a second item while its upstream runs (stream_end.h).
        for (int i = 0; i < int(ninput_items_required.size()); i++)
            ninput_items_required[size_t(i)] =
                std::max(noutput_items, upstream_done(i) ? 1 : 2) + int(d_unused_history);
    }

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star&) override
    {
        return stop_on_error(d_logger, [&]() -> int {
            if (d_failed)
                return WORK_DONE;
            try {
                bool at_end = false;
                const int take = items_to_take(noutput_items, at_end);
                if (take <= 0)
                    return 0; // only the sample kept back (forecast() keeps this from happening)
                // Past the history, which is there only to size the upstream buffer.
                gr_vector_const_void_star in(input_items.size());
                for (size_t a = 0; a < in.size(); a++)
                    in[a] = static_cast<const cf*>(input_items[a]) + d_unused_history;
                take_samples(in, nitems_read(0), nitems_read(0) + uint64_t(take));
                if (at_end)
                    hand_over();
                finish_uploads(); // GNU Radio may overwrite the input once it is consumed
                if (at_end)
                    d_worker.drain(); // every detection posted before the block ends
                return d_failed ? WORK_DONE : take;
            } catch (const std::exception&) {
                d_failed = true; // stop() hands nothing more over
                throw;
            }
        });
    }

private:
    static constexpr size_t no_batch = size_t(-1);

    //! Samples [r0, end) of every input into the occasions they belong to.
    void take_samples(const gr_vector_const_void_star& input_items, uint64_t r0, uint64_t end)
    {
        std::vector<gr::tag_t> tags;
        get_tags_in_range(tags, 0, r0, end, d_rx_time_key);
        std::stable_sort(tags.begin(), tags.end(), gr::tag_t::offset_compare);
        size_t next_tag = 0;
        while (true) {
            if (!d_place)
                d_place = d_timing.place(d_occasion, d_last_cp, d_floor, d_frame_ref);
            if (!d_place)
                break;
            // Tags before an occasion not yet begun: from a configuration index they move
            // the frames, and so where it starts.
            if (d_filled == 0 && next_tag < tags.size() && tags[next_tag].offset <= d_place->cp) {
                take_rx_time(tags[next_tag++]);
                continue;
            }
            const uint64_t s = d_place->row;
            const uint64_t lo = std::max(s + d_filled, r0);
            const uint64_t hi = std::min<uint64_t>(s + d_row, end);
            if (lo >= hi)
                break;
            if (d_filling == no_batch)
                d_filling = d_slots.acquire(); // waits while both batches are taken
            take_part(input_items, r0, s, lo, hi);
            d_filled = size_t(hi - s);
            if (d_filled < d_row)
                break;
            // The occasion's time: from the rx_time tags up to its last sample; the next
            // occasion starts after it.
            for (; next_tag < tags.size() && tags[next_tag].offset < s + d_row; next_tag++)
                take_rx_time(tags[next_tag]);
            if (d_timing.from_table())
                d_floor = std::max<uint64_t>(d_floor, s + d_row);
            d_pending.push_back(reference_of(d_place->cp));
            d_last_cp = d_place->cp;
            d_place.reset();
            d_filled = 0;
            d_occasion++;
            if (d_pending.size() == d_batch)
                hand_over();
        }
        for (; next_tag < tags.size(); next_tag++)
            take_rx_time(tags[next_tag]);
    }

    /*!
     * Samples [lo, hi) of the occasion starting at \p s (the call's first sample is \p r0)
     * into row (antenna, t) of the first cell of the batch being filled, t its next
     * occasion: the other cells' rows are copied from them when the batch is detected.
     */
    void take_part(const gr_vector_const_void_star& input_items,
                   uint64_t r0,
                   uint64_t s,
                   uint64_t lo,
                   uint64_t hi)
    {
        const size_t t = d_pending.size();
#ifdef GPUOFDM_HAVE_CUDA
        if (d_gpu) {
            // The front end never reads a row's CP: it is not sent.
            const uint64_t from = std::max<uint64_t>(lo, s + d_cp);
            if (from >= hi)
                return;
            d_ctx->activate();
            cf* const rows = d_gpu->rows.get() + d_filling * d_batch_samples;
            for (size_t a = 0; a < d_n_antennas; a++) {
                const auto* in = static_cast<const cf*>(input_items[a]) + (from - r0);
                GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(rows + (a * d_batch + t) * d_row + (from - s),
                                                   in, size_t(hi - from) * sizeof(cf),
                                                   cudaMemcpyHostToDevice, d_gpu->upload.get()));
            }
            d_uploading = true;
            return;
        }
#endif
        cf* const rows = d_host_rows.data() + d_filling * d_batch_samples;
        for (size_t a = 0; a < d_n_antennas; a++) {
            const auto* in = static_cast<const cf*>(input_items[a]);
            std::copy(in + (lo - r0), in + (hi - r0), rows + (a * d_batch + t) * d_row + (lo - s));
        }
    }

    //! Waits for work()'s uploads (on the CPU there are none).
    void finish_uploads()
    {
#ifdef GPUOFDM_HAVE_CUDA
        if (d_uploading) {
            d_gpu->upload.synchronize();
            d_uploading = false;
        }
#endif
    }

    //! Number, SFN and slot of the occasion starting at sample \p s.
    occasion_ref reference_of(uint64_t s) const
    {
        // In samples from the start of a frame with SFN 0: from the last rx_time tag
        // (frames counted from time 0), else from frame_start. Snapped to whole samples,
        // so an occasion on a slot boundary (as a configuration index puts them) is not
        // taken for the slot before by a rounding error.
        long double rel =
            d_has_rx_time ? d_rx_time_s * d_rate + (static_cast<long double>(s) - d_rx_time_sample)
                          : static_cast<long double>(s) - d_timing.frame_start;
        if (std::fabs(rel - std::round(rel)) < 1e-3L)
            rel = std::round(rel);
        const long double frame = d_rate * 0.01L;
        const long double frames = std::floor(rel / frame);
        occasion_ref r;
        r.number = d_occasion;
        r.sample = s;
        r.sfn = ((long(std::fmod(frames, 1024.0L)) % 1024) + 1024) % 1024;
        const long double slot = d_rate / (1000.0L * (1 << d_timing.mu_pusch));
        r.slot = long(std::floor((rel - frames * frame) / slot));
        return r;
    }

    //! The batch being filled, with its complete occasions, to the worker.
    void hand_over()
    {
        if (d_filling == no_batch)
            return;
        const size_t slot = d_filling;
        d_filling = no_batch;
        if (d_pending.empty()) { // only a part of an occasion: nothing to detect
            d_slots.release(slot);
            return;
        }
        try {
            seal_batch(slot);
        } catch (...) {
            d_slots.release(slot);
            throw;
        }
        std::vector<occasion_ref> refs;
        refs.swap(d_pending);
        d_pending.reserve(d_batch);
        d_worker.post([this, slot, refs = std::move(refs)] {
            try {
                if (!d_failed)
                    detect(slot, refs);
            } catch (...) {
                d_slots.release(slot);
                throw; // the worker logs it and stops the block
            }
            d_slots.release(slot);
        });
    }

    /*!
     * Batch \p slot made ready for the worker: the rows of a partial batch (the end of the
     * stream) past its occasions zeroed, as they detect nothing; on CUDA the point its
     * copies end at recorded, for the worker to wait on.
     */
    void seal_batch(size_t slot)
    {
        const size_t used = d_pending.size();
#ifdef GPUOFDM_HAVE_CUDA
        if (d_gpu) {
            d_ctx->activate();
            cf* const rows = d_gpu->rows.get() + slot * d_batch_samples;
            for (size_t a = 0; a < d_n_antennas && used < d_batch; a++)
                GPUOFDM_CUDA_CHECK(cudaMemsetAsync(rows + (a * d_batch + used) * d_row, 0,
                                                   (d_batch - used) * d_row * sizeof(cf),
                                                   d_gpu->upload.get()));
            GPUOFDM_CUDA_CHECK(cudaEventRecord(d_gpu->uploaded[slot].get(), d_gpu->upload.get()));
            return;
        }
#endif
        cf* const rows = d_host_rows.data() + slot * d_batch_samples;
        for (size_t a = 0; a < d_n_antennas && used < d_batch; a++)
            std::fill_n(rows + (a * d_batch + used) * d_row, (d_batch - used) * d_row, cf(0));
    }

    //! On the worker: the detections of batch \p slot, posted occasion by occasion.
    void detect(size_t slot, const std::vector<occasion_ref>& refs)
    {
        // Cells share the antennas' samples.
        const size_t per_cell = d_n_antennas * d_batch * d_row;
        std::vector<core::prach_detection> found;
#ifdef GPUOFDM_HAVE_CUDA
        if (d_gpu) {
            cf* const rows = d_gpu->rows.get() + slot * d_batch_samples;
            d_ctx->activate();
            d_ctx->wait(d_gpu->uploaded[slot]);
            for (size_t c = 1; c < d_n_cells; c++)
                GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(rows + c * per_cell, rows, per_cell * sizeof(cf),
                                                   cudaMemcpyDeviceToDevice, d_ctx->stream()));
            d_frontend->process_device(rows, d_row, d_gpu->bins.get(), d_frontend->output_bins());
            // Returns once the detector's stream is done with the batch.
            found = d_detector->detect_device(d_gpu->bins.get(), d_detector->channel_bins());
        }
#endif
        if (!d_ctx) {
            cf* const rows = d_host_rows.data() + slot * d_batch_samples;
            for (size_t c = 1; c < d_n_cells; c++)
                std::copy_n(rows, per_cell, rows + c * per_cell);
            d_frontend->process(rows, d_row, d_bins.data(), d_frontend->output_bins());
            found = d_detector->detect(d_bins.data(), d_detector->channel_bins());
        }
        // (cell, time occasion, FD occasion, preamble) order to time occasion first.
        std::stable_sort(found.begin(), found.end(), [this](const auto& x, const auto& y) {
            return size_t(x.occasion) / d_n_fd < size_t(y.occasion) / d_n_fd;
        });
        for (const auto& d : found) {
            const size_t t = size_t(d.occasion) / d_n_fd;
            if (t < refs.size()) // the zeroed rows of a partial batch have none
                post_detection(d, refs[t], long(size_t(d.occasion) % d_n_fd));
        }
        d_processed += refs.size();
    }

    void post_detection(const core::prach_detection& d, const occasion_ref& r, long fd_occasion)
    {
        pmt::pmt_t m = pmt::make_dict();
        auto add = [&m](const char* k, const pmt::pmt_t& v) {
            m = pmt::dict_add(m, pmt::mp(k), v);
        };
        const double noise_db = 10 * std::log10(std::max(d.noise, 1e-30f));
        const double power_db = 10 * std::log10(std::max(d.power, 1e-30f));
        add("cell", pmt::from_long(d.cell));
        add("sfn", pmt::from_long(r.sfn));
        add("slot", pmt::from_long(r.slot));
        add("occasion", pmt::from_uint64(r.number));
        add("fd_occasion", pmt::from_long(fd_occasion));
        add("sample", pmt::from_uint64(r.sample));
        add("preamble", pmt::from_long(d.preamble));
        add("logical_root", pmt::from_long(d.logical_root));
        add("delay_samples", pmt::from_double(d.delay_samples));
        add("delay_us", pmt::from_double(d.delay_us));
        add("timing_advance",
            pmt::from_long(core::prach_timing_advance(d.delay_us * 1e-6, d_timing.mu_pusch)));
        add("power_db", pmt::from_double(power_db));
        add("noise_db", pmt::from_double(noise_db));
        add("snr_db", pmt::from_double(power_db - noise_db));
        add("metric", pmt::from_double(d.metric));
        add("threshold", pmt::from_double(d.threshold));
        message_port_pub(d_port, m);
        d_found++;
    }

    //! An rx_time tag (UHD's: a tuple of whole seconds, uint64, and fractional, double).
    void take_rx_time(const gr::tag_t& t)
    {
        const pmt::pmt_t v = t.value;
        if (!pmt::is_tuple(v) || pmt::length(v) != 2)
            return;
        const pmt::pmt_t whole = pmt::tuple_ref(v, 0), frac = pmt::tuple_ref(v, 1);
        if (!pmt::is_number(whole) || !pmt::is_real(frac))
            return;
        const long double secs = pmt::is_uint64(whole)
                                     ? static_cast<long double>(pmt::to_uint64(whole))
                                     : static_cast<long double>(pmt::to_long(whole));
        d_rx_time_s = secs + pmt::to_double(frac);
        d_rx_time_sample = static_cast<long double>(t.offset);
        d_has_rx_time = true;
        if (d_timing.from_table()) {
            // SFN 0 of the tag's 1024 frames (10.24 s), and no occasion before the tag:
            // the samples before it may be from before a gap.
            const long double into = std::fmod(d_rx_time_s, 10.24L);
            d_frame_ref = int64_t(t.offset) - std::llround(into * d_rate);
            d_floor = std::max<uint64_t>(d_floor, t.offset);
            if (d_filled == 0)
                d_place.reset();
        }
    }

    //! Whether input \p i's upstream has finished (it writes no more).
    bool upstream_done(int i)
    {
        const gr::buffer_reader_sptr& r = detail()->input(i);
        gr::thread::scoped_lock guard(*r->mutex());
        return r->done();
    }

    /*!
     * Of the \p n items a call holds, those to read (stream_end.h over the antennas): all
     * when they are all a finished input will ever have (\p at_end) or every input holds
     * more; else all but one, the newest sample kept back for a later call to see the end.
     */
    int items_to_take(int n, bool& at_end)
    {
        bool all_hold_more = true;
        for (int i = 0; i < int(d_n_antennas); i++) {
            const gr::buffer_reader_sptr& r = detail()->input(i);
            gr::thread::scoped_lock guard(*r->mutex());
            // The reader's items include the history before the call's items.
            const int avail = r->items_available() - int(d_unused_history);
            if (r->done() && avail <= n)
                at_end = true;
            all_hold_more = all_hold_more && avail > n;
        }
        return at_end || all_hold_more ? n : n - 1;
    }

    core::cuda_context_ptr d_ctx;                     // CUDA: the front end's and detector's
    std::unique_ptr<core::prach_frontend> d_frontend; // the worker's
    std::unique_ptr<core::prach_detector> d_detector; // the worker's
    prach_timing d_timing;
    double d_rate;
    pmt::pmt_t d_port;
    size_t d_row = 0, d_cp = 0, d_n_cells = 0, d_n_antennas = 0, d_batch = 0, d_n_fd = 0;
    size_t d_batch_samples = 0;  // a batch's (cell, antenna, occasion) rows
    size_t d_unused_history = 0; // the history, less the one sample of no history
    batch_slots d_slots;
    //! CPU: the two batches (work() fills one, the worker detects the other) and the bins.
    std::vector<cf> d_host_rows;
    std::vector<cf> d_bins;
#ifdef GPUOFDM_HAVE_CUDA
    std::unique_ptr<device_batches> d_gpu; // CUDA: the batches on the device
    bool d_uploading = false;              // work() has uploads in flight
#endif
    size_t d_filling = no_batch;            // the batch work() fills, if any
    std::vector<occasion_ref> d_pending;    // its complete occasions
    uint64_t d_occasion = 0;                // the time occasion being filled
    std::optional<occasion_place> d_place;  // its place, once known
    uint64_t d_last_cp = 0;                 // the CP start of the occasion before it
    uint64_t d_floor = 0;                   // the table's occasions start here or later
    int64_t d_frame_ref = 0;                // the table's frames: a sample where SFN 0 starts
    size_t d_filled = 0;                    // its samples received so far
    std::atomic<uint64_t> d_processed{ 0 }; // occasions detected (worker)
    std::atomic<uint64_t> d_found{ 0 };     // detections posted (worker)
    std::atomic<bool> d_failed{ false };    // a batch failed: the block stops
    pmt::pmt_t d_rx_time_key = pmt::mp("rx_time");
    bool d_has_rx_time = false;
    long double d_rx_time_s = 0, d_rx_time_sample = 0;
    ordered_worker d_worker; // last: its jobs use the members above
};

//! \p v for n cells: one value per cell, or one value for all.
template <typename T>
std::vector<T> per_cell(const std::vector<T>& v, size_t n, const char* name)
{
    if (v.size() == n)
        return v;
    if (v.size() == 1)
        return std::vector<T>(n, v[0]);
    throw std::invalid_argument(std::string(name) + ": one value, or one per cell (" +
                                std::to_string(n) + "), got " + std::to_string(v.size()));
}

/*!
 * The core's per-cell names as the block's lists: "cells[2].logical_root: ..." ->
 * "logical_roots[2]: ...", "offset_hz[2]: ..." -> "offsets_hz[2]: ...".
 */
std::string block_name_of_cell_field(const std::string& what)
{
    if (what.rfind("offset_hz[", 0) == 0)
        return "offsets_hz" + what.substr(9);
    return indexed_block_name(what, "cells",
                              { { "logical_root", "logical_roots" },
                                { "zero_correlation_zone", "zero_correlation_zones" },
                                { "set", "restricted_sets" } });
}

/*!
 * \p timing's occasions from row \p config_index of 38.211 Table 6.3.3.2-2 (\p spectrum
 * "paired") or 6.3.3.2-3 ("unpaired"), for format \p f at PRACH numerology \p mu (0 for
 * the long formats): their places in a frame in samples at \p rate.
 */
void table_timing(prach_timing& timing,
                  core::prach_format f,
                  int mu,
                  double rate,
                  int config_index,
                  const std::string& spectrum,
                  bool explicit_given)
{
    if (explicit_given)
        throw std::invalid_argument("start_sample, period_samples: 0 with a config_index (its "
                                    "table gives the occasions)");
    const auto table = core::parse_prach_spectrum(spectrum, "spectrum");
    const core::prach_config row = core::prach_config_lookup(table, config_index);
    const std::string where = "config_index " + std::to_string(config_index) + " of the " +
                              core::to_string(table) + " table";
    if (row.format != f)
        throw std::invalid_argument("format: " + where + " is format " +
                                    core::to_string(row.format) + ", got " + core::to_string(f));
    if (!row.is_long() && mu > 1)
        throw std::invalid_argument("scs_khz: 15 or 30 with a config_index (FR1 tables), got " +
                                    std::to_string(15 << mu));
    // Samples per kappa T_c (1 / 30.72 MHz): the places must be whole samples.
    const long double per_kappa = static_cast<long double>(rate) / 30.72e6L;
    const auto samples = [&](long kappa) {
        const long double x = kappa * per_kappa;
        if (std::fabs(x - std::round(x)) > 1e-6L)
            throw std::invalid_argument("samp_rate: the occasions of " + where +
                                        " start on whole samples at 30.72 MHz x 2^k, got " +
                                        std::to_string(rate));
        return int64_t(std::llround(x));
    };
    timing.table_x = row.x;
    timing.table_y = row.y;
    timing.frame_samples = samples(307200); // 10 ms
    // A1/B1, A2/B2, A3/B3: the last occasion of a PRACH slot is the B format, the same
    // sequence after a shorter CP. Its row starts earlier by the difference, so that the
    // sequence lies where the front end, cut for the A format, reads it.
    const int n_cp = core::prach_format_lookup(f, mu).n_cp;
    for (const auto& o : core::prach_occasions_in_frame(row, mu)) {
        timing.in_frame_cp.push_back(samples(o.start_kappa));
        const int shorter = n_cp - core::prach_format_lookup(o.format, mu).n_cp;
        timing.in_frame_extra.push_back(samples(o.extra_cp_kappa - shorter));
    }
}

} // namespace

prach_detector_c::sptr prach_detector_c::make(double samp_rate,
                                              const std::string& format,
                                              int scs_khz,
                                              int n_antennas,
                                              const std::vector<int>& logical_roots,
                                              const std::vector<int>& zero_correlation_zones,
                                              const std::vector<std::string>& restricted_sets,
                                              const std::vector<double>& offsets_hz,
                                              int n_fd_occasions,
                                              double fd_spacing_hz,
                                              int start_sample,
                                              int period_samples,
                                              int frame_start,
                                              double false_alarm,
                                              const std::string& device,
                                              int max_batch,
                                              int config_index,
                                              const std::string& spectrum)
{
    return with_block_names<sptr>(
        [&]() -> sptr {
            const auto f = core::parse_prach_format(format, "format");
            prach_timing timing;
            timing.mu_pusch = prach_mu_of(scs_khz);
            const int mu = core::prach_format_lookup(f, 0).is_long() ? 0 : timing.mu_pusch;
            const core::prach_format_info fmt = core::prach_format_lookup(f, mu);
            if (logical_roots.empty() || logical_roots.size() > 1024)
                throw std::invalid_argument("logical_roots: one per cell, 1..1024 cells, got " +
                                            std::to_string(logical_roots.size()));
            const size_t n = logical_roots.size();
            const auto zczs = per_cell(zero_correlation_zones, n, "zero_correlation_zones");
            const auto sets = restricted_sets.empty()
                                  ? std::vector<std::string>(n, "unrestricted")
                                  : per_cell(restricted_sets, n, "restricted_sets");
            core::prach_detector_params dp;
            dp.format = f;
            dp.mu = mu;
            dp.cells.clear();
            for (size_t c = 0; c < n; c++) {
                core::prach_cell_params cell;
                cell.logical_root = logical_roots[c];
                cell.zero_correlation_zone = zczs[c];
                cell.set = core::parse_prach_restricted_set(sets[c], "restricted_sets");
                if (!fmt.is_long() && cell.set != core::prach_restricted_set::unrestricted)
                    throw std::invalid_argument(
                        "restricted_sets: unrestricted for the short formats, got " + sets[c]);
                dp.cells.push_back(cell);
            }
            dp.n_antennas = n_antennas;
            dp.n_occasions = n_fd_occasions;
            dp.false_alarm = false_alarm;
            dp.sample_rate = samp_rate;
            core::prach_frontend_params fp;
            fp.format = f;
            fp.mu = mu;
            fp.sample_rate = samp_rate;
            fp.offset_hz = per_cell(offsets_hz, n, "offsets_hz");
            if (!(fd_spacing_hz >= 0 && std::isfinite(fd_spacing_hz)))
                throw std::invalid_argument("fd_spacing_hz: >= 0, got " +
                                            std::to_string(fd_spacing_hz));
            fp.occasion_spacing_hz = fd_spacing_hz;
            fp.n_antennas = n_antennas;
            fp.n_fd_occasions = n_fd_occasions;
            try {
                fp.validate();
                dp.validate();
            } catch (const std::invalid_argument& e) {
                throw std::invalid_argument(block_name_of_cell_field(e.what()));
            }
            const int most = 64 / n_fd_occasions; // the detector's occasions a call
            if (max_batch < 1 || max_batch > most)
                throw std::invalid_argument("max_batch: 1.." + std::to_string(most) +
                                            " (64 occasions / n_fd_occasions), got " +
                                            std::to_string(max_batch));
            timing.start = non_negative(start_sample, "start_sample");
            timing.period = non_negative(period_samples, "period_samples");
            timing.frame_start = frame_start;
            if (config_index != -1)
                table_timing(timing, f, mu, samp_rate, config_index, spectrum,
                             start_sample != 0 || period_samples != 0);
            const auto fe = core::make_prach_frontend_cpu(fp);
            if (timing.period != 0 && timing.period < fe->samples_per_row())
                throw std::invalid_argument("period_samples: 0 (one occasion) or >= the "
                                            "preamble's " +
                                            std::to_string(fe->samples_per_row()) +
                                            " samples, got " + std::to_string(period_samples));
            // One occasion in all: no batch to gather.
            fp.n_time_occasions = timing.period == 0 && !timing.from_table() ? 1 : max_batch;
            dp.n_occasions = fp.n_time_occasions * n_fd_occasions;
            return gnuradio::make_block_sptr<prach_detector_c_impl>(fp, dp, timing,
                                                                    core::resolve_device(device));
        },
        { { "sample_rate", "samp_rate" },
          { "offset_hz", "offsets_hz" },
          { "occasion_spacing_hz", "fd_spacing_hz" },
          { "n_occasions", "n_fd_occasions" },
          { "logical_root", "logical_roots" },
          { "zero_correlation_zone", "zero_correlation_zones" },
          { "false_alarm", "false_alarm" } });
}

} // namespace gpuofdm
} // namespace gr
