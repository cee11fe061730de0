/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_APPS_CLI_OPTIONS_H
#define GPUOFDM_APPS_CLI_OPTIONS_H

// The command-line parsing the apps share: a table of "--name [value]" options, each
// setting a field; --help / -h prints the usage and exits 0, --version prints the version
// and exits 0. A number must be the whole of its argument ("10abc", "x", "1e3" for an
// integer are refused); an unknown option, a missing value or a bad number is a
// std::invalid_argument naming the option. The apps exit 2 on it.

#include <cerrno>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#ifndef GPUOFDM_VERSION
#define GPUOFDM_VERSION "unknown"
#endif

namespace gpuofdm_apps {

//! "NAME VERSION": the module's version from CMake's project(), no git description.
inline std::string version_line(const char* app)
{
    return std::string(app) + " " + GPUOFDM_VERSION;
}

//! The whole of text as a T, else std::invalid_argument("OPTION: expected ..., got 'text'").
template <typename T>
T parse_number(const std::string& option, const std::string& text)
{
    static_assert(std::is_arithmetic_v<T>, "a number type");
    const char* what = std::is_floating_point_v<T> ? "a number"
                       : std::is_unsigned_v<T>     ? "a non-negative integer"
                                                   : "an integer";
    auto bad = [&](const char* why) {
        return std::invalid_argument(option + ": expected " + what + why + ", got '" + text + "'");
    };
    // strto* skip leading blanks and take a prefix; neither is a number here.
    if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])))
        throw bad("");
    char* end = nullptr;
    errno = 0;
    if constexpr (std::is_floating_point_v<T>) {
        const long double v = std::strtold(text.c_str(), &end);
        if (*end != '\0')
            throw bad("");
        if (errno == ERANGE || !std::isfinite(v) || std::fabs(v) > std::numeric_limits<T>::max())
            throw bad(" (finite)");
        return T(v);
    } else if constexpr (std::is_unsigned_v<T>) {
        if (text[0] == '-')
            throw bad("");
        const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
        if (*end != '\0')
            throw bad("");
        if (errno == ERANGE || v > std::numeric_limits<T>::max())
            throw bad((" (at most " + std::to_string(std::numeric_limits<T>::max()) + ")").c_str());
        return T(v);
    } else {
        const long long v = std::strtoll(text.c_str(), &end, 10);
        if (*end != '\0')
            throw bad("");
        if (errno == ERANGE || v < std::numeric_limits<T>::min() ||
            v > std::numeric_limits<T>::max())
            throw bad((" in " + std::to_string(std::numeric_limits<T>::min()) + ".." +
                       std::to_string(std::numeric_limits<T>::max()))
                          .c_str());
        return T(v);
    }
}

//! A comma-separated list of numbers, each parsed as by parse_number; at least one.
template <typename T>
std::vector<T> parse_number_list(const std::string& option, const std::string& text)
{
    std::vector<T> out;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ','))
        out.push_back(parse_number<T>(option, item));
    if (out.empty())
        throw std::invalid_argument(option + ": expected a comma-separated list, got '" + text +
                                    "'");
    return out;
}

struct cli_option {
    std::string name;
    bool takes_value;
    std::function<void(const std::string&)> set;
};

inline cli_option value(const std::string& name, std::string& v)
{
    return { name, true, [&v](const std::string& s) { v = s; } };
}
template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
cli_option value(const std::string& name, T& v)
{
    return { name, true, [&v, name](const std::string& s) { v = parse_number<T>(name, s); } };
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

//! Parses argv[1..]; app names the program for --version.
inline void parse_cli(
    int argc, char** argv, const std::vector<cli_option>& opts, void (*usage)(), const char* app)
{
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            usage();
            std::exit(0);
        }
        if (a == "--version") {
            std::puts(version_line(app).c_str());
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

//! parse_cli() for a program whose input FILE may come first, before the options: it is
//! put in \p input (where an option such as --input may still set it).
inline void parse_cli_after_input(int argc,
                                  char** argv,
                                  std::string& input,
                                  const std::vector<cli_option>& opts,
                                  void (*usage)(),
                                  const char* app)
{
    int first = 1;
    if (argc > 1 && argv[1][0] != '-') {
        input = argv[1];
        first = 2;
    }
    std::vector<char*> rest{ argv[0] };
    for (int i = first; i < argc; i++) {
        rest.push_back(argv[i]);
    }
    parse_cli(static_cast<int>(rest.size()), rest.data(), opts, usage, app);
}

} // namespace gpuofdm_apps

#endif
