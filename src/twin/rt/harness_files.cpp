#include "harness_files.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>

namespace ascendopt_twin::harness {
namespace {

// Filled by the first constructor, before the static objects of any translation unit are
// initialised: each lives in a function, built on first use, never a namespace-scope object
// (whose initialiser would run later and wipe it).
struct Files {
    std::string mode;
    std::string describe_path;
    nlohmann::json job;
    std::map<std::string, int> fds;  // path -> descriptor
};
Files& files() {
    static Files f;
    return f;
}

bool read_whole(const std::string& path, std::string& out, std::string& error) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        error = "cannot open " + path + ": " + std::strerror(errno);
        return false;
    }
    char buf[1 << 16];
    for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) out.append(buf, size_t(n));
    ::close(fd);
    return true;
}

bool open_into_table(const std::string& path, int flags, std::string& error) {
    if (path.empty() || files().fds.count(path)) return true;
    const int fd = ::open(path.c_str(), flags | O_CLOEXEC, 0644);
    if (fd < 0) {
        error = "cannot open " + path + ": " + std::strerror(errno);
        return false;
    }
    files().fds[path] = fd;
    return true;
}

// A job names a few files per case; a long job may need more descriptors than the soft limit.
void raise_descriptor_limit() {
    rlimit r{};
    if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
        r.rlim_cur = r.rlim_max;
        setrlimit(RLIMIT_NOFILE, &r);
    }
}

// The files one case of the job uses in this mode. The tiling half (`--tiling`, the host binary)
// reads the inputs (ValueDepend tiling reads their data) and writes the case's tiling; it never
// opens an output, a result or a trace, which are the launch half's (`--job`).
bool open_case_files(const nlohmann::json& c, std::string& error) {
    constexpr int k_write = O_WRONLY | O_CREAT | O_TRUNC;
    if (files().mode == "--tiling") {
        for (const auto& t : c.value("inputs", nlohmann::json::array()))
            if (!open_into_table(t.value("file", ""), O_RDONLY, error)) return false;
        return open_into_table(c.value("tiling", ""), k_write, error);
    }
    if (!open_into_table(c.value("result", ""), k_write, error)) return false;
    if (!open_into_table(c.value("trace", ""), k_write, error)) return false;
    for (const auto& t : c.value("inputs", nlohmann::json::array()))
        if (!open_into_table(t.value("file", ""), O_RDONLY, error)) return false;
    for (const auto& t : c.value("outputs", nlohmann::json::array()))
        if (!open_into_table(t.value("file", ""), k_write, error)) return false;
    return true;
}

}  // namespace

bool preopen_files(int argc, char** argv, std::string& error) {
    if (argc != 3) return true;  // main() prints the usage
    files().mode = argv[1];
    if (files().mode == "--describe") {
        files().describe_path = argv[2];
        return open_into_table(files().describe_path, O_WRONLY | O_CREAT | O_TRUNC, error);
    }
    if (files().mode != "--job" && files().mode != "--tiling") return true;
    std::string text;
    if (!read_whole(argv[2], text, error)) return false;
    files().job = nlohmann::json::parse(text, nullptr, false);  // written by ascendopt, not by the candidate
    if (!files().job.is_object()) {
        error = "job " + std::string(argv[2]) + " is not a JSON object";
        return false;
    }
    raise_descriptor_limit();
    if (!open_case_files(files().job, error)) return false;
    for (const auto& c : files().job.value("cases", nlohmann::json::array()))
        if (!open_case_files(c, error)) return false;
    return true;
}

const std::string& preopened_mode() { return files().mode; }
const nlohmann::json& preopened_job() { return files().job; }
const std::string& describe_path() { return files().describe_path; }

int preopened_fd(const std::string& path) {
    const auto it = files().fds.find(path);
    return it == files().fds.end() ? -1 : it->second;
}

bool overwrite_fd(int fd, const char* data, size_t size) {
    if (fd < 0 || ::ftruncate(fd, 0) != 0) return false;
    size_t done = 0;
    while (done < size) {
        const ssize_t n = ::pwrite(fd, data + done, size - done, off_t(done));
        if (n <= 0) return false;
        done += size_t(n);
    }
    return true;
}

bool overwrite_preopened(const std::string& path, const std::string& text) {
    return overwrite_fd(preopened_fd(path), text.data(), text.size());
}

bool read_preopened(const std::string& path, char* dest, uint64_t capacity, uint64_t& size) {
    const int fd = preopened_fd(path);
    struct stat st{};
    if (fd < 0 || ::fstat(fd, &st) != 0) return false;
    size = uint64_t(st.st_size);
    if (size > capacity) return false;
    uint64_t done = 0;
    while (done < size) {
        const ssize_t n = ::pread(fd, dest + done, size - done, off_t(done));
        if (n <= 0) return false;
        done += uint64_t(n);
    }
    return true;
}

}  // namespace ascendopt_twin::harness
