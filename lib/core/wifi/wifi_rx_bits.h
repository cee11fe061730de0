/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_WIFI_RX_BITS_H
#define GPUOFDM_CORE_WIFI_RX_BITS_H

// Small 802.11a receive-side bit helpers, CPU only (a few bytes a frame): the FCS
// (CRC-32 of IEEE 802.3, 802.11-2020 9.2.4.8) and the scrambler seed recovered from the
// SERVICE field (17.3.5.2 / 17.3.5.5: the first 7 SERVICE bits are zero before
// scrambling, so on air they are the scrambler's own sequence).

#include <cstddef>
#include <cstdint>

namespace gr::gpuofdm::core {

/*!
 * \brief CRC-32 of IEEE 802.3 over \p n octets: generator 0x04C11DB7, bits taken LSB
 * first (reflected, 0xEDB88320), register preset to all ones, result complemented.
 * 802.11 sends it as the FCS, least significant octet first.
 */
uint32_t crc32_ieee(const uint8_t* data, size_t n);

/*!
 * \brief True when the last four of \p n octets are the FCS (crc32_ieee of the others,
 * least significant octet first). False when n < 4.
 */
bool wifi_fcs_ok(const uint8_t* psdu, size_t n);

/*!
 * \brief The initial state of the 802.11a scrambler (x^7 + x^4 + 1, 17.3.5.4) that
 * produced \p scrambled, the first 7 scrambled SERVICE bits, one per byte (bit 0 read),
 * first in time first.
 *
 * Those 7 bits are the scrambler's first 7 output bits. The register then holds them
 * (x7 .. x1 = first .. last), and stepping it back 7 times gives the initial state, as a
 * number whose bit i-1 is x_i (the seed 1011101 of Annex G reads 93). Returns 0 when all
 * 7 bits are 0 (no scrambler state emits that: the frame is not valid).
 */
unsigned wifi_scrambler_seed_from_service(const uint8_t* scrambled);

/*!
 * \brief The register right after the 7 bits above (for descrambling the rest of the
 * frame from SERVICE bit 7 on): those 7 bits, the first in x7. 0 when all are 0.
 */
unsigned wifi_scrambler_state_after_service(const uint8_t* scrambled);

} // namespace gr::gpuofdm::core

#endif
