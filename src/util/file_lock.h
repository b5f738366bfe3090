// An exclusive lock on a file, held for the object's lifetime: the way two ascendopt processes
// (or two threads of one) agree on who builds or writes a shared folder. POSIX record locks
// (fcntl F_OFD_SETLKW): they are per open file description, so two threads of one process
// exclude each other as two processes do, and NFS carries them to the server. Released when the
// object goes away or the process dies, so a crash never leaves a folder locked.
#pragma once

#include <filesystem>
#include <optional>

#include "util/result.h"

namespace ascendopt {

class FileLock {
public:
    // Waits for the lock on `path` (created if absent). An error when the file cannot be opened
    // or the filesystem refuses locks (the message says which).
    static Result<FileLock> acquire(const std::filesystem::path& path);
    // Takes the lock if it is free; nullopt when another holder has it (a process, or another
    // FileLock of this one).
    static Result<std::optional<FileLock>> try_acquire(const std::filesystem::path& path);

    FileLock(FileLock&& other) noexcept : m_fd(other.m_fd) { other.m_fd = -1; }
    FileLock& operator=(FileLock&& other) noexcept;
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;
    ~FileLock();

private:
    explicit FileLock(int fd) : m_fd(fd) {}
    int m_fd = -1;
};

}  // namespace ascendopt
