// Every file an operator binary reads or writes, opened before any candidate code runs: the
// harness's first constructor reads the command line and the job file and opens each case's
// inputs, outputs, result and trace (in the host binary's tiling run: its inputs and tiling
// file only); then the process loses open() for good (harness_confine.h). From there on the harness reaches its files only through these
// descriptors, and candidate code, which cannot open anything, cannot reach another file.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace ascendopt_twin::harness {

// Reads argv (`--describe OUT`, `--tiling JOB` or `--job JOB`), the job file, and opens every
// file the mode uses.
// False with `error` when that fails; main() then reports it and exits.
bool preopen_files(int argc, char** argv, std::string& error);

// "--describe", "--tiling" or "--job" (empty when the command line was not one of them), and the job.
const std::string& preopened_mode();
const nlohmann::json& preopened_job();
// The --describe output path.
const std::string& describe_path();

// The descriptor opened for `path`, or -1 when the job did not name it.
int preopened_fd(const std::string& path);

// Replaces the contents of the file behind `fd` (async-signal-safe: no allocation).
bool overwrite_fd(int fd, const char* data, size_t size);
bool overwrite_preopened(const std::string& path, const std::string& text);

// Reads the whole file opened for `path` into `dest`, which holds `capacity` bytes; `size` is
// set to the file's size. False when it was not opened, is larger than `capacity` or cannot
// be read.
bool read_preopened(const std::string& path, char* dest, uint64_t capacity, uint64_t& size);

}  // namespace ascendopt_twin::harness
