/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "test_util.h"

#include <stdexcept>

using namespace gr::gpuofdm;

TEST(device, cpu_is_always_available)
{
    const auto d = core::resolve_device("cpu");
    EXPECT_EQ(d.kind, core::backend::cpu);
    EXPECT_EQ(d.to_string(), "cpu");
}

TEST(device, auto_follows_gpu_availability)
{
    const auto d = core::resolve_device("auto");
    EXPECT_EQ(d.is_cuda(), core::cuda_unusable_reason(0).empty());
}

TEST(device, unknown_strings_name_the_parameter)
{
    for (const char* bad :
         { "", "gpu", "CUDA", "cuda:", "cuda:x", "cuda:-1", "cuda:1:2", "cpu " }) {
        try {
            core::resolve_device(bad);
            ADD_FAILURE() << "'" << bad << "' was accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("device"), std::string::npos) << e.what();
        }
    }
}

TEST(device, cuda_without_gpu_fails_with_the_reason)
{
    const std::string why = core::cuda_unusable_reason(0);
    if (why.empty())
        GTEST_SKIP() << "a GPU is usable here; this checks the no-GPU error";
    try {
        core::resolve_device("cuda");
        ADD_FAILURE() << "'cuda' was accepted without a usable GPU";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
}

TEST(device, cuda_index_out_of_range_is_refused)
{
    EXPECT_THROW(core::resolve_device("cuda:999"), std::runtime_error);
}

TEST(device, gpu_is_found_when_present)
{
    GPUOFDM_REQUIRE_GPU();
    EXPECT_TRUE(core::resolve_device("cuda").is_cuda());
    EXPECT_TRUE(core::resolve_device("cuda:0").is_cuda());
}
