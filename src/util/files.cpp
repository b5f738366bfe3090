#include "util/files.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "util/secrets.h"

namespace ascendopt {

// With read(2), not an ifstream: libstdc++'s filebuf throws from underflow when a read fails
// (a folder: EISDIR; a /proc file of a process that just ended: ESRCH), and a read error is an
// expected failure here, not an exception.
Result<std::string> read_text(const fs::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return make_error("cannot read " + path.string() + ": " + std::strerror(errno));
    std::string text;
    char buf[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n > 0) {
            text.append(buf, size_t(n));
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        const int err = errno;
        ::close(fd);
        if (n < 0) return make_error("cannot read " + path.string() + ": " + std::strerror(err));
        return text;
    }
}

Result<std::vector<char>> read_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return make_error("cannot read " + path.string() + ": " + std::strerror(errno));
    // One read of the whole file: inputs, outputs and goldens reach hundreds of megabytes.
    std::vector<char> bytes(size_t(in.tellg()));
    in.seekg(0);
    if (!in.read(bytes.data(), std::streamsize(bytes.size()))) return make_error("cannot read " + path.string() + ": read failed");
    return bytes;
}

Status write_atomic(const fs::path& path, std::string_view bytes) {
    if (is_scrubbed_text_file(path.filename().string())) return write_bytes_atomic(path, scrub_secrets(std::string(bytes)));
    return write_bytes_atomic(path, bytes);
}

Status write_bytes_atomic(const fs::path& path, std::string_view bytes) {
    const fs::path tmp = path.string() + ".tmp." + std::to_string(::getpid());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) return make_error("cannot write " + tmp.string() + ": " + std::strerror(errno));
        out.write(bytes.data(), std::streamsize(bytes.size()));
        if (!out) return make_error("write to " + tmp.string() + " failed: " + std::strerror(errno));
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) return make_error("cannot rename " + tmp.string() + " to " + path.string() + ": " + ec.message());
    return ok_status();
}

std::vector<fs::path> list_files(const fs::path& dir, std::string_view suffix, bool recursive) {
    std::vector<fs::path> out;
    std::error_code ec;
    auto take = [&](const fs::directory_entry& e) {
        const std::string name = e.path().filename().string();
        if (e.is_regular_file() && name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
            out.push_back(e.path());
    };
    if (recursive) {
        for (const auto& e : fs::recursive_directory_iterator(dir, ec)) take(e);
    } else {
        for (const auto& e : fs::directory_iterator(dir, ec)) take(e);
    }
    std::sort(out.begin(), out.end());
    return out;
}

Result<fs::path> make_temp_dir(const fs::path& parent, std::string_view prefix) {
    std::error_code ec;
    fs::create_directories(parent, ec);
    std::string templ = (parent / (std::string(prefix) + "-" + std::to_string(::getpid()) + "-XXXXXX")).string();
    if (!::mkdtemp(templ.data())) return make_error("cannot create a directory under " + parent.string() + ": " + std::strerror(errno));
    return fs::path(templ);
}

namespace {

// The pid in a make_temp_dir name ("prefix-<pid>-XXXXXX"), or 0 when the name has none.
pid_t creator_pid(const std::string& name) {
    const size_t last = name.rfind('-');
    if (last == std::string::npos || last == 0 || name.size() - last != 7) return 0;
    const size_t before = name.rfind('-', last - 1);
    if (before == std::string::npos || before + 1 == last) return 0;
    pid_t pid = 0;
    for (size_t i = before + 1; i < last; ++i) {
        if (name[i] < '0' || name[i] > '9' || pid > 100000000) return 0;
        pid = pid * 10 + (name[i] - '0');
    }
    return pid;
}

bool process_gone(pid_t pid) { return ::kill(pid, 0) != 0 && errno == ESRCH; }

}  // namespace

size_t sweep_abandoned_temp_dirs(const fs::path& parent, std::string_view prefix) {
    size_t removed = 0;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(parent, ec)) {
        const std::string name = e.path().filename().string();
        if (name.rfind(prefix, 0) != 0 || !e.is_directory(ec) || fs::exists(e.path() / k_keep_marker, ec)) continue;
        const pid_t pid = creator_pid(name);
        if (pid <= 0 || pid == ::getpid() || !process_gone(pid)) continue;
        if (fs::remove_all(e.path(), ec) > 0 && !ec) ++removed;
    }
    return removed;
}

// Absolute, because sandboxed runs bind cache paths into a namespace with another working directory.
fs::path cache_root() {
    auto absolute = [](fs::path p) {
        std::error_code ec;
        auto a = fs::absolute(p, ec);
        return ec ? p : a;
    };
    if (const char* d = std::getenv("ASCENDOPT_CACHE_DIR"); d && *d) return absolute(d);
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return absolute(fs::path(x) / "ascendopt");
    if (const char* h = std::getenv("HOME"); h && *h) return absolute(fs::path(h) / ".cache" / "ascendopt");
    return fs::temp_directory_path() / "ascendopt-cache";
}

}  // namespace ascendopt
