/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_VITERBI_H
#define GPUOFDM_CORE_VITERBI_H

#include "runtime/device.h"
#include "fec/viterbi_common.h"
#include "runtime/worker_pool.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gr::gpuofdm::core {

/*!
 * \brief Parameters of the chunked K = 7 Viterbi decoder.
 *
 * The input is the rate-1/2 mother code as LLR pairs (LLR of the poly0 bit, then of the
 * poly1 bit), positive meaning bit 0 and 0 meaning no information (a punctured bit after
 * depuncturing). IEEE 802.11a-1999 17.3.5.5: poly0 = 133, poly1 = 171 (octal; A then B).
 * IEEE 802.16-2004 8.3.3.2.3: poly0 = 171 (X), poly1 = 133 (Y).
 *
 * The default overlaps (warm-up and traceback 40) are the shortest whose rate-1/2 BER under
 * AWGN equals the full-length decoder's, with chunks of 256 and of 128 steps (measured by
 * gpuofdm_bench --stages ber --viterbi-overlaps; docs/BENCHMARKS.md, "Viterbi overlaps").
 */
struct viterbi_params {
    unsigned poly0 = 0133;       //!< generator of the first bit of each pair (7 bits, bit 6 set)
    unsigned poly1 = 0171;       //!< generator of the second bit of each pair
    size_t chunk_len = 256;      //!< decoded steps per chunk (L_d), 1 .. 65536
    size_t warmup = 40;          //!< acquisition steps before each chunk, 0 .. 65536
    size_t traceback = 40;       //!< traceback steps after each chunk (L_t), 0 .. 65536
    size_t max_steps = 1u << 20; //!< trellis steps per launch; device buffers are sized for it
    //! CPU twin: threads decoding chunks in parallel, 0 = hardware_concurrency(), 1 .. 1024
    //! (capped at hardware_concurrency()); the result does not depend on it. CUDA ignores it.
    unsigned cpu_threads = 1;
    //! CUDA: threads that share one chunk's 64 states (1, 2, 4 or 8), 0 = chosen by the
    //! number of chunks a launch holds; the result does not depend on it. The CPU ignores it.
    unsigned cuda_threads_per_chunk = 0;

    //! Throws std::invalid_argument naming the first bad field.
    void validate() const;

    /*!
     * \brief Polynomials and overlaps for a protocol ("80211a" or "80216", as
     * parse_phy_standard() reads it) and code rate
     * ("1/2", "2/3", "3/4", "5/6"). Rate 1/2 keeps the default overlaps (40 steps each
     * side); punctured rates get longer ones (64, 80, 128 steps each side), since their
     * free distance is smaller and survivors merge later. Each is the shortest that keeps
     * the full-length decoder's BER, by measurement (the overlap study of gpuofdm_bench).
     */
    static viterbi_params for_protocol(const std::string& protocol, const std::string& rate);
};

/*!
 * \brief What a continuous stream carries from one process() call to the next: the LLR
 * pairs that later chunks still need (warm-up and undecoded steps).
 */
struct viterbi_stream_state {
    std::vector<float> llr; //!< LLR pairs from stream position base on
    uint64_t base = 0;      //!< stream position of llr[0..1]
    uint64_t next_out = 0;  //!< stream position of the next bit to decode
    bool zero_start = true; //!< the encoder was in state 0 at stream position 0

    //! Back to the start of a new stream.
    void reset()
    {
        llr.clear();
        base = 0;
        next_out = 0;
    }
};

/*!
 * \brief Chunked K = 7, 64-state Viterbi decoder (soft or hard input), on the CPU twin or a
 * CUDA device, bit-exact between the two.
 *
 * The trellis is cut into chunks of chunk_len steps on a grid anchored at stream position 0.
 * Each chunk runs its forward pass from \p warmup steps before it (all-equal metrics, or
 * state 0 at the start of a frame or stream) to \p traceback steps after it, then traces
 * back from the best state (state 0 at the end of a terminated frame) and keeps its own
 * bits. Chunks are independent, so the GPU decodes all of them at once (one to eight
 * threads per chunk, metrics in registers, decisions and traceback in shared memory), and
 * the result does not depend on how a stream is cut into calls.
 * Output: one bit (0/1 byte) per trellis step, tail steps included.
 */
class viterbi_decoder
{
public:
    virtual ~viterbi_decoder() = default;

    const viterbi_params& params() const { return d_params; }
    virtual device_spec device() const = 0;

    /*!
     * \brief Decodes terminated frames (start and end in state 0, IEEE 802.11a-1999 17.3.5.2
     * tail bits, 802.16-2004 8.3.3.2.3 0x00 tail byte).
     *
     * \param llr n_llr values: n_llr / (2 frame_steps) frames back to back
     * \param frame_steps trellis steps (encoder input bits, tail included) per frame
     * \param out n_llr / 2 decoded bits
     */
    void decode_frames(const float* llr, size_t n_llr, size_t frame_steps, uint8_t* out);
    /*!
     * \brief Most terminated frames of frame_steps steps that one launch decodes (what
     * decode_frames() puts in one run() and device_decode_frames() accepts): at least 1.
     * Throws std::invalid_argument when frame_steps is 0 or above max_steps.
     */
    size_t frames_per_launch(size_t frame_steps) const;
    /*!
     * \brief decode_frames() for int8 LLRs (the same sign convention, -128 .. 127; float
     * LLRs convert with llr_quantize()): a quarter of the bytes over PCIe, and on CUDA, for
     * the 802.11a and 802.16 generators, a kernel with 16-bit metrics, two states a register.
     * The bits equal those of decode_frames() on the same values as floats, on either
     * backend: with integer LLRs every float metric is an exact integer (viterbi_packed.h).
     */
    void decode_frames(const int8_t* llr, size_t n_llr, size_t frame_steps, uint8_t* out);
    //! The same for hard input: 0/1 bytes, mapped to LLR +1/-1.
    void decode_frames_hard(const uint8_t* bits, size_t n_bits, size_t frame_steps, uint8_t* out);

    /*!
     * \brief Continuous stream: appends n_llr values (n_llr even) and writes the bits of every
     * chunk whose traceback tail has arrived. Returns how many bits it wrote; at most
     * n_llr / 2 + chunk_len + traceback.
     */
    size_t process(const float* llr, size_t n_llr, uint8_t* out, viterbi_stream_state& st);
    //! The same for hard input (0/1 bytes).
    size_t process_hard(const uint8_t* bits, size_t n_bits, uint8_t* out, viterbi_stream_state& st);
    /*!
     * \brief End of stream: decodes what is left (at most chunk_len + traceback bits) and
     * resets \p st. zero_end: the encoder was flushed to state 0 at the end.
     */
    size_t flush(uint8_t* out, viterbi_stream_state& st, bool zero_end);

    /*!
     * \brief Continuous stream over LLRs the caller holds (no copy into a stream state:
     * GNU Radio blocks pass their input buffer). llr holds n_steps LLR pairs from stream
     * position base on, base <= next_out; with base <= window_begin(next_out) the bits do
     * not depend on how the stream is cut into calls (a later base shortens the warm-up).
     *
     * Decodes from next_out on every whole chunk whose traceback tail is in the window, at
     * most max_bits bits (whole chunks), in launches of up to max_steps steps; with \p end
     * (no more input) then also the rest up to base + n_steps, as flush() does (zero_end:
     * state 0 there; max_bits must then leave room for it). zero_start: state 0 at stream
     * position 0. Returns the bits written to out; the caller adds them to next_out and may
     * drop every step before window_begin() of the new next_out. Allocates nothing.
     */
    size_t decode_window(const float* llr,
                         uint64_t base,
                         size_t n_steps,
                         uint64_t next_out,
                         bool zero_start,
                         bool end,
                         bool zero_end,
                         uint8_t* out,
                         size_t max_bits);
    /*!
     * \brief As decode_window(), but \p d_llr is memory of this decoder's device (a chain's
     * depunctured LLRs): the launches read it in place, nothing goes up. The work is queued
     * on the decoder's stream after what the caller queued there (context()), and it
     * returns once the bits are in \p out. The CUDA backend only; the CPU twin throws
     * std::logic_error.
     */
    size_t decode_window_device(const float* d_llr,
                                uint64_t base,
                                size_t n_steps,
                                uint64_t next_out,
                                bool zero_start,
                                bool end,
                                bool zero_end,
                                uint8_t* out,
                                size_t max_bits);
    //! First stream position the chunk decoded from next_out reads (its warm-up).
    uint64_t window_begin(uint64_t next_out) const
    {
        return next_out > d_params.warmup ? next_out - d_params.warmup : 0;
    }
    //! Most bits one launch decodes from a stream: whole chunks of chunk_len.
    size_t stream_bits_per_launch() const;

    /*!
     * \brief Page-locks caller memory (e.g. a GNU Radio buffer) so the CUDA backend copies
     * straight between it and the device; false when refused (CPU twin: always false).
     * unpin_host_ranges() undoes it before the memory goes away.
     */
    virtual bool pin_host_range(const void* /*p*/, size_t /*bytes*/) { return false; }
    virtual void unpin_host_ranges() {}

    //! Backend primitive: decodes one job from host memory; out gets
    //! n_segments * (out_end - out_begin) bits, segment after segment.
    virtual void run(const float* llr, const viterbi_job& job, uint8_t* out) = 0;
    //! The same from int8 LLRs; by default widens them to float and calls run().
    virtual void run_int8(const int8_t* llr, const viterbi_job& job, uint8_t* out);

    /*!
     * \brief The CUDA context the decoder enqueues on (CUDA backend; null on the CPU twin):
     * a chain queues there what the device entry points then read.
     */
    virtual cuda_context_ptr context() const { return nullptr; }

    /*!
     * \brief Device-resident entry points (CUDA backend; the CPU twin throws
     * std::logic_error), for fused chains and the kernel-only benchmark.
     *
     * device_load() copies n_llr values (at most 2 max_steps) into the device's LLR buffer;
     * device_decode_frames() decodes n_frames terminated frames of frame_steps steps from it
     * (n_frames * frame_steps <= max_steps) into the device's bit buffer, kernel only, and
     * waits for the stream; device_fetch() copies the first n_bits decoded bits back.
     * n_frames may be at most frames_per_launch(frame_steps).
     */
    virtual void device_load(const float* llr, size_t n_llr);
    /*!
     * \brief Device-to-device load for fused chains: copies n_llr values from \p d_llr,
     * memory of this decoder's device, to the LLR buffer from value \p at on
     * (at + n_llr <= 2 max_steps), so that frames gathered from anywhere on the device can be
     * decoded without a trip through the host. The copy is queued on the decoder's stream
     * and does not wait: whatever writes d_llr must be queued before it on the same stream
     * (a chain whose stages share one cuda_context) or complete when it is called, and
     * d_llr must stay unchanged until the next device_decode_frames(), which runs after
     * the copy.
     *
     * With \p rows > 1 it gathers rows blocks of n_llr values, block r from
     * d_llr + r src_pitch, packed from \p at on (at + rows n_llr <= 2 max_steps): many
     * frames in one strided copy.
     */
    virtual void device_load_from_device(
        const float* d_llr, size_t n_llr, size_t at = 0, size_t rows = 1, size_t src_pitch = 0);
    virtual void device_decode_frames(size_t frame_steps, size_t n_frames);
    /*!
     * \brief As device_decode_frames(), queued on the decoder's stream without waiting (a
     * chain's entry point: device_fetch(), which waits, follows it on the same stream).
     */
    virtual void enqueue_decode_frames(size_t frame_steps, size_t n_frames);
    virtual void device_fetch(uint8_t* out, size_t n_bits);
    /*!
     * \brief The int8 counterparts of device_load(), device_decode_frames() and
     * enqueue_decode_frames(): LLRs in a buffer of their own (2 max_steps bytes), decoded by
     * the int8 kernel into the same bit buffer (device_fetch()). Bits as decode_frames().
     */
    virtual void device_load_int8(const int8_t* llr, size_t n_llr);
    virtual void device_decode_frames_int8(size_t frame_steps, size_t n_frames);
    virtual void enqueue_decode_frames_int8(size_t frame_steps, size_t n_frames);

protected:
    explicit viterbi_decoder(const viterbi_params& p);
    viterbi_job make_job() const;
    //! Largest number of chunks one run() may hold (device decision memory).
    size_t max_chunks() const;
    //! As run(), \p llr device memory (decode_window_device()); by default throws.
    virtual void run_device(const float* llr, const viterbi_job& job, uint8_t* out);

    viterbi_params d_params;
    std::vector<float> d_hard;    //!< hard input mapped to +-1, reused across calls
    std::vector<float> d_widened; //!< int8 input as floats (run_int8()'s default)

    //! The job of terminated frames of frame_steps steps (n_segments left to the caller).
    viterbi_job terminated_job(size_t frame_steps) const;

private:
    //! decode_frames() from float or int8 LLRs: checks the arguments, cuts the frames into
    //! launches of frames_per_launch() and hands each to run() or run_int8().
    template <typename T>
    void decode_frames_any(const T* llr, size_t n_llr, size_t frame_steps, uint8_t* out);

    //! What decode_window() and decode_window_device() share: the stream's whole chunks
    //! cut into jobs, each run() or run_device() from \p llr (host or device memory).
    size_t decode_window_any(const float* llr,
                             uint64_t base,
                             size_t n_steps,
                             uint64_t next_out,
                             bool zero_start,
                             bool end,
                             bool zero_end,
                             uint8_t* out,
                             size_t max_bits,
                             bool on_device);
};

//! Chunked decoder on the CPU twin or a CUDA device ("cpu" / "cuda:N" resolved).
//! On CUDA, \p ctx is the chain's context to enqueue on (null: one of its own).
std::unique_ptr<viterbi_decoder> make_viterbi_decoder(const viterbi_params& p,
                                                      const device_spec& dev,
                                                      const cuda_context_ptr& ctx = nullptr);

//! Host threads the CPU twin decodes on: params().cpu_threads, at most one a core; every
//! core when 0.
unsigned viterbi_cpu_threads(const viterbi_params& p);

//! The backends make_viterbi_decoder() picks (viterbi_cpu.cc, viterbi_cuda.cu); callers use
//! make_viterbi_decoder().
std::unique_ptr<viterbi_decoder> make_viterbi_decoder_cpu(const viterbi_params& p);
#ifdef GPUOFDM_HAVE_CUDA
std::unique_ptr<viterbi_decoder> make_viterbi_decoder_cuda(const viterbi_params& p,
                                                           const device_spec& dev,
                                                           const cuda_context_ptr& ctx = nullptr);
#endif

/*!
 * \brief Classic full-length Viterbi decoder for tests: one forward pass over the whole
 * frame from state 0 (double metrics), whole-frame survivor memory, traceback from state 0
 * (zero_end) or the best state. Written independently of the chunked code above.
 */
std::vector<uint8_t> viterbi_decode_reference(
    const float* llr, size_t n_steps, unsigned poly0, unsigned poly1, bool zero_end);

//! Hard bits (0/1 bytes) to LLRs: 0 -> +1, 1 -> -1.
void hard_to_llr(const uint8_t* bits, size_t n, float* llr);

/*!
 * \brief Float LLRs to int8 for decode_frames(const int8_t*, ...): round(llr scale), clamped
 * to -127 .. 127 (NaN to 0). The scale sets the resolution: the largest LLRs that matter
 * should land near 127 (gpuofdm_bench --stages ber compares the BER with float input).
 */
void llr_quantize(const float* llr, size_t n, float scale, int8_t* out);

} // namespace gr::gpuofdm::core

#endif
