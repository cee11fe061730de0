/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The 802.16 Reed-Solomon decoder's CPU twin on arbitrary received bytes of every profile
// of Table 215: no crash, a status of 0..T or uncorrectable, the count of uncorrectable
// codewords returned; and on a codeword the encoder made, with at most T bytes changed at
// the input's positions, the data back and the changes counted.

#include "fec/reed_solomon.h"
#include "fuzz_input.h"

#include <cstdlib>
#include <set>

using namespace gr::gpuofdm::core;
using gr::gpuofdm::fuzz::fuzz_input;

namespace {

void expect(bool ok)
{
    if (!ok)
        std::abort();
}

const rs_profile profiles[] = { { 12, 12, 0 }, { 32, 24, 4 },  { 40, 36, 2 },   { 64, 48, 8 },
                                { 80, 72, 4 }, { 108, 96, 6 }, { 120, 108, 6 }, { 255, 239, 8 } };
constexpr size_t n_profiles = sizeof(profiles) / sizeof(profiles[0]);

reed_solomon& codec(size_t which)
{
    static std::unique_ptr<reed_solomon> rs[n_profiles];
    if (!rs[which])
        rs[which] = make_reed_solomon(profiles[which], resolve_device("cpu"));
    return *rs[which];
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    fuzz_input in(data, size);
    const uint8_t mode = in.take<uint8_t>();
    const rs_profile& p = profiles[(mode >> 1) % n_profiles];
    reed_solomon& rs = codec((mode >> 1) % n_profiles);
    if (mode & 1) {
        // Any received bytes, as many whole codewords as the input holds.
        const std::vector<uint8_t> rx = in.bytes();
        const size_t n = rx.size() / p.n;
        std::vector<uint8_t> out(n * p.k);
        std::vector<int32_t> status(n);
        const size_t bad = rs.decode(rx.data(), out.data(), status.data(), n);
        size_t counted = 0;
        for (int32_t s : status) {
            expect(s == reed_solomon::uncorrectable || (s >= 0 && unsigned(s) <= p.t));
            counted += s == reed_solomon::uncorrectable;
        }
        expect(counted == bad);
        return 0;
    }
    // A codeword of the input's data with up to T bytes changed: always corrected.
    std::vector<uint8_t> msg(p.k);
    for (auto& b : msg)
        b = in.take<uint8_t>();
    std::vector<uint8_t> cw(p.n);
    rs.encode(msg.data(), cw.data(), 1);
    std::set<size_t> changed;
    const size_t n_err = in.range(0, p.t);
    for (size_t i = 0; i < n_err; i++) {
        const size_t at = in.take<uint8_t>() % p.n;
        const uint8_t flip = in.take<uint8_t>() | 1;
        if (changed.insert(at).second)
            cw[at] ^= flip;
    }
    std::vector<uint8_t> out(p.k);
    int32_t status = 0;
    expect(rs.decode(cw.data(), out.data(), &status, 1) == 0);
    expect(out == msg && size_t(status) == changed.size());
    return 0;
}
