/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The transmitter blocks' "pdus" handlers (wifi_tx, wimax_tx on the CPU twin) on any PMT
// the input describes: every PMT type, nested pairs, dicts, tuples and vectors of any
// length, metadata keys rate / rate_id / seed holding values of any type. A bad message
// is dropped and counted, never a crash; a PDU of a u8vector of 1..max octets with good
// metadata is queued.

#include "fuzz_input.h"
#include <gnuradio/basic_block.h>
#include <gnuradio/logger.h>
#include <gnuradio/gpuofdm/wifi_tx.h>
#include <gnuradio/gpuofdm/wimax_tx.h>
#include <pmt/pmt.h>

#include <complex>
#include <cstdlib>

using gr::gpuofdm::fuzz::fuzz_input;

namespace {

//! Calls a block's message handler as the scheduler does (dispatch_msg is protected).
struct dispatcher : gr::basic_block {
    static void dispatch(gr::basic_block& b, const pmt::pmt_t& port, const pmt::pmt_t& msg)
    {
        auto call = &dispatcher::dispatch_msg;
        (b.*call)(port, msg);
    }
};

pmt::pmt_t make_pmt(fuzz_input& in, int depth)
{
    static const char* keys[] = { "rate", "rate_id", "seed", "len", "" };
    const uint8_t type = in.take<uint8_t>();
    const size_t len = in.take<uint8_t>() % 8 == 0 ? in.range(0, 5000) : in.range(0, 40);
    switch (depth > 3 ? type % 9 : type % 14) {
    case 0:
        return pmt::PMT_NIL;
    case 1:
        return pmt::from_long(in.take<int64_t>());
    case 2:
        return pmt::from_double(in.take<double>());
    case 3:
        return pmt::from_uint64(in.take<uint64_t>());
    case 4:
        return pmt::from_bool(in.take<uint8_t>() & 1);
    case 5:
        return pmt::mp(keys[in.take<uint8_t>() % 5]);
    case 6:
        return pmt::from_complex(std::complex<double>(in.take<double>(), in.take<double>()));
    case 7: {
        std::vector<uint8_t> v(len);
        for (auto& b : v)
            b = in.take<uint8_t>();
        return pmt::init_u8vector(v.size(), v);
    }
    case 8:
        return pmt::make_f32vector(len, in.take<float>());
    case 9:
    case 10: {
        pmt::pmt_t meta = pmt::make_dict();
        const size_t n = in.range(0, 4);
        for (size_t i = 0; i < n; i++)
            meta =
                pmt::dict_add(meta, pmt::mp(keys[in.take<uint8_t>() % 5]), make_pmt(in, depth + 1));
        return meta;
    }
    case 11:
        return pmt::cons(make_pmt(in, depth + 1), make_pmt(in, depth + 1));
    case 12:
        return pmt::make_tuple(make_pmt(in, depth + 1), make_pmt(in, depth + 1));
    default: {
        pmt::pmt_t v = pmt::make_vector(in.range(0, 3), pmt::PMT_NIL);
        for (size_t i = 0; i < pmt::length(v); i++)
            pmt::vector_set(v, i, make_pmt(in, depth + 1));
        return v;
    }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static bool quiet = [] {
        gr::logging::singleton().set_default_level(gr::log_level::off);
        return true;
    }();
    (void)quiet;
    // New blocks now and then: their queues hold at most 8192 bursts.
    static size_t runs = 0;
    static gr::gpuofdm::wifi_tx::sptr wifi;
    static gr::gpuofdm::wimax_tx::sptr wimax;
    if (runs++ % 2000 == 0) {
        wifi = gr::gpuofdm::wifi_tx::make(54, 93, 400, 1.0f, 64, "cpu");
        wimax = gr::gpuofdm::wimax_tx::make(1, 4, "long", false, true, 19072, 400, 1.0f, 64, "cpu");
    }
    fuzz_input in(data, size);
    const uint8_t mode = in.take<uint8_t>();
    pmt::pmt_t msg = make_pmt(in, 0);
    if (mode & 1) // a pair of a dict and a u8vector, the shape of a PDU, more often
        msg = pmt::cons(pmt::is_dict(msg) ? msg : pmt::make_dict(), make_pmt(in, 1));
    gr::basic_block& b =
        (mode & 2) ? static_cast<gr::basic_block&>(*wimax) : static_cast<gr::basic_block&>(*wifi);
    const uint64_t dropped = (mode & 2) ? wimax->pdus_dropped() : wifi->pdus_dropped();
    dispatcher::dispatch(b, pmt::mp("pdus"), msg);
    const uint64_t after = (mode & 2) ? wimax->pdus_dropped() : wifi->pdus_dropped();
    // A message that is no pair of a dict and a non-empty u8vector is always dropped.
    const bool pdu_shape = pmt::is_pair(msg) && pmt::is_dict(pmt::car(msg)) &&
                           pmt::is_u8vector(pmt::cdr(msg)) && pmt::length(pmt::cdr(msg)) > 0;
    if (!pdu_shape && after != dropped + 1)
        std::abort();
    return 0;
}
