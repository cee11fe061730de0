/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// pcap_writer: a file written and read back by an independent parser (global header,
// record headers, payload octets, both timestamp forms, snaplen cut), the error naming the
// path, and tcpdump's or tshark's reading of it where one is installed.

#include "wifi/pcap_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <random>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

using gr::gpuofdm::core::pcap_writer;

namespace {

//! A temporary file name, removed at the end of the scope.
struct temp_path {
    std::string path;
    temp_path()
    {
        const char* dir = std::getenv("TMPDIR");
        path = std::string(dir && *dir ? dir : "/tmp") + "/gpuofdm_test_pcap_" +
               std::to_string(::getpid()) + "_" + std::to_string(counter()++) + ".pcap";
    }
    ~temp_path() { std::remove(path.c_str()); }
    static int& counter()
    {
        static int c = 0;
        return c;
    }
};

// The independent reader: the format as libpcap's documentation gives it, fields read
// octet by octet in little-endian order (the magic says which order the file is in).
uint32_t le32(const std::vector<uint8_t>& b, size_t at)
{
    return uint32_t(b.at(at)) | uint32_t(b.at(at + 1)) << 8 | uint32_t(b.at(at + 2)) << 16 |
           uint32_t(b.at(at + 3)) << 24;
}
uint32_t be32(const std::vector<uint8_t>& b, size_t at)
{
    return uint32_t(b.at(at)) << 24 | uint32_t(b.at(at + 1)) << 16 | uint32_t(b.at(at + 2)) << 8 |
           uint32_t(b.at(at + 3));
}

struct record {
    uint32_t sec, usec, incl, orig;
    std::vector<uint8_t> data;
};
struct pcap_file {
    uint32_t magic;
    uint16_t major, minor;
    int32_t thiszone;
    uint32_t sigfigs, snaplen, network;
    std::vector<record> records;
};

pcap_file parse(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    EXPECT_TRUE(f.good()) << path;
    const std::vector<uint8_t> b((std::istreambuf_iterator<char>(f)),
                                 std::istreambuf_iterator<char>());
    if (b.size() < 24)
        throw std::runtime_error("short file: " + std::to_string(b.size()) + " octets");
    const bool swapped = be32(b, 0) == 0xa1b2c3d4; // written big-endian
    if (!swapped && le32(b, 0) != 0xa1b2c3d4)
        throw std::runtime_error("bad magic");
    auto u32 = [&](size_t at) { return swapped ? be32(b, at) : le32(b, at); };
    auto u16 = [&](size_t at) {
        return swapped ? uint16_t(b[at] << 8 | b[at + 1]) : uint16_t(b[at] | b[at + 1] << 8);
    };
    pcap_file p{ 0xa1b2c3d4, u16(4), u16(6), int32_t(u32(8)), u32(12), u32(16), u32(20), {} };
    size_t at = 24;
    while (at < b.size()) {
        if (at + 16 > b.size())
            throw std::runtime_error("truncated record header at " + std::to_string(at));
        record r{ u32(at), u32(at + 4), u32(at + 8), u32(at + 12), {} };
        at += 16;
        if (at + r.incl > b.size())
            throw std::runtime_error("truncated record data at " + std::to_string(at));
        r.data.assign(b.begin() + long(at), b.begin() + long(at + r.incl));
        at += r.incl;
        p.records.push_back(std::move(r));
    }
    return p;
}

std::vector<uint8_t> random_octets(size_t n, uint32_t seed)
{
    std::mt19937 rng(seed);
    std::vector<uint8_t> v(n);
    for (auto& o : v)
        o = uint8_t(rng());
    return v;
}

} // namespace

TEST(PcapWriter, HeaderAndEmptyFile)
{
    temp_path t;
    {
        pcap_writer w(t.path);
        EXPECT_EQ(w.path(), t.path);
        EXPECT_EQ(w.packets(), 0u);
    }
    const auto p = parse(t.path);
    EXPECT_EQ(p.magic, 0xa1b2c3d4u);
    EXPECT_EQ(p.major, 2);
    EXPECT_EQ(p.minor, 4);
    EXPECT_EQ(p.thiszone, 0);
    EXPECT_EQ(p.sigfigs, 0u);
    EXPECT_EQ(p.snaplen, 65535u);
    EXPECT_EQ(p.network, 105u); // LINKTYPE_IEEE802_11
    EXPECT_TRUE(p.records.empty());
}

TEST(PcapWriter, RecordsAndPayloadsReadBack)
{
    temp_path t;
    const std::vector<size_t> lens = { 1, 14, 100, 1504, 4095 };
    std::vector<std::vector<uint8_t>> pkts;
    {
        pcap_writer w(t.path);
        for (size_t i = 0; i < lens.size(); i++) {
            pkts.push_back(random_octets(lens[i], uint32_t(i + 1)));
            w.write(pkts.back().data(), pkts.back().size(), uint32_t(10 + i), uint32_t(17 * i));
            EXPECT_EQ(w.packets(), i + 1);
            // Flushed: the file is complete after every packet.
            EXPECT_EQ(parse(t.path).records.size(), i + 1);
        }
        // The seconds form: 1.5 s; 2.0000004 s rounds to 2 s 0 us; 3.9999996 s carries.
        const std::vector<uint8_t> x = { 0xAB, 0xCD };
        w.write(x.data(), x.size(), 1.5);
        w.write(x.data(), x.size(), 2.0000004);
        w.write(x.data(), x.size(), 3.9999996);
        w.write(x.data(), x.size(), 0.0131072);                      // 262144 samples at 20 Msps
        w.write(x.data(), x.size(), uint32_t(7), uint32_t(2500000)); // usec carries
    }
    const auto p = parse(t.path);
    ASSERT_EQ(p.records.size(), lens.size() + 5);
    for (size_t i = 0; i < lens.size(); i++) {
        const auto& r = p.records[i];
        EXPECT_EQ(r.sec, 10 + i);
        EXPECT_EQ(r.usec, 17 * i);
        EXPECT_EQ(r.incl, lens[i]);
        EXPECT_EQ(r.orig, lens[i]);
        EXPECT_EQ(r.data, pkts[i]) << "packet " << i;
    }
    const size_t k = lens.size();
    EXPECT_EQ(p.records[k].sec, 1u);
    EXPECT_EQ(p.records[k].usec, 500000u);
    EXPECT_EQ(p.records[k + 1].sec, 2u);
    EXPECT_EQ(p.records[k + 1].usec, 0u);
    EXPECT_EQ(p.records[k + 2].sec, 4u);
    EXPECT_EQ(p.records[k + 2].usec, 0u);
    EXPECT_EQ(p.records[k + 3].sec, 0u);
    EXPECT_EQ(p.records[k + 3].usec, 13107u);
    EXPECT_EQ(p.records[k + 4].sec, 9u);
    EXPECT_EQ(p.records[k + 4].usec, 500000u);
    EXPECT_EQ(p.records[k + 4].data, (std::vector<uint8_t>{ 0xAB, 0xCD }));
}

TEST(PcapWriter, LongPacketCutToSnaplenWithItsLengthKept)
{
    temp_path t;
    const auto big = random_octets(70000, 5);
    {
        pcap_writer w(t.path);
        w.write(big.data(), big.size(), uint32_t(0), uint32_t(0));
    }
    const auto p = parse(t.path);
    ASSERT_EQ(p.records.size(), 1u);
    EXPECT_EQ(p.records[0].incl, 65535u);
    EXPECT_EQ(p.records[0].orig, 70000u);
    EXPECT_TRUE(std::equal(p.records[0].data.begin(), p.records[0].data.end(), big.begin()));
}

TEST(PcapWriter, ReopeningTruncates)
{
    temp_path t;
    const auto x = random_octets(50, 9);
    {
        pcap_writer w(t.path);
        w.write(x.data(), x.size(), 1.0);
        w.write(x.data(), x.size(), 2.0);
    }
    {
        pcap_writer w(t.path);
        w.write(x.data(), x.size(), 3.0);
    }
    const auto p = parse(t.path);
    ASSERT_EQ(p.records.size(), 1u);
    EXPECT_EQ(p.records[0].sec, 3u);
}

TEST(PcapWriter, UnopenableFileIsAnErrorNamingThePath)
{
    const std::string bad = "/nonexistent-gpuofdm-dir/sub/out.pcap";
    try {
        pcap_writer w(bad);
        FAIL() << "no exception";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
    }
    EXPECT_THROW(pcap_writer(""), std::runtime_error);
    temp_path t;
    pcap_writer w(t.path);
    EXPECT_THROW(w.write(nullptr, 3, 0.0), std::invalid_argument);
    w.write(nullptr, 0, 0.0); // an empty packet is a record of 0 octets
    EXPECT_EQ(w.packets(), 1u);
}

TEST(PcapWriter, ReadByTcpdumpOrTsharkWhereInstalled)
{
    const bool tcpdump = std::system("command -v tcpdump >/dev/null 2>&1") == 0;
    const bool tshark = std::system("command -v tshark >/dev/null 2>&1") == 0;
    if (!tcpdump && !tshark)
        GTEST_SKIP() << "neither tcpdump nor tshark is installed";
    temp_path t;
    {
        pcap_writer w(t.path);
        // An 802.11 ACK frame: frame control 0xd4 0x00, duration, RA, then a (wrong) FCS.
        const std::vector<uint8_t> ack = { 0xd4, 0x00, 0x00, 0x00, 0x02, 0x11, 0x22,
                                           0x33, 0x44, 0x55, 0,    0,    0,    0 };
        for (int i = 0; i < 3; i++)
            w.write(ack.data(), ack.size(), double(i));
    }
    const std::string cmd = tcpdump ? "tcpdump -r '" + t.path + "' 2>/dev/null | wc -l"
                                    : "tshark -r '" + t.path + "' 2>/dev/null | wc -l";
    std::FILE* p = ::popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    char buf[64] = { 0 };
    const bool got = std::fgets(buf, sizeof(buf), p) != nullptr;
    ::pclose(p);
    ASSERT_TRUE(got);
    EXPECT_EQ(std::atoi(buf), 3) << cmd;
}
