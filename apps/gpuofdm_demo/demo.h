/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_DEMO_H
#define GPUOFDM_DEMO_H

// The demo's modes; each parses its own options (argv without --mode) and returns the
// exit status, throwing std::exception for bad options or a failed flowgraph.

int run_wifi_loopback(int argc, char** argv);
int run_ofdm_loopback(int argc, char** argv);
int run_wimax_loopback(int argc, char** argv);

#endif
