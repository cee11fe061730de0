/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The interleaver's permutation (shared by both backends), parameter checks and factory.

#include "fec/interleaver.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

void interleaver_params::validate() const
{
    if (standard != phy_standard::ieee80211a && standard != phy_standard::ieee80216)
        throw std::invalid_argument("standard: must be 802.11a or 802.16, got " +
                                    std::to_string(int(standard)));
    if (n_bpsc != 1 && n_bpsc != 2 && n_bpsc != 4 && n_bpsc != 6)
        throw std::invalid_argument("n_bpsc: must be 1, 2, 4 or 6, got " + std::to_string(n_bpsc));
    const int d = standard == phy_standard::ieee80211a ? 16 : 12;
    const int max_cbps = 1 << 20;
    if (n_cbps <= 0 || n_cbps > max_cbps || n_cbps % d != 0 || n_cbps % n_bpsc != 0)
        throw std::invalid_argument("n_cbps: must be a multiple of " + std::to_string(d) + " (" +
                                    to_string(standard) +
                                    " columns) and of n_bpsc = " + std::to_string(n_bpsc) +
                                    ", at most 2^20; got " + std::to_string(n_cbps));
    // The second permutation rotates within groups of s = max(n_bpsc / 2, 1) bits of a
    // column; it is one only when the n_cbps / d rows hold whole groups.
    const int s = n_bpsc / 2 > 1 ? n_bpsc / 2 : 1;
    if ((n_cbps / d) % s != 0)
        throw std::invalid_argument("n_cbps: n_cbps / " + std::to_string(d) +
                                    " must be a multiple of " + std::to_string(s) +
                                    " with n_bpsc = " + std::to_string(n_bpsc) + ", got " +
                                    std::to_string(n_cbps));
    if (batch > (size_t(1) << 24))
        throw std::invalid_argument("batch: must be 0 (default) or 1..2^24 symbols, got " +
                                    std::to_string(batch));
}

std::vector<uint32_t> interleaver_permutation(phy_standard standard, int n_cbps, int n_bpsc)
{
    interleaver_params{ standard, n_cbps, n_bpsc, 0 }.validate();
    const int d = standard == phy_standard::ieee80211a ? 16 : 12;
    const uint64_t n = uint64_t(n_cbps);
    const uint64_t s = n_bpsc / 2 > 1 ? uint64_t(n_bpsc / 2) : 1;
    std::vector<uint32_t> perm(n);
    std::vector<uint8_t> hit(n, 0);
    for (uint64_t k = 0; k < n; k++) {
        const uint64_t i = (n / d) * (k % d) + k / d;
        const uint64_t j = s * (i / s) + (i + n - (d * i) / n) % s;
        if (j >= n || hit[j]++)
            throw std::invalid_argument(
                "n_cbps: " + std::to_string(n_cbps) +
                " gives no permutation with n_bpsc = " + std::to_string(n_bpsc));
        perm[k] = uint32_t(j);
    }
    return perm;
}

interleaver::interleaver(const interleaver_params& p)
    : d_params(validated(p)), d_perm(interleaver_permutation(p.standard, p.n_cbps, p.n_bpsc))
{
    // About 1 Mi values per launch: staging buffers of 4 MiB even for float soft values.
    d_batch = p.batch ? p.batch : std::max<size_t>(1, (default_bit_batch / 4) / d_perm.size());
}

std::unique_ptr<interleaver> make_interleaver(const interleaver_params& p, const device_spec& dev)
{
    p.validate();
    if (!dev.is_cuda())
        return make_interleaver_cpu(p);
#ifdef GPUOFDM_HAVE_CUDA
    return make_interleaver_cuda(p, dev);
#else
    throw std::runtime_error("gr-gpuofdm was built without CUDA (GPUOFDM_CUDA=OFF)");
#endif
}

} // namespace gr::gpuofdm::core
