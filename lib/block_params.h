/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_BLOCK_PARAMS_H
#define INCLUDED_GPUOFDM_BLOCK_PARAMS_H

// A block's int parameter handed to a core size_t field: the core's validate() checks its
// range; only the sign, which the unsigned field cannot show, is checked here.

#include <cstddef>
#include <functional>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>

namespace gr {
namespace gpuofdm {

//! \p value as a size_t; std::invalid_argument("<name>: must not be negative, got ...").
inline size_t non_negative(int value, const char* name)
{
    if (value < 0)
        throw std::invalid_argument(std::string(name) + ": must not be negative, got " +
                                    std::to_string(value));
    return size_t(value);
}

/*!
 * Runs \p make; a std::invalid_argument whose message starts with a core field's name
 * ("sample_rate: ...") is thrown again under the block's name for it ("samp_rate: ..."),
 * so a Python ValueError names the argument the user passed.
 */
template <typename T>
T with_block_names(const std::function<T()>& make,
                   std::initializer_list<std::pair<const char*, const char*>> core_to_block)
{
    try {
        return make();
    } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        for (const auto& [core, block] : core_to_block) {
            const std::string prefix = std::string(core) + ":";
            if (what.compare(0, prefix.size(), prefix) == 0) {
                throw std::invalid_argument(block + what.substr(std::string(core).size()));
            }
        }
        throw;
    }
}

/*!
 * A core message about one element of a list of structs, "<list>[i].<field>: ...", under
 * the block's name for that field's list, "<block list>[i]: ..." (\p field_to_block maps
 * one to the other); any other message comes back unchanged.
 */
inline std::string indexed_block_name(
    const std::string& what,
    const std::string& list,
    std::initializer_list<std::pair<const char*, const char*>> field_to_block)
{
    const std::string open = list + "[";
    const auto close = what.find("].");
    if (what.rfind(open, 0) != 0 || close == std::string::npos)
        return what;
    const std::string index = what.substr(open.size(), close - open.size());
    const std::string rest = what.substr(close + 2);
    for (const auto& [field, block] : field_to_block) {
        const std::string prefix = std::string(field) + ":";
        if (rest.rfind(prefix, 0) == 0)
            return std::string(block) + "[" + index + "]" + rest.substr(std::string(field).size());
    }
    return what;
}

} // namespace gpuofdm
} // namespace gr

#endif
