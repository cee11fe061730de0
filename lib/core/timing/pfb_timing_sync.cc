/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Parameters, banks, gains, the two modes' planning and stitching (shared by both
// backends; the backends only run the loops of the jobs planned here).

#include "timing/pfb_timing_sync.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

std::string to_string(timing_mode m)
{
    return m == timing_mode::chunked  ? "chunked"
           : m == timing_mode::hybrid ? "hybrid"
                                      : "sequential";
}

timing_mode parse_timing_mode(const std::string& s)
{
    if (s == "sequential")
        return timing_mode::sequential;
    if (s == "chunked")
        return timing_mode::chunked;
    if (s == "hybrid")
        return timing_mode::hybrid;
    throw std::invalid_argument("mode: must be \"sequential\", \"chunked\" or \"hybrid\", got \"" +
                                s + "\"");
}

namespace {

std::string num(double v)
{
    std::string s = std::to_string(v);
    s.erase(s.find_last_not_of('0') + 1);
    if (!s.empty() && s.back() == '.')
        s.pop_back();
    return s;
}

//! Symbols a loop can emit over \p span samples: at least sps - 1 samples a symbol.
uint64_t symbols_bound(uint64_t span, int sps) { return span / uint64_t(std::max(1, sps - 1)) + 4; }

//! Grows \p v to \p n items, never shrinks it (a call after a smaller one zeroes nothing).
template <typename T>
void grow(std::vector<T>& v, size_t n)
{
    if (v.size() < n)
        v.resize(n);
}

} // namespace

void pfb_timing_params::validate() const
{
    if (!(sps >= 1.0 && sps <= 256.0))
        throw std::invalid_argument("sps: must be 1..256 samples per symbol, got " + num(sps));
    if (!(loop_bw >= 0.0f && loop_bw <= 1.0f))
        throw std::invalid_argument("loop_bw: must be 0..1, got " + num(loop_bw));
    if (nfilts < 1 || nfilts > 1024)
        throw std::invalid_argument("filter_size: must be 1..1024 filters, got " +
                                    std::to_string(nfilts));
    if (taps.size() < 3 || taps.size() > 65536)
        throw std::invalid_argument("taps: must be 3..65536 taps, got " +
                                    std::to_string(taps.size()));
    for (float t : taps)
        if (!std::isfinite(t))
            throw std::invalid_argument("taps: must be finite, got " + num(t));
    if (!(init_phase >= -1e6f && init_phase <= 1e6f))
        throw std::invalid_argument("init_phase: must be -1e6..1e6 filter units, got " +
                                    num(init_phase));
    if (!(max_rate_deviation >= 0.0f && max_rate_deviation <= float(nfilts)))
        throw std::invalid_argument("max_rate_deviation: must be 0..filter_size (" +
                                    std::to_string(nfilts) + "), got " + num(max_rate_deviation));
    if (osps < 1 || osps > int(sps))
        throw std::invalid_argument("osps: must be 1..floor(sps) (" + std::to_string(int(sps)) +
                                    "), got " + std::to_string(osps));
    if (mode != timing_mode::sequential && mode != timing_mode::chunked &&
        mode != timing_mode::hybrid)
        throw std::invalid_argument("mode: must be sequential, chunked or hybrid, got " +
                                    std::to_string(int(mode)));
    const size_t min_chunk = size_t(64 * sps);
    if (chunk_samples < min_chunk || chunk_samples > (size_t(1) << 24))
        throw std::invalid_argument("chunk_samples: must be 64*sps (" + std::to_string(min_chunk) +
                                    ")..2^24, got " + std::to_string(chunk_samples));
    if (warmup_samples > (size_t(1) << 24))
        throw std::invalid_argument("warmup_samples: must be 0..2^24, got " +
                                    std::to_string(warmup_samples));
    if (mode == timing_mode::hybrid && n_channels != 1)
        throw std::invalid_argument("n_channels: must be 1 in hybrid mode, got " +
                                    std::to_string(n_channels));
    if (n_channels < 1 || n_channels > 65536)
        throw std::invalid_argument("n_channels: must be 1..65536, got " +
                                    std::to_string(n_channels));
    if (max_input_samples < 1024 || max_input_samples > (size_t(1) << 24))
        throw std::invalid_argument("max_input_samples: must be 1024..2^24, got " +
                                    std::to_string(max_input_samples));
    if (n_channels * max_input_samples > (size_t(1) << 28))
        throw std::invalid_argument("max_input_samples: n_channels * max_input_samples must be "
                                    "at most 2^28, got " +
                                    std::to_string(n_channels * max_input_samples));
    if (overlap_pieces > 16)
        throw std::invalid_argument("overlap_pieces: must be 0..16, got " +
                                    std::to_string(overlap_pieces));
    if (max_input_samples < history() + 2 * size_t(sps) + size_t(osps) + 8)
        throw std::invalid_argument("max_input_samples: must hold the filters' history (" +
                                    std::to_string(history()) + ") and a symbol, got " +
                                    std::to_string(max_input_samples));
}

pfb_timing_banks make_pfb_timing_banks(const std::vector<float>& taps, unsigned nfilts)
{
    if (taps.size() < 3 || nfilts < 1)
        throw std::invalid_argument("taps: must be 3 or more taps, got " +
                                    std::to_string(taps.size()));
    // pfb_clock_sync_ccf::create_diff_taps: [-1, 0, 1] per tap, float sums.
    std::vector<float> dtaps;
    dtaps.reserve(taps.size());
    dtaps.push_back(0.0f);
    float pwr = 0.0f;
    for (size_t i = 0; i + 2 < taps.size(); i++) {
        float tap = 0.0f;
        tap += -1.0f * taps[i];
        tap += 0.0f * taps[i + 1];
        tap += 1.0f * taps[i + 2];
        dtaps.push_back(tap);
        pwr += std::fabs(tap);
    }
    dtaps.push_back(0.0f);
    const float scale = float(nfilts) / pwr;
    for (float& t : dtaps) {
        t *= scale;
        if (!std::isfinite(t))
            throw std::invalid_argument("taps: the derivative of the prototype is all zero");
    }

    pfb_timing_banks b;
    b.nfilts = nfilts;
    b.taps_per_filter = (taps.size() + nfilts - 1) / nfilts;
    b.filters.assign(nfilts, std::vector<float>(b.taps_per_filter, 0.0f));
    b.diff_filters.assign(nfilts, std::vector<float>(b.taps_per_filter, 0.0f));
    for (size_t i = 0; i < nfilts; i++)
        for (size_t j = 0; j < b.taps_per_filter; j++) {
            const size_t t = i + j * nfilts;
            b.filters[i][j] = t < taps.size() ? taps[t] : 0.0f;
            b.diff_filters[i][j] = t < dtaps.size() ? dtaps[t] : 0.0f;
        }
    return b;
}

timing_loop_consts make_timing_loop_consts(const pfb_timing_params& p)
{
    timing_loop_consts c;
    c.nfilts = int(p.nfilts);
    c.taps_per_filter = int(p.taps_per_filter());
    c.sps = p.sps_int();
    c.osps = p.osps;
    // pfb_clock_sync_ccf::update_gains(), with its mix of double and float operations.
    const float damping = float(2 * p.nfilts);
    const float bw = p.loop_bw;
    const float bw2 = bw * bw;
    const float denom = float(1.0 + 2.0 * double(damping) * double(bw) + double(bw2));
    c.alpha = (4.0f * damping * bw) / denom;
    c.beta = (4.0f * bw * bw) / denom;
    c.max_dev = p.max_rate_deviation;
    const float rate = float((p.sps - std::floor(p.sps)) * double(p.nfilts));
    const int rate_i = int(std::floor(rate));
    c.rate_i = float(rate_i);
    c.rate_f0 = rate - float(rate_i);
    c.init_phase = p.init_phase;
    return c;
}

pfb_timing_sync::pfb_timing_sync(const pfb_timing_params& p)
    : d_params(p), d_banks(make_pfb_timing_banks(p.taps, p.nfilts)),
      d_consts(make_timing_loop_consts(p))
{
    const size_t T = d_banks.taps_per_filter;
    d_bank_flat.resize(size_t(p.nfilts) * T);
    d_dbank_flat.resize(size_t(p.nfilts) * T);
    // GNU Radio's fir_filter reverses its taps: out = sum_j h[T-1-j] * in[j].
    for (size_t f = 0; f < p.nfilts; f++)
        for (size_t j = 0; j < T; j++) {
            d_bank_flat[f * T + j] = d_banks.filters[f][T - 1 - j];
            d_dbank_flat[f * T + j] = d_banks.diff_filters[f][T - 1 - j];
        }
}

pfb_timing_state pfb_timing_sync::initial_state() const
{
    pfb_timing_state s;
    s.loop.k = d_consts.init_phase;
    s.loop.rate_f = d_consts.rate_f0;
    s.loop.error = 0.0f;
    s.loop.pos = 0;
    s.window_pos = int64_t(d_params.history()) - 1;
    s.chunk_pos = 0;
    return s;
}

size_t pfb_timing_sync::consumable(const pfb_timing_state& s, size_t n_in) const
{
    const int64_t margin = 2 * int64_t(d_consts.sps) + 2;
    const int64_t keep_from = d_params.mode != timing_mode::chunked
                                  ? s.loop.pos - margin
                                  : s.chunk_pos - int64_t(d_params.warmup_samples) - margin;
    const int64_t n = keep_from - s.window_pos;
    return n <= 0 ? 0 : std::min(size_t(n), n_in);
}

void pfb_timing_sync::process(const pfb_timing_io& io, pfb_timing_state* states)
{
    const size_t C = d_params.n_channels;
    if (!io.in || !io.n_in || !io.out || !io.n_symbols || !states)
        throw std::invalid_argument("pfb_timing_sync: in, n_in, out, n_symbols and states "
                                    "must be given");
    for (size_t c = 0; c < C; c++)
        if (io.n_in[c] > io.in_stride && C > 1)
            throw std::invalid_argument("pfb_timing_sync: n_in must be at most in_stride");
    if (C > 1 && io.out_stride < io.max_symbols * size_t(d_consts.osps))
        throw std::invalid_argument("pfb_timing_sync: out_stride must be at least "
                                    "max_symbols * osps");
    if ((io.err || io.rate || io.phase) && !(io.err && io.rate && io.phase))
        throw std::invalid_argument("pfb_timing_sync: err, rate and phase go together");
    for (size_t i = 1; i < io.n_events; i++)
        if (io.events[i].channel < io.events[i - 1].channel ||
            (io.events[i].channel == io.events[i - 1].channel &&
             io.events[i].pos < io.events[i - 1].pos))
            throw std::invalid_argument("pfb_timing_sync: events must be sorted by channel, pos");
    if (io.symbol_pos && C > 1)
        throw std::invalid_argument("pfb_timing_sync: symbol_pos is for one channel");
    if (io.symbol_pos)
        io.symbol_pos->clear();
    if (d_params.mode != timing_mode::chunked)
        process_sequential(io, states);
    else
        process_chunked(io, states);
}

namespace {

//! The events of each channel as [begin, end) ranges of \p out.
std::vector<uint32_t> convert_events(const pfb_timing_io& io,
                                     size_t n_channels,
                                     std::vector<timing_event>& out)
{
    std::vector<uint32_t> begin(n_channels + 1, 0);
    out.clear();
    size_t e = 0;
    for (size_t c = 0; c < n_channels; c++) {
        begin[c] = uint32_t(out.size());
        while (e < io.n_events && io.events[e].channel == c) {
            out.push_back({ io.events[e].pos, io.events[e].center });
            e++;
        }
    }
    begin[n_channels] = uint32_t(out.size());
    return begin;
}

} // namespace

void pfb_timing_sync::process_sequential(const pfb_timing_io& io, pfb_timing_state* states)
{
    const size_t C = d_params.n_channels;
    const int osps = d_consts.osps;
    const auto ev_begin = convert_events(io, C, d_events);
    const uint64_t cap =
        std::min<uint64_t>(io.max_symbols, symbols_bound(d_params.max_input_samples, d_consts.sps));
    d_jobs.assign(C, timing_job{});
    for (size_t c = 0; c < C; c++) {
        timing_job& j = d_jobs[c];
        j.row = uint32_t(c);
        j.window_pos = states[c].window_pos;
        j.n_in = int64_t(std::min(io.n_in[c], d_params.max_input_samples));
        j.st = states[c].loop;
        j.event_begin = ev_begin[c];
        j.event_end = ev_begin[c + 1];
    }
    // The loops write straight into the caller's rows (one row: from io.out on).
    const bool want_pos = io.symbol_pos != nullptr;
    if (want_pos)
        grow(d_chunk_pos, C * cap);
    if (want_pos)
        grow(d_chunk_k, C * cap);
    timing_job_outputs o;
    o.out = reinterpret_cast<rounded::cpx*>(io.out);
    o.err = io.err;
    o.rate = io.rate;
    o.phase = io.phase;
    if (want_pos) {
        o.pos = d_chunk_pos.data();
        o.k = d_chunk_k.data();
    }
    o.cap = cap;
    o.stride = C > 1 ? io.out_stride : cap * uint64_t(osps);
    if (d_params.mode == timing_mode::hybrid)
        run_jobs_hybrid(io, o);
    else
        run_jobs(io, d_jobs, d_events, o);

    for (size_t c = 0; c < C; c++) {
        const timing_job& j = d_jobs[c];
        states[c].loop = j.st;
        io.n_symbols[c] = size_t(j.n_out);
        if (want_pos)
            io.symbol_pos->insert(io.symbol_pos->end(), o.pos + c * cap, o.pos + c * cap + j.n_out);
    }
}

void pfb_timing_sync::process_chunked(const pfb_timing_io& io, pfb_timing_state* states)
{
    const size_t C = d_params.n_channels;
    const int sps = d_consts.sps;
    const int64_t L = int64_t(d_params.chunk_samples);
    const int64_t W = int64_t(d_params.warmup_samples);
    const int64_t margin = int64_t(d_consts.taps_per_filter) + 2 * sps + d_consts.osps + 2;
    const auto ev_begin = convert_events(io, C, d_events);
    const uint64_t cap = symbols_bound(uint64_t(L + 2 * sps), sps);
    const double half = d_params.sps / 2.0;
    const float nf = float(d_consts.nfilts);
    std::vector<size_t> n_done(C, 0);
    std::vector<size_t> first_job(C + 1, 0);
    // Rounds of chunks until every output is full or no chunk can run: a round runs no
    // more chunks than fill what is left of an output (plus one), since the symbols a full
    // output cannot take are made again next call.
    for (bool progress = true; progress;) {
        progress = false;
        d_jobs.clear();
        for (size_t c = 0; c < C; c++) {
            first_job[c] = d_jobs.size();
            const pfb_timing_state& s = states[c];
            const size_t room = io.max_symbols - n_done[c];
            if (room == 0)
                continue;
            const size_t max_chunks = room * size_t(d_params.sps) / size_t(L) + 1;
            const int64_t n_in = int64_t(std::min(io.n_in[c], d_params.max_input_samples));
            const int64_t data_end = s.window_pos + n_in;
            size_t n_chunks = 0;
            for (int64_t start = s.chunk_pos; n_chunks < max_chunks; start += L, n_chunks++) {
                const bool whole = start + L + margin <= data_end;
                if (!whole && !(io.finish && start < data_end))
                    break;
                timing_job j;
                j.row = uint32_t(c);
                j.window_pos = s.window_pos;
                j.n_in = n_in;
                j.st.k = d_consts.init_phase;
                j.st.rate_f = d_consts.rate_f0;
                j.st.error = 0.0f;
                j.st.pos = std::max<int64_t>(0, start - W);
                j.stop_pos = start + L;
                j.emit_from = start == 0 ? INT64_MIN : start - 2 * sps;
                j.event_begin = ev_begin[c];
                j.event_end = ev_begin[c + 1];
                d_jobs.push_back(j);
            }
        }
        first_job[C] = d_jobs.size();
        if (d_jobs.empty())
            break;
        d_sums.resize(d_jobs.size());
        run_chunk_jobs(io, d_jobs, d_events, cap, io.err != nullptr, d_sums);
        d_fetched_job = SIZE_MAX;

        // Stitch by time: take a chunk's symbols later than half a symbol after the last
        // one taken and before the chunk's end. Symbol by symbol where the summary says
        // they may be close, whole ranges from where they cannot be.
        d_takes.clear();
        uint64_t gathered = 0;
        for (size_t c = 0; c < C; c++) {
            pfb_timing_state& s = states[c];
            size_t n = n_done[c];
            const int64_t chunk_before = s.chunk_pos;
            const auto take = [&](size_t ji, uint64_t from, uint64_t count) {
                timing_take* last = d_takes.empty() ? nullptr : &d_takes.back();
                if (last && last->job == ji && last->from + last->count == from)
                    last->count += count;
                else
                    d_takes.push_back({ uint32_t(ji), uint32_t(c), from, count, n, gathered });
                n += count;
                gathered += count;
            };
            bool room = true;
            for (size_t ji = first_job[c]; ji < first_job[c + 1] && room; ji++) {
                const timing_chunk_summary& m = d_sums[ji];
                bool chunk_done = true;
                bool took_before = false; //!< the symbol before q was taken
                for (uint64_t q = 0; q < m.end;) {
                    if (took_before && q >= m.regular) {
                        const uint64_t count = std::min<uint64_t>(m.end - q, io.max_symbols - n);
                        if (count > 0) {
                            take(ji, q, count);
                            if (q + count == m.end) {
                                s.last_pos = m.last_pos;
                                s.last_k = m.last_k;
                            } else {
                                chunk_symbol(ji, q + count - 1, s.last_pos, s.last_k);
                            }
                        }
                        if (q + count < m.end) {
                            chunk_done = false;
                            room = false;
                        }
                        break;
                    }
                    int64_t p;
                    float k;
                    chunk_symbol(ji, q, p, k);
                    if (s.have_last && timing_symbol_close(p, k, s.last_pos, s.last_k, nf, half)) {
                        took_before = false;
                        q++;
                        continue;
                    }
                    if (n >= io.max_symbols) {
                        chunk_done = false;
                        room = false;
                        break;
                    }
                    take(ji, q, 1);
                    s.last_pos = p;
                    s.last_k = k;
                    s.have_last = true;
                    took_before = true;
                    q++;
                }
                if (chunk_done)
                    s.chunk_pos = d_jobs[ji].stop_pos;
            }
            progress = progress || n > n_done[c] || s.chunk_pos != chunk_before;
            n_done[c] = n;
        }
        if (!d_takes.empty())
            gather_chunk_symbols(io, d_takes);
    }
    for (size_t c = 0; c < C; c++)
        io.n_symbols[c] = n_done[c];
}

void pfb_timing_sync::chunk_symbol(size_t ji, uint64_t q, int64_t& pos, float& k)
{
    if (q < uint64_t(timing_summary_head)) {
        pos = d_sums[ji].head_pos[q];
        k = d_sums[ji].head_k[q];
        return;
    }
    if (d_fetched_job != ji || q < d_fetched_from || q >= d_fetched_from + d_fetched_pos.size()) {
        // Past the head: the symbols from q on, a block at a time.
        const uint64_t count = std::min<uint64_t>(d_sums[ji].end - q, 1024);
        d_fetched_pos.resize(count);
        d_fetched_k.resize(count);
        chunk_symbol_times(ji, q, count, d_fetched_pos.data(), d_fetched_k.data());
        d_fetched_job = ji;
        d_fetched_from = q;
    }
    pos = d_fetched_pos[q - d_fetched_from];
    k = d_fetched_k[q - d_fetched_from];
}

void pfb_timing_sync::run_chunk_jobs(const pfb_timing_io& io,
                                     std::vector<timing_job>& jobs,
                                     const std::vector<timing_event>& events,
                                     uint64_t cap,
                                     bool aux,
                                     std::vector<timing_chunk_summary>& sums)
{
    const size_t J = jobs.size();
    const uint64_t row = cap * uint64_t(d_consts.osps);
    grow(d_chunk_out, J * row);
    if (aux)
        grow(d_chunk_aux, 3 * J * row);
    grow(d_chunk_pos, J * cap);
    grow(d_chunk_k, J * cap);
    d_chunk_cap = cap;
    timing_job_outputs o;
    o.out = reinterpret_cast<rounded::cpx*>(d_chunk_out.data());
    if (aux) {
        o.err = d_chunk_aux.data();
        o.rate = o.err + J * row;
        o.phase = o.rate + J * row;
    }
    o.pos = d_chunk_pos.data();
    o.k = d_chunk_k.data();
    o.cap = cap;
    o.stride = row;
    run_jobs(io, jobs, events, o);
    const float nf = float(d_consts.nfilts);
    const double half = d_params.sps / 2.0;
    for (size_t ji = 0; ji < J; ji++)
        sums[ji] = timing_summarize_host(jobs[ji], d_chunk_pos.data() + ji * cap,
                                         d_chunk_k.data() + ji * cap, nf, half);
}

void pfb_timing_sync::chunk_symbol_times(
    size_t job, uint64_t from, uint64_t count, int64_t* pos, float* k)
{
    const size_t a = size_t(job * d_chunk_cap + from);
    std::memcpy(pos, d_chunk_pos.data() + a, size_t(count) * sizeof(int64_t));
    std::memcpy(k, d_chunk_k.data() + a, size_t(count) * sizeof(float));
}

void pfb_timing_sync::gather_chunk_symbols(const pfb_timing_io& io,
                                           const std::vector<timing_take>& takes)
{
    const size_t osps = size_t(d_consts.osps);
    const size_t row = size_t(d_chunk_cap) * osps;
    const size_t J = d_jobs.size();
    const float* err = d_chunk_aux.data(); // the planes of run_chunk_jobs(), where aux
    const float* rate = io.err ? err + J * row : nullptr;
    const float* phase = io.err ? rate + J * row : nullptr;
    for (const timing_take& t : takes) {
        const size_t src = t.job * row + size_t(t.from) * osps;
        const size_t dst = t.row * io.out_stride + size_t(t.dst) * osps;
        const size_t items = size_t(t.count) * osps;
        std::memcpy(static_cast<void*>(io.out + dst), d_chunk_out.data() + src,
                    items * sizeof(std::complex<float>));
        if (io.err) {
            std::memcpy(io.err + dst, err + src, items * sizeof(float));
            std::memcpy(io.rate + dst, rate + src, items * sizeof(float));
            std::memcpy(io.phase + dst, phase + src, items * sizeof(float));
        }
        if (io.symbol_pos) {
            const int64_t* p = d_chunk_pos.data() + t.job * d_chunk_cap + t.from;
            io.symbol_pos->insert(io.symbol_pos->end(), p, p + t.count);
        }
    }
}

void pfb_timing_sync::run_jobs_hybrid(const pfb_timing_io& io, const timing_job_outputs& o)
{
    const int T = d_consts.taps_per_filter;
    const size_t P = d_params.nfilts;
    for (size_t ji = 0; ji < d_jobs.size(); ji++) {
        timing_job& j = d_jobs[ji];
        const auto* row = reinterpret_cast<const rounded::cpx*>(io.in + j.row * io.in_stride);
        // The grid from a few samples before the loop's next symbol (a wrap may step back)
        // to the last index whose filter window the samples hold.
        const int64_t i0 =
            std::max<int64_t>(-int64_t(d_params.history()), j.st.pos - j.window_pos - 4);
        const int64_t i1 = j.n_in - T + 1;
        const size_t count = i1 > i0 ? size_t(i1 - i0) : 0;
        d_grid_y.resize(count * P);
        d_grid_d.resize(count * P);
        if (count > 0)
            compute_grid(io.in + j.row * io.in_stride, j.n_in, i0, count, d_grid_y.data(),
                         d_grid_d.data());
        const float* bank = d_bank_flat.data();
        const float* dbank = d_dbank_flat.data();
        const auto dot = [&](const float* h, int64_t i) {
            const bool diff = h >= dbank && h < dbank + d_dbank_flat.size();
            const size_t f = size_t((h - (diff ? dbank : bank)) / T);
            if (i < i0 || i >= i1) // outside the grid (a wrap far back): the same sum here
                return timing_dot_host(h, T, row, i);
            return (diff ? d_grid_d : d_grid_y)[size_t(i - i0) * P + f];
        };
        const auto dot2 = [&](const float* h1, const float* h2, int64_t i, rounded::cpx& y1,
                              rounded::cpx& y2) {
            y1 = dot(h1, i);
            y2 = dot(h2, i);
        };
        timing_run_job(d_consts, bank, dbank, d_events.data(), j, ji, o, dot, dot2, true);
    }
}

std::unique_ptr<pfb_timing_sync> make_pfb_timing_sync(const pfb_timing_params& p,
                                                      const device_spec& dev,
                                                      cuda_context_ptr ctx)
{
    p.validate();
    if (!dev.is_cuda())
        return make_pfb_timing_sync_cpu(p);
#ifdef GPUOFDM_HAVE_CUDA
    return make_pfb_timing_sync_cuda(p, dev, std::move(ctx));
#else
    (void)ctx;
    throw std::runtime_error("gr-gpuofdm was built without CUDA (GPUOFDM_CUDA=OFF)");
#endif
}

} // namespace gr::gpuofdm::core
