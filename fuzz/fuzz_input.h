/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_FUZZ_INPUT_H
#define GPUOFDM_FUZZ_INPUT_H

// Reads a fuzzer's bytes as the values a harness needs: integers, choices from a table,
// floats (any bit pattern: NaN, Inf, subnormals, huge) and the rest as samples.

#include <algorithm>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace gr::gpuofdm::fuzz {

class fuzz_input
{
public:
    fuzz_input(const uint8_t* data, size_t size) : d_data(data), d_size(size) {}

    size_t left() const { return d_size - d_pos; }

    //! The next sizeof(T) bytes as a T (zeros once the input is used up).
    template <typename T>
    T take()
    {
        T v{};
        const size_t n = std::min(sizeof(T), left());
        if (n)
            std::memcpy(&v, d_data + d_pos, n);
        d_pos += n;
        return v;
    }

    //! One of \p values, chosen by the next byte.
    template <typename T, size_t N>
    T choose(const T (&values)[N])
    {
        return values[take<uint8_t>() % N];
    }

    //! A value in [lo, hi].
    size_t range(size_t lo, size_t hi) { return lo + take<uint32_t>() % (hi - lo + 1); }

    //! The rest as complex float samples (any bit pattern).
    std::vector<std::complex<float>> samples()
    {
        std::vector<std::complex<float>> x(left() / sizeof(std::complex<float>));
        if (!x.empty())
            std::memcpy(x.data(), d_data + d_pos, x.size() * sizeof(x[0]));
        d_pos = d_size;
        return x;
    }

    //! The rest as bytes.
    std::vector<uint8_t> bytes()
    {
        std::vector<uint8_t> b(d_data + d_pos, d_data + d_size);
        d_pos = d_size;
        return b;
    }

private:
    const uint8_t* d_data;
    size_t d_size;
    size_t d_pos = 0;
};

//! Sample values a corrupted frame gets: the non-finite and the extreme floats.
inline float special_float(uint8_t which)
{
    static const float values[] = { std::numeric_limits<float>::quiet_NaN(),
                                    std::numeric_limits<float>::infinity(),
                                    -std::numeric_limits<float>::infinity(),
                                    std::numeric_limits<float>::max(),
                                    -std::numeric_limits<float>::max(),
                                    std::numeric_limits<float>::denorm_min(),
                                    0.0f,
                                    1e30f,
                                    -1e-30f };
    return values[which % (sizeof(values) / sizeof(values[0]))];
}

} // namespace gr::gpuofdm::fuzz

#endif
