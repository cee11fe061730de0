/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_APPS_SIGMF_H
#define GPUOFDM_APPS_SIGMF_H

// Recordings for the apps, in one place: SigMF (FILE.sigmf-meta + FILE.sigmf-data; the
// datatypes cf32_le, ci16_le and ci8; sample rate, centre frequency, captures and
// annotations) and raw interleaved I/Q (cf32, cs16, cs8 as the --format option names
// them). The samples come out as complex float: int16 divided by 32768, int8 by 128.
// The Python side is python/gpuofdm/sigmf.py; both read and write the same files.
// GNU Radio-free (a core-level app can use it).

#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpuofdm_apps {

//! A sample format: its SigMF datatype, bytes per I/Q pair and the integer full scale.
struct sample_format {
    std::string datatype; //!< "cf32_le", "ci16_le" or "ci8"
    size_t bytes_per_sample;
    float full_scale; //!< 1 for floats, 32768 for int16, 128 for int8
};

//! cf32 / cs16 / cs8 (the --format names) or a SigMF datatype.
inline sample_format format_from_name(const std::string& name)
{
    if (name == "cf32" || name == "cf32_le")
        return { "cf32_le", 8, 1.0f };
    if (name == "cs16" || name == "ci16_le" || name == "ci16")
        return { "ci16_le", 4, 32768.0f };
    if (name == "cs8" || name == "ci8" || name == "ci8_le")
        return { "ci8", 2, 128.0f };
    throw std::invalid_argument("--format: cf32, cs16 or cs8 (SigMF cf32_le, ci16_le, ci8), "
                                "got '" +
                                name + "'");
}

struct sigmf_capture {
    uint64_t sample_start = 0;
    double frequency = 0; //!< centre frequency, Hz (0: not given)
};

struct sigmf_annotation {
    uint64_t sample_start = 0;
    uint64_t sample_count = 0; //!< 0: not given
    std::string label;
    std::string comment;
};

//! What a .sigmf-meta says (the fields the apps use).
struct sigmf_meta {
    std::string datatype = "cf32_le";
    double sample_rate = 0; //!< Hz (0: not given)
    std::string description;
    std::vector<sigmf_capture> captures;
    std::vector<sigmf_annotation> annotations;
};

namespace json {

//! A JSON value: enough of JSON for SigMF metadata (numbers as double).
struct value {
    enum kind_t { null, boolean, number, string, array, object } kind = null;
    bool b = false;
    double n = 0;
    std::string s;
    std::vector<value> items;
    std::map<std::string, value> fields;

    const value* get(const std::string& key) const
    {
        const auto it = fields.find(key);
        return kind == object && it != fields.end() ? &it->second : nullptr;
    }
};

class parser
{
public:
    parser(const std::string& text, const std::string& where) : d_t(text), d_where(where) {}

    value parse()
    {
        value v = parse_value();
        skip();
        if (d_i != d_t.size())
            fail("text after the JSON value");
        return v;
    }

private:
    const std::string& d_t;
    std::string d_where;
    size_t d_i = 0;

    [[noreturn]] void fail(const std::string& what) const
    {
        throw std::runtime_error(d_where + ": not SigMF JSON (" + what + " at offset " +
                                 std::to_string(d_i) + ")");
    }
    void skip()
    {
        while (d_i < d_t.size() &&
               (d_t[d_i] == ' ' || d_t[d_i] == '\n' || d_t[d_i] == '\r' || d_t[d_i] == '\t'))
            d_i++;
    }
    bool eat(char c)
    {
        skip();
        if (d_i < d_t.size() && d_t[d_i] == c) {
            d_i++;
            return true;
        }
        return false;
    }
    void expect(char c)
    {
        if (!eat(c))
            fail(std::string("expected '") + c + "'");
    }
    std::string parse_string()
    {
        expect('"');
        std::string out;
        while (d_i < d_t.size() && d_t[d_i] != '"') {
            char c = d_t[d_i++];
            if (c == '\\') {
                if (d_i >= d_t.size())
                    fail("a cut escape");
                c = d_t[d_i++];
                switch (c) {
                case 'n':
                    c = '\n';
                    break;
                case 't':
                    c = '\t';
                    break;
                case 'r':
                    c = '\r';
                    break;
                case 'b':
                    c = '\b';
                    break;
                case 'f':
                    c = '\f';
                    break;
                case 'u': // kept as '?': the apps read no non-ASCII field
                    if (d_i + 4 > d_t.size())
                        fail("a cut \\u escape");
                    d_i += 4;
                    c = '?';
                    break;
                default:
                    break; // '"', '\\', '/'
                }
            }
            out += c;
        }
        expect('"');
        return out;
    }
    value parse_value()
    {
        skip();
        if (d_i >= d_t.size())
            fail("the end of the text");
        value v;
        const char c = d_t[d_i];
        if (c == '{') {
            d_i++;
            v.kind = value::object;
            if (eat('}'))
                return v;
            do {
                skip();
                const std::string key = parse_string();
                expect(':');
                v.fields[key] = parse_value();
            } while (eat(','));
            expect('}');
        } else if (c == '[') {
            d_i++;
            v.kind = value::array;
            if (eat(']'))
                return v;
            do
                v.items.push_back(parse_value());
            while (eat(','));
            expect(']');
        } else if (c == '"') {
            v.kind = value::string;
            v.s = parse_string();
        } else if (d_t.compare(d_i, 4, "true") == 0 || d_t.compare(d_i, 5, "false") == 0) {
            v.kind = value::boolean;
            v.b = d_t[d_i] == 't';
            d_i += v.b ? 4 : 5;
        } else if (d_t.compare(d_i, 4, "null") == 0) {
            d_i += 4;
        } else {
            const char* start = d_t.c_str() + d_i;
            char* end = nullptr;
            v.n = std::strtod(start, &end);
            if (end == start)
                fail("no value");
            v.kind = value::number;
            d_i += size_t(end - start);
        }
        return v;
    }
};

inline std::string quote(const std::string& s)
{
    std::string out = "\"";
    for (const char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out + "\"";
}

inline std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.17g", v);
    return buf;
}

} // namespace json

//! FILE.sigmf-meta for FILE, FILE.sigmf-meta or FILE.sigmf-data; "" for another name.
inline std::string sigmf_base(const std::string& path)
{
    for (const char* ext : { ".sigmf-meta", ".sigmf-data" }) {
        const std::string e = ext;
        if (path.size() > e.size() && path.compare(path.size() - e.size(), e.size(), e) == 0)
            return path.substr(0, path.size() - e.size());
    }
    return std::ifstream(path + ".sigmf-meta").good() ? path : "";
}

inline std::string read_text(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    if (!f)
        throw std::runtime_error(path + ": cannot open");
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

inline sigmf_meta read_sigmf_meta(const std::string& meta_path)
{
    const json::value root = json::parser(read_text(meta_path), meta_path).parse();
    const json::value* global = root.get("global");
    if (!global)
        throw std::runtime_error(meta_path + ": no \"global\" object (not SigMF metadata)");
    sigmf_meta m;
    const json::value* dt = global->get("core:datatype");
    if (!dt || dt->kind != json::value::string)
        throw std::runtime_error(meta_path + ": no core:datatype");
    m.datatype = format_from_name(dt->s).datatype; // refuses what the apps cannot read
    if (const json::value* sr = global->get("core:sample_rate"))
        m.sample_rate = sr->n;
    if (const json::value* d = global->get("core:description"))
        m.description = d->s;
    auto u64 = [](const json::value* v) { return v ? uint64_t(v->n) : uint64_t(0); };
    if (const json::value* caps = root.get("captures"))
        for (const auto& c : caps->items) {
            sigmf_capture cap;
            cap.sample_start = u64(c.get("core:sample_start"));
            if (const json::value* f = c.get("core:frequency"))
                cap.frequency = f->n;
            m.captures.push_back(cap);
        }
    if (const json::value* anns = root.get("annotations"))
        for (const auto& a : anns->items) {
            sigmf_annotation ann;
            ann.sample_start = u64(a.get("core:sample_start"));
            ann.sample_count = u64(a.get("core:sample_count"));
            if (const json::value* l = a.get("core:label"))
                ann.label = l->s;
            if (const json::value* c = a.get("core:comment"))
                ann.comment = c->s;
            m.annotations.push_back(ann);
        }
    return m;
}

inline void write_sigmf_meta(const std::string& meta_path, const sigmf_meta& m)
{
    using json::number;
    using json::quote;
    std::ostringstream o;
    o << "{\n  \"global\": {\n"
      << "    \"core:datatype\": " << quote(m.datatype) << ",\n"
      << "    \"core:version\": \"1.0.0\",\n";
    if (m.sample_rate > 0)
        o << "    \"core:sample_rate\": " << number(m.sample_rate) << ",\n";
    o << "    \"core:description\": " << quote(m.description) << ",\n"
      << "    \"core:recorder\": \"gr-gpuofdm\"\n  },\n  \"captures\": [";
    for (size_t i = 0; i < m.captures.size(); i++) {
        o << (i ? ",\n" : "\n") << "    {\"core:sample_start\": " << m.captures[i].sample_start;
        if (m.captures[i].frequency != 0)
            o << ", \"core:frequency\": " << number(m.captures[i].frequency);
        o << "}";
    }
    o << "\n  ],\n  \"annotations\": [";
    for (size_t i = 0; i < m.annotations.size(); i++) {
        const auto& a = m.annotations[i];
        o << (i ? ",\n" : "\n") << "    {\"core:sample_start\": " << a.sample_start;
        if (a.sample_count)
            o << ", \"core:sample_count\": " << a.sample_count;
        if (!a.label.empty())
            o << ", \"core:label\": " << quote(a.label);
        if (!a.comment.empty())
            o << ", \"core:comment\": " << quote(a.comment);
        o << "}";
    }
    o << "\n  ]\n}\n";
    std::ofstream f(meta_path, std::ios::binary);
    if (!(f << o.str()))
        throw std::runtime_error(meta_path + ": cannot write");
}

/*!
 * A recording opened for reading: SigMF when PATH is FILE.sigmf-meta, FILE.sigmf-data or
 * FILE with a FILE.sigmf-meta beside it (its datatype wins over format), else raw I/Q in
 * format (cf32, cs16, cs8). read() gives complex float samples, block by block.
 */
class recording
{
public:
    recording(const std::string& path, const std::string& format = "cf32")
    {
        const std::string base = sigmf_base(path);
        if (!base.empty()) {
            d_meta = read_sigmf_meta(base + ".sigmf-meta");
            d_data_path = base + ".sigmf-data";
            d_sigmf = true;
        } else {
            d_meta.datatype = format_from_name(format).datatype;
            d_data_path = path;
        }
        d_format = format_from_name(d_meta.datatype);
        d_file.open(d_data_path, std::ios::binary);
        if (!d_file)
            throw std::runtime_error(d_data_path + ": cannot open");
    }

    bool is_sigmf() const { return d_sigmf; }
    const sigmf_meta& meta() const { return d_meta; }
    const sample_format& format() const { return d_format; }
    const std::string& data_path() const { return d_data_path; }

    //! Up to n samples into out; returns how many (0 at the end; a cut last sample is dropped).
    size_t read(std::complex<float>* out, size_t n)
    {
        d_raw.resize(n * d_format.bytes_per_sample);
        d_file.read(reinterpret_cast<char*>(d_raw.data()), std::streamsize(d_raw.size()));
        const size_t got = size_t(d_file.gcount()) / d_format.bytes_per_sample;
        const float s = 1.0f / d_format.full_scale;
        for (size_t i = 0; i < got; i++) {
            const uint8_t* p = d_raw.data() + i * d_format.bytes_per_sample;
            if (d_format.bytes_per_sample == 8) {
                float iq[2];
                std::memcpy(iq, p, 8);
                out[i] = { iq[0], iq[1] };
            } else if (d_format.bytes_per_sample == 4) {
                int16_t iq[2];
                std::memcpy(iq, p, 4);
                out[i] = { iq[0] * s, iq[1] * s };
            } else {
                out[i] = { int8_t(p[0]) * s, int8_t(p[1]) * s };
            }
        }
        return got;
    }

    //! Every remaining sample.
    std::vector<std::complex<float>> read_all()
    {
        std::vector<std::complex<float>> all;
        std::vector<std::complex<float>> block(1 << 16);
        while (const size_t n = read(block.data(), block.size()))
            all.insert(all.end(), block.begin(), block.begin() + std::ptrdiff_t(n));
        return all;
    }

private:
    sigmf_meta d_meta;
    sample_format d_format;
    std::string d_data_path;
    bool d_sigmf = false;
    std::ifstream d_file;
    std::vector<uint8_t> d_raw;
};

} // namespace gpuofdm_apps

#endif
