/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_REED_SOLOMON_COMMON_H
#define GPUOFDM_CORE_REED_SOLOMON_COMMON_H

// The IEEE 802.16-2004 8.3.3.2.2 Reed-Solomon code, written once for the CPU twin (g++)
// and the CUDA kernel (nvcc, one codeword per thread): GF(256) with
// p(x) = x^8 + x^4 + x^3 + x^2 + 1, lambda = 0x02, mother code RS(255,239,8) with
// g(x) = (x + lambda^0)(x + lambda^1)...(x + lambda^15). A profile (N, K, T) prepends
// 239 - K zero bytes (shortening) and keeps the first 2T of the 16 parity bytes
// (puncturing); the codeword goes out parity first, then the K data bytes (the
// 8.3.3.5.1 example). The decoder treats the 16 - 2T dropped parity bytes as erasures:
// errors-and-erasures Berlekamp-Massey, Chien search, Forney, then a syndrome re-check, so
// up to T byte errors are corrected and anything else is flagged, not passed on silently.
// Multiplication is shift-and-add (no tables), so host and device share it unchanged.

#include <cstdint>

#include "runtime/host_device.h"

namespace gr::gpuofdm::core {

constexpr unsigned rs_mother_parity = 16; //!< 2T of RS(255,239,8)
constexpr unsigned rs_mother_k = 239;

//! A profile with its generator, passed by value to the kernels.
struct rs_code {
    uint32_t n, k, t;
    uint8_t gen[rs_mother_parity + 1]; //!< g(x): gen[i] is the coefficient of x^i
};

//! Product in GF(256) modulo x^8 + x^4 + x^3 + x^2 + 1 (0x11d).
GPUOFDM_HD inline uint8_t gf_mul(uint8_t a, uint8_t b)
{
    unsigned r = 0, x = a;
    for (int i = 0; i < 8; i++) {
        r ^= x & (0u - ((unsigned(b) >> i) & 1u));
        x <<= 1;
        x ^= 0x11du & (0u - ((x >> 8) & 1u));
    }
    return uint8_t(r);
}

GPUOFDM_HD inline uint8_t gf_pow(uint8_t a, unsigned e)
{
    uint8_t r = 1;
    for (; e; e >>= 1) {
        if (e & 1u)
            r = gf_mul(r, a);
        a = gf_mul(a, a);
    }
    return r;
}

//! lambda^e (lambda = 0x02 has order 255).
GPUOFDM_HD inline uint8_t gf_exp(unsigned e) { return gf_pow(2, e % 255u); }

//! a^-1 = a^254 (a != 0).
GPUOFDM_HD inline uint8_t gf_inv(uint8_t a) { return gf_pow(a, 254); }

//! The profile (N, K, T) with the 16-parity generator of the mother code.
GPUOFDM_HD inline rs_code rs_make_code(uint32_t n, uint32_t k, uint32_t t)
{
    rs_code c;
    c.n = n;
    c.k = k;
    c.t = t;
    for (unsigned i = 0; i <= rs_mother_parity; i++)
        c.gen[i] = i == 0 ? 1 : 0;
    for (unsigned i = 0; i < rs_mother_parity; i++) { // times (x + lambda^i)
        const uint8_t root = gf_exp(i);
        for (unsigned j = i + 1; j > 0; j--)
            c.gen[j] = c.gen[j - 1] ^ gf_mul(c.gen[j], root);
        c.gen[0] = gf_mul(c.gen[0], root);
    }
    return c;
}

//! Encodes K data bytes into N bytes: the first 2T parity bytes, then the data.
GPUOFDM_HD inline void rs_encode_one(const rs_code& c, const uint8_t* data, uint8_t* out)
{
    const unsigned p = 2 * c.t;
    if (p > 0) {
        // x^16 m(x) mod g(x) by the division register; the 239 - K leading zeros leave it 0.
        uint8_t r[rs_mother_parity];
        for (unsigned i = 0; i < rs_mother_parity; i++)
            r[i] = 0;
        for (unsigned j = 0; j < c.k; j++) {
            const uint8_t f = data[j] ^ r[rs_mother_parity - 1];
            for (unsigned i = rs_mother_parity - 1; i > 0; i--)
                r[i] = r[i - 1] ^ gf_mul(f, c.gen[i]);
            r[0] = gf_mul(f, c.gen[0]);
        }
        for (unsigned j = 0; j < p; j++) // highest-degree parity first
            out[j] = r[rs_mother_parity - 1 - j];
    }
    for (unsigned j = 0; j < c.k; j++)
        out[p + j] = data[j];
}

//! Syndromes S_i = w(lambda^i), i = 0..15, of m bytes w (w[0] the highest degree).
GPUOFDM_HD inline bool rs_syndromes(const uint8_t* w, unsigned m, uint8_t* s)
{
    bool zero = true;
    for (unsigned i = 0; i < rs_mother_parity; i++) {
        const uint8_t a = gf_exp(i);
        uint8_t acc = 0;
        for (unsigned j = 0; j < m; j++)
            acc = gf_mul(acc, a) ^ w[j];
        s[i] = acc;
        zero = zero && acc == 0;
    }
    return zero;
}

//! p(x) at x (coefficients p[0..deg]).
GPUOFDM_HD inline uint8_t rs_poly_eval(const uint8_t* p, unsigned deg, uint8_t x)
{
    uint8_t acc = 0;
    for (unsigned j = deg + 1; j-- > 0;)
        acc = gf_mul(acc, x) ^ p[j];
    return acc;
}

/*!
 * \brief Decodes N received bytes into K data bytes. Returns the number of byte errors
 * corrected (0..T), or -1 when the word is uncorrectable; then out holds the received data
 * bytes unchanged.
 */
GPUOFDM_HD inline int rs_decode_one(const rs_code& c, const uint8_t* in, uint8_t* out)
{
    const unsigned k = c.k, p = 2 * c.t;
    const unsigned rho = rs_mother_parity - p; // erased (punctured) parity bytes
    const unsigned m = k + rs_mother_parity;   // word length without the zero prefix
    for (unsigned j = 0; j < k; j++)
        out[j] = in[p + j];
    if (p == 0)
        return 0;

    // Mother codeword, highest degree first: data, kept parity, erased parity (as 0).
    uint8_t w[rs_mother_k + rs_mother_parity];
    for (unsigned j = 0; j < k; j++)
        w[j] = in[p + j];
    for (unsigned j = 0; j < p; j++)
        w[k + j] = in[j];
    for (unsigned j = k + p; j < m; j++)
        w[j] = 0;
    uint8_t s[rs_mother_parity];
    if (rs_syndromes(w, m, s))
        return 0;

    // Erasure locator: the erased parity bytes have degrees 0 .. rho - 1.
    uint8_t lam[rs_mother_parity + 1], b[rs_mother_parity + 1], tmp[rs_mother_parity + 1];
    for (unsigned i = 0; i <= rs_mother_parity; i++)
        lam[i] = i == 0 ? 1 : 0;
    for (unsigned d = 0; d < rho; d++) {
        const uint8_t x = gf_exp(d);
        for (unsigned j = d + 1; j > 0; j--)
            lam[j] ^= gf_mul(lam[j - 1], x);
    }
    for (unsigned i = 0; i <= rs_mother_parity; i++)
        b[i] = lam[i];

    // Berlekamp-Massey started from the erasure locator (Blahut, errors and erasures).
    unsigned len = rho;
    for (unsigned r = rho + 1; r <= rs_mother_parity; r++) {
        uint8_t delta = 0;
        for (unsigned j = 0; j <= len && j < r; j++)
            delta ^= gf_mul(lam[j], s[r - 1 - j]);
        for (unsigned i = rs_mother_parity; i > 0; i--) // b <- x b
            b[i] = b[i - 1];
        b[0] = 0;
        if (delta == 0)
            continue;
        for (unsigned i = 0; i <= rs_mother_parity; i++)
            tmp[i] = lam[i] ^ gf_mul(delta, b[i]);
        if (2 * len <= r + rho - 1) {
            const uint8_t inv = gf_inv(delta);
            for (unsigned i = 0; i <= rs_mother_parity; i++)
                b[i] = gf_mul(lam[i], inv);
            len = r + rho - len;
        }
        for (unsigned i = 0; i <= rs_mother_parity; i++)
            lam[i] = tmp[i];
    }
    unsigned deg = 0;
    for (unsigned i = 0; i <= rs_mother_parity; i++)
        if (lam[i])
            deg = i;
    if (deg != len || len > rs_mother_parity || 2 * (len - rho) > p)
        return -1;

    // Chien search over the degrees the word has: all deg roots must lie there, else the
    // errors are beyond the code (a root outside the word, or a repeated one).
    unsigned roots[rs_mother_parity];
    unsigned n_roots = 0;
    for (unsigned j = 0; j < m && n_roots < deg; j++) {
        const unsigned degree = m - 1 - j;
        if (rs_poly_eval(lam, deg, gf_exp(255 - degree)) == 0)
            roots[n_roots++] = j;
    }
    if (n_roots != deg)
        return -1;

    // Forney: e = X Omega(X^-1) / Lambda'(X^-1), Omega = S Lambda mod x^16 (first root 1).
    uint8_t omega[rs_mother_parity];
    for (unsigned i = 0; i < rs_mother_parity; i++) {
        uint8_t acc = 0;
        for (unsigned j = 0; j <= i && j <= deg; j++)
            acc ^= gf_mul(lam[j], s[i - j]);
        omega[i] = acc;
    }
    uint8_t dlam[rs_mother_parity + 1];
    for (unsigned i = 0; i <= rs_mother_parity; i++)
        dlam[i] = (i + 1 <= rs_mother_parity && ((i + 1) & 1u)) ? lam[i + 1] : 0;
    int corrected = 0;
    for (unsigned r = 0; r < n_roots; r++) {
        const unsigned j = roots[r];
        const unsigned degree = m - 1 - j;
        const uint8_t xinv = gf_exp(255 - degree);
        const uint8_t den = rs_poly_eval(dlam, rs_mother_parity, xinv);
        if (den == 0)
            return -1;
        const uint8_t e = gf_mul(
            gf_exp(degree), gf_mul(rs_poly_eval(omega, rs_mother_parity - 1, xinv), gf_inv(den)));
        if (j < k + p) {
            if (e == 0)
                return -1; // a root where the word has no error: not a valid decoding
            corrected++;
        }
        w[j] ^= e;
    }
    // The corrected word (erased bytes filled in) must be a codeword.
    if (!rs_syndromes(w, m, s))
        return -1;
    for (unsigned j = 0; j < k; j++)
        out[j] = w[j];
    return corrected;
}

} // namespace gr::gpuofdm::core

#endif
