/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_DEMO_H
#define GPUOFDM_DEMO_H

// The demo's modes; each parses its own options (argv without --mode and --verbose) and
// returns the exit status (0 PASS, 1 FAIL), throwing std::exception for bad options.

int run_wifi_loopback(int argc, char** argv);
int run_ofdm_loopback(int argc, char** argv);
int run_wimax_loopback(int argc, char** argv);
int run_wifi_file_rx(int argc, char** argv);

//! Each mode's options.
void wifi_usage();
void wimax_usage();
void ofdm_usage();
void rx_usage();
//! The whole usage: the common options, then every mode's.
void demo_usage();

#endif
