/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_PHY_STANDARD_H
#define GPUOFDM_CORE_PHY_STANDARD_H

// The one spelling of "which standard": the enum every stage and block takes, its name for
// messages and the one parser of the strings blocks, apps and tests pass.

#include <cctype>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

//! The OFDM standard whose conventions a stage follows.
enum class phy_standard {
    ieee80211a, //!< IEEE 802.11a-1999 clause 17 (also 802.11g ERP-OFDM)
    ieee80216   //!< IEEE 802.16-2004 clause 8.3 (WirelessMAN-OFDM, 256 carriers)
};

//! "802.11a" or "802.16", for messages.
inline const char* to_string(phy_standard s)
{
    return s == phy_standard::ieee80211a ? "802.11a" : "802.16";
}

/*!
 * \brief "802.11a" or "802.16" as a phy_standard; any case, and '.', '-', '_' and blanks
 * are ignored ("80211a", "802.11A", "802-16" too).
 *
 * Throws std::invalid_argument("<name>: must be ..., got ...") for anything else; \p name
 * is the parameter the caller took the string from.
 */
inline phy_standard parse_phy_standard(const std::string& standard, const char* name = "standard")
{
    std::string s;
    for (char c : standard)
        if (c != '.' && c != '-' && c != '_' && c != ' ')
            s += char(std::toupper(static_cast<unsigned char>(c)));
    if (s == "80211A")
        return phy_standard::ieee80211a;
    if (s == "80216")
        return phy_standard::ieee80216;
    throw std::invalid_argument(std::string(name) +
                                ": must be \"802.11a\" (\"80211a\") or \"802.16\" (\"80216\"), "
                                "got \"" +
                                standard + "\"");
}

} // namespace gr::gpuofdm::core

#endif
