#!/usr/bin/python3
#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""
The examples a user opens first still work: grcc compiles every examples/*.grc against
the module's own grc/ block files, the generated loopback flowgraph runs to its end, and
examples/ofdm_loopback.py gives the bins back.

The source tree comes from GPUOFDM_SOURCE_DIR (ctest sets it), else from this file's
place in the tree (python/gpuofdm/). The flowgraphs import gnuradio.gpuofdm, so run with
PYTHONPATH=<build>/python, as ctest does. With device "auto" they run on the CPU twin
where no GPU is usable.
"""

import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

from gnuradio import gr_unittest

SOURCE_DIR = os.path.abspath(
    os.environ.get("GPUOFDM_SOURCE_DIR")
    or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
GRC_DIR = os.path.join(SOURCE_DIR, "grc")
EXAMPLES_DIR = os.path.join(SOURCE_DIR, "examples")

GRCC_TIMEOUT_S = 120
RUN_TIMEOUT_S = 300


def _env():
    """The caller's environment with the source grc/ dir first on GRC_BLOCKS_PATH."""
    env = os.environ.copy()
    paths = [GRC_DIR] + [p for p in env.get("GRC_BLOCKS_PATH", "").split(os.pathsep)
                         if p and os.path.abspath(p) != GRC_DIR]
    env["GRC_BLOCKS_PATH"] = os.pathsep.join(paths)
    return env


def _tail(text, n=3000):
    return text if len(text) <= n else "...\n" + text[-n:]


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

    def _grcc(self, grc):
        """Compile one .grc into its own temp dir; return the generated .py."""
        out_dir = os.path.join(self.tmp, os.path.splitext(os.path.basename(grc))[0])
        os.makedirs(out_dir)
        proc = subprocess.run([self.grcc, grc, "-o", out_dir], env=_env(),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True, timeout=GRCC_TIMEOUT_S)
        self.assertEqual(proc.returncode, 0,
                         "grcc failed on {}:\n{}".format(grc, _tail(proc.stdout)))
        pys = glob.glob(os.path.join(out_dir, "*.py"))
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
        for grc in grcs:
            with self.subTest(grc=os.path.basename(grc)):
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
        self._run([sys.executable, "-u", py])

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


if __name__ == "__main__":
    gr_unittest.run(qa_examples)
