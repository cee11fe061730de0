/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "test_util.h"

#include <cstdlib>

namespace gr::gpuofdm::test {

std::string testvector_dir()
{
    const char* env = std::getenv("GPUOFDM_TESTVECTORS");
    return env && *env ? env : GPUOFDM_DEFAULT_TESTVECTORS;
}

} // namespace gr::gpuofdm::test

int main(int argc, char** argv)
{
    ::testing::InitGoogleTest(&argc, argv);
    const std::string why = gr::gpuofdm::core::cuda_unusable_reason(0);
    std::printf("gr-gpuofdm core tests: GPU %s\n",
                why.empty() ? "usable, CUDA tests run"
                            : ("not usable (" + why + "), CUDA tests skip").c_str());
    return RUN_ALL_TESTS();
}
