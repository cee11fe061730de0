/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CPU twin of the interleaver: a gather or scatter through the permutation table.

#include "fec/interleaver.h"

#include <memory>

namespace gr::gpuofdm::core {

//! CPU twin of the interleaver.
class interleaver_cpu : public interleaver
{
public:
    explicit interleaver_cpu(const interleaver_params& p);
    device_spec device() const override { return {}; }
    void interleave(const uint8_t* in, uint8_t* out, size_t n_symbols) override;
    void deinterleave(const uint8_t* in, uint8_t* out, size_t n_symbols) override;
    void deinterleave(const float* in, float* out, size_t n_symbols) override;
};

namespace {

template <typename T>
void permute(const std::vector<uint32_t>& perm, const T* in, T* out, size_t n_symbols, bool inverse)
{
    const size_t n = perm.size();
    for (size_t s = 0; s < n_symbols; s++, in += n, out += n) {
        if (inverse)
            for (size_t k = 0; k < n; k++)
                out[k] = in[perm[k]];
        else
            for (size_t k = 0; k < n; k++)
                out[perm[k]] = in[k];
    }
}

} // namespace

interleaver_cpu::interleaver_cpu(const interleaver_params& p) : interleaver(p) {}

void interleaver_cpu::interleave(const uint8_t* in, uint8_t* out, size_t n_symbols)
{
    permute(d_perm, in, out, n_symbols, false);
}

void interleaver_cpu::deinterleave(const uint8_t* in, uint8_t* out, size_t n_symbols)
{
    permute(d_perm, in, out, n_symbols, true);
}

void interleaver_cpu::deinterleave(const float* in, float* out, size_t n_symbols)
{
    permute(d_perm, in, out, n_symbols, true);
}

std::unique_ptr<interleaver> make_interleaver_cpu(const interleaver_params& p)
{
    return std::make_unique<interleaver_cpu>(p);
}

} // namespace gr::gpuofdm::core
