/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The stdout table and the JSON file. JSON is written by hand: the rows are flat and
// the program must not need more than the core and GNU Radio's runtime libraries.

#include "bench.h"

#include <algorithm>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <unistd.h>

namespace gpuofdm_bench {

namespace {

std::string fixed(double v, int precision)
{
    if (!std::isfinite(v))
        return "-";
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.*f", precision, v);
    return buf;
}

std::string json_number(double v)
{
    if (!std::isfinite(v))
        return "null";
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.6g", v);
    return buf;
}

} // namespace

std::string json_string(const std::string& s)
{
    std::string out = "\"";
    for (char ch : s) {
        const unsigned char c = static_cast<unsigned char>(ch);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += ch;
        } else if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof(buf), "\\u%04x", c);
            out += buf;
        } else {
            out += ch;
        }
    }
    return out + "\"";
}

void print_table_header(bool core_level)
{
    const char* core_text =
        "\nCore level (stage objects, no GNU Radio). Msps = time-domain samples incl. CP\n"
        "per second (ofdm_fft: input; ofdm_ifft: output). GB/s = PCIe bytes H2D+D2H per\n"
        "second (cuda+pcie rows). ms/batch = median time of one batch (process() call, or\n"
        "launch()+cudaStreamSynchronize for cuda kernel). ratio = Msps / CPU twin's Msps.\n";
    const char* flowgraph_text =
        "\nFlowgraph level (vector_source -> head -> block -> null_sink, wall time of\n"
        "tb->run()). Msps as above. GB/s = PCIe bytes of our CUDA block. ratio = Msps /\n"
        "fft_vcc 1 thread's Msps at the same stage and fft_len. Upstream buffers hold\n"
        "one batch of our block. source+head = the same graph with no block (the ceiling).\n";
    std::fputs(core_level ? core_text : flowgraph_text, stdout);
    std::printf("%-9s %-9s %-13s %-7s %7s %5s %7s %10s %8s %9s %7s\n", "level", "stage", "impl",
                "device", "fft_len", "cp", "batch", "Msps", "GB/s", "ms/batch", "ratio");
    std::fflush(stdout);
}

void print_row(const row& r)
{
    std::printf("%-9s %-9s %-13s %-7s %7d %5d %7s %10s %8s %9s %7s\n", r.level.c_str(),
                r.stage.c_str(), r.impl.c_str(), r.device.c_str(), r.fft_len, r.cp,
                r.batch ? std::to_string(r.batch).c_str() : "-", fixed(r.msps, 1).c_str(),
                fixed(r.gbps, 2).c_str(), fixed(r.ms_per_batch, 4).c_str(),
                fixed(r.ratio, 2).c_str());
    std::fflush(stdout);
}

void print_tx_table_header()
{
    std::fputs("\nTransmitter, core level (--stages tx). Bit stages: Mbit/s = input bits per\n"
               "second (4 Mi bits a call, 1 Mi with --quick); cuda+pcie = process() with host\n"
               "transfers. wifi_tx: 54 Mb/s, 1500-octet PSDUs, batch = frames per call; Mbit/s =\n"
               "PSDU bits per second, Msps = output samples per second; cuda kernel = stage()\n"
               "once, then launch()+cudaStreamSynchronize. ms/batch = median time of one call.\n"
               "ratio = Mbit/s / CPU twin's Mbit/s (same stage and batch).\n",
               stdout);
    std::printf("%-9s %-12s %-11s %-7s %-10s %7s %10s %10s %9s %9s %7s\n", "level", "stage", "impl",
                "device", "config", "batch", "Mbit/s", "frames/s", "Msps", "ms/batch", "ratio");
    std::fflush(stdout);
}

void print_tx_row(const row& r)
{
    std::printf("%-9s %-12s %-11s %-7s %-10s %7zu %10s %10s %9s %9s %7s\n", r.level.c_str(),
                r.stage.c_str(), r.impl.c_str(), r.device.c_str(), r.config.c_str(), r.batch,
                fixed(r.mbit_s, 1).c_str(), fixed(r.frames_s, 0).c_str(), fixed(r.msps, 1).c_str(),
                fixed(r.ms_per_batch, 4).c_str(), fixed(r.ratio, 2).c_str());
    std::fflush(stdout);
}

void write_json(const std::string& path,
                const std::vector<std::pair<std::string, std::string>>& header,
                const std::vector<row>& rows,
                const std::vector<std::string>& notes,
                const std::string& error)
{
    std::ostringstream j;
    j << "{\n";
    for (const auto& [key, value] : header)
        j << "  " << json_string(key) << ": " << value << ",\n";
    j << "  \"error\": " << (error.empty() ? "null" : json_string(error)) << ",\n";
    j << "  \"notes\": [";
    for (size_t i = 0; i < notes.size(); i++)
        j << (i ? ", " : "") << json_string(notes[i]);
    j << "],\n  \"rows\": [\n";
    for (size_t i = 0; i < rows.size(); i++) {
        const row& r = rows[i];
        j << "    {\"level\": " << json_string(r.level) << ", \"stage\": " << json_string(r.stage)
          << ", \"impl\": " << json_string(r.impl) << ", \"device\": " << json_string(r.device)
          << ", \"fft_len\": " << r.fft_len << ", \"cp\": " << r.cp << ", \"batch\": " << r.batch
          << ", \"msps\": " << json_number(r.msps) << ", \"pcie_gbps\": " << json_number(r.gbps)
          << ", \"ms_per_batch\": " << json_number(r.ms_per_batch)
          << ", \"ratio\": " << json_number(r.ratio) << ", \"samples\": " << r.samples
          << ", \"iterations\": " << r.iterations << ", \"seconds\": " << json_number(r.seconds);
        if (!r.config.empty())
            j << ", \"config\": " << json_string(r.config)
              << ", \"mbit_s\": " << json_number(r.mbit_s)
              << ", \"frames_s\": " << json_number(r.frames_s);
        if (std::isfinite(r.of_ceiling))
            j << ", \"of_ceiling\": " << json_number(r.of_ceiling);
        if (r.stage.rfind("viterbi_ber", 0) == 0) {
            j << ", \"ebn0_db\": " << json_number(r.ebn0_db);
            if (r.stage == "viterbi_ber")
                j << ", \"bit_errors\": " << r.bit_errors << ", \"bits\": " << r.bits
                  << ", \"ber\": " << json_number(r.ber);
            else
                j << ", \"gap_db\": " << json_number(r.gap_db)
                  << ", \"gap_to\": " << json_string(r.gap_to);
            if (std::isfinite(r.paired_z))
                j << ", \"paired_z\": " << json_number(r.paired_z);
            if (r.equals_cpu_twin >= 0)
                j << ", \"equals_cpu_twin\": " << (r.equals_cpu_twin ? "true" : "false");
            if (r.differing_bits >= 0)
                j << ", \"differing_bits\": " << r.differing_bits;
        }
        j << "}" << (i + 1 < rows.size() ? "," : "") << "\n";
    }
    j << "  ]\n}\n";

    std::ofstream f(path);
    if (!f)
        throw std::runtime_error("--json: cannot open '" + path + "' for writing");
    f << j.str();
    f.close();
    if (!f)
        throw std::runtime_error("--json: writing '" + path + "' failed");
}

double median_of(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

paired_result paired_runs(int pairs,
                          const std::function<double()>& ceiling,
                          const std::function<double()>& block)
{
    std::vector<double> block_s, ratios;
    paired_result r;
    for (int k = 0; k < pairs; k++) {
        const double c_s = ceiling();
        const double b_s = block();
        block_s.push_back(b_s);
        ratios.push_back(c_s / b_s);
        char part[64];
        std::snprintf(part, sizeof(part), "%s%.3f", k ? " " : "", c_s / b_s);
        r.ratios += part;
    }
    r.seconds = median_of(block_s);
    r.ratio = median_of(ratios);
    return r;
}

std::string write_recording(const std::string& stem,
                            const std::vector<std::complex<float>>& x,
                            int repeat)
{
    const std::string name =
        stem + "_" + std::to_string(::getpid()) + "_" + std::to_string(repeat) + "x.cf32";
    for (const std::filesystem::path& dir :
         { std::filesystem::path("/dev/shm"), std::filesystem::temp_directory_path() }) {
        std::string path = (dir / name).string();
        std::FILE* fp = std::fopen(path.c_str(), "wb");
        if (!fp)
            continue;
        bool ok = true;
        for (int k = 0; k < repeat && ok; k++)
            ok = std::fwrite(x.data(), sizeof(x[0]), x.size(), fp) == x.size();
        ok = std::fclose(fp) == 0 && ok;
        if (ok)
            return path;
        std::remove(path.c_str());
    }
    throw std::runtime_error("cannot write the recorded stream (" + name +
                             ") to /dev/shm or the temporary directory");
}

} // namespace gpuofdm_bench
