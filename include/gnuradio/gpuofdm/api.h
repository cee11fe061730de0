/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_API_H
#define INCLUDED_GPUOFDM_API_H

#include <gnuradio/attributes.h>

#ifdef gnuradio_gpuofdm_EXPORTS
#define GPUOFDM_API __GR_ATTR_EXPORT
#else
#define GPUOFDM_API __GR_ATTR_IMPORT
#endif

#endif /* INCLUDED_GPUOFDM_API_H */
