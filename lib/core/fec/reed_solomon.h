/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_REED_SOLOMON_H
#define GPUOFDM_CORE_REED_SOLOMON_H

#include "runtime/device.h"
#include "fec/reed_solomon_common.h"

#include <cstddef>
#include <cstdint>
#include <memory>

namespace gr::gpuofdm::core {

/*!
 * \brief An 802.16 RS profile (N, K, T): N coded bytes, K data bytes, T correctable byte
 * errors. IEEE 802.16-2004 8.3.3.2, Table 215: (12,12,0) (no RS, BPSK 1/2), (32,24,4),
 * (40,36,2), (64,48,8), (80,72,4), (108,96,6), (120,108,6), and the mother code (255,239,8).
 */
struct rs_profile {
    unsigned n = 255;
    unsigned k = 239;
    unsigned t = 8;

    //! Throws std::invalid_argument("profile: ...") for any other (N, K, T).
    void validate() const;
};

/*!
 * \brief The 802.16 Reed-Solomon encoder and decoder over batches of codewords, on the CPU
 * twin or a CUDA device (one codeword per thread), bit-exact between the two.
 *
 * Codeword layout (8.3.3.5.1): the first 2T parity bytes, then the K data bytes. With
 * T = 0 both directions copy the data.
 */
class reed_solomon
{
public:
    //! Status of a codeword the decoder could not correct.
    static constexpr int32_t uncorrectable = -1;

    virtual ~reed_solomon() = default;
    const rs_profile& profile() const { return d_profile; }
    virtual device_spec device() const = 0;

    //! in: n_codewords * K data bytes; out: n_codewords * N codeword bytes.
    virtual void encode(const uint8_t* in, uint8_t* out, size_t n_codewords) = 0;
    /*!
     * \brief in: n_codewords * N received bytes; out: n_codewords * K data bytes;
     * status[i]: byte errors corrected in codeword i (0..T), or uncorrectable (its data
     * bytes then pass unchanged). Returns the number of uncorrectable codewords.
     */
    virtual size_t decode(const uint8_t* in, uint8_t* out, int32_t* status, size_t n_codewords) = 0;

protected:
    explicit reed_solomon(const rs_profile& p);

    rs_profile d_profile;
    rs_code d_code; //!< the profile and its generator, as the kernels take it
};

//! What make_reed_solomon() builds: the profile and the codewords a launch takes.
struct reed_solomon_params {
    rs_profile profile;
    //! Codewords per launch (device buffers are sized for it): 0 picks 16384; at most 2^24.
    size_t batch = 0;

    //! profile.validate() and the batch's range; throws std::invalid_argument.
    void validate() const;
    //! The batch, 0 resolved.
    size_t codewords_per_launch() const { return batch ? batch : size_t(16384); }
};

/*!
 * \brief The codec on the CPU twin or a CUDA device. Throws std::invalid_argument for a
 * bad parameter (reed_solomon_params::validate(), before any backend is built).
 */
std::unique_ptr<reed_solomon> make_reed_solomon(const reed_solomon_params& p,
                                                const device_spec& dev);
//! The same for profile \p p and \p batch codewords per launch.
inline std::unique_ptr<reed_solomon> make_reed_solomon(const rs_profile& p,
                                                       const device_spec& dev,
                                                       size_t batch = 0)
{
    return make_reed_solomon(reed_solomon_params{ p, batch }, dev);
}

//! The backends make_reed_solomon() picks (reed_solomon_cpu.cc, reed_solomon_cuda.cu);
//! callers use make_reed_solomon().
std::unique_ptr<reed_solomon> make_reed_solomon_cpu(const rs_profile& p);
#ifdef GPUOFDM_HAVE_CUDA
std::unique_ptr<reed_solomon> make_reed_solomon_cuda(const rs_profile& p,
                                                     const device_spec& dev,
                                                     size_t batch);
#endif

} // namespace gr::gpuofdm::core

#endif
