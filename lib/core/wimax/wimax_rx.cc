/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The 802.16 receiver's backend-independent part: the
// decoding chain on the CPU stages, parameter checks and the stream logic (what to decode
// in the samples held, what to keep for the next batch).

#include "wimax/wimax_rx.h"

#include "fec/conv_encoder.h"
#include "fec/depuncture.h"
#include "fec/interleaver.h"
#include "fec/reed_solomon.h"
#include "fec/scrambler.h"
#include "fec/viterbi.h"
#include "wimax/wimax_tx.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

namespace {

constexpr size_t max_batch = size_t(1) << 26;

using timer = std::chrono::steady_clock;
double since(timer::time_point t0)
{
    return std::chrono::duration<double>(timer::now() - t0).count();
}

bool clean_sample(const cfloat& v) { return std::isfinite(v.real()) && std::isfinite(v.imag()); }

} // namespace

// ---------------------------------------------------------------------------------------
// Front-end tables

const std::vector<int>& wimax_used_carriers()
{
    static const std::vector<int> c = [] {
        std::vector<int> v;
        for (int k = -100; k <= 100; k++)
            if (k != 0)
                v.push_back(k);
        return v;
    }();
    return c;
}

const std::vector<int>& wimax_observed_carriers()
{
    static const std::vector<int> c = [] {
        std::vector<int> v;
        for (int k : wimax_used_carriers())
            if (k % 2 == 0)
                v.push_back(k);
        return v;
    }();
    return c;
}

channel_tap_fit wimax_channel_smoother(int taps)
{
    return make_channel_tap_fit(wimax_observed_carriers(), wimax_used_carriers(), 256, taps, -4);
}

// ---------------------------------------------------------------------------------------
// Decoding chain

struct wimax_receiver::chain {
    explicit chain(const wimax_profile_info& r) : dp("80216", to_string(r.cc_rate))
    {
        const device_spec cpu{};
        il = make_interleaver({ phy_standard::ieee80216, r.n_cbps, r.n_bpsc, 0 }, cpu);
        vit =
            make_viterbi_decoder(viterbi_params::for_protocol("80216", to_string(r.cc_rate)), cpu);
    }
    std::unique_ptr<interleaver> il;
    depuncturer dp;
    std::unique_ptr<viterbi_decoder> vit;
    std::vector<float> deint, mother;
};

struct wimax_receiver::finisher {
    explicit finisher(const wimax_profile_info& r) : rs(make_reed_solomon(r.rs, device_spec{}))
    {
        enc = make_conv_encoder({ phy_standard::ieee80216, r.cc_rate, 0 }, device_spec{});
    }
    std::unique_ptr<conv_encoder> enc;
    std::unique_ptr<reed_solomon> rs;
    std::vector<uint8_t> recoded;
};

size_t wimax_receiver::decoded_steps() const
{
    return 8 * d_n_sym * size_t(wimax_profile(d_params.rate_id).rs.n);
}

size_t wimax_receiver::coded_bits() const
{
    return d_n_sym * size_t(wimax_profile(d_params.rate_id).n_cbps);
}

void wimax_receiver::chain_bits(const float* llr, uint8_t* bits, uint8_t* hard)
{
    chain& ch = *d_chain;
    const size_t n_coded = coded_bits(), steps = decoded_steps();

    // 8.3.3.3 inverse per symbol, erasures where 8.3.3.2.3 punctured, the code over the
    // whole burst from state 0 to state 0 (the tail byte).
    ch.deint.resize(n_coded);
    ch.il->deinterleave(llr, ch.deint.data(), d_n_sym);
    ch.mother.resize(ch.dp.output_len(n_coded));
    ch.dp.process(ch.deint.data(), n_coded, ch.mother.data());
    ch.vit->decode_frames(ch.mother.data(), 2 * steps, steps, bits);
    std::fill(hard, hard + hard_bytes(), uint8_t(0));
    for (size_t i = 0; i < n_coded; i++)
        hard[i >> 3] |= uint8_t((ch.deint[i] < 0.0f ? 1u : 0u) << (i & 7));
}

void wimax_receiver::use_rs_device(const device_spec& dev)
{
    d_rs_device = make_reed_solomon(wimax_profile(d_params.rate_id).rs, dev);
}

void wimax_receiver::finish_bursts(const uint8_t* bits,
                                   const uint8_t* hard,
                                   wimax_rx_burst* out,
                                   size_t n)
{
    const wimax_profile_info& r = wimax_profile(d_params.rate_id);
    const size_t n_sym = d_n_sym, n_coded = coded_bits(), hb = hard_bytes();
    const size_t n_rs = n_sym * r.rs.n, total = n_sym * r.rs.k, steps = decoded_steps();
    d_rs_in.assign(n * n_rs, 0);
    d_rs_out.resize(n * total);
    d_rs_status.resize(n * n_sym);

    // Per burst: channel bit errors (the decoded bits re-encoded against the received hard
    // decisions), and the RS blocks (8.3.3.2.1, parity first) packed from the bits.
    parallel_slices_indexed(d_pool.get(), n, 1, [&](size_t slice, size_t first, size_t end) {
        finisher& f = *d_finishers[slice];
        for (size_t b = first; b < end; b++) {
            const uint8_t* bb = bits + b * steps;
            const uint8_t* hd = hard + b * hb;
            f.recoded.resize(n_coded);
            conv_encoder_state es;
            f.enc->process(bb, f.recoded.data(), steps, es);
            size_t errors = 0;
            for (size_t i = 0; i < n_coded; i++)
                errors += f.recoded[i] != ((hd[i >> 3] >> (i & 7)) & 1u);
            out[b].coded_errors = errors;
            out[b].coded_bits = n_coded;
            uint8_t* in = d_rs_in.data() + b * n_rs;
            for (size_t i = 0; i < steps; i++)
                in[i >> 3] |= uint8_t(bb[i] << (7 - (i & 7)));
        }
    });

    // Every block of every burst in one call (the device's), or in slices on the threads.
    const size_t blocks = n * n_sym;
    if (d_rs_device) {
        d_rs_device->decode(d_rs_in.data(), d_rs_out.data(), d_rs_status.data(), blocks);
    } else {
        parallel_slices_indexed(d_pool.get(), blocks, 1, [&](size_t slice, size_t b, size_t e) {
            d_finishers[slice]->rs->decode(d_rs_in.data() + b * r.rs.n,
                                           d_rs_out.data() + b * r.rs.k, d_rs_status.data() + b,
                                           e - b);
        });
    }

    // Per burst: RS counts, derandomizing all but the tail byte (8.3.3.1), payload and ok.
    parallel_slices(d_pool.get(), n, 1, [&](size_t first, size_t end) {
        for (size_t b = first; b < end; b++) {
            wimax_rx_burst& o = out[b];
            const uint8_t* data = d_rs_out.data() + b * total;
            const int32_t* status = d_rs_status.data() + b * n_sym;
            o.rs_blocks = n_sym;
            o.rs_uncorrectable = 0;
            o.rs_corrected = 0;
            for (size_t i = 0; i < n_sym; i++) {
                if (status[i] < 0)
                    o.rs_uncorrectable++;
                else
                    o.rs_corrected += size_t(status[i]);
            }
            bool fill_ok = true;
            for (size_t i = d_params.burst_bytes; i < total - 1; i++)
                fill_ok = fill_ok && uint8_t(data[i] ^ d_keystream[i]) == 0xFF;
            o.payload.resize(d_params.burst_bytes);
            for (size_t i = 0; i < d_params.burst_bytes; i++)
                o.payload[i] = uint8_t(data[i] ^ d_keystream[i]);
            o.ok = o.rs_uncorrectable == 0 && data[total - 1] == 0x00 && fill_ok;
            if (r.rs.t == 0)
                o.ok = o.ok &&
                       double(o.coded_errors) <= double(d_params.max_coded_ber) * double(n_coded);
        }
    });
}

// ---------------------------------------------------------------------------------------
// Receiver

namespace {

//! What wimax_rx_params give once checked: a burst's symbols, the symbol length, the
//! synchronizer (the CPU twin, its hold set to a burst) and the batch.
struct wimax_rx_layout {
    size_t n_sym = 0;
    size_t sym_len = 0;
    size_t batch = 0;
    std::unique_ptr<wimax_sync> sync;
    size_t burst_samples() const { return (2 + n_sym) * sym_len; }
};

//! wimax_rx_params::validate(), giving what the checks computed.
wimax_rx_layout checked_layout(const wimax_rx_params& p)
{
    const wimax_profile_info& r = wimax_profile(p.rate_id); // "rate_id: ..."
    if (p.burst_bytes < 1 || p.burst_bytes > 65535)
        throw std::invalid_argument("burst_bytes: must be 1 .. 65535, got " +
                                    std::to_string(p.burst_bytes));
    if (!p.pad && (p.burst_bytes + 1) % r.rs.k != 0)
        throw std::invalid_argument("burst_bytes: with its tail byte the burst must fill whole "
                                    "blocks of " +
                                    std::to_string(r.rs.k) + " octets (" + r.name + ", or set " +
                                    "pad), got " + std::to_string(p.burst_bytes));
    if (p.seed < 1 || p.seed > 32767)
        throw std::invalid_argument("seed: randomizer seed must be 1 .. 32767, got " +
                                    std::to_string(p.seed));
    wimax_rx_layout l;
    wimax_sync_params sp = p.sync;
    l.n_sym = (p.burst_bytes + 1 + r.rs.k - 1) / r.rs.k;
    if (sp.cp_div > 0 && sp.cp_div <= 256) {
        l.sym_len = 256 + 256 / size_t(sp.cp_div);
        sp.hold = l.burst_samples();
    }
    l.sync = make_wimax_sync(sp, device_spec{}); // checks cp_div and the sync parameters
    if (p.fft_backoff < 0 || size_t(p.fft_backoff) > l.sync->cp_len())
        throw std::invalid_argument("fft_backoff: must be 0 .. " +
                                    std::to_string(l.sync->cp_len()) +
                                    " (the cyclic prefix), got " + std::to_string(p.fft_backoff));
    if (!(p.max_coded_ber > 0.0f && p.max_coded_ber <= 0.5f))
        throw std::invalid_argument("max_coded_ber: must be in (0, 0.5], got " +
                                    std::to_string(p.max_coded_ber));
    if (p.channel_taps != 0 && (p.channel_taps < 8 || p.channel_taps > 64))
        throw std::invalid_argument("channel_taps: must be 0 or 8 .. 64, got " +
                                    std::to_string(p.channel_taps));
    const size_t burst = l.burst_samples(), lookback = l.sync->lookback();
    const size_t need = burst + lookback + 4096;
    if (p.batch_samples == 0) {
        l.batch = std::max(size_t(1) << 18, 4 * burst + lookback);
        if (l.batch > max_batch)
            l.batch = std::max(need, max_batch);
    } else {
        if (p.batch_samples < need || p.batch_samples > max_batch)
            throw std::invalid_argument(
                "batch_samples: must be 0 or " + std::to_string(need) + " .. " +
                std::to_string(max_batch) + " (a burst of " + std::to_string(burst) +
                " samples and the lookback must fit), got " + std::to_string(p.batch_samples));
        l.batch = p.batch_samples;
    }
    return l;
}

} // namespace

void wimax_rx_params::validate() const { checked_layout(*this); }

wimax_receiver::wimax_receiver(const wimax_rx_params& p) : d_params(p)
{
    const wimax_profile_info& r = wimax_profile(p.rate_id);
    wimax_rx_layout l = checked_layout(p);
    d_n_sym = l.n_sym;
    d_sym_len = l.sym_len;
    d_batch = l.batch;
    d_params.sync = l.sync->params(); // the hold of a burst
    d_sync = std::move(l.sync);
    // The next batch keeps the synchronizer's lookback, or from as far before a burst it
    // must decode again.
    d_batcher = std::make_unique<stream_batcher<wimax_rx_burst>>(
        stream_batcher_params{ d_batch, d_sync->lookback(), d_sync->lookback() }, stream_hooks());
    d_chain = std::make_shared<chain>(r);
    for (size_t i = 0; i < max_slices(d_pool.get()); i++)
        d_finishers.push_back(std::make_shared<finisher>(r));
    // The randomizer (8.3.3.1) XORs a sequence that depends on the seed alone onto the
    // data and restarts every burst: its output on zeros, packed MSB first as the octets.
    const size_t total = d_n_sym * size_t(r.rs.k);
    scrambler_params sp;
    sp.standard = phy_standard::ieee80216;
    sp.seed = p.seed;
    auto scr = make_scrambler(sp, device_spec{});
    std::vector<uint8_t> zeros(8 * (total - 1), 0), seq(zeros.size());
    auto st = scr->initial_state();
    scr->process(zeros.data(), seq.data(), seq.size(), st);
    d_keystream.assign(total - 1, 0);
    for (size_t i = 0; i < seq.size(); i++)
        d_keystream[i >> 3] |= uint8_t(seq[i] << (7 - (i & 7)));
}

std::vector<wimax_rx_burst> wimax_receiver::process(const cfloat* x, size_t n)
{
    if (!x && n > 0)
        throw std::invalid_argument("x: null pointer with " + std::to_string(n) + " samples");
    d_stats.samples += n;
    return d_batcher->process(x, n);
}

std::vector<wimax_rx_burst> wimax_receiver::finish() { return d_batcher->finish(); }

stream_detector<wimax_rx_burst> wimax_receiver::stream_hooks()
{
    stream_detector<wimax_rx_burst> d;
    d.append = [this](const cfloat* x, size_t n, size_t at) {
        const auto t0 = timer::now();
        d_buf.resize(at + n); // a new stream (at 0) drops the last one's tail
        for (size_t i = 0; i < n; i++)
            d_buf[at + i] = clean_sample(x[i]) ? x[i] : cfloat();
        d_stats.t_input += since(t0);
    };
    d.keep = [this](size_t from, size_t) {
        d_buf.erase(d_buf.begin(), d_buf.begin() + long(from));
    };
    d.detect = [this](const stream_batch& b, std::vector<wimax_rx_burst>& out) {
        return decode_batch(b, out);
    };
    return d;
}

batch_decision wimax_receiver::decode_batch(const stream_batch& b, std::vector<wimax_rx_burst>& out)
{
    const size_t n = b.n;
    auto t0 = timer::now();
    load(d_buf.data(), n);
    d_stats.t_input += since(t0);
    t0 = timer::now();
    const auto found = find_bursts(n, b.search_from);
    d_stats.t_sync += since(t0);
    std::vector<burst_job> jobs;
    std::vector<wimax_sync_result> taken;
    batch_decision d;
    d.resume = b.search_from;
    for (const auto& f : found) {
        if (f.start + burst_samples() > n) {
            if (b.at_end) {
                d_stats.truncated++;
                d.resume = n;
            } else {
                d.held_back = f.start; // decided again from before its plateau
            }
            break;
        }
        jobs.push_back({ f.start, f.cfo, nullptr, 0.0f });
        taken.push_back(f);
        d.resume = f.start + burst_samples();
    }
    for (auto& p : decode_jobs(jobs, &taken)) {
        p.start += b.start;
        out.push_back(std::move(p));
    }
    return d;
}

std::vector<wimax_rx_burst> wimax_receiver::decode_buffer(const cfloat* x,
                                                          size_t n,
                                                          const wimax_rx_known* known,
                                                          size_t n_known)
{
    if (!x && n > 0)
        throw std::invalid_argument("x: null pointer with " + std::to_string(n) + " samples");
    if (n > d_batch)
        throw std::invalid_argument("n: " + std::to_string(n) +
                                    " samples are more than batch_samples (" +
                                    std::to_string(d_batch) + ")");
    if (!known && n_known > 0)
        throw std::invalid_argument("known: null pointer with " + std::to_string(n_known) +
                                    " bursts");
    for (size_t i = 0; i < n_known; i++)
        if (known[i].channel && !(known[i].noise_var > 0.0f && std::isfinite(known[i].noise_var)))
            throw std::invalid_argument("known: noise_var of burst " + std::to_string(i) +
                                        " must be finite and > 0 with a channel");
    d_stats.samples += n;
    std::vector<cfloat> buf(n);
    for (size_t i = 0; i < n; i++)
        buf[i] = clean_sample(x[i]) ? x[i] : cfloat();
    load(buf.data(), n);
    std::vector<burst_job> jobs;
    std::vector<wimax_sync_result> taken;
    auto add = [&](const burst_job& j) {
        if (j.start + burst_samples() > n) {
            d_stats.truncated++;
            return false;
        }
        jobs.push_back(j);
        return true;
    };
    if (known) {
        for (size_t i = 0; i < n_known; i++)
            add({ known[i].start, known[i].cfo, known[i].channel, known[i].noise_var });
    } else {
        for (const auto& f : find_bursts(n, 0))
            if (add({ f.start, f.cfo, nullptr, 0.0f }))
                taken.push_back(f);
    }
    return decode_jobs(jobs, known ? nullptr : &taken);
}

std::vector<wimax_rx_burst> wimax_receiver::decode_jobs(const std::vector<burst_job>& jobs,
                                                        const std::vector<wimax_sync_result>* sync)
{
    const size_t per = coded_bits(), steps = decoded_steps(), hb = hard_bytes();
    std::vector<wimax_rx_burst> out(jobs.size());
    for (size_t i = 0; i < jobs.size(); i++) {
        out[i].start = jobs[i].start;
        out[i].cfo = jobs[i].cfo;
        if (sync) {
            out[i].sync_metric = (*sync)[i].metric;
            out[i].preamble_metric = (*sync)[i].preamble_metric;
        }
    }
    if (jobs.empty())
        return out;
    // The front end and the chain through Viterbi where the backend keeps the LLRs (the
    // CUDA device), else the LLRs here and the CPU stages; the rest on the host for both.
    auto t0 = timer::now();
    d_bits.resize(steps * jobs.size());
    d_hard.resize(hb * jobs.size());
    if (d_host_chain ||
        !front_end_to_bits(jobs.data(), jobs.size(), out.data(), d_bits.data(), d_hard.data())) {
        d_llr.resize(per * jobs.size());
        front_end(jobs.data(), jobs.size(), out.data(), d_llr.data());
        for (size_t i = 0; i < jobs.size(); i++)
            chain_bits(d_llr.data() + per * i, d_bits.data() + steps * i, d_hard.data() + hb * i);
    }
    d_stats.t_decode += since(t0);
    t0 = timer::now();
    finish_bursts(d_bits.data(), d_hard.data(), out.data(), jobs.size());
    for (const auto& o : out) {
        d_stats.detected++;
        (o.ok ? d_stats.ok : d_stats.failed)++;
    }
    d_stats.t_finish += since(t0);
    return out;
}

std::unique_ptr<wimax_receiver> make_wimax_receiver(const wimax_rx_params& p,
                                                    const device_spec& dev)
{
    p.validate(); // a bad parameter reads the same on every build
    if (!dev.is_cuda())
        return make_wimax_receiver_cpu(p);
#ifdef GPUOFDM_HAVE_CUDA
    return make_wimax_receiver_cuda(p, dev);
#else
    throw std::runtime_error("gr-gpuofdm was built without CUDA (GPUOFDM_CUDA=OFF)");
#endif
}

} // namespace gr::gpuofdm::core
