/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Code tables, parameter checks and the factory of the convolutional encoder.

#include "fec/conv_encoder.h"

#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

namespace {

// Patterns as the standards print them, one character per phase ("1" = sent).
conv_code build(unsigned g_first,
                unsigned g_second,
                const char* keep_first,
                const char* keep_second)
{
    conv_code c{};
    c.g_first = g_first;
    c.g_second = g_second;
    c.period = unsigned(std::char_traits<char>::length(keep_first));
    c.prefix[0] = 0;
    for (unsigned p = 0; p < c.period; p++) {
        const unsigned f = keep_first[p] == '1';
        const unsigned s = keep_second[p] == '1';
        c.keep_first |= f << p;
        c.keep_second |= s << p;
        c.prefix[p + 1] = c.prefix[p] + f + s;
    }
    return c;
}

} // namespace

conv_code make_conv_code(phy_standard standard, code_rate rate)
{
    if (standard != phy_standard::ieee80211a && standard != phy_standard::ieee80216)
        throw std::invalid_argument("standard: must be 802.11a or 802.16");
    const unsigned g133 = 0133, g171 = 0171;
    if (standard == phy_standard::ieee80211a) {
        // 17.3.5.6 Figure 17-9: A = g0 = 133, B = g1 = 171; 5/6 from 802.11n 19.3.11.6.2.
        switch (rate) {
        case code_rate::r1_2:
            return build(g133, g171, "1", "1");
        case code_rate::r2_3:
            return build(g133, g171, "11", "10");
        case code_rate::r3_4:
            return build(g133, g171, "110", "101");
        case code_rate::r5_6:
            return build(g133, g171, "11010", "10101");
        }
    } else {
        // 802.16-2004 Table 215: X = 171, Y = 133, sent X before Y at each phase.
        switch (rate) {
        case code_rate::r1_2:
            return build(g171, g133, "1", "1");
        case code_rate::r2_3:
            return build(g171, g133, "10", "11");
        case code_rate::r3_4:
            return build(g171, g133, "101", "110");
        case code_rate::r5_6:
            return build(g171, g133, "10101", "11010");
        }
    }
    throw std::invalid_argument("rate: must be 1/2, 2/3, 3/4 or 5/6");
}

void conv_encoder_params::validate() const
{
    if (standard != phy_standard::ieee80211a && standard != phy_standard::ieee80216)
        throw std::invalid_argument("standard: must be 802.11a or 802.16, got " +
                                    std::to_string(int(standard)));
    if (rate != code_rate::r1_2 && rate != code_rate::r2_3 && rate != code_rate::r3_4 &&
        rate != code_rate::r5_6)
        throw std::invalid_argument("rate: must be 1/2, 2/3, 3/4 or 5/6, got " +
                                    std::to_string(int(rate)));
    if (batch > (size_t(1) << 31))
        throw std::invalid_argument("batch: must be 0 (default) or 1..2^31 bits, got " +
                                    std::to_string(batch));
}

conv_encoder::conv_encoder(const conv_encoder_params& p)
    : d_params(validated(p)), d_code(make_conv_code(p.standard, p.rate)),
      d_batch(p.batch ? p.batch : default_bit_batch)
{
}

void conv_encoder::check_state(const conv_encoder_state& state) const
{
    if (state.reg > 0x3fu)
        throw std::invalid_argument("state: reg holds six bits (0..63)");
    if (state.phase >= d_code.period)
        throw std::invalid_argument("state: phase must be 0.." + std::to_string(d_code.period - 1) +
                                    " at rate " + to_string(d_params.rate));
}

std::unique_ptr<conv_encoder> make_conv_encoder(const conv_encoder_params& p,
                                                const device_spec& dev)
{
    p.validate();
    if (!dev.is_cuda())
        return make_conv_encoder_cpu(p);
#ifdef GPUOFDM_HAVE_CUDA
    return make_conv_encoder_cuda(p, dev);
#else
    throw std::runtime_error("gr-gpuofdm was built without CUDA (GPUOFDM_CUDA=OFF)");
#endif
}

} // namespace gr::gpuofdm::core
