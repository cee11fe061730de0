/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Core-level rows of the 802.11a transmitter (--stages tx): each TX bit stage (scrambler,
// conv encoder rate 3/4, interleaver 64-QAM, mapper 64-QAM) on the CPU twin and on CUDA
// with host transfers, in Mbit/s of input bits; and the whole transmitter wifi_tx at
// 54 Mb/s with 1500-octet PSDUs, in frames/s and Mbit/s of PSDU, on the CPU twin, on
// CUDA with transfers (process()) and CUDA kernel only (stage() once, launch() + sync).

#include "bench.h"

#include "fec/conv_encoder.h"
#include "runtime/device.h"
#include "fec/interleaver.h"
#include "ofdm/mapper.h"
#include "fec/scrambler.h"
#include "wifi/wifi_tx.h"

#ifdef GPUOFDM_HAVE_CUDA
#include "runtime/cuda_check.h"
#include "runtime/burst_batch.h"
#include <cuda_runtime_api.h>
#endif

#include <cstdio>
#include <random>
#include <stdexcept>

namespace gpuofdm_bench {

namespace core = gr::gpuofdm::core;

namespace {

constexpr int tx_rate = 54;
constexpr size_t tx_psdu = 1500;

std::vector<uint8_t> random_bits(size_t n, unsigned seed)
{
    std::mt19937 gen(seed);
    std::vector<uint8_t> v(n);
    for (auto& b : v)
        b = uint8_t(gen() & 1u);
    return v;
}

row tx_row(const std::string& stage,
           const char* impl,
           const std::string& device,
           const std::string& config,
           size_t batch,
           double bits_per_call,
           const timing& t)
{
    row r;
    r.level = "core";
    r.stage = stage;
    r.impl = impl;
    r.device = device;
    r.config = config;
    r.batch = batch;
    r.iterations = t.iterations;
    r.seconds = t.seconds;
    r.mbit_s = bits_per_call * double(t.iterations) / t.seconds / 1e6;
    r.ms_per_batch = t.median_ms;
    return r;
}

void emit(std::vector<row>& rows, row r, double cpu_mbit_s)
{
    r.ratio = r.mbit_s / cpu_mbit_s;
    rows.push_back(r);
    print_tx_row(r);
}

/*!
 * One bit stage: \p make builds it for a device, \p call runs process() once on the
 * prepared buffers. Rows: CPU twin, then CUDA (process() with transfers).
 */
template <typename Stage, typename Make, typename Call>
void stage_rows(const options& o,
                bool cuda_usable,
                const std::string& name,
                const std::string& config,
                size_t n_bits,
                Make make,
                Call call,
                std::vector<row>& rows)
{
    double cpu = not_applicable;
    if (!o.device_only) {
        std::unique_ptr<Stage> st = make(core::device_spec{});
        const timing t = time_repeated([&] { call(*st); }, o.core_seconds);
        row r = tx_row(name, "cpu twin", "cpu", config, n_bits, double(n_bits), t);
        cpu = r.mbit_s;
        emit(rows, r, cpu);
    }
    if (!cuda_usable)
        return;
    const core::device_spec dev = core::resolve_device(o.device);
    std::unique_ptr<Stage> st = make(dev);
    const timing t = time_repeated([&] { call(*st); }, o.core_seconds);
    emit(rows, tx_row(name, "cuda+pcie", dev.to_string(), config, n_bits, double(n_bits), t), cpu);
}

void bit_stage_rows(const options& o, bool cuda_usable, std::vector<row>& rows)
{
    // 4 Mi bits a call (1 Mi with --quick), whole 64-QAM symbols of 288 coded bits.
    const size_t n_sym = (o.quick ? (size_t(1) << 20) : (size_t(1) << 22)) / 288;
    const size_t n = n_sym * 288;
    const auto bits = random_bits(n, 1);
    std::vector<uint8_t> bits_out(2 * n);
    std::vector<core::cfloat> points(n / 6);

    stage_rows<core::scrambler>(
        o, cuda_usable, "scrambler", "802.11a", n,
        [](const core::device_spec& d) {
            core::scrambler_params p;
            p.seed = 93;
            return core::make_scrambler(p, d);
        },
        [&](core::scrambler& s) {
            auto state = s.initial_state();
            s.process(bits.data(), bits_out.data(), n, state);
        },
        rows);
    stage_rows<core::conv_encoder>(
        o, cuda_usable, "conv_encoder", "K7 r3/4", n,
        [](const core::device_spec& d) {
            core::conv_encoder_params p;
            p.rate = core::code_rate::r3_4;
            return core::make_conv_encoder(p, d);
        },
        [&](core::conv_encoder& s) {
            core::conv_encoder_state state;
            s.process(bits.data(), bits_out.data(), n, state);
        },
        rows);
    stage_rows<core::interleaver>(
        o, cuda_usable, "interleaver", "288/6", n,
        [](const core::device_spec& d) {
            core::interleaver_params p;
            p.n_cbps = 288;
            p.n_bpsc = 6;
            return core::make_interleaver(p, d);
        },
        [&](core::interleaver& s) { s.interleave(bits.data(), bits_out.data(), n_sym); }, rows);
    stage_rows<core::mapper>(
        o, cuda_usable, "mapper", "64-QAM", n,
        [](const core::device_spec& d) {
            core::mapper_params p;
            p.mod = core::modulation::qam64;
            return core::make_mapper(p, d);
        },
        [&](core::mapper& s) { s.process(bits.data(), points.data(), n / 6); }, rows);
}

core::wifi_tx_params tx_params(size_t batch)
{
    core::wifi_tx_params p;
    p.max_frames_per_batch = batch;
    p.max_psdu_bytes = tx_psdu;
    p.max_symbols_per_batch = std::max(core::wifi_tx::frame_symbols(tx_psdu, 6),
                                       batch * core::wifi_tx::frame_symbols(tx_psdu, tx_rate));
    p.scale = 64.0f / std::sqrt(52.0f);
    return p;
}

void wifi_tx_rows(const options& o, bool cuda_usable, std::vector<row>& rows)
{
    const std::vector<size_t> batches =
        o.quick ? std::vector<size_t>{ 1, 64 } : std::vector<size_t>{ 1, 16, 64, 256 };
    const size_t max_batch = batches.back();
    std::vector<std::vector<uint8_t>> psdus(max_batch, std::vector<uint8_t>(tx_psdu));
    std::mt19937 gen(7);
    for (auto& p : psdus)
        for (auto& b : p)
            b = uint8_t(gen());
    std::vector<core::wifi_frame_request> reqs;
    for (size_t i = 0; i < max_batch; i++)
        reqs.push_back({ psdus[i].data(), tx_psdu, tx_rate, int(1 + i % 127) });
    const std::string config = std::to_string(tx_rate) + "M " + std::to_string(tx_psdu) + "B";
    const double psdu_bits = 8.0 * tx_psdu;

    for (size_t batch : batches) {
        auto frames_row = [&](const char* impl, const std::string& dev, const timing& t) {
            row r = tx_row("wifi_tx", impl, dev, config, batch, psdu_bits * double(batch), t);
            r.frames_s = double(batch) * double(t.iterations) / t.seconds;
            const size_t samples = batch * (core::wifi_tx::preamble_samples +
                                            core::wifi_tx::symbol_samples *
                                                core::wifi_tx::frame_symbols(tx_psdu, tx_rate) +
                                            1);
            r.samples = uint64_t(samples) * t.iterations;
            r.msps = double(r.samples) / t.seconds / 1e6;
            return r;
        };
        const core::wifi_tx_params p = tx_params(batch);
        double cpu = not_applicable;
        std::vector<core::cfloat> out;
        if (!o.device_only) {
            auto tx = core::make_wifi_tx(p, core::device_spec{});
            out.resize(tx->total_samples(reqs.data(), batch));
            const timing t =
                time_repeated([&] { tx->process(reqs.data(), batch, out.data()); }, o.core_seconds);
            row r = frames_row("cpu twin", "cpu", t);
            cpu = r.mbit_s;
            emit(rows, r, cpu);
        }
        if (!cuda_usable)
            continue;
#ifdef GPUOFDM_HAVE_CUDA
        const core::device_spec dev = core::resolve_device(o.device);
        auto tx = core::make_wifi_tx(p, dev);
        auto* cu = dynamic_cast<core::device_burst_batch<core::wifi_frame_request>*>(tx.get());
        if (!cu)
            throw std::runtime_error("the CUDA transmitter is not a device_burst_batch");
        out.resize(tx->total_samples(reqs.data(), batch));
        const timing tp =
            time_repeated([&] { tx->process(reqs.data(), batch, out.data()); }, o.core_seconds);
        emit(rows, frames_row("cuda+pcie", dev.to_string(), tp), cpu);

        if (cu->batch_size(reqs.data(), batch) != batch)
            throw std::runtime_error("wifi_tx: the batch does not fit one launch");
        cu->stage(reqs.data(), batch);
        cu->wait();
        const timing tk = time_repeated(
            [&] {
                cu->launch();
                cu->wait();
            },
            o.core_seconds);
        GPUOFDM_CUDA_CHECK(cudaGetLastError());
        emit(rows, frames_row("cuda kernel", dev.to_string(), tk), cpu);
#endif
    }
}

} // namespace

void run_tx(const options& o,
            bool cuda_usable,
            std::vector<row>& rows,
            std::vector<std::string>& notes)
{
    if (!cuda_usable)
        notes.push_back("tx: CUDA rows skipped (no usable GPU)");
    if (o.device_only)
        notes.push_back("tx: CPU twin rows skipped (--device-only)");
    try {
        bit_stage_rows(o, cuda_usable, rows);
        wifi_tx_rows(o, cuda_usable, rows);
    } catch (const std::exception& e) {
        throw std::runtime_error(std::string("core tx: ") + e.what());
    }
}

} // namespace gpuofdm_bench
