/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The search parameters that gpuofdm_cellsearch and gpuofdm_cellsearch_pd both take from
// their command lines.
#ifndef GPUOFDM_APPS_CELLSEARCH_SEARCH_PARAMS_H
#define GPUOFDM_APPS_CELLSEARCH_SEARCH_PARAMS_H

#include "sync/cell_search.h"

namespace gpuofdm_apps {

//! \p o's scs, cfo_range, periods, combine_symbols, thresholds (0: the search's default) and
//! pss_steps as the search's parameters for \p standard.
template <typename Options>
gr::gpuofdm::core::cell_search_params search_params(gr::gpuofdm::core::cell_standard standard,
                                                    const Options& o)
{
    gr::gpuofdm::core::cell_search_params sp;
    sp.standard = standard;
    sp.scs_khz = o.scs;
    sp.cfo_range_hz = o.cfo_range;
    sp.combine_periods = o.periods;
    sp.combine_symbols = o.combine_symbols;
    if (o.pss_threshold > 0) {
        sp.pss_threshold = o.pss_threshold;
    }
    if (o.sss_threshold > 0) {
        sp.sss_threshold = o.sss_threshold;
    }
    sp.pss_steps = o.pss_steps;
    return sp;
}

} // namespace gpuofdm_apps

#endif
