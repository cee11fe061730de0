/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_APPS_APP_MAIN_H
#define GPUOFDM_APPS_APP_MAIN_H

// What the search apps' main() functions share: their exit statuses for errors, and writing
// their JSON results.

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

namespace gpuofdm_apps {

//! Writes text to path, nothing when path is empty; std::runtime_error("PATH: cannot write").
inline void write_text_file(const std::string& path, const std::string& text)
{
    if (path.empty())
        return;
    std::ofstream f(path);
    if (!(f << text))
        throw std::runtime_error(path + ": cannot write");
}

/*!
 * main() of an app: body()'s exit status; 2 for a std::invalid_argument (a bad option or
 * parameter, printed as "APP: what") and 1 for any other std::exception ("APP: error: what").
 */
template <typename Body>
int run_app(const char* app, const Body& body)
{
    try {
        return body();
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "%s: %s\n", app, e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: error: %s\n", app, e.what());
        return 1;
    }
}

} // namespace gpuofdm_apps

#endif
