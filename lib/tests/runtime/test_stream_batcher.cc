/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The stream batcher with a toy detector whose frames are marked in the samples: every
// sample's real part is its stream index, the imaginary part of a frame's first sample its
// length. The detector sees a frame when `span` samples from its start are held (a
// preamble), takes it when the whole frame is held, and holds it back otherwise. The
// expected batches and detections below are worked out by hand from the rule in
// stream_batcher.h.

#include "runtime/stream_batcher.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <tuple>
#include <vector>

using namespace gr::gpuofdm::core;

namespace {

constexpr size_t span = 8; //!< samples a frame's detection needs

struct call {
    uint64_t start;
    size_t n, search_from;
    bool at_end;
    bool operator==(const call& o) const
    {
        return std::tie(start, n, search_from, at_end) ==
               std::tie(o.start, o.n, o.search_from, o.at_end);
    }
};

std::ostream& operator<<(std::ostream& os, const call& c)
{
    return os << "{" << c.start << ", " << c.n << ", " << c.search_from << ", " << c.at_end << "}";
}

//! A stream of \p len samples with frames (start, length) marked.
std::vector<cfloat> marked_stream(size_t len, const std::vector<std::pair<size_t, size_t>>& frames)
{
    std::vector<cfloat> x(len);
    for (size_t i = 0; i < len; i++)
        x[i] = cfloat(float(i), 0.0f);
    for (const auto& f : frames)
        x[f.first].imag(float(f.second));
    return x;
}

//! The toy detector and its storage (a vector), recording every batch it is given.
struct toy {
    std::vector<cfloat> held;
    std::vector<call> calls;
    bool fail_next = false;

    stream_detector<uint64_t> hooks()
    {
        stream_detector<uint64_t> d;
        d.append = [this](const cfloat* x, size_t n, size_t at) {
            held.resize(at + n);
            std::copy(x, x + n, held.begin() + long(at));
        };
        d.keep = [this](size_t from, size_t n) {
            EXPECT_EQ(from + n, held.size());
            held.erase(held.begin(), held.begin() + long(from));
        };
        d.detect = [this](const stream_batch& b, std::vector<uint64_t>& found) {
            if (fail_next) {
                fail_next = false;
                throw std::runtime_error("detector failed");
            }
            calls.push_back({ b.start, b.n, b.search_from, b.at_end });
            // The batch holds exactly the stream's samples [start, start + n).
            EXPECT_EQ(held.size(), b.n);
            for (size_t i = 0; i < b.n && i < held.size(); i++)
                if (held[i].real() != float(b.start + i)) {
                    ADD_FAILURE() << "batch sample " << i << " is stream sample " << held[i].real()
                                  << ", not " << b.start + i;
                    break;
                }
            batch_decision d;
            d.resume = b.search_from;
            for (size_t i = b.search_from; i + span <= b.n; i++) {
                const size_t len = size_t(held[i].imag());
                if (len == 0)
                    continue;
                if (i + len > b.n) {
                    if (b.at_end)
                        d.resume = b.n; // cut off by the end of the stream: dropped
                    else
                        d.held_back = i;
                    break;
                }
                found.push_back(b.start + i);
                d.resume = i + len;
                i += len - 1; // nothing inside a frame taken
            }
            return d;
        };
        return d;
    }
};

const stream_batcher_params sizes{ 64, 16, 4 }; // batch, lookback, keep before held back

// Frames at 3 and 30 (a false mark at 40 inside the second), 58 (seen only by the second
// batch: its detection needs 66 > 64 samples), 100 (cut by the second batch's end: held
// back), 150, and 190 (cut by the end of the stream).
const std::vector<std::pair<size_t, size_t>> frames = { { 3, 10 },  { 30, 20 },  { 40, 5 },
                                                        { 58, 12 }, { 100, 40 }, { 150, 5 },
                                                        { 190, 30 } };
const std::vector<uint64_t> want_found = { 3, 30, 58, 100, 150 };
// Batch 1 [0, 64): keeps its last 16, resume 50 -> 2. Batch 2 [48, 112): 58 taken (resume
// 22), 100 held back at 52 -> keeps from 48, resume min(22, 52) - 48 -> 0. Batch 3
// [96, 160): 100 and 150 taken (resume 59), keeps from 48 -> resume 11. The end [144, 200).
const std::vector<call> want_calls = {
    { 0, 64, 0, false }, { 48, 64, 2, false }, { 96, 64, 0, false }, { 144, 56, 11, true }
};

std::vector<uint64_t> run_in_pieces(stream_batcher<uint64_t>& b,
                                    const std::vector<cfloat>& x,
                                    const std::vector<size_t>& pieces)
{
    std::vector<uint64_t> got;
    size_t at = 0, k = 0;
    while (at < x.size()) {
        const size_t n = std::min(pieces[k++ % pieces.size()], x.size() - at);
        const auto p = b.process(x.data() + at, n);
        got.insert(got.end(), p.begin(), p.end());
        at += n;
        EXPECT_EQ(b.start() + b.held(), at) << "held samples end where the stream is";
    }
    const auto p = b.finish();
    got.insert(got.end(), p.begin(), p.end());
    return got;
}

} // namespace

TEST(stream_batcher, batches_and_detections_in_pieces_of_every_size)
{
    const auto x = marked_stream(200, frames);
    for (size_t piece = 1; piece <= x.size(); piece++) {
        toy t;
        stream_batcher<uint64_t> b(sizes, t.hooks());
        EXPECT_EQ(run_in_pieces(b, x, { piece }), want_found) << "pieces of " << piece;
        EXPECT_EQ(t.calls, want_calls) << "pieces of " << piece;
    }
}

TEST(stream_batcher, pieces_of_random_sizes)
{
    const auto x = marked_stream(200, frames);
    std::mt19937 rng(7);
    for (int trial = 0; trial < 50; trial++) {
        std::vector<size_t> pieces(30);
        for (auto& p : pieces)
            p = std::uniform_int_distribution<size_t>(0, 90)(rng);
        pieces.push_back(1); // never only empty pieces
        toy t;
        stream_batcher<uint64_t> b(sizes, t.hooks());
        EXPECT_EQ(run_in_pieces(b, x, pieces), want_found);
        EXPECT_EQ(t.calls, want_calls);
    }
}

TEST(stream_batcher, finish_starts_a_new_stream_at_zero)
{
    const auto x = marked_stream(200, frames);
    toy t;
    stream_batcher<uint64_t> b(sizes, t.hooks());
    EXPECT_EQ(run_in_pieces(b, x, { 37 }), want_found);
    EXPECT_EQ(b.held(), 0u);
    EXPECT_EQ(b.start(), 0u);
    t.calls.clear();
    EXPECT_EQ(run_in_pieces(b, x, { 200 }), want_found);
    EXPECT_EQ(t.calls, want_calls);
    EXPECT_TRUE(b.finish().empty()) << "nothing held: no batch at the end";
    EXPECT_EQ(t.calls.size(), want_calls.size());
}

TEST(stream_batcher, short_stream_is_decided_at_the_end)
{
    // Fewer samples than the look-back: one batch, at the end, all of it.
    const auto x = marked_stream(12, { { 1, 5 } });
    toy t;
    stream_batcher<uint64_t> b(sizes, t.hooks());
    EXPECT_TRUE(b.process(x.data(), x.size()).empty());
    EXPECT_EQ(b.unsearched(), 12u);
    EXPECT_EQ(b.finish(), std::vector<uint64_t>{ 1 });
    EXPECT_EQ(t.calls, (std::vector<call>{ { 0, 12, 0, true } }));
}

TEST(stream_batcher, held_back_frame_is_kept_from_before_it)
{
    // Batch [0, 64): the frame at 40 (length 30) is held back: the next batch starts at 36
    // (4 before it), the search from 0 there.
    const auto x = marked_stream(120, { { 40, 30 } });
    toy t;
    stream_batcher<uint64_t> b(sizes, t.hooks());
    EXPECT_TRUE(b.process(x.data(), 64).empty());
    EXPECT_EQ(b.start(), 36u);
    EXPECT_EQ(b.held(), 28u);
    EXPECT_EQ(b.room(), 36u);
    EXPECT_EQ(b.unsearched(), 0u);
    EXPECT_EQ(b.process(x.data() + 64, 56), std::vector<uint64_t>{ 40 });
    EXPECT_TRUE(b.finish().empty());
    // [36, 100): the frame taken at 4, resume 34 -> keeps from 48: [84, 120), resume 0.
    EXPECT_EQ(t.calls, (std::vector<call>{
                           { 0, 64, 0, false }, { 36, 64, 0, false }, { 84, 36, 0, true } }));
}

TEST(stream_batcher, a_failed_detection_leaves_the_batch_to_decide_again)
{
    const auto x = marked_stream(200, frames);
    toy t;
    stream_batcher<uint64_t> b(sizes, t.hooks());
    t.fail_next = true;
    EXPECT_THROW(b.process(x.data(), 64), std::runtime_error);
    EXPECT_EQ(b.held(), 64u);
    EXPECT_EQ(b.room(), 0u);
    // The next call decides the full batch before it takes anything.
    auto got = b.process(x.data() + 64, 136);
    const auto end = b.finish();
    got.insert(got.end(), end.begin(), end.end());
    EXPECT_EQ(got, want_found);
    EXPECT_EQ(t.calls, want_calls);
}

TEST(stream_batcher, a_batch_must_exceed_what_the_next_one_keeps)
{
    toy t;
    for (const stream_batcher_params& p :
         { stream_batcher_params{ 16, 16, 4 }, stream_batcher_params{ 16, 4, 16 },
           stream_batcher_params{ 0, 0, 0 } }) {
        try {
            stream_batcher<uint64_t> b(p, t.hooks());
            ADD_FAILURE() << "batch " << p.batch_samples << " accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_EQ(std::string(e.what()).rfind("batch_samples: ", 0), 0u) << e.what();
        }
    }
    EXPECT_NO_THROW(stream_batcher<uint64_t>({ 17, 16, 16 }, t.hooks()));
}
