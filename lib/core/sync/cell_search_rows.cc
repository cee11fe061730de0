/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "sync/cell_search_rows.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

void remove_capture_dc(std::complex<float>* row, size_t n, double cycles_per_sample)
{
    if (n == 0) {
        return;
    }
    const std::complex<double> step = std::polar(1.0, 2 * M_PI * cycles_per_sample);
    std::complex<double> rot = 1, sum = 0;
    for (size_t j = 0; j < n; j++) {
        sum += std::complex<double>(row[j]) * rot;
        rot *= step;
    }
    const std::complex<double> amplitude = sum / static_cast<double>(n);
    rot = 1;
    for (size_t j = 0; j < n; j++) {
        row[j] -= std::complex<float>(amplitude * std::conj(rot));
        rot *= step;
    }
}

void cell_search_rows::check_room(size_t n, size_t capacity) const
{
    if (d_kept_in + n - d_kept_out > capacity) {
        throw std::logic_error("cell search: more samples pushed than the delay line holds (" +
                               std::to_string(capacity) + ")");
    }
}

namespace {

// The CPU twin's rows: a vector a candidate.
class host_rows : public cell_search_rows
{
public:
    host_rows(const channelizer_params& channels,
              const cell_search_params& search,
              const std::vector<capture_dc_row>& dc)
        : cell_search_rows(dc)
    {
        const device_spec cpu{};
        d_channelizer = make_wideband_channelizer(channels, cpu);
        d_search = make_cell_search(search, cpu);
    }

    void reset(size_t zeros) override
    {
        d_channelizer->reset();
        d_kept_in = d_kept_out = 0;
        d_rows.assign(static_cast<size_t>(d_channelizer->channels()),
                      std::vector<std::complex<float>>(zeros, { 0.0f, 0.0f }));
    }

    size_t size() const override { return d_rows[0].size(); }

    void append(const std::complex<float>* x, size_t n, size_t) override
    {
        if (!d_kept.empty()) {
            check_room(n, d_kept.size());
            ring_pieces(d_kept_in, n, d_kept.size(), [&](size_t at, size_t offset, size_t count) {
                std::copy_n(x + offset, count, d_kept.begin() + static_cast<ptrdiff_t>(at));
            });
            d_kept_in += n;
        }
        size_t produced = 0;
        const auto rows = d_channelizer->push(x, n, produced);
        append_rows(rows, produced);
    }

    void append_end() override
    {
        size_t produced = 0;
        const auto rows = d_channelizer->flush(produced);
        append_rows(rows, produced);
    }

    pending_search snapshot(size_t n, size_t skip, int64_t first_sample) override
    {
        auto flat = std::make_shared<std::vector<std::complex<float>>>(d_rows.size() * n);
        for (size_t c = 0; c < d_rows.size(); c++) {
            std::copy_n(d_rows[c].begin(), n, flat->begin() + static_cast<ptrdiff_t>(c * n));
        }
        for (const auto& d : d_dc) {
            remove_capture_dc(flat->data() + static_cast<size_t>(d.channel) * n + skip,
                              n - std::min(n, skip), d.cycles_per_sample);
        }
        const int channels = static_cast<int>(d_rows.size());
        cell_search* search = d_search.get();
        return [=] { return search->search(flat->data(), n, channels, n, first_sample); };
    }

    void keep_samples(size_t capacity) override
    {
        d_kept.assign(capacity, { 0.0f, 0.0f });
        d_kept_in = d_kept_out = 0;
    }

    void take_kept(std::complex<float>* out, size_t n) override
    {
        ring_pieces(d_kept_out, n, d_kept.size(), [&](size_t at, size_t offset, size_t count) {
            std::copy_n(d_kept.begin() + static_cast<ptrdiff_t>(at), count, out + offset);
        });
        d_kept_out += n;
    }

    void drop(size_t k) override
    {
        for (auto& r : d_rows) {
            r.erase(r.begin(), r.begin() + static_cast<ptrdiff_t>(k));
        }
    }

private:
    void append_rows(const std::vector<std::complex<float>>& rows, size_t produced)
    {
        for (size_t c = 0; c < d_rows.size(); c++) {
            d_rows[c].insert(d_rows[c].end(), rows.begin() + static_cast<ptrdiff_t>(c * produced),
                             rows.begin() + static_cast<ptrdiff_t>((c + 1) * produced));
        }
    }

    std::vector<std::vector<std::complex<float>>> d_rows;
    std::vector<std::complex<float>> d_kept; //!< the delay line's ring
};

} // namespace

std::unique_ptr<cell_search_rows> make_cell_search_rows(const channelizer_params& channels,
                                                        const cell_search_params& search,
                                                        const std::vector<capture_dc_row>& dc,
                                                        const device_spec& dev)
{
    if (!dev.is_cuda()) {
        return std::make_unique<host_rows>(channels, search, dc);
    }
#ifdef GPUOFDM_HAVE_CUDA
    return make_cell_search_rows_cuda(channels, search, dc, dev);
#else
    throw std::runtime_error("gr-gpuofdm was built without CUDA (GPUOFDM_CUDA=OFF)");
#endif
}

} // namespace gr::gpuofdm::core
