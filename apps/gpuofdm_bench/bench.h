/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_APPS_BENCH_H
#define GPUOFDM_APPS_BENCH_H

// What the parts of gpuofdm_bench share. Nothing here includes GNU Radio or CUDA, so
// the core part compiles against the core alone.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace gpuofdm_bench {

constexpr double not_applicable = std::numeric_limits<double>::quiet_NaN();

enum class stage_kind { fft, ifft };
inline const char* stage_name(stage_kind s)
{
    return s == stage_kind::fft ? "ofdm_fft" : "ofdm_ifft";
}

struct options {
    std::vector<int> sizes{ 64, 256, 2048, 4096 };
    //! Symbols per batch; empty: the default list scaled to each size (batch_list()).
    std::vector<size_t> batches;
    std::vector<stage_kind> stages{ stage_kind::fft, stage_kind::ifft };
    bool verbose = false;      //!< --verbose: GNU Radio's debug log
    bool tx = false;           //!< --stages tx: the 802.11a transmitter rows (bench_tx.cc)
    bool viterbi = false;      //!< --stages viterbi: the Viterbi rows (bench_viterbi.cc)
    bool ber = false;          //!< --stages ber: Viterbi BER vs Eb/N0 (bench_ber.cc)
    bool rx = false;           //!< --stages rx: the 802.11a receiver end to end (bench_rx.cc)
    bool wimax_rx = false;     //!< --stages wimax_rx: the 802.16 receiver, core (bench_wimax_rx.cc)
    bool cellsearch = false;   //!< --stages cellsearch: the cell search, core (bench_cellsearch.cc)
    bool timing = false;       //!< --stages timing: polyphase timing recovery (bench_timing.cc)
    bool prach = false;        //!< --stages prach: the PRACH detector and chain (bench_prach.cc)
    int cp = -1;               //!< core rows' CP; -1: fft_len / 4
    double seconds = 1.5;      //!< per flowgraph row
    double core_seconds = 0.5; //!< per core row
    bool quick = false;
    bool flowgraph = true;
    bool device_only = false;   //!< CUDA rows only
    size_t flowgraph_batch = 0; //!< our block's batch in the flowgraph rows; 0: its default
    bool null_source = false;   //!< flowgraph source: null_source (memset) instead of vector_source
    int upstream_batches = 1;   //!< upstream min_output_buffer, in batches of our block
    int rx_repeat = 10; //!< rx flowgraph rows: the recorded file holds the stream this often
    int pairs = 1;      //!< prach flowgraph rows on CUDA: runs, each after its own ceiling run
    std::string device = "cuda:0";
    std::string json_path;
    //! --viterbi-overlaps: (warm-up, traceback) pairs; the ber stage then runs the overlap
    //! study (run_ber_overlaps) instead of its decoder comparison
    std::vector<std::pair<size_t, size_t>> viterbi_overlaps;
    std::vector<size_t> viterbi_chunks{ 256 }; //!< --viterbi-chunks: the study's chunk lengths
    std::string viterbi_rate = "1/2";          //!< --viterbi-rate: the study's code rate
};

//! One measured row, as printed and as written to the JSON file.
struct row {
    std::string level;  //!< "core" or "flowgraph"
    std::string stage;  //!< "ofdm_fft" or "ofdm_ifft"
    std::string impl;   //!< "cpu twin", "cuda+pcie", "cuda kernel", "gpuofdm", "fft_vcc 1t", ...
    std::string device; //!< "cpu", "cuda:0", or "-"
    int fft_len = 0;
    int cp = 0;
    size_t batch = 0; //!< symbols per launch / per process() call; 1 for fft_vcc
    double msps = not_applicable;
    double gbps = not_applicable;         //!< PCIe bytes (H2D + D2H) per second
    double ms_per_batch = not_applicable; //!< median wall time of one batch
    double ratio = not_applicable;        //!< see the table header
    uint64_t samples = 0;                 //!< samples counted over the measurement
    uint64_t iterations = 0;              //!< batches (core) or symbols (flowgraph)
    double seconds = 0;                   //!< measured wall time
    // Transmitter rows (bench_tx.cc); not applicable to the OFDM rows.
    std::string config;               //!< "K7 r3/4", "64-QAM", "54M 1500B", ...
    double mbit_s = not_applicable;   //!< input bits (bit stages) or PSDU bits per second
    double frames_s = not_applicable; //!< wifi_tx frames per second
    // BER rows (bench_ber.cc); not applicable elsewhere.
    double ebn0_db = not_applicable; //!< the point's Eb/N0; 1e-5 rows: the crossing
    uint64_t bit_errors = 0;         //!< decoded data bits in error
    uint64_t bits = 0;               //!< decoded data bits counted
    double ber = not_applicable;     //!< bit_errors / bits
    double gap_db = not_applicable;  //!< derived rows: ebn0_db minus that of gap_to
    std::string gap_to;              //!< derived rows: the curve the gap is taken to
    int equals_cpu_twin = -1;        //!< chunked cuda rows: 1 bit for bit, 0 not, -1 n/a
    //! fec.cc_decoder hard rows: z of its errors minus hard chunked's, paired per frame
    double paired_z = not_applicable;
    //! overlap study rows: decoded data bits that differ from the reference's, -1 n/a
    int64_t differing_bits = -1;
    //! receiver flowgraph rows: Msps / the Msps of the source alone (file_source ->
    //! null_sink on the same recording, measured in the same run)
    double of_ceiling = not_applicable;
};

//! Default batch list of one size: 2^12, 2^16, 2^18, 2^20, 2^22 samples of FFT
//! (64, 1024, 4096, 16384, 65536 symbols at 64), at least one symbol; quick keeps two.
std::vector<size_t> batch_list(const options& o, int fft_len);

//! The CP of the core rows at \p fft_len.
inline int core_cp(const options& o, int fft_len)
{
    return o.cp >= 0 ? std::min(o.cp, fft_len) : fft_len / 4;
}

//! Times fn() until \p min_seconds and \p min_iters are both reached, after one
//! untimed call (plans, caches, the first CUDA launch).
struct timing {
    double seconds = 0;
    uint64_t iterations = 0;
    double median_ms = 0;
};
timing time_repeated(const std::function<void()>& fn, double min_seconds, uint64_t min_iters = 3);

/*!
 * Writes the stream \p x \p repeat times to a temporary file named from \p stem (a recorded
 * stream for the flowgraph rows) and returns its path: in memory (tmpfs /dev/shm) where it
 * fits, so that the disk's read rate is not what the rows measure, else in the temporary
 * directory. Throws std::runtime_error when neither takes it.
 */
std::string write_recording(const std::string& stem,
                            const std::vector<std::complex<float>>& x,
                            int repeat);

//! The median of \p v (the upper one of an even count).
double median_of(std::vector<double> v);

//! What paired_runs() measured.
struct paired_result {
    double seconds = 0; //!< the median of the block's runs
    double ratio = 0;   //!< the median of ceiling / block, pair by pair
    std::string ratios; //!< each pair's, as text
};
/*!
 * \brief --pairs K: K runs of a block (\p block returns its wall seconds), each right after
 * a ceiling run of its own (\p ceiling), since the host's speed drifts between runs (the
 * ceiling by up to 40 % in one call).
 */
paired_result paired_runs(int pairs,
                          const std::function<double()>& ceiling,
                          const std::function<double()>& block);

using clock = std::chrono::steady_clock;
inline double seconds_since(clock::time_point t0)
{
    return std::chrono::duration<double>(clock::now() - t0).count();
}

/*!
 * \brief A receiver's row: \p ok packets of \p packet_bytes decoded from \p samples in
 * \p seconds (Msps, payload Mbit/s, packets per second; iterations = ok).
 */
inline row receiver_row(const std::string& level,
                        const std::string& stage,
                        const std::string& impl,
                        const std::string& dev,
                        const std::string& config,
                        size_t batch,
                        size_t ok,
                        size_t packet_bytes,
                        double seconds,
                        size_t samples)
{
    row r;
    r.level = level;
    r.stage = stage;
    r.impl = impl;
    r.device = dev;
    r.config = config;
    r.batch = batch;
    r.samples = samples;
    r.seconds = seconds;
    r.iterations = ok;
    r.msps = double(samples) / seconds / 1e6;
    r.mbit_s = 8.0 * double(packet_bytes) * double(ok) / seconds / 1e6;
    r.frames_s = double(ok) / seconds;
    return r;
}

// ---- core part (bench_core.cc, core only) ----

//! One line on the GPU: "NVIDIA H200 (cc 9.0, 139.8 GiB, cuda:0)", or "" when the
//! device is not usable; \p why gets the reason then.
std::string gpu_description(const std::string& device, std::string& why);
//! Runs the core rows, appending each as it finishes; notes get skipped parts.
void run_core(const options& o,
              bool cuda_usable,
              std::vector<row>& rows,
              std::vector<std::string>& notes);

//! The transmitter rows (--stages tx): the TX bit stages and wifi_tx, core only.
void run_tx(const options& o,
            bool cuda_usable,
            std::vector<row>& rows,
            std::vector<std::string>& notes);

//! The Viterbi rows (--stages viterbi): core level, and flowgraph level where GNU Radio
//! is built, next to GNU Radio's fec.cc_decoder.
void run_viterbi(const options& o,
                 bool cuda_usable,
                 std::vector<row>& rows,
                 std::vector<std::string>& notes);

//! The BER rows (--stages ber): BER vs Eb/N0 of the full-length reference, the chunked
//! decoder (CPU twin, CUDA), hard decisions and GNU Radio's fec.cc_decoder on the same
//! noisy input, with the Eb/N0 gaps at BER 1e-5.
void run_ber(const options& o,
             bool cuda_usable,
             std::vector<row>& rows,
             std::vector<std::string>& notes);

/*!
 * \brief The overlap study (--stages ber --viterbi-overlaps LIST): the chunked CPU twin at
 * every chunk length and (warm-up, traceback) pair of the options against the full-length
 * reference on the same noisy input, BPSK over AWGN at 2 to 6 dB, with paired statistics
 * and the Eb/N0 at BER 1e-5.
 */
void run_ber_overlaps(const options& o, std::vector<row>& rows, std::vector<std::string>& notes);

//! The receiver rows (--stages rx): wifi_rx on a recorded stream of back-to-back 1500-octet
//! 54 Mb/s frames, core level (CPU twin, CUDA) and flowgraph level where GNU Radio is built.
void run_rx(const options& o,
            bool cuda_usable,
            std::vector<row>& rows,
            std::vector<std::string>& notes);

//! The 802.16 receiver rows (--stages wimax_rx): core level, CPU twin and CUDA, and
//! flowgraph level (file_source -> wimax_rx, beside file_source -> null_sink) where GNU
//! Radio is built.
void run_wimax_rx(const options& o,
                  bool cuda_usable,
                  std::vector<row>& rows,
                  std::vector<std::string>& notes);
//! The cell search rows (--stages cellsearch): wideband captures, core level.
void run_cellsearch(const options& o,
                    bool cuda_usable,
                    std::vector<row>& rows,
                    std::vector<std::string>& notes);

//! The timing-recovery rows (--stages timing): core level (one channel sequential and
//! chunked, 64/256/1024 channels; CPU twin, CUDA kernel, CUDA with transfers) and, where
//! GNU Radio is built, flowgraph level next to pfb_clock_sync_ccf and symbol_sync_cc.
void run_timing(const options& o,
                bool cuda_usable,
                std::vector<row>& rows,
                std::vector<std::string>& notes);

//! The PRACH rows (--stages prach): the detector on bins (formats 0 and B4, 4 antennas,
//! 1..1024 cells a slot) and the chain from 4 x 122.88 Msps samples, core level.
void run_prach(const options& o,
               bool cuda_usable,
               std::vector<row>& rows,
               std::vector<std::string>& notes);

// ---- flowgraph part (bench_flowgraph.cc, GNU Radio) ----

//! The GNU Radio version string.
std::string gnuradio_version();
void run_flowgraph(const options& o,
                   bool cuda_usable,
                   std::vector<row>& rows,
                   std::vector<std::string>& notes);

// ---- report.cc ----

void print_table_header(bool core_level);
void print_row(const row& r);
void print_tx_table_header();
void print_tx_row(const row& r);
//! \p s as a JSON string literal.
std::string json_string(const std::string& s);
//! \p header: key and JSON-encoded value pairs.
void write_json(const std::string& path,
                const std::vector<std::pair<std::string, std::string>>& header,
                const std::vector<row>& rows,
                const std::vector<std::string>& notes,
                const std::string& error);

} // namespace gpuofdm_bench

#endif
