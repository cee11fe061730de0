/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_INTERLEAVER_H
#define GPUOFDM_CORE_INTERLEAVER_H

#include "runtime/bit_stage.h"
#include "runtime/device.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace gr::gpuofdm::core {

//! Interleaver parameters.
struct interleaver_params {
    phy_standard standard = phy_standard::ieee80211a;
    int n_cbps =
        192; //!< coded bits per symbol (or per block): a multiple of 16 (802.11a) / 12 (802.16) and of n_bpsc
    int n_bpsc = 4;   //!< coded bits per subcarrier: 1, 2, 4 or 6
    size_t batch = 0; //!< symbols per CUDA launch; 0: about 2^20 values, else 1..2^24

    //! The ranges above; throws std::invalid_argument("name: range, got value").
    void validate() const;
};

/*!
 * \brief The two-permutation block interleaver of 802.11a (17.3.5.6, 16 columns) or
 * 802.16-2004 (8.3.3.3, 12 columns), as the table perm[k] = j: input bit k of a symbol
 * goes to output position j.
 *
 * i = (N/d)(k mod d) + floor(k/d); j = s floor(i/s) + (i + N - floor(d i / N)) mod s,
 * with d = 16 or 12, N = n_cbps and s = max(n_bpsc/2, 1) (802.16: ceil(N_cpc/2), equal
 * for 1, 2, 4, 6). Throws std::invalid_argument ("n_cbps: ..." / "n_bpsc: ...").
 */
std::vector<uint32_t> interleaver_permutation(phy_standard standard, int n_cbps, int n_bpsc);

/*!
 * \brief Block interleaver and deinterleaver over whole symbols of n_cbps values.
 *
 * The deinterleaver also takes float soft values (LLRs) for the receiver. in and out must
 * not overlap.
 */
class interleaver
{
public:
    virtual ~interleaver() = default;

    const interleaver_params& params() const { return d_params; }
    //! perm[k] = j: input k of a symbol goes to position j.
    const std::vector<uint32_t>& permutation() const { return d_perm; }
    size_t n_cbps() const { return d_perm.size(); }
    virtual device_spec device() const = 0;

    //! out[s N + perm[k]] = in[s N + k] for n_symbols symbols of N = n_cbps bits.
    virtual void interleave(const uint8_t* in, uint8_t* out, size_t n_symbols) = 0;
    //! out[s N + k] = in[s N + perm[k]]: the inverse, on bits.
    virtual void deinterleave(const uint8_t* in, uint8_t* out, size_t n_symbols) = 0;
    //! The inverse on soft values.
    virtual void deinterleave(const float* in, float* out, size_t n_symbols) = 0;

protected:
    explicit interleaver(const interleaver_params& p);

    interleaver_params d_params;
    std::vector<uint32_t> d_perm;
    size_t d_batch; //!< symbols per launch
};

//! The CPU twin or the CUDA backend (permutation table in device memory).
std::unique_ptr<interleaver> make_interleaver(const interleaver_params& p, const device_spec& dev);

//! The backends make_interleaver() picks (interleaver_cpu.cc, interleaver_cuda.cu); callers use make_interleaver().
std::unique_ptr<interleaver> make_interleaver_cpu(const interleaver_params& p);
#ifdef GPUOFDM_HAVE_CUDA
std::unique_ptr<interleaver> make_interleaver_cuda(const interleaver_params& p,
                                                   const device_spec& dev);
#endif

} // namespace gr::gpuofdm::core

#endif
