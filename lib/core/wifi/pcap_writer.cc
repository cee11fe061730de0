/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "wifi/pcap_writer.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace gr::gpuofdm::core {

namespace {

std::string reason(int err) { return err ? std::string(": ") + std::strerror(err) : ""; }

} // namespace

pcap_writer::pcap_writer(const std::string& path, uint32_t linktype) : d_path(path)
{
    if (path.empty())
        throw std::runtime_error("pcap: cannot open an empty file name");
    errno = 0;
    d_file = std::fopen(path.c_str(), "wb");
    if (!d_file)
        throw std::runtime_error("pcap: cannot open '" + path + "' for writing" + reason(errno));
    // pcap_hdr_t: magic, version 2.4, thiszone, sigfigs, snaplen, network (host order).
    struct {
        uint32_t magic;
        uint16_t major, minor;
        int32_t thiszone;
        uint32_t sigfigs, snaplen, network;
    } h{ magic, version_major, version_minor, 0, 0, snaplen, linktype };
    static_assert(sizeof(h) == 24);
    try {
        put(&h, sizeof(h));
    } catch (...) {
        std::fclose(d_file);
        d_file = nullptr;
        throw;
    }
}

pcap_writer::~pcap_writer()
{
    if (d_file)
        std::fclose(d_file);
}

void pcap_writer::put(const void* p, size_t n)
{
    errno = 0;
    if (n > 0 && std::fwrite(p, 1, n, d_file) != n)
        throw std::runtime_error("pcap: cannot write to '" + d_path + "'" + reason(errno));
}

void pcap_writer::write(const uint8_t* data, size_t n, uint32_t ts_sec, uint32_t ts_usec)
{
    if (!data && n > 0)
        throw std::invalid_argument("data: null pointer with " + std::to_string(n) + " octets");
    ts_sec += ts_usec / 1000000;
    ts_usec %= 1000000;
    const uint32_t incl = uint32_t(n < snaplen ? n : snaplen);
    const uint32_t orig = uint32_t(n < UINT32_MAX ? n : UINT32_MAX);
    const uint32_t rec[4] = { ts_sec, ts_usec, incl, orig }; // pcaprec_hdr_t
    put(rec, sizeof(rec));
    put(data, incl);
    errno = 0;
    if (std::fflush(d_file) != 0)
        throw std::runtime_error("pcap: cannot write to '" + d_path + "'" + reason(errno));
    d_packets++;
}

void pcap_writer::write(const uint8_t* data, size_t n, double seconds)
{
    if (!(seconds >= 0.0))
        seconds = 0.0;
    const double whole = std::floor(seconds);
    uint64_t sec = uint64_t(whole);
    uint64_t usec = uint64_t(std::llround((seconds - whole) * 1e6));
    if (usec >= 1000000) {
        sec++;
        usec -= 1000000;
    }
    write(data, n, uint32_t(sec), uint32_t(usec));
}

} // namespace gr::gpuofdm::core
