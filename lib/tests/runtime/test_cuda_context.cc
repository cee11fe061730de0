/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The CUDA context a chain's stages share (runtime/cuda_context.h): it refuses the CPU,
// a stage takes the context it is given (or makes its own), the scratch grows only when
// asked for more, events join two streams, and the stages' factories hand the context
// through to every stage they build (so a receiver's chain is on one stream).

#include "test_util.h"

#ifdef GPUOFDM_HAVE_CUDA

#include "fec/viterbi.h"
#include "runtime/cuda_context.h"
#include "wifi/wifi_decode.h"
#include "wifi/wifi_sync.h"
#include "wimax/wimax_rx.h"

#include <numeric>
#include <stdexcept>
#include <vector>

using namespace gr::gpuofdm;

TEST(cuda_context, refuses_the_cpu)
{
    EXPECT_THROW(core::cuda_context{ core::device_spec{} }, std::invalid_argument);
    EXPECT_THROW(core::cuda_context::for_stage(core::device_spec{}, nullptr),
                 std::invalid_argument);
}

TEST(cuda_context, a_stage_takes_the_context_given_or_makes_its_own)
{
    GPUOFDM_REQUIRE_GPU();
    const auto dev = core::resolve_device("cuda:0");
    const auto ctx = core::make_cuda_context(dev);
    EXPECT_EQ(core::cuda_context::for_stage(dev, ctx), ctx);
    const auto own = core::cuda_context::for_stage(dev, nullptr);
    ASSERT_TRUE(own);
    EXPECT_NE(own, ctx);
    EXPECT_NE(own->stream(), ctx->stream());
    EXPECT_EQ(own->device().cuda_index, 0);
    // A context of another device, or for the CPU, is refused.
    core::device_spec other = dev;
    other.cuda_index = 1;
    EXPECT_THROW(core::cuda_context::for_stage(other, ctx), std::invalid_argument);
    EXPECT_THROW(core::cuda_context::for_stage(core::device_spec{}, ctx), std::invalid_argument);
}

TEST(cuda_context, scratch_grows_only_when_asked_for_more)
{
    GPUOFDM_REQUIRE_GPU();
    auto ctx = core::make_cuda_context(core::resolve_device("cuda:0"));
    EXPECT_EQ(ctx->scratch_bytes(), 0u);
    void* a = ctx->scratch(1000);
    ASSERT_NE(a, nullptr);
    EXPECT_GE(ctx->scratch_bytes(), 1000u);
    EXPECT_EQ(ctx->scratch(10), a);
    EXPECT_EQ(ctx->scratch(1000), a);
    ctx->scratch(size_t(1) << 20);
    EXPECT_GE(ctx->scratch_bytes(), size_t(1) << 20);
    // The memory is usable on the stream.
    GPUOFDM_CUDA_CHECK(
        cudaMemsetAsync(ctx->scratch(size_t(1) << 20), 0, size_t(1) << 20, ctx->stream()));
    ctx->synchronize();
}

// A copy queued on one context's stream, then read on another's after wait(): the second
// stream sees the data without a host synchronization between them.
TEST(cuda_context, events_join_two_streams)
{
    GPUOFDM_REQUIRE_GPU();
    const auto dev = core::resolve_device("cuda:0");
    auto a = core::make_cuda_context(dev);
    auto b = core::make_cuda_context(dev);
    const size_t n = size_t(1) << 24; // long enough for an unjoined read to overtake it
    core::pinned_buffer<float> host_in(n), host_out(n);
    std::iota(host_in.get(), host_in.get() + n, 0.0f);
    std::fill(host_out.get(), host_out.get() + n, -1.0f);
    core::device_buffer<float> d(n);
    GPUOFDM_CUDA_CHECK(cudaMemsetAsync(d.get(), 0, n * sizeof(float), a->stream()));
    a->synchronize();
    core::cuda_event written;
    GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d.get(), host_in.get(), n * sizeof(float),
                                       cudaMemcpyHostToDevice, a->stream()));
    a->record(written);
    b->wait(written);
    GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(host_out.get(), d.get(), n * sizeof(float),
                                       cudaMemcpyDeviceToHost, b->stream()));
    b->synchronize();
    EXPECT_TRUE(std::equal(host_in.get(), host_in.get() + n, host_out.get()));
}

// Every stage a factory builds with a context holds that context (use_count counts the
// holders), and nothing else: a receiver's synchronizer, decoder and Viterbi decoders are
// on its one stream.
TEST(cuda_context, stage_factories_share_the_context)
{
    GPUOFDM_REQUIRE_GPU();
    const auto dev = core::resolve_device("cuda:0");
    const auto ctx = core::make_cuda_context(dev);
    ASSERT_EQ(ctx.use_count(), 1);
    auto vit = core::make_viterbi_decoder(core::viterbi_params{}, dev, ctx);
    EXPECT_EQ(ctx.use_count(), 2);
    auto sync = core::make_wifi_sync(core::wifi_sync_params{}, dev, ctx);
    EXPECT_EQ(ctx.use_count(), 3);
    auto wsync = core::make_wimax_sync(core::wimax_sync_params{}, dev, ctx);
    EXPECT_EQ(ctx.use_count(), 4);
    // The DATA decoder and its Viterbi decoders, one per code rate (1/2, 2/3, 3/4).
    auto dec = core::make_wifi_decoder(core::wifi_decode_params{}, dev, ctx);
    EXPECT_EQ(ctx.use_count(), 4 + 1 + 3);
    dec.reset();
    vit.reset();
    sync.reset();
    wsync.reset();
    EXPECT_EQ(ctx.use_count(), 1);
    // Without one, a stage makes its own.
    auto alone = core::make_viterbi_decoder(core::viterbi_params{}, dev);
    EXPECT_EQ(ctx.use_count(), 1);
}

#endif
