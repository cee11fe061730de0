/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_SYNC_SEQUENCES_H
#define GPUOFDM_CORE_SYNC_SEQUENCES_H

// The synchronization sequences the cell searcher looks for, in the frequency domain, one
// value per subcarrier of the signal, lowest subcarrier first:
//   5G NR   PSS/SSS  38.211 7.4.2.2 / 7.4.2.3   (127 BPSK values; 1008 cell IDs)
//   LTE     PSS/SSS  36.211 6.11.1 / 6.11.2     (62 values; 504 cell IDs)
//   5GTF    PSS/SSS/ESS  Verizon V5G.211 6.8    (LTE's PSS and SSS, subframes 0 and 25 in
//                                                place of 0 and 5; the ESS: a cyclically
//                                                shifted ZC-63 that tells the OFDM symbol)
// Cell ID = 3 * N_ID^(1) + N_ID^(2) in all three.
//
// V5G.211 leaves two points open, which are parameters here: which subframe index "i"
// scrambles the ESS (fivegtf_ess_index) and which symbols carry the long cyclic prefix
// (fivegtf_long_cp). Both readings of each are supported.

#include <array>
#include <complex>
#include <cstdint>
#include <vector>

namespace gr::gpuofdm::core {

//! Lengths of the sequences.
constexpr int nr_sync_length = 127;    //!< NR PSS and SSS
constexpr int lte_sync_length = 62;    //!< LTE (and 5GTF) PSS and SSS
constexpr int fivegtf_ess_length = 63; //!< 5GTF ESS

constexpr int nr_nid1_count = 336;  //!< N_ID^(1) 0..335 in NR
constexpr int lte_nid1_count = 168; //!< N_ID^(1) 0..167 in LTE and 5GTF
constexpr int nid2_count = 3;       //!< N_ID^(2) 0..2 everywhere
constexpr int fivegtf_symbols = 14; //!< OFDM symbols of a 5GTF sync subframe (one beam each)

//! NR PSS d_PSS(n), n = 0..126 (38.211 7.4.2.2). \p nid2 in 0..2.
std::array<float, nr_sync_length> nr_pss(int nid2);

//! NR SSS d_SSS(n), n = 0..126 (38.211 7.4.2.3). \p nid1 in 0..335, \p nid2 in 0..2.
std::array<float, nr_sync_length> nr_sss(int nid1, int nid2);

//! The LTE PSS's Zadoff-Chu root u for \p nid2 0..2: 25, 29, 34.
int lte_pss_root(int nid2);

//! LTE PSS d_u(n), n = 0..61: the ZC-63 of root 25, 29 or 34 without its centre element.
std::array<std::complex<float>, lte_sync_length> lte_pss(int nid2);

//! Which half of the frame an LTE-style SSS is sent in: subframe 0, or subframe 5 (LTE)
//! / 25 (5GTF), where the two interleaved m-sequences swap.
enum class sss_half { first, second };

//! The (m0, m1) pair of an LTE-style SSS (36.211 Table 6.11.2.1-1). \p nid1 in 0..167.
std::array<int, 2> lte_sss_m0_m1(int nid1);

//! LTE (and 5GTF) SSS d(n), n = 0..61 (36.211 6.11.2.1): +-1 values.
std::array<float, lte_sync_length> lte_sss(int nid1, int nid2, sss_half half);

/*!
 * \brief Every SSS hypothesis of one N_ID^(2) correlated with one received SSS at once.
 *
 * sums[h] = sum over n of z(n) d_h(n), for every hypothesis h: NR N_ID^(1) 0..335; LTE and
 * 5GTF 2 N_ID^(1) + half (half 1: subframe 5 / 25). The SSS is made of m-sequences, and the
 * shifts of an m-sequence are the Walsh functions of its shift register's states, so every
 * shift's correlation comes from one fast Walsh-Hadamard transform: NR 3 transforms of 128
 * points in place of 336 sums of 127 terms, LTE 9 of 32 in place of 336 sums of 62.
 */
class sss_correlator
{
public:
    //! For the NR SSS (\p nr) or the LTE / 5GTF one, of \p nid2 0..2.
    sss_correlator(bool nr, int nid2);

    size_t hypotheses() const { return d_nr ? nr_nid1_count : 2 * lte_nid1_count; }
    size_t length() const { return d_nr ? nr_sync_length : lte_sync_length; }

    //! \p z: length() values; \p sums: hypotheses() values.
    void correlate(const std::complex<double>* z, std::complex<double>* sums) const;

    //! An m-sequence's register states and the Walsh function of each shift.
    struct walsh_map {
        std::vector<int> state; //!< [n]: x(n) + 2 x(n+1) + ... + 2^(order-1) x(n+order-1)
        std::vector<int> shift; //!< [m]: u with x(n+m) = parity(u & state[n]) for every n
    };

private:
    bool d_nr;
    int d_nid2;
    walsh_map d_walsh;                   //!< NR: x1; LTE: s~
    std::vector<float> d_outer;          //!< NR: 1 - 2 x0(n) ; LTE: c0(n) then c1(n)
    std::vector<float> d_z_shift;        //!< LTE: z~(n), n = 0..30
    std::vector<std::array<int, 2>> d_m; //!< LTE: (m0, m1) of each N_ID^(1)
};

//! 5GTF PSS and SSS are LTE's (V5G.211 6.8.1, 6.8.2).
inline std::array<std::complex<float>, lte_sync_length> fivegtf_pss(int nid2)
{
    return lte_pss(nid2);
}
inline std::array<float, lte_sync_length> fivegtf_sss(int nid1, int nid2, sss_half half)
{
    return lte_sss(nid1, nid2, half);
}

//! The subframe index "i" in the ESS scrambling's c_init: V5G.211 calls it the subframe;
//! read either as the subframe number (0 or 25) or as the sync subframe's order (0 or 1).
enum class fivegtf_ess_index { subframe_number, sync_subframe_order };

//! The cyclic shift of the ESS in OFDM symbol \p symbol (0..13), V5G.211 Table 6.8.3.1-1.
int fivegtf_ess_shift(int symbol);

/*!
 * \brief 5GTF ESS d^l(n), n = 0..62 (V5G.211 6.8.3.1): r_i(n) * d((n + shift_l) mod 63),
 * with d the ZC-63 of root 25 and r_i the QPSK Gold sequence of c_init =
 * 2^10 (i + 1)(2 cell_id + 1) + 2 cell_id + 1.
 *
 * \p cell_id 0..503, \p symbol 0..13, \p half the sync subframe (first: 0, second: 25).
 */
std::array<std::complex<float>, fivegtf_ess_length> fivegtf_ess(int cell_id,
                                                                int symbol,
                                                                sss_half half,
                                                                fivegtf_ess_index reading);

//! fivegtf_ess() of every symbol 0..13, the scrambling computed once.
std::array<std::array<std::complex<float>, fivegtf_ess_length>, fivegtf_symbols>
fivegtf_ess_symbols(int cell_id, sss_half half, fivegtf_ess_index reading);

//! Which 5GTF symbols carry the long CP (160 samples at 153.6 Msps, 144 for the others):
//! the thesis's "0 and 8", or 0 and 7 as in LTE's two slots of seven symbols.
enum class fivegtf_long_cp { symbols_0_and_8, symbols_0_and_7 };

//! The CP length in samples at 153.6 Msps of 5GTF symbol \p symbol (0..13).
int fivegtf_cp_length(int symbol, fivegtf_long_cp layout);

//! The Gold sequence c(n), n = 0..length-1, of 36.211 7.2 (Nc = 1600) for \p c_init.
std::vector<uint8_t> gold_sequence(uint32_t c_init, size_t length);

} // namespace gr::gpuofdm::core

#endif // GPUOFDM_CORE_SYNC_SEQUENCES_H
