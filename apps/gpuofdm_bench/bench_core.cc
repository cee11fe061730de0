/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Core-level rows: the stages' process() on the CPU twin and on CUDA (host transfers
// through the stage's pinned staging), and launch() on device-resident data. Only the
// core is used here, so this part builds and runs without GNU Radio.

#include "bench.h"

#include "runtime/device.h"
#include "ofdm/ofdm_stage.h"

#ifdef GPUOFDM_HAVE_CUDA
#include "ofdm/ofdm_stage_cuda.h"
#include <cuda_runtime_api.h>
#endif

#include <cstdio>
#include <random>
#include <sstream>
#include <stdexcept>

namespace gpuofdm_bench {

namespace core = gr::gpuofdm::core;

timing time_repeated(const std::function<void()>& fn, double min_seconds, uint64_t min_iters)
{
    fn();
    std::vector<double> each;
    const auto t0 = clock::now();
    double total = 0;
    while (total < min_seconds || each.size() < min_iters) {
        const auto t = clock::now();
        fn();
        each.push_back(seconds_since(t));
        total = seconds_since(t0);
    }
    timing r;
    r.seconds = total;
    r.iterations = each.size();
    std::nth_element(each.begin(), each.begin() + each.size() / 2, each.end());
    r.median_ms = each[each.size() / 2] * 1e3;
    return r;
}

std::vector<size_t> batch_list(const options& o, int fft_len)
{
    if (!o.batches.empty())
        return o.batches;
    const std::vector<int> log2_samples =
        o.quick ? std::vector<int>{ 12, 18 } : std::vector<int>{ 12, 16, 18, 20, 22 };
    std::vector<size_t> out;
    for (int l : log2_samples) {
        const size_t b = std::max<size_t>(1, (size_t(1) << l) / size_t(fft_len));
        if (out.empty() || out.back() != b)
            out.push_back(b);
    }
    return out;
}

std::string gpu_description(const std::string& device, std::string& why)
{
    core::device_spec spec;
    try {
        spec = core::resolve_device(device);
    } catch (const std::exception& e) {
        why = e.what();
        return "";
    }
    if (!spec.is_cuda()) {
        why = "device '" + device + "' is not a CUDA device";
        return "";
    }
#ifdef GPUOFDM_HAVE_CUDA
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, spec.cuda_index) != cudaSuccess) {
        why = "cudaGetDeviceProperties failed";
        return "";
    }
    char buf[512];
    std::snprintf(buf, sizeof(buf), "%s (cc %d.%d, %.1f GiB, %s)", prop.name, prop.major,
                  prop.minor, double(prop.totalGlobalMem) / double(1ull << 30),
                  spec.to_string().c_str());
    return buf;
#else
    why = "gr-gpuofdm was built without CUDA";
    return "";
#endif
}

namespace {

std::unique_ptr<core::ofdm_stage> make_stage(stage_kind s,
                                             const core::ofdm_params& p,
                                             const core::device_spec& dev)
{
    return s == stage_kind::fft ? core::make_ofdm_fft(p, dev) : core::make_ofdm_ifft(p, dev);
}

std::vector<core::cfloat> random_samples(size_t n, unsigned seed)
{
    std::mt19937 gen(seed);
    std::normal_distribution<float> g(0.0f, 1.0f);
    std::vector<core::cfloat> v(n);
    for (auto& x : v)
        x = core::cfloat(g(gen), g(gen));
    return v;
}

row make_row(stage_kind s,
             const char* impl,
             const std::string& device,
             const core::ofdm_layout& l,
             size_t counted,
             const timing& t)
{
    row r;
    r.level = "core";
    r.stage = stage_name(s);
    r.impl = impl;
    r.device = device;
    r.fft_len = int(l.fft_len());
    r.cp = int(l.cp_of(0));
    r.batch = l.batch();
    r.iterations = t.iterations;
    r.seconds = t.seconds;
    r.samples = uint64_t(counted) * t.iterations;
    r.msps = double(r.samples) / t.seconds / 1e6;
    r.ms_per_batch = t.median_ms;
    return r;
}

//! The rows of one stage, size and batch: CPU twin, then CUDA with transfers and kernel only.
void run_batch(
    const options& o, bool cuda_usable, stage_kind s, int n, size_t batch, std::vector<row>& rows)
{
    core::ofdm_params p;
    p.fft_len = n;
    p.cp_lengths = { core_cp(o, n) };
    p.shift = true;
    p.scale = 1.0f;
    p.batch = int(batch);
    const core::ofdm_layout l(p);
    // Counted samples: the time-domain side, CP included, for both stages.
    const size_t counted = l.samples(0, batch);
    const size_t n_in = s == stage_kind::fft ? counted : batch * l.fft_len();
    const size_t n_out = s == stage_kind::fft ? batch * l.fft_len() : counted;
    const auto in = random_samples(n_in, unsigned(n * 7919 + batch));
    std::vector<core::cfloat> out(n_out);

    double cpu_msps = not_applicable;
    if (!o.device_only) {
        auto st = make_stage(s, p, core::device_spec{});
        const timing t =
            time_repeated([&] { st->process(in.data(), out.data(), batch, 0); }, o.core_seconds);
        row r = make_row(s, "cpu twin", "cpu", l, counted, t);
        r.ratio = 1.0;
        cpu_msps = r.msps;
        rows.push_back(r);
        print_row(r);
    }
    if (!cuda_usable)
        return;
#ifdef GPUOFDM_HAVE_CUDA
    const core::device_spec dev = core::resolve_device(o.device);
    auto st = make_stage(s, p, dev);
    auto* cs = dynamic_cast<core::ofdm_cuda_stage*>(st.get());
    if (!cs)
        throw std::runtime_error("the CUDA stage is not an ofdm_cuda_stage");

    // process() on pageable memory: memcpy into the stage's pinned staging, PCIe, back.
    // Then on caller memory the stage has page-locked (as the blocks do with GNU Radio's
    // buffers): PCIe straight to and from it, no staging memcpy.
    const double bytes = double(n_in + n_out) * sizeof(core::cfloat);
    for (const bool pinned : { false, true }) {
        if (pinned && !(st->pin_host_range(in.data(), n_in * sizeof(core::cfloat)) &&
                        st->pin_host_range(out.data(), n_out * sizeof(core::cfloat))))
            throw std::runtime_error("cudaHostRegister refused the benchmark's buffers");
        const timing tx =
            time_repeated([&] { st->process(in.data(), out.data(), batch, 0); }, o.core_seconds);
        row r =
            make_row(s, pinned ? "cuda+pcie pin" : "cuda+pcie", dev.to_string(), l, counted, tx);
        r.gbps = bytes * double(tx.iterations) / tx.seconds / 1e9;
        r.ratio = r.msps / cpu_msps;
        rows.push_back(r);
        print_row(r);
    }
    st->unpin_host_ranges();

    // launch() on data already on the device; the sync makes each iteration one batch's latency.
    core::use_device(dev.cuda_index);
    GPUOFDM_CUDA_CHECK(cudaMemcpy(cs->device_input(), in.data(), n_in * sizeof(core::cfloat),
                                  cudaMemcpyHostToDevice));
    const timing tk = time_repeated(
        [&] {
            cs->launch(batch, 0);
            GPUOFDM_CUDA_CHECK(cudaStreamSynchronize(cs->stream()));
        },
        o.core_seconds);
    GPUOFDM_CUDA_CHECK(cudaGetLastError());
    row k = make_row(s, "cuda kernel", dev.to_string(), l, counted, tk);
    k.ratio = k.msps / cpu_msps;
    rows.push_back(k);
    print_row(k);
#else
    (void)cpu_msps;
#endif
}

} // namespace

void run_core(const options& o,
              bool cuda_usable,
              std::vector<row>& rows,
              std::vector<std::string>& notes)
{
    if (!cuda_usable)
        notes.push_back("core: CUDA rows skipped (no usable GPU)");
    if (o.device_only)
        notes.push_back("core: CPU twin rows skipped (--device-only)");
    for (stage_kind s : o.stages) {
        for (int n : o.sizes) {
            for (size_t batch : batch_list(o, n)) {
                try {
                    run_batch(o, cuda_usable, s, n, batch, rows);
                } catch (const std::exception& e) {
                    throw std::runtime_error(std::string("core ") + stage_name(s) + " fft_len " +
                                             std::to_string(n) + " batch " + std::to_string(batch) +
                                             ": " + e.what());
                }
            }
        }
    }
}

} // namespace gpuofdm_bench
