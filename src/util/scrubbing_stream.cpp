#include "util/scrubbing_stream.h"

#include <iostream>
#include <mutex>
#include <streambuf>
#include <string>

#include "util/secrets.h"

namespace ascendopt {
namespace {

// Buffers characters until a line ends, then writes the scrubbed line to the wrapped buffer.
// A lock keeps lines from different threads whole.
class ScrubbingBuf : public std::streambuf {
public:
    explicit ScrubbingBuf(std::streambuf* out) : m_out(out) {}
    ~ScrubbingBuf() override { sync(); }

protected:
    int_type overflow(int_type ch) override {
        if (traits_type::eq_int_type(ch, traits_type::eof())) return sync() == 0 ? traits_type::not_eof(ch) : traits_type::eof();
        const char c = traits_type::to_char_type(ch);
        return xsputn(&c, 1) == 1 ? ch : traits_type::eof();
    }
    std::streamsize xsputn(const char* s, std::streamsize n) override {
        std::lock_guard lock(m_mutex);
        for (std::streamsize i = 0; i < n; ++i) {
            m_line += s[i];
            if ((s[i] == '\n' || s[i] == '\r' || m_line.size() >= k_longest_held) && !emit_locked()) return i + 1;
        }
        return n;
    }
    int sync() override {
        std::lock_guard lock(m_mutex);
        if (!emit_locked()) return -1;
        return m_out->pubsync();
    }

private:
    static constexpr size_t k_longest_held = 64 * 1024;  // a line this long is written in parts

    bool emit_locked() {
        if (m_line.empty()) return true;
        const std::string clean = scrub_secrets(std::move(m_line));
        m_line.clear();
        return m_out->sputn(clean.data(), std::streamsize(clean.size())) == std::streamsize(clean.size());
    }

    std::streambuf* m_out;
    std::mutex m_mutex;
    std::string m_line;
};

}  // namespace

void scrub_standard_streams() {
    static std::once_flag once;
    std::call_once(once, [] {
        // Never destroyed: static objects may still print while the process exits.
        static auto* out = new ScrubbingBuf(std::cout.rdbuf());
        static auto* err = new ScrubbingBuf(std::cerr.rdbuf());
        std::cout.rdbuf(out);
        std::cerr.rdbuf(err);
    });
}

}  // namespace ascendopt
