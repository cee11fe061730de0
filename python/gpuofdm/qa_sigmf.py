#!/usr/bin/python3
#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""
SigMF and raw recordings (gpuofdm.sigmf_sink, sigmf_source, the apps' reader): what the
sink writes is checked with numpy against the SigMF rules (interleaved I/Q, little
endian, ints = round(x * 32767 / full_scale) clipped), what the source reads against
numpy's reading of files numpy wrote (ints / 32768, / 128), and gpuofdm_demo --mode rx
decodes raw int16 and int8 recordings of wifi_tx frames (--format cs16 / cs8).
"""

import json
import os
import shutil
import struct
import subprocess
import tempfile
import zlib

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest
from gnuradio import gpuofdm


def _run(tb):
    tb.run()


class qa_sigmf(gr_unittest.TestCase):

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="gpuofdm_qa_sigmf_")
        rng = np.random.default_rng(7)
        self.x = (0.4 * (rng.standard_normal(5000) + 1j * rng.standard_normal(5000))
                  ).astype(np.complex64)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def _write(self, datatype, full_scale=2.0):
        base = os.path.join(self.tmp, "rec_" + datatype)
        tb = gr.top_block()
        snk = gpuofdm.sigmf_sink(base, datatype=datatype, sample_rate=10e6, frequency=2.412e9,
                                 description="qa", full_scale=full_scale)
        tb.connect(blocks.vector_source_c(self.x.tolist()), snk)
        _run(tb)
        return base

    def _read(self, path, raw_format="cf32"):
        tb = gr.top_block()
        src = gpuofdm.sigmf_source(path, raw_format=raw_format)
        dst = blocks.vector_sink_c()
        tb.connect(src, dst)
        _run(tb)
        return src, np.array(dst.data(), dtype=np.complex64)

    def test_001_sink_writes_sigmf(self):
        for datatype, dtype, top in (("cf32_le", "<f4", None), ("ci16_le", "<i2", 32767),
                                     ("ci8", "i1", 127)):
            with self.subTest(datatype=datatype):
                base = self._write(datatype)
                with open(base + ".sigmf-meta") as f:
                    meta = json.load(f)
                self.assertEqual(meta["global"]["core:datatype"], datatype)
                self.assertEqual(meta["global"]["core:sample_rate"], 10e6)
                self.assertEqual(meta["captures"][0]["core:sample_start"], 0)
                self.assertEqual(meta["captures"][0]["core:frequency"], 2.412e9)
                raw = np.fromfile(base + ".sigmf-data", dtype=dtype).astype(np.float64)
                iq = np.stack([self.x.real, self.x.imag], axis=1).reshape(-1)
                if top is None:
                    np.testing.assert_array_equal(raw, iq.astype(np.float32))
                else:
                    want = np.clip(np.round(iq * top / 2.0), -top - 1, top)
                    self.assertLessEqual(np.max(np.abs(raw - want)), 1.0)

    def test_002_source_reads_what_numpy_wrote(self):
        iq = np.stack([self.x.real, self.x.imag], axis=1).reshape(-1)
        i16 = np.clip(np.round(iq * 16384), -32768, 32767).astype("<i2")
        i8 = np.clip(np.round(iq * 64), -128, 127).astype("i1")
        cases = (("cs16", "ci16_le", i16, 32768.0), ("cs8", "ci8", i8, 128.0),
                 ("cf32", "cf32_le", iq.astype("<f4"), 1.0))
        for raw_format, datatype, data, scale in cases:
            want = (data[0::2] / scale + 1j * (data[1::2] / scale)).astype(np.complex64)
            with self.subTest(raw=raw_format):
                path = os.path.join(self.tmp, "raw." + raw_format)
                data.tofile(path)
                src, got = self._read(path, raw_format)
                np.testing.assert_allclose(got, want, rtol=0, atol=1e-7)
                self.assertEqual(src.sample_rate, 0.0)
            with self.subTest(sigmf=datatype):
                base = os.path.join(self.tmp, "np_" + datatype)
                data.tofile(base + ".sigmf-data")
                with open(base + ".sigmf-meta", "w") as f:
                    json.dump({"global": {"core:datatype": datatype, "core:version": "1.0.0",
                                          "core:sample_rate": 20e6},
                               "captures": [{"core:sample_start": 0,
                                             "core:frequency": 5.2e9}],
                               "annotations": []}, f)
                for name in (base, base + ".sigmf-meta", base + ".sigmf-data"):
                    # The recording's datatype wins over the raw format.
                    src, got = self._read(name, "cs8" if datatype != "ci8" else "cf32")
                    np.testing.assert_allclose(got, want, rtol=0, atol=1e-7)
                    self.assertEqual((src.sample_rate, src.frequency, src.datatype),
                                     (20e6, 5.2e9, datatype))

    def test_003_round_trip_within_a_step(self):
        for datatype, step in (("cf32_le", 0.0), ("ci16_le", 2.0 / 32767),
                               ("ci8", 2.0 / 127)):
            with self.subTest(datatype=datatype):
                _, got = self._read(self._write(datatype) + ".sigmf-meta")
                # Written as x * top / 2 (full scale 2), read as that / 2^k (32768, 128).
                k = {"cf32_le": 1.0, "ci16_le": 2.0 * 32768 / 32767, "ci8": 2.0 * 128 / 127}
                self.assertEqual(len(got), len(self.x))
                err = np.max(np.abs(got * k[datatype] - self.x))
                self.assertLessEqual(err, step + 1e-6, datatype)

    def test_004_clear_errors(self):
        with self.assertRaisesRegex(ValueError, "datatype: cf32, cs16 or cs8"):
            gpuofdm.sigmf_sink(os.path.join(self.tmp, "x"), datatype="cu8")
        with self.assertRaisesRegex(ValueError, "sample_rate: must be > 0"):
            gpuofdm.sigmf_sink(os.path.join(self.tmp, "x"), sample_rate=0)
        with self.assertRaisesRegex(ValueError, "full_scale: must be > 0"):
            gpuofdm.sigmf_sink(os.path.join(self.tmp, "x"), full_scale=-1)
        with self.assertRaisesRegex(ValueError, "path: .* does not exist"):
            gpuofdm.sigmf_source(os.path.join(self.tmp, "absent.cf32"))
        with self.assertRaisesRegex(ValueError, "datatype: cf32, cs16 or cs8"):
            gpuofdm.sigmf_source(os.path.join(self.tmp, "absent.cf32"), raw_format="cu8")
        base = os.path.join(self.tmp, "odd")
        open(base + ".sigmf-data", "wb").close()
        with open(base + ".sigmf-meta", "w") as f:
            json.dump({"global": {"core:datatype": "cu8"}, "captures": []}, f)
        with self.assertRaisesRegex(ValueError, "datatype: .* got 'cu8'"):
            gpuofdm.sigmf_source(base)

    def test_005_demo_decodes_raw_integer_recordings(self):
        demo = os.path.join(os.environ.get("GPUOFDM_BUILD_DIR", ""), "apps", "gpuofdm_demo",
                            "gpuofdm_demo")
        if not os.path.isfile(demo):
            self.skipTest("no gpuofdm_demo (GPUOFDM_BUILD_DIR unset: run through ctest)")
        tb = gr.top_block()
        tx = gpuofdm.wifi_tx(rate=36, seed=0, gap_samples=400, device="cpu")
        snk = blocks.vector_sink_c()
        tb.connect(tx, snk)
        rng = np.random.default_rng(11)
        for _ in range(6):
            payload = rng.integers(0, 256, 396, dtype=np.uint8).tobytes()
            psdu = np.frombuffer(payload + struct.pack("<I", zlib.crc32(payload)), np.uint8)
            tx._post(pmt.intern("pdus"), pmt.cons(pmt.make_dict(),
                                                  pmt.init_u8vector(len(psdu), psdu.tolist())))
        tx._post(pmt.intern("system"), pmt.cons(pmt.intern("done"), pmt.from_long(1)))
        tb.run()
        x = np.concatenate([np.zeros(500, np.complex64), np.array(snk.data(), np.complex64)])
        iq = np.stack([x.real, x.imag], axis=1).reshape(-1) / 4.0  # peaks below 1
        for fmt, data in (("cs16", np.clip(np.round(iq * 32767), -32768, 32767).astype("<i2")),
                          ("cs8", np.clip(np.round(iq * 127), -128, 127).astype("i1"))):
            with self.subTest(format=fmt):
                path = os.path.join(self.tmp, "frames." + fmt)
                data.tofile(path)
                proc = subprocess.run([demo, "--mode", "rx", "--device", "cpu", "--input",
                                       path, "--format", fmt, "--expect", "6"],
                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                      universal_newlines=True, timeout=120)
                self.assertEqual(proc.returncode, 0, proc.stdout)
                self.assertIn("raw {}".format({"cs16": "ci16_le", "cs8": "ci8"}[fmt]),
                              proc.stdout)
                self.assertRegex(proc.stdout, r"(?m)^PASS: 6 frames with a good FCS")


if __name__ == "__main__":
    gr_unittest.run(qa_sigmf)
