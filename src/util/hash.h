// SHA-256, for content-addressed caches (builds, goldens) and stable seeds.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ascendopt {

class Sha256 {
public:
    Sha256();
    Sha256& update(std::string_view bytes);
    Sha256& update(const void* data, size_t size);
    // Lowercase hex digest; the object must not be updated afterwards.
    std::string hex();

private:
    void block(const uint8_t* p);
    uint32_t m_h[8];
    uint8_t m_buf[64];
    size_t m_buf_len = 0;
    uint64_t m_total = 0;
};

std::string sha256_hex(std::string_view bytes);

// A 64-bit value derived from a string (the first 8 bytes of its SHA-256).
uint64_t stable_hash64(std::string_view bytes);

}  // namespace ascendopt
