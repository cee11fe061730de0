/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_APPS_CLI_OPTIONS_H
#define GPUOFDM_APPS_CLI_OPTIONS_H

// The command-line parsing the apps share: a table of "--name [value]" options, each
// setting a field; --help / -h prints the usage and exits; an unknown option or a missing
// value is a std::invalid_argument naming it.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpuofdm_apps {

struct cli_option {
    std::string name;
    bool takes_value;
    std::function<void(const std::string&)> set;
};

inline cli_option value(const std::string& name, std::string& v)
{
    return { name, true, [&v](const std::string& s) { v = s; } };
}
inline cli_option value(const std::string& name, int& v)
{
    return { name, true, [&v](const std::string& s) { v = std::stoi(s); } };
}
inline cli_option value(const std::string& name, long& v)
{
    return { name, true, [&v](const std::string& s) { v = std::stol(s); } };
}
inline cli_option value(const std::string& name, uint32_t& v)
{
    return { name, true, [&v](const std::string& s) { v = uint32_t(std::stoul(s)); } };
}
inline cli_option value(const std::string& name, float& v)
{
    return { name, true, [&v](const std::string& s) { v = std::stof(s); } };
}
inline cli_option value(const std::string& name, double& v)
{
    return { name, true, [&v](const std::string& s) { v = std::stod(s); } };
}
//! An option with its own conversion of the value.
inline cli_option custom(const std::string& name, std::function<void(const std::string&)> f)
{
    return { name, true, std::move(f) };
}
//! An option without a value: sets v to true.
inline cli_option flag(const std::string& name, bool& v)
{
    return { name, false, [&v](const std::string&) { v = true; } };
}

inline void parse_cli(int argc, char** argv, const std::vector<cli_option>& opts, void (*usage)())
{
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            usage();
            std::exit(0);
        }
        const cli_option* found = nullptr;
        for (const auto& o : opts)
            if (o.name == a)
                found = &o;
        if (!found)
            throw std::invalid_argument("unknown option " + a + " (try --help)");
        if (found->takes_value && i + 1 >= argc)
            throw std::invalid_argument(a + ": needs a value");
        found->set(found->takes_value ? std::string(argv[++i]) : std::string());
    }
}

} // namespace gpuofdm_apps

#endif
