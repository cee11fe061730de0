/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// What a CUDA failure does to every GPU block in a flowgraph, through the device layer's
// fault injection (set_cuda_fault): a failing kernel launch or copy in the middle of a
// stream makes the block log one error and end, so wait() returns, and what it wrote
// before is the correct output (no zeros in place of results); an out-of-memory at
// construction makes make() throw saying so; "cuda" without a usable GPU throws saying
// why. The mechanism itself (an exception in work() ends the flowgraph even with an
// endless source upstream) is checked on the CPU.

#include "block_test_util.h"
#include "work_guard.h"

#include <gnuradio/blocks/head.h>
#include <gnuradio/blocks/null_sink.h>
#include <gnuradio/io_signature.h>
#include <gnuradio/sync_block.h>
#include <gnuradio/gpuofdm/cell_searcher_cc.h>
#include <gnuradio/gpuofdm/conv_encoder_bb.h>
#include <gnuradio/gpuofdm/demapper_cf.h>
#include <gnuradio/gpuofdm/interleaver_bb.h>
#include <gnuradio/gpuofdm/interleaver_ff.h>
#include <gnuradio/gpuofdm/mapper_bc.h>
#include <gnuradio/gpuofdm/ofdm_fft.h>
#include <gnuradio/gpuofdm/ofdm_ifft.h>
#include <gnuradio/gpuofdm/ofdm_sync_cc.h>
#include <gnuradio/gpuofdm/pfb_timing_sync_ccf.h>
#include <gnuradio/gpuofdm/prach_detector_c.h>
#include <gnuradio/gpuofdm/prach_source_c.h>
#include <gnuradio/gpuofdm/rs_decoder_bb.h>
#include <gnuradio/gpuofdm/rs_encoder_bb.h>
#include <gnuradio/gpuofdm/scrambler_bb.h>
#include <gnuradio/gpuofdm/viterbi_decoder_fb.h>
#include <gnuradio/gpuofdm/wifi_rx.h>
#include <gnuradio/gpuofdm/wifi_tx.h>
#include <gnuradio/gpuofdm/wimax_rx.h>
#include <gnuradio/gpuofdm/wimax_tx.h>

#include <cmath>
#include <functional>
#include <stdexcept>

using namespace gr::gpuofdm;
using namespace gr::gpuofdm::block_test;

namespace {

//! Disarms any fault left armed when a test ends (a fault that did not fire).
struct fault_guard {
    explicit fault_guard(const std::string& spec) { set_cuda_fault(spec); }
    ~fault_guard() { set_cuda_fault(""); }
};

//! A block whose work() throws on its second call, through the blocks' stop_on_error().
class throwing_block : public gr::sync_block
{
public:
    throwing_block()
        : gr::sync_block("throwing_block",
                         gr::io_signature::make(1, 1, sizeof(float)),
                         gr::io_signature::make(1, 1, sizeof(float)))
    {
    }
    int work(int noutput_items, gr_vector_const_void_star& in, gr_vector_void_star& out) override
    {
        return stop_on_error(d_logger, [&]() -> int {
            if (++d_calls == 2)
                throw std::runtime_error("injected failure");
            std::copy_n(static_cast<const float*>(in[0]), noutput_items,
                        static_cast<float*>(out[0]));
            return noutput_items;
        });
    }

private:
    int d_calls = 0;
};

//! The flowgraph a sample block runs in: its input, and how its output compares.
struct stream_case {
    const char* name;
    std::function<gr::basic_block_sptr(const std::string& device)> make;
    enum { bytes, floats, complexes } in_type, out_type;
    unsigned in_vlen = 1, out_vlen = 1;
    size_t n_in = 1 << 20;
};

//! A smooth low-pass prototype for the timing block (a Hann-windowed sinc, 704 taps).
std::vector<float> timing_prototype()
{
    const size_t n = 704;
    std::vector<float> h(n);
    for (size_t i = 0; i < n; i++) {
        const double t = (double(i) - double(n - 1) / 2) / 64.0;
        const double sinc = t == 0 ? 1.0 : std::sin(M_PI * t) / (M_PI * t);
        h[i] = float(sinc * (0.5 - 0.5 * std::cos(2 * M_PI * double(i) / double(n - 1))) / 2);
    }
    return h;
}

std::vector<stream_case> stream_cases()
{
    using c = stream_case;
    // Small batches: many launches and copies, so a fault lands in the middle of the stream.
    return {
        { "scrambler_bb", [](auto d) { return scrambler_bb::make("802.11a", 93, "", 4096, d); },
          c::bytes, c::bytes },
        { "conv_encoder_bb",
          [](auto d) { return conv_encoder_bb::make("802.11a", "3/4", "", 4096, d); }, c::bytes,
          c::bytes },
        { "interleaver_bb",
          [](auto d) { return interleaver_bb::make("802.11a", 192, 4, false, 16, d); }, c::bytes,
          c::bytes },
        { "interleaver_ff",
          [](auto d) { return interleaver_ff::make("802.11a", 192, 4, true, 16, d); }, c::floats,
          c::floats },
        { "mapper_bc", [](auto d) { return mapper_bc::make("16QAM", 4096, d); }, c::bytes,
          c::complexes },
        { "demapper_cf", [](auto d) { return demapper_cf::make("16QAM", 0.5f, false, 4096, d); },
          c::complexes, c::floats },
        { "ofdm_fft", [](auto d) { return ofdm_fft::make(64, { 16 }, true, 1.0f, 64, d); },
          c::complexes, c::complexes, 1, 64, 80 * 8192 },
        { "ofdm_ifft", [](auto d) { return ofdm_ifft::make(64, { 16 }, true, 1.0f, 64, d); },
          c::complexes, c::complexes, 64, 1, 64 * 8192 },
        { "rs_encoder_bb", [](auto d) { return rs_encoder_bb::make(40, 36, 2, 64, d); }, c::bytes,
          c::bytes, 1, 1, 36 * 8192 },
        { "rs_decoder_bb", [](auto d) { return rs_decoder_bb::make(40, 36, 2, 64, d); }, c::bytes,
          c::bytes, 1, 1, 40 * 8192 },
        { "viterbi_decoder_fb",
          [](auto d) { return viterbi_decoder_fb::make("802.11a", "1/2", "stream", "", 0, d); },
          c::floats, c::bytes },
        { "ofdm_sync_cc",
          [](auto d) { return ofdm_sync_cc::make("802.11a", 0.56f, 32, 65536, 20e6, d); },
          c::complexes, c::complexes },
        { "pfb_timing_sync_ccf",
          [](auto d) {
              return pfb_timing_sync_ccf::make(2.0f, 0.0628f, timing_prototype(), 32, 16, 1.5f, 1,
                                               d, "sequential", 8192, 2048);
          },
          c::complexes, c::complexes },
        { "cell_searcher_cc",
          [](auto d) {
              return cell_searcher_cc::make("lte", 1.92e6, 0, {}, 30, 0, 18, 14, 1, 5, d);
          },
          c::complexes, c::complexes },
    };
}

//! Runs \p blk on \p c's input (the same pseudo-random input every time) and returns its
//! output as bytes (floats and complexes by their bits: the backends are deterministic).
std::vector<uint8_t> run_case(const stream_case& c, const gr::basic_block_sptr& blk)
{
    auto as_bytes = [](const auto& v) {
        const auto* p = reinterpret_cast<const uint8_t*>(v.data());
        return std::vector<uint8_t>(p, p + v.size() * sizeof(v[0]));
    };
    const size_t n = c.n_in;
    switch (c.in_type * 3 + c.out_type) {
    case stream_case::bytes * 3 + stream_case::bytes:
        return as_bytes(
            run_block<uint8_t, uint8_t>(blk, random_bits(n, 7), {}, c.in_vlen, c.out_vlen).data);
    case stream_case::bytes * 3 + stream_case::complexes:
        return as_bytes(
            run_block<uint8_t, gr_complex>(blk, random_bits(n, 7), {}, c.in_vlen, c.out_vlen).data);
    case stream_case::floats * 3 + stream_case::floats:
        return as_bytes(
            run_block<float, float>(blk, random_floats(n, 7), {}, c.in_vlen, c.out_vlen).data);
    case stream_case::floats * 3 + stream_case::bytes:
        return as_bytes(
            run_block<float, uint8_t>(blk, random_floats(n, 7), {}, c.in_vlen, c.out_vlen).data);
    case stream_case::complexes * 3 + stream_case::floats:
        return as_bytes(
            run_block<gr_complex, float>(blk, random_complex(n, 7), {}, c.in_vlen, c.out_vlen)
                .data);
    default:
        return as_bytes(
            run_block<gr_complex, gr_complex>(blk, random_complex(n, 7), {}, c.in_vlen, c.out_vlen)
                .data);
    }
}

void expect_prefix_of(const std::vector<uint8_t>& got,
                      const std::vector<uint8_t>& want,
                      const std::string& what)
{
    EXPECT_LT(got.size(), want.size()) << what << ": the fault did not stop the block";
    const size_t n = std::min(got.size(), want.size());
    EXPECT_TRUE(std::equal(got.begin(), got.begin() + long(n), want.begin()))
        << what << ": the output before the fault differs from the fault-free output";
}

pmt::pmt_t pdu(size_t len, uint32_t seed)
{
    const auto data = random_bytes(len, seed);
    return pmt::cons(pmt::make_dict(), pmt::init_u8vector(data.size(), data));
}

} // namespace

TEST(GpuFaults, AnExceptionInWorkEndsTheFlowgraphEvenWithAnEndlessSource)
{
    // The CPU check of the mechanism every block uses: GNU Radio's scheduler must end the
    // blocks around one that returns WORK_DONE, an endless source upstream included.
    auto tb = gr::make_top_block("throwing");
    auto src = gr::blocks::vector_source<float>::make(random_floats(4096, 1), true);
    auto blk = gnuradio::make_block_sptr<throwing_block>();
    auto snk = gr::blocks::vector_sink<float>::make();
    tb->connect(src, 0, blk, 0);
    tb->connect(blk, 0, snk, 0);
    run_bounded(tb);
}

TEST(GpuFaults, CudaWithoutAUsableGpuFailsMakeSayingWhy)
{
    const std::string why = gpu_unusable_reason(0);
    if (why.empty())
        GTEST_SKIP() << "a GPU is usable here";
    try {
        scrambler_bb::make("802.11a", 93, "", 0, "cuda");
        ADD_FAILURE() << "make() with device cuda did not throw";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
}

TEST(GpuFaults, SampleBlocksStopOnAFailedLaunchOrCopy)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    for (const auto& c : stream_cases()) {
        SCOPED_TRACE(c.name);
        const auto want = run_case(c, c.make(gpu_device()));
        ASSERT_FALSE(want.empty());
        for (const char* fault : { "launch:3", "copy:3" }) {
            auto blk = c.make(gpu_device()); // made before the fault is armed
            fault_guard armed(fault);
            expect_prefix_of(run_case(c, blk), want, std::string(c.name) + " " + fault);
        }
    }
}

TEST(GpuFaults, EveryGpuBlockFailsMakeWhenTheGpuIsFull)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    std::vector<std::pair<std::string, std::function<gr::basic_block_sptr()>>> makers;
    for (const auto& c : stream_cases())
        makers.emplace_back(c.name, [c] { return c.make(gpu_device()); });
    makers.emplace_back("wifi_tx", [] { return wifi_tx::make(54, 93, 0, 1.0f, 64, gpu_device()); });
    makers.emplace_back("wimax_tx", [] {
        return wimax_tx::make(1, 4, "long", false, true, 19072, 0, 1.0f, 64, gpu_device());
    });
    makers.emplace_back("wifi_rx",
                        [] { return wifi_rx::make(131072, 0.56f, false, "", gpu_device()); });
    makers.emplace_back("wimax_rx", [] {
        return wimax_rx::make(1, 95, 4, false, true, 19072, false, 4e6, 0, gpu_device());
    });
    makers.emplace_back("prach_detector_c", [] {
        return prach_detector_c::make(30.72e6, "0", 30, 4, { 1 }, { 1 }, {}, { 0.0 }, 1, 0, 0, 0, 0,
                                      1e-3, gpu_device());
    });
    for (const auto& [name, make] : makers) {
        fault_guard armed("oom");
        try {
            make();
            ADD_FAILURE() << name << ": make() did not fail with the GPU full";
        } catch (const std::runtime_error& e) {
            EXPECT_NE(std::string(e.what()).find("out of memory"), std::string::npos)
                << name << ": " << e.what();
        }
    }
}

TEST(GpuFaults, TransmittersStopOnAFailedLaunchOrCopy)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    std::vector<pmt::pmt_t> msgs;
    for (uint32_t i = 0; i < 200; i++)
        msgs.push_back(pdu(100 + 7 * i, i));
    const std::function<gr::basic_block_sptr()> makers[] = {
        [] { return wifi_tx::make(54, 93, 100, 1.0f, 4, gpu_device()); },
        [] { return wimax_tx::make(1, 4, "long", false, true, 19072, 100, 1.0f, 4, gpu_device()); }
    };
    for (const auto& make : makers) {
        const auto want = run_pdus(make(), msgs).data;
        for (const char* fault : { "launch:5", "copy:5" }) {
            auto blk = make();
            fault_guard armed(fault);
            const auto got = run_pdus(blk, msgs).data;
            EXPECT_LT(got.size(), want.size()) << fault;
            for (size_t i = 0; i < std::min(got.size(), want.size()); i++)
                if (got[i] != want[i]) {
                    ADD_FAILURE() << fault << ": sample " << i << " differs";
                    break;
                }
        }
    }
}

TEST(GpuFaults, ReceiversStopOnAFailedLaunchOrCopy)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    // 802.11a frames and 802.16 bursts from the CPU transmitters, a few batches' worth.
    std::vector<pmt::pmt_t> msgs;
    for (uint32_t i = 0; i < 300; i++)
        msgs.push_back(pdu(95, 1000 + i));
    const auto wifi = run_pdus(wifi_tx::make(24, 93, 400, 1.0f, 64, "cpu"), msgs).data;
    const auto wimax =
        run_pdus(wimax_tx::make(1, 4, "long", false, true, 19072, 400, 1.0f, 64, "cpu"), msgs).data;
    struct rx_case {
        const char* name;
        std::function<gr::basic_block_sptr()> make;
        const std::vector<gr_complex>& x;
    };
    const rx_case cases[] = {
        // The PSDUs are random octets, so their FCS fails: pass_bad_crc lets them through.
        { "wifi_rx", [] { return wifi_rx::make(131072, 0.56f, true, "", gpu_device()); }, wifi },
        { "wimax_rx",
          [] { return wimax_rx::make(1, 95, 4, false, true, 19072, false, 4e6, 0, gpu_device()); },
          wimax },
    };
    for (const auto& c : cases) {
        const auto want = run_receiver(c.make(), c.x);
        EXPECT_EQ(want.size(), msgs.size()) << c.name;
        for (const char* fault : { "launch:20", "copy:20" }) {
            auto rx = c.make();
            fault_guard armed(fault);
            const auto got = run_receiver(rx, c.x); // ends: run_bounded fails on a hang
            EXPECT_LT(got.size(), want.size()) << c.name << " " << fault;
            for (size_t i = 0; i < std::min(got.size(), want.size()); i++)
                EXPECT_EQ(got[i].payload, want[i].payload) << c.name << " PDU " << i;
        }
    }
}

TEST(GpuFaults, PrachDetectorStopsOnAFailedLaunchOrCopy)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    // Format 0 at 7.68 Msps, one UE in each of 20 occasions 10 ms apart: 20 detections
    // without a fault; a fault in the calls of a later occasion (one a batch, some 5
    // launches and 3 or more copies a batch: work()'s uploads of the occasion's parts, the
    // front end's and the window scans') or of the second or third batch of 4 ends the
    // flowgraph with the first occasions' detections reported; a failed first copy (an
    // upload of work()) ends it with none.
    const int period = 76800, occasions = 20;
    auto run = [&](const char* fault, int max_batch) {
        auto tb = gr::make_top_block("prach_fault");
        auto src = prach_source_c::make(7.68e6, "0", 15, 1, 3, 1, "unrestricted", -375e3, 0, period,
                                        { 9 }, { 4.0 }, {}, { 0.0 }, {}, true, 2);
        auto head = gr::blocks::head::make(sizeof(gr_complex), size_t(occasions) * period);
        auto det = prach_detector_c::make(7.68e6, "0", 15, 1, { 3 }, { 1 }, {}, { -375e3 }, 1, 0, 0,
                                          period, 0, 1e-3, gpu_device(), max_batch);
        auto dbg = gr::blocks::message_debug::make();
        tb->connect(src, 0, head, 0);
        tb->connect(head, 0, det, 0);
        tb->msg_connect(det, "detections", dbg, "store");
        std::unique_ptr<fault_guard> armed;
        if (fault)
            armed = std::make_unique<fault_guard>(fault);
        run_bounded(tb);
        std::vector<long> preambles;
        for (size_t i = 0; i < dbg->num_messages(); i++)
            preambles.push_back(pmt::to_long(
                pmt::dict_ref(dbg->get_message(int(i)), pmt::mp("preamble"), pmt::PMT_NIL)));
        return preambles;
    };
    for (int max_batch : { 1, 4 }) {
        const auto want = run(nullptr, max_batch);
        EXPECT_EQ(want, std::vector<long>(size_t(occasions), 9L)) << "max_batch " << max_batch;
        for (const char* fault : { "launch:12", "copy:12", "copy:1" }) {
            const auto got = run(fault, max_batch);
            EXPECT_LT(got.size(), want.size()) << fault << ", max_batch " << max_batch;
            EXPECT_EQ(got, std::vector<long>(got.size(), 9L)) << fault;
        }
    }
}
