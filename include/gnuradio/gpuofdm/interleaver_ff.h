/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_INTERLEAVER_FF_H
#define INCLUDED_GPUOFDM_INTERLEAVER_FF_H

#include <gnuradio/sync_block.h>
#include <gnuradio/gpuofdm/api.h>

#include <string>
#include <vector>

namespace gr {
namespace gpuofdm {

/*!
 * \brief Deinterleaver of soft values (float LLRs) for the 802.11a or 802.16
 * receiver: the inverse of interleaver_bb, on the GPU or on the CPU twin.
 * \ingroup gpuofdm
 *
 * \details
 * Input and output: floats (soft values, positive means bit 0), a stream whose length
 * is a multiple of \p n_cbps; within each symbol out[k] = in[perm[k]], with perm the
 * permutation of interleaver_bb. Values are moved, never changed. Tags keep their item
 * offset.
 *
 * On the GPU the block permutes up to \p batch symbols per launch; give the block
 * upstream a min_output_buffer of batch * n_cbps items for full launches.
 */
class GPUOFDM_API interleaver_ff : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<interleaver_ff> sptr;

    /*!
     * \param standard "802.11a" or "802.16".
     * \param n_cbps coded bits per symbol, as for interleaver_bb.
     * \param n_bpsc coded bits per subcarrier: 1, 2, 4 or 6.
     * \param deinterleave must be true: soft values are only deinterleaved (the core has
     *        no float interleaver; false is a ValueError naming this parameter).
     * \param batch symbols per GPU launch, 0..2^24; 0 picks max(1, 2^20 / n_cbps).
     * \param device "auto", "cpu", "cuda" or "cuda:N".
     * \throws std::invalid_argument (Python ValueError) naming a bad parameter;
     *         std::runtime_error when "cuda" is asked for and no GPU is usable.
     */
    static sptr make(const std::string& standard = "802.11a",
                     int n_cbps = 192,
                     int n_bpsc = 4,
                     bool deinterleave = true,
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

#endif /* INCLUDED_GPUOFDM_INTERLEAVER_FF_H */
