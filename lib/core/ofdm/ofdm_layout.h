/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_OFDM_LAYOUT_H
#define GPUOFDM_CORE_OFDM_LAYOUT_H

#include <complex>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gr::gpuofdm::core {

using cfloat = std::complex<float>;

//! Parameters shared by the OFDM FFT and IFFT stages, as the user gives them.
struct ofdm_params {
    int fft_len = 64;                  //!< FFT size, 1 .. 2^20
    std::vector<int> cp_lengths{ 16 }; //!< CP of each symbol, used round robin; 0 .. fft_len each
    bool shift = true;                 //!< DC in the middle of the bin vector (fft_vcc's shift)
    float scale = 1.0f;                //!< multiplies every output sample (finite, nonzero)
    int batch = 0;                     //!< symbols per launch; 0 picks a default for fft_len

    //! The ranges above; throws std::invalid_argument("name: range, got value").
    void validate() const;
};

/*!
 * \brief The validated sample layout of a stream of OFDM symbols.
 *
 * Symbol k (counted from the start of the stream) has cp_lengths[k % P] samples of cyclic
 * prefix before its fft_len samples. Offsets are 64-bit so a stream can run for days.
 */
class ofdm_layout
{
public:
    //! Checks every parameter; throws std::invalid_argument naming the bad one.
    explicit ofdm_layout(const ofdm_params& p);

    //! Default symbols per launch: about 2^18 samples of FFT input.
    static size_t default_batch(size_t fft_len);

    size_t fft_len() const { return d_fft_len; }
    size_t period() const { return d_cp.size(); }
    size_t cp_of(uint64_t symbol) const { return d_cp[symbol % d_cp.size()]; }
    const std::vector<size_t>& cp_lengths() const { return d_cp; }
    bool shift() const { return d_shift; }
    float scale() const { return d_scale; }
    size_t batch() const { return d_batch; }
    size_t max_symbol_len() const { return d_fft_len + d_max_cp; }
    size_t min_symbol_len() const { return d_fft_len + d_min_cp; }

    //! Sample offset of the start (CP included) of \p symbol from the start of symbol 0.
    uint64_t sample_offset(uint64_t symbol) const;
    //! Samples taken by \p n symbols starting with symbol \p first.
    size_t samples(uint64_t first, size_t n) const
    {
        return size_t(sample_offset(first + n) - sample_offset(first));
    }
    //! How many whole symbols starting with \p first fit in \p n_samples, at most \p limit.
    size_t symbols_within(uint64_t first, size_t n_samples, size_t limit) const;
    //! Offsets of the symbol starts within one period, then the period's length (P + 1 values).
    const std::vector<uint64_t>& period_starts() const { return d_starts; }

private:
    size_t d_fft_len;
    std::vector<size_t> d_cp;
    std::vector<uint64_t> d_starts;
    size_t d_min_cp;
    size_t d_max_cp;
    bool d_shift;
    float d_scale;
    size_t d_batch;
};

} // namespace gr::gpuofdm::core

#endif
