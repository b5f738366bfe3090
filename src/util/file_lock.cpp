#include "util/file_lock.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace ascendopt {

Result<FileLock> FileLock::acquire(const std::filesystem::path& path) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return make_error("cannot open the lock file " + path.string() + ": " + std::strerror(errno));
    struct flock lock {};
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;  // the whole file
    int rc = 0;
    while ((rc = ::fcntl(fd, F_OFD_SETLKW, &lock)) != 0 && errno == EINTR) {
    }
    if (rc != 0) {
        const int why = errno;
        ::close(fd);
        return make_error("cannot lock " + path.string() + ": " + std::strerror(why),
                          "the filesystem holding it does not support POSIX locks; put the folder on one that does");
    }
    return FileLock(fd);
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
