#include "util/file_lock.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace ascendopt {

namespace {

// The lock on the whole of `fd`'s file: F_OFD_SETLKW waits for it, F_OFD_SETLK does not.
int lock_whole(int fd, int command) {
    struct flock lock {};
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    int rc = 0;
    while ((rc = ::fcntl(fd, command, &lock)) != 0 && errno == EINTR) {
    }
    return rc == 0 ? 0 : errno;
}

Error cannot_lock(const std::filesystem::path& path, int why) {
    return make_error("cannot lock " + path.string() + ": " + std::strerror(why),
                      "the filesystem holding it does not support POSIX locks; put the folder on one that does");
}

}  // namespace

Result<FileLock> FileLock::acquire(const std::filesystem::path& path) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return make_error("cannot open the lock file " + path.string() + ": " + std::strerror(errno));
    if (const int why = lock_whole(fd, F_OFD_SETLKW)) {
        ::close(fd);
        return cannot_lock(path, why);
    }
    return FileLock(fd);
}

Result<std::optional<FileLock>> FileLock::try_acquire(const std::filesystem::path& path) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return make_error("cannot open the lock file " + path.string() + ": " + std::strerror(errno));
    const int why = lock_whole(fd, F_OFD_SETLK);
    if (why == 0) return std::optional<FileLock>(FileLock(fd));
    ::close(fd);
    if (why == EAGAIN || why == EACCES) return std::optional<FileLock>();
    return cannot_lock(path, why);
}

FileLock& FileLock::operator=(FileLock&& other) noexcept {
    if (this != &other) {
        if (m_fd >= 0) ::close(m_fd);
        m_fd = other.m_fd;
        other.m_fd = -1;
    }
    return *this;
}

FileLock::~FileLock() {
    if (m_fd >= 0) ::close(m_fd);  // closing the description releases its lock
}

}  // namespace ascendopt
