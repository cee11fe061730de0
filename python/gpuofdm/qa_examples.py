#!/usr/bin/python3
#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""
The examples a user opens first still work: grcc compiles every examples/*.grc against
the module's own grc/ block files, the generated loopback flowgraph runs to its end, and
examples/ofdm_loopback.py gives the bins back. Every example is laid out cleanly
as GNU Radio Companion draws it (no two blocks or comments overlap, every wire runs left
to right: scripts/grc_layout.py, GRC's own canvas code under Xvfb; skipped without
xvfb-run and python3-gi). The 802.11a examples: wifi_loopback.grc
(wifi_tx -> channel model -> wifi_rx) runs headless and gets its frames back,
wifi_rx_file.grc decodes a small recording this test writes (and one that
wifi_tx_to_file.grc writes) into the PCAP file, and wifi_rx_uhd.grc compiles and its
program answers --help (it needs a USRP to run; skipped where the UHD GRC blocks are
not installed). prach_loopback.grc (prach_source_c -> channel -> prach_detector_c) finds
its two UEs in every occasion. The cell search examples: cell_search.py and
cell_search_file.grc find the two NR cells of a synthesized stream or recording (and
nothing in noise), and cell_search_uhd.grc does with its recording in place of the radio.

The source tree comes from GPUOFDM_SOURCE_DIR (ctest sets it), else from this file's
place in the tree (python/gpuofdm/). The flowgraphs import gnuradio.gpuofdm, so run with
PYTHONPATH=<build>/python, as ctest does. With device "auto" they run on the CPU twin
where no GPU is usable.
"""

import glob
import importlib.util
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest

SOURCE_DIR = os.path.abspath(
    os.environ.get("GPUOFDM_SOURCE_DIR")
    or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
GRC_DIR = os.path.join(SOURCE_DIR, "grc")
EXAMPLES_DIR = os.path.join(SOURCE_DIR, "examples")

GRCC_TIMEOUT_S = 120
RUN_TIMEOUT_S = 300
N_DBPS = {6: 24, 9: 36, 12: 48, 18: 72, 24: 96, 36: 144, 48: 192, 54: 216}


def _env():
    """The caller's environment with the source grc/ dir first on GRC_BLOCKS_PATH."""
    env = os.environ.copy()
    paths = [GRC_DIR] + [p for p in env.get("GRC_BLOCKS_PATH", "").split(os.pathsep)
                         if p and os.path.abspath(p) != GRC_DIR]
    env["GRC_BLOCKS_PATH"] = os.pathsep.join(paths)
    return env


def _tail(text, n=3000):
    return text if len(text) <= n else "...\n" + text[-n:]


def _grc_block_dirs():
    """The directories grcc reads block .yml files from: GRC_BLOCKS_PATH and its own."""
    dirs = [p for p in _env()["GRC_BLOCKS_PATH"].split(os.pathsep) if p]
    try:
        from gnuradio.grc.core.Config import Config
        dirs += list(Config(version=gr.version(), prefs=gr.prefs()).block_paths)
    except Exception:  # an older or newer GRC: its usual place
        dirs.append(os.path.join(gr.prefix(), "share", "gnuradio", "grc", "blocks"))
    return dirs


def _has_grc_block(block_id):
    return any(os.path.isfile(os.path.join(d, block_id + ".block.yml"))
               for d in _grc_block_dirs())


def _uses_uhd(grc):
    """Whether the flowgraph has an enabled UHD block (grcc passes disabled blocks whose
    GRC block file is missing; wifi_tx_to_file.grc has a disabled USRP sink)."""
    import yaml
    with open(grc) as f:
        data = yaml.safe_load(f)
    return any(str(b.get("id", "")).startswith("uhd_") and
               str(b.get("states", {}).get("state", "enabled")) not in ("disabled", "False")
               for b in data.get("blocks", []))


def _fcs(payload):
    """The 802.11 FCS: CRC-32 of the octets, least significant octet first."""
    return payload + struct.pack("<I", zlib.crc32(payload) & 0xffffffff)


def _read_pcap(path):
    """(link type, [packet bytes]) of a classic libpcap file."""
    with open(path, "rb") as f:
        data = f.read()
    magic, _, _, _, _, _, linktype = struct.unpack("<IHHiIII", data[:24])
    assert magic == 0xa1b2c3d4, "not a little-endian libpcap file: magic %#x" % magic
    packets, off = [], 24
    while off < len(data):
        _, _, incl, _ = struct.unpack("<IIII", data[off:off + 16])
        packets.append(data[off + 16:off + 16 + incl])
        off += 16 + incl
    return linktype, packets


FRAMES_RE = re.compile(r"frames received: (\d+) \((\d+) FCS ok, (\d+) FCS bad\)"
                       r"(?:, of the source's (\d+) sent: (\d+) received, (\d+) lost, "
                       r"PER ([0-9.]+))?")


class qa_examples(gr_unittest.TestCase):

    def setUp(self):
        self.grcc = shutil.which("grcc")
        self.tmp = tempfile.mkdtemp(prefix="gpuofdm_qa_examples_")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def _need_grcc(self):
        if not self.grcc:
            self.skipTest("grcc is not on PATH (install gnuradio-dev / GRC); "
                          "the .grc examples are not checked")

    def _need_grc(self, name):
        self._need_grcc()
        grc = os.path.join(EXAMPLES_DIR, name)
        if not os.path.isfile(grc):
            self.skipTest("examples/{} is absent".format(name))
        return grc

    def _grcc(self, grc):
        """Compile one .grc into its own temp dir; return the generated .py (an
        embedded Python block comes as a second file, <id>_epy_block_*.py, beside it)."""
        out_dir = os.path.join(self.tmp, os.path.splitext(os.path.basename(grc))[0])
        os.makedirs(out_dir)
        proc = subprocess.run([self.grcc, grc, "-o", out_dir], env=_env(),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True, timeout=GRCC_TIMEOUT_S)
        self.assertEqual(proc.returncode, 0,
                         "grcc failed on {}:\n{}".format(grc, _tail(proc.stdout)))
        pys = [p for p in glob.glob(os.path.join(out_dir, "*.py"))
               if "_epy_block_" not in os.path.basename(p)]
        self.assertEqual(len(pys), 1, "grcc made no single .py from {} (got {}):\n{}".format(
            grc, os.listdir(out_dir), _tail(proc.stdout)))
        return pys[0]

    def _run(self, argv):
        proc = subprocess.run(argv, env=_env(), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, universal_newlines=True,
                              timeout=RUN_TIMEOUT_S)
        self.assertEqual(proc.returncode, 0, "{} exited {}:\n{}".format(
            " ".join(argv), proc.returncode, _tail(proc.stdout)))
        return proc.stdout

    def test_001_grc_dir_has_both_blocks(self):
        for name in ("gpuofdm_ofdm_fft.block.yml", "gpuofdm_ofdm_ifft.block.yml",
                     "gpuofdm.tree.yml"):
            self.assertTrue(os.path.isfile(os.path.join(GRC_DIR, name)),
                            "missing grc/{} in {}".format(name, SOURCE_DIR))

    def test_002_grcc_compiles_every_example(self):
        self._need_grcc()
        grcs = sorted(glob.glob(os.path.join(EXAMPLES_DIR, "*.grc")))
        self.assertTrue(grcs, "no .grc files in {}".format(EXAMPLES_DIR))
        uhd = _has_grc_block("uhd_usrp_source")
        for grc in grcs:
            with self.subTest(grc=os.path.basename(grc)):
                if _uses_uhd(grc) and not uhd:
                    self.skipTest("{} uses UHD blocks, and the UHD GRC blocks (gr-uhd: "
                                  "uhd_usrp_source.block.yml) are not installed"
                                  .format(os.path.basename(grc)))
                py = self._grcc(grc)
                with open(py) as f:
                    self.assertIn("gpuofdm", f.read(),
                                  "{} does not use a gpuofdm block".format(py))

    def test_003_generated_loopback_runs_to_the_end(self):
        # The flowgraph ends by itself: a head bounds the random bins, upstream of the
        # OFDM blocks, and the whole graph drains (n_symbols = 20000 of fft_len 64).
        self._need_grcc()
        grc = os.path.join(EXAMPLES_DIR, "ofdm_loopback.grc")
        if not os.path.isfile(grc):
            self.skipTest("examples/ofdm_loopback.grc is absent")
        py = self._grcc(grc)
        out = self._run([sys.executable, "-u", py])
        verdicts = re.findall(r"^(PASS|FAIL): (\d+) bins back", out, re.M)
        self.assertEqual(verdicts, [("PASS", str(20000 * 64))], _tail(out))

    def test_004_python_loopback_gives_the_bins_back(self):
        script = os.path.join(EXAMPLES_DIR, "ofdm_loopback.py")
        if not os.path.isfile(script):
            self.skipTest("examples/ofdm_loopback.py is absent")
        out = self._run([sys.executable, "-u", script, "--device", "auto",
                         "--fft-len", "64", "--cp", "16", "--symbols", "500"])
        m = re.search(r"max \|error\|\s*:\s*(\S+)", out)
        self.assertIsNotNone(m, "no max |error| line in:\n" + _tail(out))
        self.assertLess(float(m.group(1)), 1e-4, _tail(out))
        # Several CP lengths round robin, and a size that is not a power of two.
        out = self._run([sys.executable, "-u", script, "--device", "cpu",
                         "--fft-len", "48", "--cp", "12,4,0", "--symbols", "301"])
        m = re.search(r"max \|error\|\s*:\s*(\S+)", out)
        self.assertIsNotNone(m, "no max |error| line in:\n" + _tail(out))
        self.assertLess(float(m.group(1)), 1e-4, _tail(out))

    def test_005_wifi_loopback_gets_its_frames_back(self):
        # wifi_tx -> channel model (25 dB, 50 kHz, 3 taps: the flowgraph's defaults)
        # -> wifi_rx, on the CPU where no GPU is usable; ends when every frame is through.
        py = self._grcc(self._need_grc("wifi_loopback.grc"))
        pcap = os.path.join(self.tmp, "loopback.pcap")
        out = self._run([sys.executable, "-u", py, "-n", "120", "-l", "600", "-r", "54",
                         "-d", "auto", "-p", pcap])
        finals = [m for m in FRAMES_RE.finditer(out) if m.group(4) is not None]
        self.assertTrue(finals, "no final 'frames received: ... sent' line in:\n" + _tail(out))
        m = finals[-1]
        self.assertEqual(int(m.group(4)), 120, _tail(out))
        self.assertEqual(int(m.group(3)), 0, _tail(out))
        self.assertGreaterEqual(int(m.group(5)), 118, "PER over 2% at 25 dB:\n" + _tail(out))
        self.assertLessEqual(float(m.group(7)), 0.02, _tail(out))
        linktype, packets = _read_pcap(pcap)
        self.assertEqual(linktype, 105)
        self.assertEqual(len(packets), int(m.group(2)))
        for p in packets:
            self.assertEqual(len(p), 600)
            self.assertEqual(_fcs(p[:-4]), p, "a PCAP packet with a bad FCS")
        # Another rate and length through the command-line parameters.
        out = self._run([sys.executable, "-u", py, "-n", "40", "-l", "100", "-r", "12",
                         "-s", "30", "-c=-20e3", "-d", "cpu"])
        m = [m for m in FRAMES_RE.finditer(out) if m.group(4) is not None][-1]
        self.assertEqual((int(m.group(4)), int(m.group(5))), (40, 40), _tail(out))

    def _record(self, path, psdus, rates):
        """The core chain: PSDUs -> wifi_tx -> vector_sink, written as .cf32 with a
        little noise and leading silence."""
        from gnuradio import gpuofdm
        tb = gr.top_block()
        tx = gpuofdm.wifi_tx(rate=54, seed=0, gap_samples=400, device="cpu")
        snk = blocks.vector_sink_c()
        tb.connect(tx, snk)
        for psdu, rate in zip(psdus, rates):
            tx._post(pmt.intern("pdus"), pmt.cons(
                pmt.to_pmt({"rate": rate}), pmt.init_u8vector(len(psdu), bytearray(psdu))))
        tb.start()
        want = sum(320 + 80 * (1 + -(-(22 + 8 * len(p)) // N_DBPS[r])) + 1 + 400
                   for p, r in zip(psdus, rates))
        deadline = time.monotonic() + RUN_TIMEOUT_S
        while len(snk.data()) < want and time.monotonic() < deadline:
            time.sleep(0.05)
        tb.stop()
        tb.wait()
        x = np.array(snk.data(), dtype=np.complex64)
        self.assertEqual(len(x), want, "wifi_tx wrote {} samples, not {}".format(len(x), want))
        rng = np.random.default_rng(5)
        x = np.concatenate([np.zeros(1000, np.complex64), x])
        x += (0.01 * (rng.standard_normal(len(x)) + 1j * rng.standard_normal(len(x)))
              ).astype(np.complex64)
        x.astype(np.complex64).tofile(path)

    def test_006_wifi_rx_file_decodes_a_recording(self):
        py = self._grcc(self._need_grc("wifi_rx_file.grc"))
        rng = np.random.default_rng(3)
        rates = [6, 9, 12, 18, 24, 36, 48, 54] * 3
        psdus = [_fcs(bytes(rng.integers(0, 256, int(rng.integers(20, 1200)),
                                         dtype=np.uint8))) for _ in rates]
        cf32 = os.path.join(self.tmp, "recording.cf32")
        self._record(cf32, psdus, rates)
        pcap = os.path.join(self.tmp, "rx.pcap")
        out = self._run([sys.executable, "-u", py, "-f", cf32, "-p", pcap, "-d", "auto"])
        m = list(FRAMES_RE.finditer(out))
        self.assertTrue(m, "no 'frames received' line in:\n" + _tail(out))
        self.assertEqual(int(m[-1].group(2)), len(psdus), _tail(out))
        # A summary, not a line per frame.
        self.assertLess(len(out.splitlines()), 15, _tail(out))
        linktype, packets = _read_pcap(pcap)
        self.assertEqual(linktype, 105)
        self.assertEqual(packets, psdus, "the PCAP does not hold the PSDUs sent, in order")

    def test_007_wifi_tx_to_file_recording_replays(self):
        # The recorder example writes a SigMF recording (each datatype) that the file
        # example and the demo's file receiver (C++, apps/common/sigmf.h) read: 20 Msps,
        # and its fixed PSDU carries a valid FCS, so every frame passes. The frames come
        # back as SigMF annotations, where 802.11a puts them: 2880 samples apart (2480 of
        # 300 octets at 24 Mb/s, 400 of gap).
        py_tx = self._grcc(self._need_grc("wifi_tx_to_file.grc"))
        py_rx = self._grcc(self._need_grc("wifi_rx_file.grc"))
        demo = os.path.join(os.environ.get("GPUOFDM_BUILD_DIR", ""), "apps", "gpuofdm_demo",
                            "gpuofdm_demo")
        payload = bytes((7 * i + 3) % 256 for i in range(296))
        for datatype in ("cf32_le", "ci16_le", "ci8"):
            with self.subTest(datatype=datatype):
                base = os.path.join(self.tmp, "frames_" + datatype)
                out = self._run([sys.executable, "-u", py_tx, "-o", base, "-n", "9", "-l",
                                 "300", "-r", "24", "-d", "cpu", "-t", datatype])
                self.assertIn("sigmf_sink: {} samples".format(9 * 2881), out)
                with open(base + ".sigmf-meta") as f:
                    meta = json.load(f)
                self.assertEqual(meta["global"]["core:datatype"], datatype)
                self.assertEqual(meta["global"]["core:sample_rate"], 20e6)
                self.assertEqual(meta["captures"][0]["core:frequency"], 5.18e9)
                self.assertEqual(os.path.getsize(base + ".sigmf-data"),
                                 9 * 2881 * {"cf32_le": 8, "ci16_le": 4, "ci8": 2}[datatype])
                pcap = os.path.join(self.tmp, "frames.pcap")
                out = self._run([sys.executable, "-u", py_rx, "-f", base + ".sigmf-meta",
                                 "-p", pcap, "-d", "cpu", "-a", base + ".sigmf-meta"])
                m = list(FRAMES_RE.finditer(out))
                self.assertTrue(m, "no 'frames received' line in:\n" + _tail(out))
                self.assertEqual(int(m[-1].group(2)), 9, _tail(out))
                _, packets = _read_pcap(pcap)
                self.assertEqual(packets, [_fcs(payload)] * 9)
                with open(base + ".sigmf-meta") as f:
                    meta = json.load(f)
                self.assertEqual(meta["global"]["core:datatype"], datatype)
                self.assertEqual([(a["core:sample_start"], a["core:sample_count"])
                                  for a in meta["annotations"]],
                                 [(2881 * i, 2480) for i in range(9)])
                if not os.path.isfile(demo):
                    continue  # run outside ctest: no build directory
                out = self._run([demo, "--mode", "rx", "--device", "cpu", "--input", base,
                                 "--expect", "9"])
                self.assertRegex(out, r"SigMF {}, 20 Msps, centre 5180 MHz, {} samples".format(
                    datatype, 9 * 2881))
                self.assertRegex(out, r"(?m)^PASS: 9 frames with a good FCS >= 9")

    def test_009_examples_laid_out_cleanly(self):
        xvfb = shutil.which("xvfb-run")
        if not xvfb:
            self.skipTest("xvfb-run is not installed (scripts/install_deps.sh screenshots)")
        if importlib.util.find_spec("gi") is None:  # GRC's canvas is GTK
            self.skipTest("python3-gi is not installed (scripts/install_deps.sh screenshots)")
        grcs = sorted(glob.glob(os.path.join(EXAMPLES_DIR, "*.grc")))
        proc = subprocess.run(
            [xvfb, "-a", sys.executable, os.path.join(SOURCE_DIR, "scripts", "grc_layout.py"),
             "check"] + grcs, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            universal_newlines=True, timeout=RUN_TIMEOUT_S)
        self.assertEqual(proc.returncode, 0, _tail(proc.stdout))
        self.assertIn("PASS: no overlaps, every wire left to right", proc.stdout)

    def test_010_usrp_receiver_on_a_recording(self):
        # The USRP receiver with a recording in place of the radio (docs/USRP.md): the ci16
        # SigMF that a radio's record branch writes, played at 20 Msps through wifi_rx.
        py_tx = self._grcc(self._need_grc("wifi_tx_to_file.grc"))
        py_rx = self._grcc(self._need_grc("wifi_rx_uhd_replay.grc"))
        with open(py_rx) as f:
            code = f.read()
        self.assertNotIn("uhd.usrp_source(", code)
        self.assertIn("blocks.throttle(", code)
        base = os.path.join(self.tmp, "air")
        self._run([sys.executable, "-u", py_tx, "-o", base, "-n", "30", "-l", "1500",
                   "-r", "54", "-d", "cpu", "-t", "ci16_le"])
        out = self._run([sys.executable, "-u", py_rx, "-i", base + ".sigmf-meta", "-d", "auto",
                         "-p", ""])
        m = [m for m in FRAMES_RE.finditer(out)]
        self.assertTrue(m, "no 'frames received' line in:\n" + _tail(out))
        self.assertEqual((int(m[-1].group(1)), int(m[-1].group(2))), (30, 30), _tail(out))

    def test_008_wifi_rx_uhd_compiles(self):
        grc = self._need_grc("wifi_rx_uhd.grc")
        if not _has_grc_block("uhd_usrp_source"):
            self.skipTest("the UHD GRC blocks (gr-uhd: uhd_usrp_source.block.yml) are not "
                          "installed; examples/wifi_rx_uhd.grc is not compiled")
        py = self._grcc(grc)
        with open(py) as f:
            code = f.read()
        for want in ("uhd.usrp_source(", "gpuofdm.wifi_rx(", "set_center_freq(freq, 0)",
                     "set_samp_rate(samp_rate)"):
            self.assertIn(want, code)
        try:
            importlib.import_module("gnuradio.uhd")  # the program imports it
        except ImportError:
            self.skipTest("gnuradio.uhd does not import; the generated program is not run")
        # No USRP here: only the option parsing (and the imports) of the program.
        out = self._run([sys.executable, "-u", py, "--help"])
        for opt in ("--freq", "--gain", "--antenna", "--pcap-file", "--device"):
            self.assertIn(opt, out)

    def test_011_prach_loopback_finds_both_ues(self):
        # Two UEs (preambles 5 and 40) in each of 5 occasions through a channel model per
        # antenna: the detector prints 10 dicts, each UE in every occasion.
        grc = self._need_grc("prach_loopback.grc")
        out = self._run([sys.executable, "-u", self._grcc(grc)])
        found = re.findall(r"\(preamble \. (\d+)\).*\(occasion \. (\d+)\)", out)
        self.assertEqual(sorted(found), sorted((p, str(o)) for p in ("5", "40")
                                               for o in range(5)), _tail(out))

    def _cell_recording(self, base):
        """45 ms of two NR cells on GSCNs 7843 and 7850 of a 30.72 Msps stream at 3.5 GHz
        (the file and USRP examples' defaults), 0 dB SNR, as a ci16 SigMF recording
        written by sync_signal_source_c -> sigmf_sink."""
        from gnuradio import gpuofdm
        fs, center = 30.72e6, 3.5e9
        src = gpuofdm.sync_signal_source_c(
            "nr", fs, [17, 600], offsets_hz=[-4.64e6, 5.44e6], cfo_hz=[2e3, -3e3],
            start_s=[1e-3, 6e-3], snr_db=0.0, center_freq=center)
        head = blocks.head(gr.sizeof_gr_complex, int(fs * 45e-3))
        # Held by a name: a sigmf_sink made inside connect() is collected too early.
        sink = gpuofdm.sigmf_sink(base, datatype="ci16_le", sample_rate=fs, frequency=center,
                                  full_scale=8.0)
        tb = gr.top_block()
        tb.connect(src, head, sink)
        tb.run()
        return base + ".sigmf-meta"

    def test_012_cell_search_python_example(self):
        # Two NR cells on two GSCNs at 0 dB, every GSCN of the band searched: both found,
        # nothing else.
        script = os.path.join(EXAMPLES_DIR, "cell_search.py")
        if not os.path.isfile(script):
            self.skipTest("examples/cell_search.py is absent")
        out = self._run([sys.executable, "-u", script, "--device", "auto"])
        self.assertRegex(out, r"(?m)^PASS: 2 of 2 cells found, 0 other detection", _tail(out))
        self.assertRegex(out, r"(?m)^ +17 +-4640000 +7843 ", _tail(out))
        self.assertRegex(out, r"(?m)^ +600 +5440000 +7850 ", _tail(out))
        # LTE at an unknown centre: every 100 kHz raster point of a 7.68 Msps stream.
        out = self._run([sys.executable, "-u", script, "--device", "cpu", "--standard", "lte",
                         "--rate", "7.68e6", "--center", "0", "--snr", "3",
                         "--cells", "101@-1500000,302@2000000", "--seconds", "0.012"])
        self.assertRegex(out, r"(?m)^PASS: 2 of 2 cells found, 0 other detection", _tail(out))

    def test_013_cell_search_file_finds_the_cells(self):
        py = self._grcc(self._need_grc("cell_search_file.grc"))
        rec = self._cell_recording(os.path.join(self.tmp, "cells"))
        out = self._run([sys.executable, "-u", py, "-i", rec, "-n", "2", "-d", "auto"])
        self.assertRegex(out, r"(?m)^PASS: 2 cells found, 2 expected$", _tail(out))
        self.assertRegex(out, r"(?m)^cell 17 \(nr\) at -4\.640 MHz \(raster 7843\)", _tail(out))
        self.assertRegex(out, r"(?m)^cell 600 \(nr\) at \+5\.440 MHz \(raster 7850\)",
                         _tail(out))
        # Noise alone: no cell, and the verdict says so.
        tb = gr.top_block()
        from gnuradio import analog
        noise = os.path.join(self.tmp, "noise.cf32")
        tb.connect(analog.noise_source_c(analog.GR_GAUSSIAN, 1.0, 7),
                   blocks.head(gr.sizeof_gr_complex, int(30.72e6 * 25e-3)),
                   blocks.file_sink(gr.sizeof_gr_complex, noise))
        tb.run()
        proc = subprocess.run([sys.executable, "-u", py, "-i", noise, "-n", "1", "-d", "cpu"],
                              env=_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True, timeout=RUN_TIMEOUT_S)
        self.assertRegex(proc.stdout, r"(?m)^FAIL: 0 cells found, 1 expected$",
                         _tail(proc.stdout))

    def test_014_cell_search_usrp_on_a_recording(self):
        # The USRP cell search with a recording played at the radio's pace in place of the
        # radio (its USRP source disabled, as shipped).
        py = self._grcc(self._need_grc("cell_search_uhd.grc"))
        with open(py) as f:
            code = f.read()
        self.assertNotIn("uhd.usrp_source(", code)
        self.assertIn("blocks.throttle(", code)
        self.assertIn("gpuofdm.cell_searcher_cc(", code)
        rec = self._cell_recording(os.path.join(self.tmp, "air"))
        out = self._run([sys.executable, "-u", py, "-i", rec, "-n", "2", "-d", "auto"])
        self.assertRegex(out, r"(?m)^PASS: 2 cells found, 2 expected$", _tail(out))


if __name__ == "__main__":
    gr_unittest.run(qa_examples)
