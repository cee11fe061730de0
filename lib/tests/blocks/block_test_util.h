/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_BLOCK_TEST_UTIL_H
#define GPUOFDM_BLOCK_TEST_UTIL_H

// Helpers of the block tests: one block in a vector_source -> block -> vector_sink
// flowgraph (run with a time limit), seeded data, tag and tolerance comparisons.

#include <gnuradio/blocks/message_debug.h>
#include <gnuradio/blocks/vector_sink.h>
#include <gnuradio/blocks/vector_source.h>
#include <gnuradio/top_block.h>
#include <gnuradio/gpuofdm/device.h>
#include <pmt/pmt.h>

#include "test_compare.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <future>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace gr::gpuofdm::block_test {

using test::magnitude;
using test::near_rms;
using test::random_complex;

//! The device of the "cuda" half: "cuda", or GPUOFDM_BLOCKS_GPU_DEVICE (e.g. "cpu", to dry
//! run the comparisons on a machine without a GPU: the twin against itself).
inline std::string gpu_device()
{
    const char* env = std::getenv("GPUOFDM_BLOCKS_GPU_DEVICE");
    return env && *env ? env : "cuda";
}

//! What device() reports for gpu_device().
inline std::string gpu_device_name() { return gpu_device() == "cpu" ? "cpu" : "cuda:0"; }

//! Skips the calling test, with the reason, where no GPU is usable.
#define GPUOFDM_BLOCKS_REQUIRE_GPU()                                           \
    do {                                                                       \
        const std::string why_ = ::gr::gpuofdm::gpu_unusable_reason(0);        \
        if (!why_.empty() && ::gr::gpuofdm::block_test::gpu_device() != "cpu") \
            GTEST_SKIP() << "no usable GPU: " << why_;                         \
    } while (0)

//! 60 s, or $GPUOFDM_TEST_TIMEOUT_S (the sanitizers slow a flowgraph many times).
inline int run_timeout_s()
{
    const char* env = std::getenv("GPUOFDM_TEST_TIMEOUT_S");
    const int s = env ? std::atoi(env) : 0;
    return s > 0 ? s : 60;
}

//! tb->run(max_noutput) that fails the test instead of hanging.
inline void run_bounded(const gr::top_block_sptr& tb, int max_noutput = 0)
{
    auto done = std::async(std::launch::async, [&] {
        if (max_noutput > 0)
            tb->run(max_noutput);
        else
            tb->run();
    });
    if (done.wait_for(std::chrono::seconds(run_timeout_s())) != std::future_status::ready) {
        tb->stop();
        done.wait();
        ADD_FAILURE() << "the flowgraph did not end within " << run_timeout_s() << " s";
    }
    done.get();
}

template <typename T>
struct flow_out {
    std::vector<T> data;
    std::vector<gr::tag_t> tags;
};

//! vector_source<TI> (vlen in_vlen, with tags) -> blk -> vector_sink<TO> (vlen out_vlen).
template <typename TI, typename TO>
flow_out<TO> run_block(const gr::basic_block_sptr& blk,
                       const std::vector<TI>& in,
                       const std::vector<gr::tag_t>& tags = {},
                       unsigned in_vlen = 1,
                       unsigned out_vlen = 1,
                       int max_noutput = 0)
{
    auto tb = gr::make_top_block("gpuofdm_block_test");
    auto src = gr::blocks::vector_source<TI>::make(in, false, in_vlen, tags);
    auto snk = gr::blocks::vector_sink<TO>::make(out_vlen);
    tb->connect(src, 0, blk, 0);
    tb->connect(blk, 0, snk, 0);
    run_bounded(tb, max_noutput);
    return { snk->data(), snk->tags() };
}

//! A source-less block (wifi_tx, wimax_tx) -> vector_sink_c: posts msgs on "pdus", then
//! "done" on its system port so the graph ends once everything is out.
inline flow_out<gr_complex> run_pdus(const gr::basic_block_sptr& blk,
                                     const std::vector<pmt::pmt_t>& msgs)
{
    auto tb = gr::make_top_block("gpuofdm_block_test");
    auto snk = gr::blocks::vector_sink<gr_complex>::make(1);
    tb->connect(blk, 0, snk, 0);
    for (const auto& m : msgs)
        blk->_post(pmt::mp("pdus"), m);
    blk->_post(pmt::mp("system"), pmt::cons(pmt::mp("done"), pmt::from_long(1)));
    run_bounded(tb);
    return { snk->data(), snk->tags() };
}

//! One PDU a receiver block (wifi_rx, wimax_rx) posted: its payload and metadata by key.
struct received_pdu {
    std::vector<uint8_t> payload;
    std::map<std::string, pmt::pmt_t> meta;
};

//! vector_source -> rx -> message_debug (its "pdus" port), run to the end of the stream.
inline std::vector<received_pdu> run_receiver(const gr::basic_block_sptr& rx,
                                              const std::vector<gr_complex>& x)
{
    auto tb = gr::make_top_block("gpuofdm_rx_block_test");
    auto src = gr::blocks::vector_source<gr_complex>::make(x, false);
    auto dbg = gr::blocks::message_debug::make();
    tb->connect(src, 0, rx, 0);
    tb->msg_connect(rx, "pdus", dbg, "store");
    run_bounded(tb);
    std::vector<received_pdu> out;
    for (size_t i = 0; i < dbg->num_messages(); i++) {
        const pmt::pmt_t m = dbg->get_message(i);
        received_pdu r;
        EXPECT_TRUE(pmt::is_pair(m));
        const pmt::pmt_t meta = pmt::car(m), data = pmt::cdr(m);
        EXPECT_TRUE(pmt::is_dict(meta));
        EXPECT_TRUE(pmt::is_u8vector(data));
        r.payload = pmt::u8vector_elements(data);
        const pmt::pmt_t items = pmt::dict_items(meta);
        for (size_t k = 0; k < pmt::length(items); k++) {
            const pmt::pmt_t kv = pmt::nth(k, items);
            r.meta[pmt::symbol_to_string(pmt::car(kv))] = pmt::cdr(kv);
        }
        out.push_back(std::move(r));
    }
    return out;
}

inline gr::tag_t make_tag(uint64_t offset, const std::string& key, const pmt::pmt_t& value)
{
    gr::tag_t t;
    t.offset = offset;
    t.key = pmt::mp(key);
    t.value = value;
    return t;
}

//! Tags as "offset key value" strings, sorted (srcid left out: it names the block).
inline std::vector<std::string> tag_strings(const std::vector<gr::tag_t>& tags,
                                            const std::string& only_key = "")
{
    std::vector<std::pair<uint64_t, std::string>> v;
    for (const auto& t : tags) {
        const std::string key = pmt::symbol_to_string(t.key);
        if (!only_key.empty() && key != only_key)
            continue;
        v.emplace_back(t.offset, key + " " + pmt::write_string(t.value));
    }
    std::stable_sort(v.begin(), v.end());
    std::vector<std::string> out;
    for (const auto& [o, s] : v)
        out.push_back(std::to_string(o) + " " + s);
    return out;
}

inline std::vector<uint8_t> random_bits(size_t n, uint32_t seed)
{
    std::mt19937 rng(seed);
    std::vector<uint8_t> v(n);
    for (auto& b : v)
        b = uint8_t(rng() & 1);
    return v;
}

inline std::vector<uint8_t> random_bytes(size_t n, uint32_t seed)
{
    std::mt19937 rng(seed);
    std::vector<uint8_t> v(n);
    for (auto& b : v)
        b = uint8_t(rng() & 0xFF);
    return v;
}

inline std::vector<float> random_floats(size_t n,
                                        uint32_t seed,
                                        float sigma = 1.0f,
                                        float mean = 0.0f)
{
    std::mt19937 rng(seed);
    std::normal_distribution<float> g(mean, sigma);
    std::vector<float> v(n);
    for (auto& x : v)
        x = g(rng);
    return v;
}

//! Adds complex AWGN of variance n0 and a carrier offset of cfo radians per sample.
inline void impair(std::vector<gr_complex>& x, float n0, double cfo, uint32_t seed)
{
    const auto g = random_floats(2 * x.size(), seed, std::sqrt(n0 / 2));
    for (size_t i = 0; i < x.size(); i++)
        x[i] = x[i] * gr_complex(std::polar(1.0, cfo * double(i))) +
               gr_complex(g[2 * i], g[2 * i + 1]);
}

//! Sets an environment variable for one scope (e.g. GPUOFDM_PIN_BUFFERS=0).
class scoped_env
{
public:
    scoped_env(const char* name, const char* value) : d_name(name)
    {
        const char* old = std::getenv(name);
        d_had = old != nullptr;
        if (d_had)
            d_old = old;
        setenv(name, value, 1);
    }
    ~scoped_env()
    {
        if (d_had)
            setenv(d_name.c_str(), d_old.c_str(), 1);
        else
            unsetenv(d_name.c_str());
    }
    scoped_env(const scoped_env&) = delete;
    scoped_env& operator=(const scoped_env&) = delete;

private:
    std::string d_name, d_old;
    bool d_had = false;
};

} // namespace gr::gpuofdm::block_test

#endif
