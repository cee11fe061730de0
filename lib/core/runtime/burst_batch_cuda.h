/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_BURST_BATCH_CUDA_H
#define GPUOFDM_CORE_BURST_BATCH_CUDA_H

// What the CUDA burst transmitters (wifi_tx, wimax_tx) share: cutting requests into batches
// by burst count and OFDM symbols, the pinned staging with its one host-to-device copy per
// batch, the subcarrier, time and output buffers, the batched inverse FFT and the copies
// back. A backend supplies the layout of its batch and its kernels.

#include "runtime/burst_batch.h"
#include "runtime/cuda_check.h"
#include "runtime/cuda_context.h"
#include "runtime/cufft_plans.h"
#include "runtime/device.h"

#include <algorithm>
#include <array>
#include <complex>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace gr::gpuofdm::core {

//! A constant table on the current device (at least one item, so never a null pointer).
template <typename T>
device_buffer<T> upload(const std::vector<T>& table)
{
    device_buffer<T> d(std::max<size_t>(1, table.size()));
    if (!table.empty())
        GPUOFDM_CUDA_CHECK(
            cudaMemcpy(d.get(), table.data(), table.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

/*!
 * \brief Where a batch's tables lie in its staging area: the request descriptors (Desc) at
 * 0, then the runs of each stage (Runs, each type once), then the octets; each table
 * starts 16-byte aligned.
 */
template <typename Desc, typename... Runs>
class staged_tables
{
public:
    //! Room for max_requests requests, each with runs_per_request[i] runs of Runs[i].
    staged_tables(size_t max_requests, const std::array<size_t, sizeof...(Runs)>& runs_per_request)
    {
        size_t at = aligned(max_requests * sizeof(Desc));
        const size_t sizes[] = { sizeof(Runs)... };
        for (size_t i = 0; i < sizeof...(Runs); i++) {
            d_offsets[i] = at;
            at += aligned(max_requests * runs_per_request[i] * sizes[i]);
        }
        d_octets = at;
    }

    /*!
     * The tables at \p base (the pinned staging, or its copy on the device): a tuple of
     * the descriptors and each run table, for a structured binding.
     */
    template <typename Byte>
    auto at(Byte* base) const
    {
        return at(base, std::index_sequence_for<Runs...>{});
    }
    template <typename Byte>
    auto descs(Byte* base) const
    {
        return std::get<0>(at(base));
    }
    //! Offset of the octets, after the tables.
    size_t octets() const { return d_octets; }

private:
    static size_t aligned(size_t bytes) { return (bytes + 15) / 16 * 16; }
    template <typename Byte, size_t... I>
    auto at(Byte* base, std::index_sequence<I...>) const
    {
        constexpr bool c = std::is_const_v<Byte>;
        return std::make_tuple(
            reinterpret_cast<std::conditional_t<c, const Desc, Desc>*>(base),
            reinterpret_cast<std::conditional_t<c, const Runs, Runs>*>(base + d_offsets[I])...);
    }

    std::array<size_t, sizeof...(Runs)> d_offsets{};
    size_t d_octets = 0;
};

//! The sizes a transmitter allocates for, fixed at construction.
struct burst_batch_limits {
    size_t fft_len;
    size_t max_bursts;  //!< requests per batch
    size_t max_symbols; //!< OFDM symbols through the IFFT per batch
    size_t max_samples; //!< output samples of a full batch
    size_t stage_bytes; //!< the staging area (tables and octets)
    const char* unit;   //!< "frames" or "bursts": names a request in errors ("n_frames: ...")
};

//! What a staged batch holds.
struct staged_batch {
    size_t bursts = 0;
    size_t symbols = 0; //!< OFDM symbols through the IFFT
    size_t samples = 0; //!< output samples
    size_t bytes = 0;   //!< staging bytes copied to the device
};

/*!
 * \brief The batch runner of a CUDA burst transmitter.
 *
 * Per batch: lay_out() fills the pinned staging, which goes to the device in one copy;
 * then on stream(): enqueue_bins() (the chain up to the subcarriers, into bins()), one
 * batched inverse cuFFT (bins() to time()) and enqueue_assembly() (time() to out()); then
 * one copy of out() back.
 */
template <typename Request>
class burst_batch_cuda : public device_burst_batch<Request>
{
public:
    using cfloat = std::complex<float>;

    size_t batch_size(const Request* requests, size_t n) const override
    {
        size_t k = 0, symbols = 0;
        while (k < n && k < d_limits.max_bursts) {
            const size_t s = symbols_of(requests[k]);
            if (k > 0 && symbols + s > d_limits.max_symbols)
                break;
            symbols += s;
            k++;
        }
        return k;
    }

    void stage(const Request* requests, size_t n) override
    {
        activate();
        check_requests(requests, n);
        if (n == 0 || n > batch_size(requests, n))
            throw std::invalid_argument(std::string("n_") + d_limits.unit +
                                        ": a staged batch must hold 1..batch_size() " +
                                        d_limits.unit + ", got " + std::to_string(n));
        d_ctx->synchronize(); // the previous batch's copies are done with the staging
        d_staged = lay_out(requests, n, d_host_stage.get());
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_stage.get(), d_host_stage.get(), d_staged.bytes,
                                           cudaMemcpyHostToDevice, d_ctx->stream()));
    }

    void launch() override
    {
        if (d_staged.bursts == 0)
            return;
        launch_bins();
        d_plans->exec(reinterpret_cast<cufftComplex*>(d_bins.get()),
                      reinterpret_cast<cufftComplex*>(d_time.get()), d_staged.symbols,
                      CUFFT_INVERSE);
        enqueue_assembly();
    }

    void wait() override { d_ctx->synchronize(); }
    size_t staged_samples() const override { return d_staged.samples; }
    void fetch(cfloat* out) override { copy_back(d_out.get(), d_staged.samples, out); }

protected:
    //! Makes \p dev current and allocates for \p limits; \p preamble goes to the device.
    burst_batch_cuda(const device_spec& dev,
                     const burst_batch_limits& limits,
                     const std::vector<cfloat>& preamble)
        : d_device(activated(dev)), d_limits(limits), d_host_stage(limits.stage_bytes),
          d_stage(limits.stage_bytes), d_bins(limits.max_symbols * limits.fft_len),
          d_time(limits.max_symbols * limits.fft_len), d_out(limits.max_samples),
          d_host_out(std::max(limits.max_samples, limits.max_symbols * limits.fft_len)),
          d_dev_preamble(upload(preamble)),
          d_plans(std::make_unique<cufft_batch_plans>(
              limits.fft_len, limits.max_symbols, d_ctx->stream()))
    {
    }

    //! OFDM symbols of one request (validating it).
    virtual size_t symbols_of(const Request& r) const = 0;
    //! Throws std::invalid_argument for a bad request.
    virtual void check_requests(const Request* requests, size_t n) const = 0;
    //! Writes the batch's tables and octets into the pinned staging \p host.
    virtual staged_batch lay_out(const Request* requests, size_t n, unsigned char* host) = 0;
    //! Enqueues the chain of the staged batch up to the subcarriers, into bins().
    virtual void enqueue_bins() = 0;
    //! Enqueues the assembly of time() (unscaled IFFT outputs) into out().
    virtual void enqueue_assembly() = 0;

    //! Enqueues the chain of the staged batch up to the subcarriers.
    void launch_bins()
    {
        activate();
        if (d_staged.bursts > 0)
            enqueue_bins();
    }
    //! process(): each batch staged, launched and fetched in turn, back to back into out.
    void run(const Request* requests, size_t n, cfloat* out)
    {
        for_each_batch(requests, n, [&] {
            launch();
            fetch(out);
            out += d_staged.samples;
        });
    }
    //! process_bins(): each batch's subcarriers, back to back into bins.
    void run_bins(const Request* requests, size_t n, cfloat* bins)
    {
        for_each_batch(requests, n, [&] {
            launch_bins();
            copy_back(d_bins.get(), d_staged.symbols * d_limits.fft_len, bins);
            bins += d_staged.symbols * d_limits.fft_len;
        });
    }
    //! Copies \p n device values to \p out through the pinned buffer, waits.
    template <typename T>
    void copy_back(const T* dev, size_t n, T* out)
    {
        activate();
        const size_t bytes = n * sizeof(T);
        GPUOFDM_CUDA_CHECK(
            cudaMemcpyAsync(d_host_out.get(), dev, bytes, cudaMemcpyDeviceToHost, d_ctx->stream()));
        d_ctx->synchronize();
        std::memcpy(out, d_host_out.get(), bytes);
    }

    void activate() const { use_device(d_device.cuda_index); }
    cudaStream_t stream() const { return d_ctx->stream(); }
    const staged_batch& staged() const { return d_staged; }
    const unsigned char* device_stage() const { return d_stage.get(); }
    cfloat* bins() const { return d_bins.get(); }
    const cfloat* time() const { return d_time.get(); }
    cfloat* out() const { return d_out.get(); }
    const cfloat* device_preamble() const { return d_dev_preamble.get(); }

    const device_spec d_device;

private:
    static device_spec activated(const device_spec& dev)
    {
        use_device(dev.cuda_index);
        return dev;
    }
    template <typename Batch>
    void for_each_batch(const Request* requests, size_t n, Batch batch)
    {
        check_requests(requests, n);
        while (n > 0) {
            const size_t k = batch_size(requests, n);
            stage(requests, k);
            batch();
            requests += k;
            n -= k;
        }
    }

    const burst_batch_limits d_limits;
    cuda_context_ptr d_ctx = make_cuda_context(d_device); //!< its own: the stage runs alone
    pinned_buffer<unsigned char> d_host_stage;
    device_buffer<unsigned char> d_stage;
    device_buffer<cfloat> d_bins;
    device_buffer<cfloat> d_time;
    device_buffer<cfloat> d_out;
    pinned_buffer<cfloat> d_host_out;
    device_buffer<cfloat> d_dev_preamble;
    std::unique_ptr<cufft_batch_plans> d_plans;
    staged_batch d_staged;
};

/*!
 * \brief A CUDA backend of the transmitter interface \p Tx (wifi_tx, wimax_tx) run by
 * burst_batch_cuda: process() and process_bins() go batch by batch; requests are checked by
 * Tx::validate(); Tx's preamble goes to the device. The backend supplies symbols_of(),
 * lay_out() and the kernels.
 */
template <typename Tx, typename Request>
class burst_tx_cuda : public Tx, public burst_batch_cuda<Request>
{
public:
    using cfloat = std::complex<float>;
    using Tx::process;
    using Tx::process_bins;
    device_spec device() const override { return this->d_device; }
    void process(const Request* requests, size_t n, cfloat* out) override
    {
        this->run(requests, n, out);
    }
    void process_bins(const Request* requests, size_t n, cfloat* bins) override
    {
        this->run_bins(requests, n, bins);
    }

protected:
    template <typename Params>
    burst_tx_cuda(const Params& p, const device_spec& dev, const burst_batch_limits& limits)
        : Tx(p), burst_batch_cuda<Request>(dev, limits, this->d_preamble)
    {
    }

    void check_requests(const Request* requests, size_t n) const override
    {
        Tx::validate(requests, n);
    }
};

} // namespace gr::gpuofdm::core

#endif
