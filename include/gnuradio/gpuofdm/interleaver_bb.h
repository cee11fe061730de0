/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_INTERLEAVER_BB_H
#define INCLUDED_GPUOFDM_INTERLEAVER_BB_H

#include <gnuradio/sync_block.h>
#include <gnuradio/gpuofdm/api.h>

#include <string>
#include <vector>

namespace gr {
namespace gpuofdm {

/*!
 * \brief Block interleaver / deinterleaver of 802.11a (17.3.5.6, 16 columns) or 802.16
 * (8.3.3.3, 12 columns) on hard bits, on the GPU or on the CPU twin.
 * \ingroup gpuofdm
 *
 * \details
 * Input and output: bits, one per byte, a stream whose length is a multiple of
 * \p n_cbps (the block works on whole OFDM symbols; a partial symbol at the end of a
 * stream is dropped). Within each symbol of N = n_cbps bits, input bit k goes to output
 * position j = perm[k]:
 * \f[ i = \frac{N}{d} (k \bmod d) + \lfloor k/d \rfloor, \quad
 *     j = s \lfloor i/s \rfloor + (i + N - \lfloor d\,i/N \rfloor) \bmod s, \f]
 * d = 16 (802.11a) or 12 (802.16), s = max(n_bpsc / 2, 1). With \p deinterleave the
 * block applies the inverse, out[k] = in[perm[k]].
 *
 * Bytes are moved within a symbol, never changed. Tags keep their item offset (they
 * are not permuted with the bits). interleaver_ff deinterleaves soft values.
 *
 * On the GPU the block permutes up to \p batch symbols per launch; give the block
 * upstream a min_output_buffer of batch * n_cbps items for full launches.
 */
class GPUOFDM_API interleaver_bb : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<interleaver_bb> sptr;

    /*!
     * \param standard "802.11a" or "802.16".
     * \param n_cbps coded bits per OFDM symbol (802.16: per interleaver block):
     *        a multiple of 16 (802.11a) or 12 (802.16) and of n_bpsc, at most 2^20,
     *        n_cbps / 16 (or / 12) a multiple of max(n_bpsc / 2, 1)
     *        (802.11a: 48, 96, 192, 288; 802.16 OFDM-256: 192, 384, 768, 1152).
     * \param n_bpsc coded bits per subcarrier: 1, 2, 4 or 6.
     * \param deinterleave false: interleave (transmitter); true: the inverse.
     * \param batch symbols per GPU launch, 0..2^24; 0 picks max(1, 2^20 / n_cbps).
     * \param device "auto", "cpu", "cuda" or "cuda:N".
     * \throws std::invalid_argument (Python ValueError) naming a bad parameter;
     *         std::runtime_error when "cuda" is asked for and no GPU is usable.
     */
    static sptr make(const std::string& standard = "802.11a",
                     int n_cbps = 192,
                     int n_bpsc = 4,
                     bool deinterleave = false,
                     int batch = 0,
                     const std::string& device = "auto");

    //! The device the block runs on: "cpu" or "cuda:N".
    virtual std::string device() const = 0;
    //! Symbols per GPU launch.
    virtual int batch() const = 0;
    //! perm[k] = j: input bit k of a symbol goes to position j (when interleaving).
    virtual std::vector<int> permutation() const = 0;
};

} // namespace gpuofdm
} // namespace gr

#endif /* INCLUDED_GPUOFDM_INTERLEAVER_BB_H */
