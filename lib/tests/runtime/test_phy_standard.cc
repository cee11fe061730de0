/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "runtime/phy_standard.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

using gr::gpuofdm::core::parse_phy_standard;
using gr::gpuofdm::core::phy_standard;
using gr::gpuofdm::core::to_string;

// Every spelling the blocks, apps and tests passed before the one parser.
TEST(phy_standard, parses_every_spelling)
{
    for (const char* s : { "802.11a", "80211a", "802.11A", "802-11a", "802_11a", " 802.11a " })
        EXPECT_EQ(parse_phy_standard(s), phy_standard::ieee80211a) << s;
    for (const char* s : { "802.16", "80216", "802 16", "802-16" })
        EXPECT_EQ(parse_phy_standard(s), phy_standard::ieee80216) << s;
}

TEST(phy_standard, to_string_parses_back)
{
    for (auto s : { phy_standard::ieee80211a, phy_standard::ieee80216 })
        EXPECT_EQ(parse_phy_standard(to_string(s)), s);
    EXPECT_EQ(std::string(to_string(phy_standard::ieee80211a)), "802.11a");
    EXPECT_EQ(std::string(to_string(phy_standard::ieee80216)), "802.16");
}

TEST(phy_standard, others_name_the_parameter)
{
    for (const char* bad : { "", "802.11g", "802.11", "80216e", "wifi" }) {
        try {
            parse_phy_standard(bad, "protocol");
            ADD_FAILURE() << "'" << bad << "' was accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_EQ(std::string(e.what()).rfind("protocol: ", 0), 0u) << e.what();
        }
    }
}
