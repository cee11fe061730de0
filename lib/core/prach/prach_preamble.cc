/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "prach/prach_preamble.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

namespace {

// exp(-j 2 pi m / L) for an integer m (reduced modulo L first, so the argument is exact).
std::complex<double> unit(long m, int length)
{
    const long r = ((m % length) + length) % length;
    const double a = -2.0 * M_PI * double(r) / double(length);
    return { std::cos(a), std::sin(a) };
}

// u t(n) mod L with t(n) = n (n + 1) / 2: x_u(n) = exp(-j 2 pi (u t(n)) / L).
long root_phase(int u, long n, int length)
{
    const long t = (n * (n + 1) / 2) % length;
    return (long(u) * t) % length;
}

void check_length(int length)
{
    if (length != prach_long_length && length != prach_short_length)
        throw std::invalid_argument("length: 839 or 139, got " + std::to_string(length));
}

void check_root(int u, int cv, int length)
{
    check_length(length);
    if (u < 1 || u >= length)
        throw std::invalid_argument("u: 1.." + std::to_string(length - 1) + ", got " +
                                    std::to_string(u));
    if (cv < 0 || cv >= length)
        throw std::invalid_argument("cv: 0.." + std::to_string(length - 1) + ", got " +
                                    std::to_string(cv));
}

} // namespace

std::vector<int> prach_cyclic_shifts(int u, int length, int ncs, prach_restricted_set set)
{
    check_length(length);
    if (ncs < 0 || ncs >= length)
        throw std::invalid_argument("ncs: 0.." + std::to_string(length - 1) + ", got " +
                                    std::to_string(ncs));
    std::vector<int> shifts;
    if (set == prach_restricted_set::unrestricted) {
        if (ncs == 0)
            return { 0 };
        for (int v = 0; v < length / ncs; v++)
            shifts.push_back(v * ncs);
        return shifts;
    }
    const prach_restricted_params p = prach_restricted(u, length, ncs, set);
    for (int v = 0; v < p.count(); v++)
        shifts.push_back(p.cyclic_shift(v, ncs));
    return shifts;
}

std::vector<prach_preamble_id> prach_cell_preambles(int length,
                                                    int logical_root,
                                                    int ncs,
                                                    prach_restricted_set set)
{
    const int n_roots = length - 1;     // entries of Table 6.3.3.1-3 / -4
    prach_root_u(logical_root, length); // range check
    std::vector<prach_preamble_id> out;
    for (int r = 0; r < n_roots && int(out.size()) < prach_preambles; r++) {
        const int logical = (logical_root + r) % n_roots;
        const int u = prach_root_u(logical, length);
        const std::vector<int> shifts = prach_cyclic_shifts(u, length, ncs, set);
        const int du = set == prach_restricted_set::unrestricted ? 0 : prach_du(u, length);
        for (size_t v = 0; v < shifts.size() && int(out.size()) < prach_preambles; v++) {
            prach_preamble_id id;
            id.index = int(out.size());
            id.logical_root = logical;
            id.u = u;
            id.v = int(v);
            id.cv = shifts[v];
            id.du = du;
            out.push_back(id);
        }
    }
    if (int(out.size()) < prach_preambles)
        throw std::invalid_argument("ncs: N_CS " + std::to_string(ncs) + " with set " +
                                    to_string(set) + " gives fewer than 64 preambles");
    return out;
}

std::vector<std::complex<double>> prach_sequence_time(int u, int cv, int length)
{
    check_root(u, cv, length);
    std::vector<std::complex<double>> x(static_cast<size_t>(length));
    for (int n = 0; n < length; n++)
        x[size_t(n)] = unit(root_phase(u, (n + cv) % length, length), length);
    return x;
}

std::complex<double> prach_root_dc(int u, int length)
{
    check_root(u, 0, length);
    std::complex<double> sum = 0;
    for (int n = 0; n < length; n++)
        sum += unit(root_phase(u, n, length), length);
    return sum;
}

std::vector<std::complex<double>> prach_sequence_freq(int u, int cv, int length)
{
    check_root(u, cv, length);
    const int q = prach_inverse_mod(u, length);
    const std::complex<double> dc = prach_root_dc(u, length);
    std::vector<std::complex<double>> y(static_cast<size_t>(length));
    for (int k = 0; k < length; k++) {
        // conj(x_u(qk)) exp(+j 2 pi k C_v / L) = exp(-j 2 pi (-u t(qk) - k C_v) / L)
        const long m = (long(q) * k) % length;
        y[size_t(k)] = dc * unit(-root_phase(u, m, length) - long(k) * cv, length);
    }
    return y;
}

} // namespace gr::gpuofdm::core
