// The bounds-checked C string and memory functions of the Huawei secure C library (libboundscheck)
// that host code calls: *_s functions take the destination's size and fail, returning an error
// code, instead of overrunning it. Written from their documented contract.
#pragma once

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>

typedef int errno_t;
#ifndef EOK
#define EOK 0
#endif
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL

inline errno_t memset_s(void* dest, size_t dest_max, int c, size_t count) {
    if (dest == nullptr || dest_max > SECUREC_MEM_MAX_LEN) return EINVAL;
    if (count > dest_max) {
        std::memset(dest, c, dest_max);
        return ERANGE;
    }
    std::memset(dest, c, count);
    return EOK;
}

inline errno_t memcpy_s(void* dest, size_t dest_max, const void* src, size_t count) {
    if (dest == nullptr || dest_max > SECUREC_MEM_MAX_LEN) return EINVAL;
    if (src == nullptr) {
        std::memset(dest, 0, dest_max);
        return EINVAL;
    }
    if (count > dest_max) {
        std::memset(dest, 0, dest_max);
        return ERANGE;
    }
    std::memmove(dest, src, count);
    return EOK;
}

inline errno_t memmove_s(void* dest, size_t dest_max, const void* src, size_t count) { return memcpy_s(dest, dest_max, src, count); }

inline errno_t strncpy_s(char* dest, size_t dest_max, const char* src, size_t count) {
    if (dest == nullptr || dest_max == 0) return EINVAL;
    if (src == nullptr) {
        dest[0] = '\0';
        return EINVAL;
    }
    const size_t n = strnlen(src, count);
    if (n >= dest_max) {
        dest[0] = '\0';
        return ERANGE;
    }
    std::memcpy(dest, src, n);
    dest[n] = '\0';
    return EOK;
}

inline errno_t strcpy_s(char* dest, size_t dest_max, const char* src) { return strncpy_s(dest, dest_max, src, src ? std::strlen(src) : 0); }

inline errno_t strcat_s(char* dest, size_t dest_max, const char* src) {
    if (dest == nullptr || dest_max == 0 || src == nullptr) return EINVAL;
    const size_t used = strnlen(dest, dest_max);
    if (used == dest_max) return EINVAL;
    return strcpy_s(dest + used, dest_max - used, src);
}

inline errno_t strncat_s(char* dest, size_t dest_max, const char* src, size_t count) {
    if (dest == nullptr || dest_max == 0 || src == nullptr) return EINVAL;
    const size_t used = strnlen(dest, dest_max);
    if (used == dest_max) return EINVAL;
    return strncpy_s(dest + used, dest_max - used, src, count);
}

// -1 when the formatted text does not fit into dest_max - 1 characters (count bounds it too);
// dest is then truncated and terminated.
inline int vsnprintf_s(char* dest, size_t dest_max, size_t count, const char* format, va_list args) {
    if (dest == nullptr || dest_max == 0 || format == nullptr) return -1;
    const size_t limit = count < dest_max ? count + 1 : dest_max;
    const int n = std::vsnprintf(dest, limit, format, args);
    return n < 0 || size_t(n) >= limit ? -1 : n;
}

__attribute__((format(printf, 4, 5))) inline int snprintf_s(char* dest, size_t dest_max, size_t count, const char* format, ...) {
    va_list args;
    va_start(args, format);
    const int n = vsnprintf_s(dest, dest_max, count, format, args);
    va_end(args);
    return n;
}

__attribute__((format(printf, 3, 4))) inline int sprintf_s(char* dest, size_t dest_max, const char* format, ...) {
    va_list args;
    va_start(args, format);
    const int n = vsnprintf_s(dest, dest_max, dest_max - 1, format, args);
    va_end(args);
    return n;
}
