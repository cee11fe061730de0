/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_CONV_ENCODER_H
#define GPUOFDM_CORE_CONV_ENCODER_H

#include "fec/conv_code.h"
#include "runtime/device.h"

#include <cstdint>
#include <memory>

namespace gr::gpuofdm::core {

//! Convolutional encoder parameters.
struct conv_encoder_params {
    phy_standard standard = phy_standard::ieee80211a;
    code_rate rate = code_rate::r1_2;
    size_t batch = 0; //!< input bits per CUDA launch; 0: default_bit_batch, else 1..2^31

    //! The ranges above; throws std::invalid_argument("name: range, got value").
    void validate() const;
};

/*!
 * \brief What crosses calls: the last six input bits and the phase in the puncturing
 * period. A frame starts from the zero state {} (both standards start the encoder at 0).
 */
struct conv_encoder_state {
    uint32_t reg = 0;   //!< previous six inputs, newest in bit 5
    uint32_t phase = 0; //!< 0 .. code().period - 1
};

/*!
 * \brief K = 7 convolutional encoder with puncturing: 802.11a 17.3.5.5 (g0 = 133,
 * g1 = 171 octal, output A then B) or 802.16-2004 8.3.3.2.1 (X = 171, Y = 133).
 *
 * Tail bits are the caller's: 802.11a appends six zeros after scrambling (17.3.5.2),
 * 802.16 a 0x00 tail byte per burst (8.3.3.2.1), both before this stage.
 */
class conv_encoder
{
public:
    virtual ~conv_encoder() = default;

    const conv_encoder_params& params() const { return d_params; }
    const conv_code& code() const { return d_code; }
    virtual device_spec device() const = 0;

    //! Output bits that n_in input bits produce from \p state.
    size_t output_len(size_t n_in, const conv_encoder_state& state) const
    {
        return size_t(d_code.output_offset(state.phase, n_in));
    }

    /*!
     * Encodes n_in bits (one per byte, bit 0 read) into output_len(n_in, state) bits
     * (0/1), which it returns, and advances \p state. in and out must not overlap.
     */
    virtual size_t process(const uint8_t* in,
                           uint8_t* out,
                           size_t n_in,
                           conv_encoder_state& state) = 0;

protected:
    explicit conv_encoder(const conv_encoder_params& p);
    //! Throws std::invalid_argument for a state this code cannot be in.
    void check_state(const conv_encoder_state& state) const;

    conv_encoder_params d_params;
    conv_code d_code;
    size_t d_batch;
};

//! The CPU twin (serial shift register) or the CUDA backend (one thread per input bit).
std::unique_ptr<conv_encoder> make_conv_encoder(const conv_encoder_params& p,
                                                const device_spec& dev);

//! The backends make_conv_encoder() picks (conv_encoder_cpu.cc, conv_encoder_cuda.cu); callers use make_conv_encoder().
std::unique_ptr<conv_encoder> make_conv_encoder_cpu(const conv_encoder_params& p);
#ifdef GPUOFDM_HAVE_CUDA
std::unique_ptr<conv_encoder> make_conv_encoder_cuda(const conv_encoder_params& p,
                                                     const device_spec& dev);
#endif

} // namespace gr::gpuofdm::core

#endif
