#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Every block's constructor (make()) with bad parameters, one table: out-of-range, empty and
non-finite values raise ValueError naming the parameter; values of the wrong type
(a string for a number, a number for a string, an integer beyond 32 bits, None) raise
pybind11's TypeError, whose message shows the signature with every parameter's name and
the values it was given. Never a crash, and a good make() still works after each."""

import math
import re

from gnuradio import filter, gr_unittest

from gnuradio import gpuofdm

NAN = float("nan")
INF = float("inf")
# A prototype for the timing blocks: GNU Radio's RRC as pfb_clock_sync_ccf's users make it.
RRC_TAPS = list(filter.firdes.root_raised_cosine(32, 64, 1.0, 0.35, 704))
BIG = 2 ** 40  # beyond a C int: pybind11 refuses it (TypeError)

# block: (good keyword arguments, {parameter: [bad values, ValueError expected]}); a second
# row of one block is "name@what".
# Wrong types are added for every parameter from its good value's type.
BLOCKS = {
    "conv_encoder_bb": (
        dict(standard="802.11a", rate="1/2", len_tag_key="packet_len", batch=0,
             device="cpu"),
        dict(standard=["", "802.11b"], rate=["", "1/3", "7/8"], batch=[-1],
             device=["", "gpu", "cuda:-1", "cpu:0"])),
    "demapper_cf": (
        dict(modulation="QPSK", noise_var=1.0, hard=False, batch=0, device="cpu"),
        dict(modulation=["", "8PSK"], noise_var=[0.0, -1.0, NAN, INF], batch=[-1],
             device=[""])),
    "interleaver_bb": (
        dict(standard="802.11a", n_cbps=192, n_bpsc=4, deinterleave=False, batch=0,
             device="cpu"),
        dict(standard=[""], n_cbps=[0, -48, 200], n_bpsc=[0, 3, 8], batch=[-1],
             device=[""])),
    "interleaver_ff": (
        dict(standard="802.16", n_cbps=192, n_bpsc=2, deinterleave=True, batch=0,
             device="cpu"),
        dict(standard=["", "wimax2"], n_cbps=[0, 100], n_bpsc=[0, 5], batch=[-1],
             device=[""])),
    "mapper_bc": (
        dict(modulation="16QAM", batch=0, device="cpu"),
        dict(modulation=["", "256QAM"], batch=[-1], device=[""])),
    "ofdm_fft": (
        dict(fft_len=64, cp_lengths=[16], shift=True, scale=1.0, batch=0, device="cpu"),
        dict(fft_len=[0, -64], cp_lengths=[[], [-1], [65]], scale=[0.0, NAN, INF],
             batch=[-1], device=[""])),
    "ofdm_ifft": (
        dict(fft_len=64, cp_lengths=[16], shift=True, scale=1.0, batch=0, device="cpu"),
        dict(fft_len=[0, -64], cp_lengths=[[], [-1], [65]], scale=[0.0, NAN, INF],
             batch=[-1], device=[""])),
    "ofdm_sync_cc": (
        dict(standard="802.11a", threshold=0.56, min_plateau=32, batch_samples=65536,
             sample_rate=20e6, device="cpu", cp_div=4),
        dict(standard=["", "802.11n"], threshold=[0.0, 1.5, NAN], min_plateau=[0, -1],
             batch_samples=[0, -1, 16], sample_rate=[0.0, -1.0, NAN, INF], device=[""])),
    "ofdm_sync_cc@802.16": (  # cp_div is 802.16's alone
        dict(standard="802.16", threshold=0.5, min_plateau=32, batch_samples=65536,
             sample_rate=4e6, device="cpu", cp_div=4),
        dict(cp_div=[0, 5, 64], sample_rate=[0.0, NAN])),
    "rs_decoder_bb": (
        dict(n=40, k=36, t=2, batch=0, device="cpu"),
        dict(n=[0, -1, 41], k=[0, 37], t=[-1, 3], batch=[-1], device=[""])),
    "rs_encoder_bb": (
        dict(n=40, k=36, t=2, batch=0, device="cpu"),
        dict(n=[0, 41], k=[0, 37], t=[-1, 3], batch=[-1], device=[""])),
    "scrambler_bb": (
        dict(standard="802.11a", seed=93, reset_tag_key="", batch=0, device="cpu"),
        dict(standard=[""], seed=[0, 128], batch=[-1], device=[""])),
    "viterbi_decoder_fb": (
        dict(standard="802.11a", rate="1/2", mode="stream", len_tag_key="packet_len",
             batch=0, device="cpu"),
        dict(standard=[""], rate=["", "1/3"], mode=["", "burst"], batch=[-1],
             device=[""])),
    "wifi_rx": (
        dict(batch_samples=262144, threshold=0.56, pass_bad_crc=False, pcap_file="",
             device="cpu", fft_backoff=3, pilot_interpolation=False),
        dict(batch_samples=[0, -1, 1000], threshold=[0.0, 1.5, NAN], device=[""],
             fft_backoff=[-1, 9])),
    "wifi_tx": (
        dict(rate=54, seed=93, gap_samples=400, scale=1.0, max_frames_per_batch=64,
             device="cpu"),
        dict(rate=[0, 7, -6], seed=[-2, 128], gap_samples=[-1], scale=[0.0, NAN, INF],
             max_frames_per_batch=[0, -1, 4097], device=[""])),
    "wimax_rx": (
        dict(rate_id=1, burst_bytes=95, cp_div=4, uplink=False, pad=True, seed=19072,
             pass_bad=False, sample_rate=4e6, batch_samples=0, device="cpu", threshold=0.5,
             fft_backoff=4, channel_taps=24, pilot_interpolation=False),
        dict(rate_id=[-1, 7], burst_bytes=[0, -1, 65536], cp_div=[0, 5], seed=[0, 32768],
             sample_rate=[0.0, NAN], batch_samples=[-1, 10], device=[""],
             threshold=[0.0, NAN], fft_backoff=[-1, 1000], channel_taps=[-1, 1000])),
    "pfb_timing_sync_ccf": (
        dict(sps=2.0, loop_bw=0.0628, taps=RRC_TAPS, filter_size=32, init_phase=16.0,
             max_rate_deviation=1.5, osps=1, device="cpu", mode="sequential",
             chunk_samples=16384, warmup_samples=4096),
        dict(sps=[0.0, -2.0, NAN], loop_bw=[-0.1, NAN], taps=[[], [1.0] * 64], filter_size=[0],
             osps=[0, 3], mode=["", "fast"], chunk_samples=[0], warmup_samples=[-1],
             max_rate_deviation=[-1.0, NAN], init_phase=[NAN], device=[""])),
    "pfb_timing_sync_multi_ccf": (
        dict(n_channels=4, sps=2.0, loop_bw=0.0628, taps=RRC_TAPS, filter_size=32,
             init_phase=16.0, max_rate_deviation=1.5, osps=1, device="cpu", mode="sequential",
             chunk_samples=16384, warmup_samples=4096, vector_io=False),
        dict(n_channels=[0, -1, 1025], sps=[0.0, NAN], loop_bw=[NAN], mode=[""],
             device=[""])),
    "cell_searcher_cc": (
        dict(standard="lte", samp_rate=30.72e6, center_freq=0.0, offsets_hz=[], ssb_scs_khz=30,
             cfo_range_hz=0.0, pss_threshold=18.0, sss_threshold=14.0, combine_periods=1,
             window_ms=20.0, device="cpu", sro_ppm=20.0, combine_symbols=False),
        dict(standard=["", "gsm"], samp_rate=[1e6, NAN, 30.72e6 + 0.5],
             center_freq=[-1.0, NAN], offsets_hz=[[NAN], [20e6]], ssb_scs_khz=[60],
             cfo_range_hz=[-1.0, NAN], pss_threshold=[0.5, NAN], sss_threshold=[1.0],
             combine_periods=[0, 17], window_ms=[1.0, NAN], device=[""],
             sro_ppm=[-1.0, 101.0, NAN, INF], combine_symbols=[True])),
    "cell_searcher_cc@nr": (  # NR's raster needs the centre frequency
        dict(standard="nr", samp_rate=30.72e6, center_freq=3.5e9, ssb_scs_khz=30, device="cpu"),
        dict(center_freq=[0.0], ssb_scs_khz=[60])),
    "sync_signal_source_c": (
        dict(standard="nr", samp_rate=7.68e6, cell_ids=[0], power_db=[], offsets_hz=[],
             cfo_hz=[], start_s=[], snr_db=10.0, ssb_scs_khz=30, sro_ppm=0.0,
             center_freq=0.0, seed=1),
        dict(standard=["", "gsm"], samp_rate=[1e6, NAN], cell_ids=[[], [1008], [-1]],
             power_db=[[0.0, 1.0], [NAN]], offsets_hz=[[1.0, 2.0], [5e6]],
             cfo_hz=[[1.0, 2.0]], start_s=[[NAN]], snr_db=[NAN], ssb_scs_khz=[60],
             sro_ppm=[2000.0, NAN], center_freq=[-1.0])),
    "prach_source_c": (
        dict(samp_rate=7.68e6, format="0", scs_khz=15, n_antennas=2, logical_root=1,
             zero_correlation_zone=1, restricted_set="unrestricted", offset_hz=-375e3,
             start_sample=0, period_samples=0, preambles=[0], delays_samples=[1.0],
             cfo_hz=[0.0], power_db=[0.0], gains=[], noise=True, seed=1),
        dict(samp_rate=[1e6, NAN, 7.68e6 + 100.0], format=["", "D1"], scs_khz=[25],
             n_antennas=[0, 65], logical_root=[-1, 838], zero_correlation_zone=[-1, 16],
             restricted_set=["", "C"], offset_hz=[NAN, 100.0, 4e6], start_sample=[-1],
             period_samples=[-1, 100], preambles=[[-1], [64]], delays_samples=[[NAN], [-1.0]],
             cfo_hz=[[NAN], [1e7], [1.0, 2.0]], power_db=[[NAN], [INF]],
             gains=[[1j], [NAN, 1.0]])),
    "prach_detector_c": (
        dict(samp_rate=7.68e6, format="0", scs_khz=15, n_antennas=2, logical_roots=[1, 2],
             zero_correlation_zones=[1], restricted_sets=["unrestricted"],
             offsets_hz=[-375e3], n_fd_occasions=1, fd_spacing_hz=0.0, start_sample=0,
             period_samples=0, frame_start=0, false_alarm=1e-3, device="cpu", max_batch=8),
        dict(samp_rate=[1e6, NAN, 7.68e6 + 100.0], format=["", "D1"], scs_khz=[25],
             n_antennas=[0, 65], logical_roots=[[], [-1], [838]],
             zero_correlation_zones=[[], [16], [1, 2, 3]], restricted_sets=[["C"], ["A"] * 3],
             offsets_hz=[[], [NAN], [100.0], [4e6]], n_fd_occasions=[0, 3],
             fd_spacing_hz=[NAN], start_sample=[-1], period_samples=[-1, 100],
             false_alarm=[0.0, 0.6, NAN], device=[""], max_batch=[0, 65])),
    "prach_detector_c@config_index": (  # occasions from a prach-ConfigurationIndex row
        dict(samp_rate=7.68e6, format="0", scs_khz=15, n_antennas=1, logical_roots=[1],
             zero_correlation_zones=[1], restricted_sets=["unrestricted"], offsets_hz=[-375e3],
             n_fd_occasions=1, fd_spacing_hz=0.0, start_sample=0, period_samples=0,
             frame_start=0, false_alarm=1e-3, device="cpu", max_batch=8, config_index=27,
             spectrum="paired"),
        dict(format=["1"], start_sample=[100], period_samples=[100], config_index=[-2, 256],
             spectrum=["", "fr2"])),
    "wimax_tx": (
        dict(rate_id=1, cp_div=4, preamble="long", uplink=False, pad=True, seed=19072,
             gap_samples=400, scale=1.0, max_bursts_per_batch=64, device="cpu"),
        dict(rate_id=[-1, 7], cp_div=[0, 3, 64], preamble=["", "medium"], seed=[0, 32768],
             gap_samples=[-1], scale=[0.0, NAN], max_bursts_per_batch=[0, 4097],
             device=[""])),
}


# Parameters whose refusal names them otherwise: the RS blocks refuse an (n, k, t) that is
# no 802.16 profile as a whole, "profile: (N,K,T) = ...".
NAMED_AS = {"n": "(N,K,T)", "k": "(N,K,T)", "t": "(N,K,T)"}


def names(message, param):
    """True when the message names the parameter (a whole word, or its NAMED_AS form)."""
    if param in NAMED_AS and NAMED_AS[param] in message:
        return True
    return re.search(r"\b%s\b" % re.escape(param), message) is not None


def wrong_types(good):
    """Values of another type than the good one's."""
    if isinstance(good, bool):
        return ["yes"]
    if isinstance(good, int):
        return ["1", 1.5, BIG, None]
    if isinstance(good, float):
        return ["1.0", None]
    if isinstance(good, str):
        return [5, None]
    if isinstance(good, list):
        # A list of ints refuses a float element; a list of floats (or an empty one) a string;
        # a list of strings a number.
        element = [1.5] if good and isinstance(good[0], int) else ["x"]
        if good and isinstance(good[0], str):
            element = [5]
        return ["16", element, 16]
    raise AssertionError(good)


def show(value):
    return "nan" if isinstance(value, float) and math.isnan(value) else repr(value)


class qa_bad_params(gr_unittest.TestCase):

    def make(self, name, kwargs):
        return getattr(gpuofdm, name.split("@")[0])(**kwargs)

    def test_001_good_parameters_make_blocks(self):
        for name, (good, _) in BLOCKS.items():
            with self.subTest(block=name):
                self.assertIsNotNone(self.make(name, good))

    def test_002_bad_values_raise_value_error_naming_the_parameter(self):
        for name, (good, bad) in BLOCKS.items():
            for param, values in bad.items():
                self.assertIn(param, good, name)
                for value in values:
                    with self.subTest(block=name, param=param, value=show(value)):
                        with self.assertRaises(ValueError) as ctx:
                            self.make(name, dict(good, **{param: value}))
                        self.assertTrue(names(str(ctx.exception), param), ctx.exception)

    def test_003_wrong_types_raise_type_error(self):
        for name, (good, _) in BLOCKS.items():
            for param, value in good.items():
                for wrong in wrong_types(value):
                    with self.subTest(block=name, param=param, value=show(wrong)):
                        with self.assertRaises(TypeError) as ctx:
                            self.make(name, dict(good, **{param: wrong}))
                        self.assertTrue(names(str(ctx.exception), param))  # the signature

    def test_004_every_block_is_in_the_table(self):
        # The C++ blocks (the Python ones, sigmf_*, check their own arguments).
        blocks = {n for n in dir(gpuofdm) if isinstance(getattr(gpuofdm, n), type) and
                  hasattr(getattr(gpuofdm, n), "to_basic_block") and
                  getattr(gpuofdm, n).__module__.endswith("gpuofdm_python")}
        self.assertEqual(blocks, {name.split("@")[0] for name in BLOCKS})


if __name__ == "__main__":
    gr_unittest.run(qa_bad_params)
