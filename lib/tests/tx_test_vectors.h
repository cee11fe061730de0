/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_TX_TEST_VECTORS_H
#define GPUOFDM_TX_TEST_VECTORS_H

// Readers for the standards' vectors used by the transmit bit stage tests
// (../shared/testvectors/ieee80211a-annex-g and ieee80216-ofdm), and bit helpers.

#include "test_util.h"

#include <complex>
#include <cstdint>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace gr::gpuofdm::test {

//! Reads hex octets, one a line, '#' lines skipped; false when the file cannot be opened.
inline bool read_octets(const std::string& path, std::vector<uint8_t>& out)
{
    std::ifstream f(path);
    if (!f)
        return false;
    out.clear();
    std::string line;
    while (std::getline(f, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        std::istringstream ss(line);
        std::string tok;
        while (ss >> tok)
            out.push_back(uint8_t(std::stoul(tok, nullptr, 16)));
    }
    return true;
}

//! Reads "re im" lines, '#' lines skipped; false when the file cannot be opened.
inline bool read_complex_lines(const std::string& path, std::vector<std::complex<float>>& out)
{
    std::ifstream f(path);
    if (!f)
        return false;
    out.clear();
    std::string line;
    while (std::getline(f, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        std::istringstream ss(line);
        float re, im;
        if (ss >> re >> im)
            out.emplace_back(re, im);
    }
    return true;
}

//! Bits of octets, each octet MSB first (how the tables print bit streams).
inline std::vector<uint8_t> bits_msb_first(const std::vector<uint8_t>& octets)
{
    std::vector<uint8_t> bits;
    for (uint8_t o : octets)
        for (int i = 7; i >= 0; i--)
            bits.push_back(uint8_t((o >> i) & 1));
    return bits;
}

//! Bits of octets, each octet LSB first (how a PSDU goes on air).
inline std::vector<uint8_t> bits_lsb_first(const std::vector<uint8_t>& octets)
{
    std::vector<uint8_t> bits;
    for (uint8_t o : octets)
        for (int i = 0; i < 8; i++)
            bits.push_back(uint8_t((o >> i) & 1));
    return bits;
}

//! Seeded random bits (0/1).
inline std::vector<uint8_t> random_bits(size_t n, uint32_t seed)
{
    std::mt19937 rng(seed);
    std::vector<uint8_t> v(n);
    for (auto& b : v)
        b = uint8_t(rng() & 1u);
    return v;
}

//! Number of positions where two bit vectors differ (or SIZE_MAX when sizes differ).
inline size_t bit_errors(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b)
{
    if (a.size() != b.size())
        return SIZE_MAX;
    size_t e = 0;
    for (size_t i = 0; i < a.size(); i++)
        e += a[i] != b[i];
    return e;
}

//! Passes when f() throws std::invalid_argument whose message starts with "<param>:".
template <typename F>
::testing::AssertionResult throws_invalid(F&& f, const std::string& param)
{
    try {
        f();
    } catch (const std::invalid_argument& e) {
        const std::string msg = e.what();
        if (msg.rfind(param + ":", 0) == 0)
            return ::testing::AssertionSuccess();
        return ::testing::AssertionFailure()
               << "message does not start with '" << param << ":': " << msg;
    } catch (const std::exception& e) {
        return ::testing::AssertionFailure() << "threw another exception: " << e.what();
    }
    return ::testing::AssertionFailure() << "did not throw (expected " << param << ")";
}

//! The vector file's path under testvector_dir().
inline std::string vector_path(const std::string& subdir, const std::string& file)
{
    return testvector_dir() + "/" + subdir + "/" + file;
}

} // namespace gr::gpuofdm::test

//! Declares var and fills it from an octet file, or skips the test saying which is absent.
#define GPUOFDM_LOAD_OCTETS(var, subdir, file)                                      \
    std::vector<uint8_t> var;                                                       \
    do {                                                                            \
        const std::string path_ = ::gr::gpuofdm::test::vector_path(subdir, file);   \
        if (!::gr::gpuofdm::test::read_octets(path_, var))                          \
            GTEST_SKIP() << "test vector absent: " << path_                         \
                         << " (set GPUOFDM_TESTVECTORS to the testvectors folder)"; \
    } while (0)

#endif
