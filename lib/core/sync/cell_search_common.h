/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_CELL_SEARCH_COMMON_H
#define GPUOFDM_CORE_CELL_SEARCH_COMMON_H

// Where the SSS (and PBCH, ESS) symbols sit relative to the PSS, in candidate-rate samples
// from the start of the PSS's useful part, for each frame structure a standard allows.

#include "sync/cell_search.h"

#include <vector>

namespace gr::gpuofdm::core {

//! One place the SSS may be, and what finding it there means.
struct sss_position {
    int offset;      //!< SSS useful start minus PSS useful start, samples
    int pss_cp;      //!< the PSS symbol's CP, samples (its CP start = useful start - pss_cp)
    int extended_cp; //!< LTE: 1 / 0; else -1
    int tdd;         //!< LTE: 1 / 0; else -1
};

inline std::vector<sss_position> sss_positions(const cell_search_layout& layout,
                                               cell_standard standard)
{
    const int n = layout.fft_size, cp = layout.cp;
    switch (standard) {
    case cell_standard::nr:
        // SSB symbols 0 (PSS) and 2 (SSS); no long CP between them in cases A, B, C.
        return { { 2 * (n + cp), cp, -1, -1 } };
    case cell_standard::lte: {
        // 36.211 6.11: FDD SSS one symbol before the PSS; TDD: last symbol of slot 1
        // before the PSS in the third symbol of slot 2 (slot 2's symbol 0 has the long CP,
        // 160/2048 of a symbol: cp + n / 128). Extended CP: 512/2048 of a symbol.
        const int ext = n / 4, long_cp = cp + n / 128;
        return { { -(n + cp), cp, 0, 0 },
                 { -(n + ext), ext, 1, 0 },
                 { -(3 * n + cp + long_cp + cp), cp, 0, 1 },
                 { -3 * (n + ext), ext, 1, 1 } };
    }
    case cell_standard::fivegtf:
        return { { 0, cp, -1, -1 } }; // PSS, SSS and ESS share the symbol
    }
    return {};
}

} // namespace gr::gpuofdm::core

#endif // GPUOFDM_CORE_CELL_SEARCH_COMMON_H
