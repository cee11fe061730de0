#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuofdm authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""viterbi_decoder_fb in flowgraphs, against GNU Radio's own fec.cc_encoder/cc_decoder.

GNU Radio's cc_encoder keeps its newest input bit in the LSB of the register, so its
polynomials are the bit-reversed octal generators: 133 -> 0b1101101 = 109 and
171 -> 0b1001111 = 79; [109, 79] is 802.11a's A (133) then B (171). test_001 checks that
on the impulse response. Its cc_decoder takes uchar soft values, > 128 meaning bit 1.
"""

import numpy as np
import pmt
from gnuradio import blocks, fec, gr, gr_unittest

from gnuradio import gpuofdm
from gpuofdm_testing import gpu_reason

SEED = 20261122
GR_POLYS_80211A = [109, 79]  # 133, 171 octal, bit-reversed for GNU Radio
TAIL = 6


def gr_encode(bits, frame_size):
    """GNU Radio's terminated K=7 encoder: frame_size bits -> 2 (frame_size + 6) bits."""
    enc = fec.cc_encoder_make(frame_size, 7, 2, GR_POLYS_80211A, 0, fec.CC_TERMINATED, False)
    tb = gr.top_block()
    src = blocks.vector_source_b(bits.tolist())
    blk = fec.encoder(enc, gr.sizeof_char, gr.sizeof_char)
    snk = blocks.vector_sink_b()
    tb.connect(src, blk, snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8)


def gr_decode(soft_u8, frame_size):
    """GNU Radio's cc_decoder (CC_TERMINATED) on uchar soft values (> 128: bit 1)."""
    dec = fec.cc_decoder.make(frame_size, 7, 2, GR_POLYS_80211A, 0, -1, fec.CC_TERMINATED,
                              False)
    tb = gr.top_block()
    src = blocks.vector_source_b(soft_u8.tolist())
    blk = fec.decoder(dec, gr.sizeof_char, gr.sizeof_char)
    snk = blocks.vector_sink_b()
    tb.connect(src, blk, snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8)


def ours(llr, mode="stream", frame_llrs=0, rate="1/2", standard="802.11a", device="cpu",
         batch=0):
    tb = gr.top_block()
    src = blocks.vector_source_f(np.asarray(llr, dtype=np.float32).tolist())
    blk = gpuofdm.viterbi_decoder_fb(standard, rate, mode, "packet_len", batch, device)
    snk = blocks.vector_sink_b()
    if mode == "frame":
        s2t = blocks.stream_to_tagged_stream(gr.sizeof_float, 1, frame_llrs, "packet_len")
        tb.connect(src, s2t, blk, snk)
    else:
        tb.connect(src, blk, snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8), snk.tags()


def strip_tails(bits, frame_size):
    return bits.reshape(-1, frame_size + TAIL)[:, :frame_size].reshape(-1)


def noisy_bpsk(coded, ebn0_db, seed):
    """BPSK (bit 0 -> +1) over AWGN at Eb/N0 for rate 1/2; returns y and the real noise var."""
    esn0 = 10 ** (ebn0_db / 10) * 0.5
    var = 1 / (2 * esn0)
    rng = np.random.default_rng(seed)
    y = (1.0 - 2.0 * coded) + np.sqrt(var) * rng.standard_normal(coded.size)
    return y.astype(np.float32), var


def to_gr_soft(y, var):
    """LLR (positive: bit 0) to GNU Radio's uchar (> 128: bit 1), as extended_decoder scales."""
    llr = 2 * y / var
    return np.clip(np.round(128 - 8 * llr), 0, 255).astype(np.uint8)


class qa_viterbi_decoder_fb(gr_unittest.TestCase):

    def test_001_gr_polys_are_133_171_and_we_decode_them(self):
        fs = 20
        impulse = np.zeros(fs, dtype=np.uint8)
        impulse[0] = 1
        coded = gr_encode(impulse, fs)
        self.assertEqual(coded.size, 2 * (fs + TAIL))
        # Impulse response, pair t = (tap t of 133, tap t of 171), taps MSB first:
        # 133 = 1 011 011, 171 = 1 111 001.
        want = [[1, 1], [0, 1], [1, 1], [1, 1], [0, 0], [1, 0], [1, 1]]
        self.assertEqual(coded[:14].reshape(-1, 2).tolist(), want)
        self.assertEqual(coded[14:].tolist(), [0] * (coded.size - 14))
        got, _ = ours(1.0 - 2.0 * coded, "frame", coded.size)
        self.assertEqual(got.tolist(), impulse.tolist() + [0] * TAIL)

    def test_002_noiseless_identity_both_modes(self):
        fs, n_frames = 500, 7
        bits = np.random.default_rng(SEED).integers(0, 2, fs * n_frames).astype(np.uint8)
        coded = gr_encode(bits, fs)
        llr = 4.0 * (1.0 - 2.0 * coded)
        frame, _ = ours(llr, "frame", 2 * (fs + TAIL))
        self.assertEqual(frame.size, n_frames * (fs + TAIL))
        self.assertTrue(np.array_equal(strip_tails(frame, fs), bits))
        stream, _ = ours(llr, "stream")
        # Nothing held back at the end of the stream: one bit per LLR pair.
        self.assertEqual(stream.size, coded.size // 2)
        self.assertTrue(np.array_equal(strip_tails(stream, fs), bits))
        soft = np.where(coded == 1, 176, 80).astype(np.uint8)
        self.assertTrue(np.array_equal(gr_decode(soft, fs), bits))

    def test_003_punctured_3_4_identity(self):
        # 802.11a 3/4 keeps A0 B0 A1 B2 of every 3 steps (Figure 17-9).
        fs, n_frames = 600 - TAIL, 3  # 600 steps a frame: whole periods of 3
        bits = np.random.default_rng(SEED + 1).integers(0, 2, fs * n_frames).astype(np.uint8)
        coded = gr_encode(bits, fs).reshape(-1, 6)[:, [0, 1, 2, 5]].reshape(-1)
        llr = 1.0 - 2.0 * coded
        got, _ = ours(llr, "frame", 800, rate="3/4")
        self.assertTrue(np.array_equal(strip_tails(got, fs), bits))
        got, _ = ours(llr, "stream", rate="3/4")
        self.assertTrue(np.array_equal(strip_tails(got, fs), bits))

    def test_004_soft_beats_gnuradio_hard_at_3db(self):
        fs, n_frames = 2000, 100
        bits = np.random.default_rng(SEED + 2).integers(0, 2, fs * n_frames).astype(np.uint8)
        coded = gr_encode(bits, fs)
        y, var = noisy_bpsk(coded, 3.0, SEED + 3)
        soft, _ = ours(2 * y / var, "frame", 2 * (fs + TAIL))
        ber_soft = np.mean(strip_tails(soft, fs) != bits)
        hard_u8 = np.where(y < 0, 176, 80).astype(np.uint8)
        ber_gr_hard = np.mean(gr_decode(hard_u8, fs) != bits)
        ber_gr_soft = np.mean(gr_decode(to_gr_soft(y, var), fs) != bits)
        print("Eb/N0 3 dB, %d bits: ours soft %.2e, GNU Radio hard %.2e, GNU Radio uchar soft "
              "%.2e" % (bits.size, ber_soft, ber_gr_hard, ber_gr_soft))
        # Soft decisions gain about 2 dB: an order of magnitude here.
        self.assertGreater(ber_gr_hard, 1e-3)
        self.assertLess(ber_soft, 0.25 * ber_gr_hard)
        # GNU Radio's 8-bit soft decoder is the same maximum-likelihood rule, quantised.
        self.assertLess(ber_soft, 2.0 * ber_gr_soft + 2e-4)

    def test_005_hard_path_matches_gnuradio_hard(self):
        fs, n_frames = 2000, 100
        bits = np.random.default_rng(SEED + 4).integers(0, 2, fs * n_frames).astype(np.uint8)
        coded = gr_encode(bits, fs)
        y, var = noisy_bpsk(coded, 4.0, SEED + 5)
        # Our hard path: demapper_cf hard=True (BPSK) gives +1/-1 into the decoder. 802.11a
        # BPSK sends bit 0 as -1 (Table 17-8), the opposite of noisy_bpsk's, hence -y.
        tb = gr.top_block()
        src = blocks.vector_source_c((-y + 0j).astype(np.complex64).tolist())
        dm = gpuofdm.demapper_cf("BPSK", 1.0, True, 0, "cpu")
        s2t = blocks.stream_to_tagged_stream(gr.sizeof_float, 1, 2 * (fs + TAIL), "packet_len")
        dec = gpuofdm.viterbi_decoder_fb("802.11a", "1/2", "frame", "packet_len", 0, "cpu")
        snk = blocks.vector_sink_b()
        tb.connect(src, dm, s2t, dec, snk)
        tb.run()
        e_ours = int(np.sum(strip_tails(np.array(snk.data(), dtype=np.uint8), fs) != bits))
        e_gr = int(np.sum(gr_decode(np.where(y < 0, 176, 80).astype(np.uint8), fs) != bits))
        print("Eb/N0 4 dB hard, %d bits: ours %d errors, GNU Radio %d" % (bits.size, e_ours, e_gr))
        self.assertGreater(e_gr, 20)
        # Both are maximum likelihood on the same hard bits; they differ only in ties and
        # in our chunk boundaries. Errors come in bursts of a few bits, hence the slack.
        self.assertLessEqual(abs(e_ours - e_gr), 4 * np.sqrt(e_ours + e_gr) + 10)

    def test_006_stream_is_independent_of_call_sizes_and_moves_tags(self):
        n = 20000
        rng = np.random.default_rng(SEED + 6)
        llr = (rng.standard_normal(2 * n) * 2).astype(np.float32)
        ref, _ = ours(llr, "stream")
        self.assertEqual(ref.size, n)
        # The same stream again, cut into many short calls.
        tag = gr.tag_t()
        tag.offset = 2 * 12345 + 1
        tag.key = pmt.intern("mark")
        tag.value = pmt.from_long(7)
        tb = gr.top_block()
        src = blocks.vector_source_f(llr.tolist(), False, 1, [tag])
        # The smallest batch (one 256-step chunk a launch, output multiple 256): many calls.
        blk = gpuofdm.viterbi_decoder_fb("802.11a", "1/2", "stream", "", 336, "cpu")
        snk = blocks.vector_sink_b()
        tb.connect(src, blk, snk)
        tb.run(1024)  # at most 1024 items a call: many short calls
        got = np.array(snk.data(), dtype=np.uint8)
        self.assertTrue(np.array_equal(got, ref))
        tags = [t for t in snk.tags() if pmt.symbol_to_string(t.key) == "mark"]
        self.assertEqual([t.offset for t in tags], [12345])

    def test_006b_punctured_stream_is_independent_of_call_sizes(self):
        # Every 802.16 rate, noisy, a partial period at the end: the smallest batch (many
        # one-chunk calls) and a large one give the same bits and tag offsets.
        rng = np.random.default_rng(SEED + 66)
        for rate, kept, min_batch in (("2/3", 3, 384), ("3/4", 4, 416), ("5/6", 6, 512)):
            n = 6000 * kept + 1
            llr = (rng.standard_normal(n) * 2).astype(np.float32)
            got = []
            for batch in (min_batch, 1 << 16):
                tag = gr.tag_t()
                tag.offset = 4321
                tag.key = pmt.intern("mark")
                tag.value = pmt.from_long(1)
                tb = gr.top_block()
                src = blocks.vector_source_f(llr.tolist(), False, 1, [tag])
                blk = gpuofdm.viterbi_decoder_fb("802.16", rate, "stream", "", batch, "cpu")
                snk = blocks.vector_sink_b()
                tb.connect(src, blk, snk)
                tb.run()
                got.append((np.array(snk.data(), dtype=np.uint8),
                            [t.offset for t in snk.tags()
                             if pmt.symbol_to_string(t.key) == "mark"]))
            self.assertEqual(got[0][0].size, n // kept * blk.period_steps())
            self.assertTrue(np.array_equal(got[0][0], got[1][0]), rate)
            self.assertEqual(got[0][1], got[1][1], rate)
            self.assertEqual(len(got[0][1]), 1, rate)

    def test_006c_frames_of_mixed_lengths_batched(self):
        # Runs of equal-length frames go to one launch; lengths change, a bad frame is
        # dropped, tags move: the same as decoding each frame on its own.
        rng = np.random.default_rng(SEED + 67)
        lengths = [2 * 300, 2 * 300, 2 * 300, 2 * 450, 2 * 450, 2 * 100 + 1, 2 * 300]
        llr = (rng.standard_normal(sum(lengths)) * 2).astype(np.float32)
        tags, starts, pos = [], [], 0
        for i, n in enumerate(lengths):
            starts.append(pos)
            tags.append(gr.tag_t())
            tags[-1].offset, tags[-1].key = pos, pmt.intern("packet_len")
            tags[-1].value = pmt.from_long(n)
            tags.append(gr.tag_t())
            tags[-1].offset, tags[-1].key = pos + 7, pmt.intern("mark")
            tags[-1].value = pmt.from_long(i)
            pos += n
        tb = gr.top_block()
        src = blocks.vector_source_f(llr.tolist(), False, 1, tags)
        blk = gpuofdm.viterbi_decoder_fb("802.11a", "1/2", "frame", "packet_len", 0, "cpu")
        snk = blocks.vector_sink_b()
        tb.connect(src, blk, snk)
        tb.run()
        got = np.array(snk.data(), dtype=np.uint8)
        want, want_len, want_mark, out = [], [], [], 0
        for i, (s, n) in enumerate(zip(starts, lengths)):
            if n % 2:
                continue  # dropped
            one, _ = ours(llr[s:s + n], "frame", n)
            want.append(one)
            want_len.append((out, n // 2))
            want_mark.append((out + 3, i))
            out += n // 2
        self.assertTrue(np.array_equal(got, np.concatenate(want)))

        def by_key(k):
            return [(t.offset, pmt.to_long(t.value)) for t in snk.tags()
                    if pmt.symbol_to_string(t.key) == k]
        self.assertEqual(by_key("packet_len"), want_len)
        self.assertEqual(by_key("mark"), want_mark)

    def test_007_bad_parameters_raise_naming_them(self):
        cases = [
            (dict(standard="802.11b"), "standard"),
            (dict(rate="7/8"), "rate"),
            (dict(mode="burst"), "mode"),
            (dict(mode="frame", len_tag_key=""), "len_tag_key"),
            (dict(batch=-1), "batch"),
            (dict(batch=100), "batch"),
            (dict(rate="5/6", batch=511), "batch"),
            (dict(batch=2 ** 26 + 1), "batch"),
            (dict(device="tpu"), "device"),
        ]
        for kwargs, name in cases:
            args = dict(standard="802.11a", rate="1/2", mode="stream", len_tag_key="packet_len",
                        batch=0, device="cpu")
            args.update(kwargs)
            with self.assertRaises(ValueError, msg=str(kwargs)) as ctx:
                gpuofdm.viterbi_decoder_fb(**args)
            self.assertIn(name, str(ctx.exception))
        # The least batch is a chunk and its two overlaps: 336 steps at 1/2, 512 at 5/6.
        for rate, least in (("1/2", 336), ("5/6", 512)):
            dec = gpuofdm.viterbi_decoder_fb("802.16", rate, "stream", "", least, "cpu")
            self.assertEqual(dec.batch(), least)

    def test_008_cuda_matches_cpu(self):
        why = gpu_reason()
        if why:
            self.skipTest("no usable GPU: " + why)
        rng = np.random.default_rng(SEED + 7)
        for rate, period in (("1/2", 2), ("3/4", 4), ("5/6", 6)):
            llr = (rng.standard_normal(period * 30000) * 1.5 + 1).astype(np.float32)
            for mode, frame in (("stream", 0), ("frame", period * 1000)):
                a, _ = ours(llr, mode, frame, rate, device="cpu")
                b, _ = ours(llr, mode, frame, rate, device="cuda", batch=1 << 14)
                self.assertTrue(np.array_equal(a, b), "%s %s" % (rate, mode))


if __name__ == "__main__":
    gr_unittest.run(qa_viterbi_decoder_fb)
