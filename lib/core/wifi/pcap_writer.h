/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_PCAP_WRITER_H
#define GPUOFDM_CORE_PCAP_WRITER_H

// A classic libpcap file writer (the format of tcpdump and Wireshark): the 24-octet global
// header, then one 16-octet record header and the packet's octets per packet. Free of GNU
// Radio; the wifi_rx block writes the PSDUs it decodes with it.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace gr::gpuofdm::core {

/*!
 * \brief Writes a classic pcap file: magic 0xa1b2c3d4 (microsecond timestamps), version
 * 2.4, thiszone 0, sigfigs 0, snaplen 65535, in the machine's byte order (readers detect
 * it from the magic; on x86 it is little-endian).
 *
 * The link type defaults to 105, LINKTYPE_IEEE802_11: each packet is an 802.11 MAC frame
 * (an 802.11a PSDU) with its FCS, which Wireshark then checks. Packets longer than the
 * snaplen are cut to it in the file (incl_len) with their length kept (orig_len).
 *
 * The file is created (truncated) by the constructor; every write() is flushed, so the
 * file is valid between packets and a reader may follow it while it grows. Not
 * thread-safe: one writer per file.
 */
class pcap_writer
{
public:
    static constexpr uint32_t magic = 0xa1b2c3d4;
    static constexpr uint16_t version_major = 2;
    static constexpr uint16_t version_minor = 4;
    static constexpr uint32_t snaplen = 65535;
    static constexpr uint32_t linktype_ieee802_11 = 105;

    /*!
     * Creates \p path and writes the global header. Throws std::runtime_error naming the
     * path (and the system's reason) when it cannot be opened or written.
     */
    explicit pcap_writer(const std::string& path, uint32_t linktype = linktype_ieee802_11);
    ~pcap_writer();
    pcap_writer(const pcap_writer&) = delete;
    pcap_writer& operator=(const pcap_writer&) = delete;

    /*!
     * Appends one packet of \p n octets with the timestamp \p ts_sec seconds plus
     * \p ts_usec microseconds (0 .. 999999; more carries into the seconds). Throws
     * std::runtime_error naming the path when the write fails (disk full), and
     * std::invalid_argument for a null \p data with n > 0.
     */
    void write(const uint8_t* data, size_t n, uint32_t ts_sec, uint32_t ts_usec);
    /*!
     * Appends one packet stamped \p seconds after the epoch (>= 0), rounded to the
     * microsecond.
     */
    void write(const uint8_t* data, size_t n, double seconds);

    const std::string& path() const { return d_path; }
    //! Packets written so far.
    uint64_t packets() const { return d_packets; }

private:
    void put(const void* p, size_t n);

    std::string d_path;
    std::FILE* d_file = nullptr;
    uint64_t d_packets = 0;
};

} // namespace gr::gpuofdm::core

#endif
