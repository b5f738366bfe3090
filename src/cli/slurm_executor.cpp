#include "cli/slurm_executor.h"

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "util/files.h"
#include "util/subprocess.h"

namespace ascendopt {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

Error slurm_error(const std::string& what, const ProcessResult& r) {
    Error e = make_error(what + " failed (" + r.describe_end() + "): " + r.output.substr(0, 2000),
                         "--executor slurm runs sbatch and squeue on this machine; check that it can submit jobs");
    e.missing_tool = !r.started;
    return e;
}

// The task list an array was submitted with: a job key per line, the line its task's index.
std::vector<std::string> read_task_list(const fs::path& file) {
    std::vector<std::string> keys;
    auto text = read_text(file);
    if (!text) return keys;
    std::istringstream in(*text);
    for (std::string line; std::getline(in, line);) keys.push_back(line);
    return keys;
}

// The array an earlier parent submitted for this output folder (slurm/array.json), if squeue still has
// tasks of it: this parent then waits for it instead of submitting the same jobs again.
struct Array {
    std::string job_id;
    std::vector<std::string> keys;
    bool attached = false;
};

std::optional<Array> queued_array(const fs::path& slurm_dir) {
    auto text = read_text(slurm_dir / "array.json");
    if (!text) return std::nullopt;
    const json doc = json::parse(*text, nullptr, false);
    if (!doc.is_object() || !doc.contains("job_id") || !doc.contains("tasks")) return std::nullopt;
    const std::string id = doc.value("job_id", "");
    const ProcessResult q = run_process(squeue_argv(id), {.timeout_seconds = 60});
    if (!q.succeeded()) return std::nullopt;
    auto states = parse_squeue_tasks(q.output, id);
    if (!states || states->empty()) return std::nullopt;
    return Array{id, read_task_list(doc.value("tasks", "")), true};
}

Result<Array> submit(const SlurmArray& s, const std::vector<std::string>& keys, const fs::path& slurm_dir) {
    const std::string stamp = std::to_string(std::time(nullptr));
    const fs::path tasks = slurm_dir / ("tasks-" + stamp + ".txt"), script = slurm_dir / ("task-" + stamp + ".sh");
    std::string list;
    for (const auto& k : keys) list += k + "\n";
    if (auto w = write_atomic(tasks, list); !w) return w.error();
    std::vector<std::string> command = s.task_command;
    command.insert(command.end(), {"--task-list", tasks.string(), "--task-index"});
    if (auto w = write_atomic(script, array_task_script(command)); !w) return w.error();
    ::chmod(script.c_str(), 0755);
    std::error_code ec;
    const ArraySubmission submission{script, slurm_dir / "logs", s.name, keys.size(), fs::current_path(ec)};
    auto argv = sbatch_argv(s.resources, submission);
    if (!argv) return argv.error();
    const ProcessResult r = run_process(*argv, {.timeout_seconds = 120});
    if (!r.succeeded()) return slurm_error("sbatch", r);
    auto id = parse_sbatch_job_id(r.output);
    if (!id) return id.error();
    if (auto w = write_atomic(slurm_dir / "array.json", json{{"job_id", *id}, {"tasks", tasks.string()}, {"submitted", stamp}}.dump(2)); !w)
        return w.error();
    return Array{*id, keys, false};
}

// The tasks' progress, from their jobs' result files and squeue's view of the array.
struct TaskCounts {
    size_t done = 0, pending = 0, running = 0, failed = 0;
    std::string line(const Array& a) const {
        return fmt::format("slurm job {}: {} done, {} running, {} pending, {} failed of {}", a.job_id, done, running, pending, failed, a.keys.size());
    }
};

}  // namespace

void add_executor_options(CLI::App& cmd, ExecutorOptions& o, const std::string& jobs) {
    cmd.add_option("--executor", o.executor,
                   "Where the jobs run: local (here) or slurm (each " + jobs +
                       " as one task of a Slurm job array, with the slurm.* settings; rerun to resubmit what did not finish; "
                       "docs/cluster.md)")
        ->check(CLI::IsMember({"local", "slurm"}))
        ->capture_default_str();
    // What the executor's tasks run; a user has no need of them.
    auto* list = cmd.add_option("--task-list", o.task_list, "Run only the job named on line --task-index of this file (a cluster task)")
                     ->group("Cluster tasks");
    auto* index = cmd.add_option("--task-index", o.task_index, "The task's line of --task-list, from 0")->group("Cluster tasks");
    list->needs(index);
    index->needs(list);
}

Result<std::string> task_job_key(const ExecutorOptions& o) {
    auto text = read_text(o.task_list);
    if (!text) return text.error();
    const size_t index = o.task_index.value_or(0);
    std::istringstream in(*text);
    std::string line;
    for (size_t k = 0; std::getline(in, line); ++k)
        if (k == index) return line;
    return make_error("--task-index " + std::to_string(index) + " is past the end of the task list " + o.task_list);
}

std::vector<std::string> task_command() {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    std::vector<std::string> out = {ec ? command_line().front() : self.string()};
    const auto& line = command_line();
    for (size_t i = 1; i < line.size(); ++i) {
        if (line[i] == "--executor") {
            ++i;  // and its value
            continue;
        }
        if (line[i].rfind("--executor=", 0) == 0) continue;
        out.push_back(line[i]);
    }
    return out;
}

Result<SlurmOutcome> run_on_slurm(const SlurmArray& s) {
    const fs::path slurm_dir = s.out / "slurm";
    std::error_code ec;
    fs::create_directories(slurm_dir / "logs", ec);
    if (ec) return make_error("cannot create " + (slurm_dir / "logs").string() + ": " + ec.message());
    std::vector<std::string> unfinished;
    for (const auto& key : s.keys)
        if (!s.finished(key)) unfinished.push_back(key);
    std::optional<Array> array = queued_array(slurm_dir);
    if (!array && unfinished.empty()) return SlurmOutcome{};
    if (!array) {
        auto submitted = submit(s, unfinished, slurm_dir);
        if (!submitted) return submitted.error();
        array = std::move(*submitted);
    }
    if (!s.quiet)
        std::cerr << "ascendopt: " << (array->attached ? "waiting for" : "submitted") << " Slurm job array " << array->job_id << " ("
                  << array->keys.size() << " tasks; logs in " << (slurm_dir / "logs").string() << ")\n";

    SlurmOutcome out{array->job_id, array->keys.size(), array->attached, {}};
    std::set<size_t> gone;      // tasks squeue no longer lists: they ended
    std::set<size_t> finished;  // tasks whose job has its result
    auto last_queue = std::chrono::steady_clock::now() - std::chrono::hours(1);
    std::string shown;
    int squeue_failures = 0;
    for (;;) {
        TaskCounts p;
        bool queue_read = false;
        std::map<size_t, SlurmTaskState> states;
        if (std::chrono::steady_clock::now() - last_queue >= std::chrono::duration<double>(s.queue_poll_seconds)) {
            const ProcessResult q = run_process(squeue_argv(array->job_id), {.timeout_seconds = 60});
            auto parsed = q.succeeded() ? parse_squeue_tasks(q.output, array->job_id) : Result<std::map<size_t, SlurmTaskState>>(slurm_error("squeue", q));
            if (!parsed && ++squeue_failures >= 5) return parsed.error();
            if (parsed) {
                squeue_failures = 0;
                states = std::move(*parsed);
                queue_read = true;
                last_queue = std::chrono::steady_clock::now();
                for (size_t k = 0; k < array->keys.size(); ++k)
                    if (!states.count(k)) gone.insert(k);
            }
        }
        for (size_t k = 0; k < array->keys.size(); ++k) {
            // A job's result, once there, stays: it is read (and parsed) once, not every poll.
            if (!finished.count(k) && s.finished(array->keys[k])) finished.insert(k);
            if (finished.count(k)) ++p.done;
            else if (gone.count(k)) ++p.failed;
            else if (auto st = states.find(k); st != states.end() && st->second == SlurmTaskState::pending) ++p.pending;
            else ++p.running;
        }
        const std::string line = p.line(*array);
        if (!s.quiet && line != shown) {
            std::cerr << (isatty(STDERR_FILENO) ? "\r\033[K" : "") << line << (isatty(STDERR_FILENO) ? "" : "\n") << std::flush;
            shown = line;
        }
        if (p.done == array->keys.size()) break;                      // every job has its result
        if (queue_read && gone.size() == array->keys.size()) break;  // every task has ended
        std::this_thread::sleep_for(std::chrono::duration<double>(s.poll_seconds));
    }
    if (!s.quiet && isatty(STDERR_FILENO)) std::cerr << "\n";
    for (size_t k = 0; k < array->keys.size(); ++k) {
        if (finished.count(k) || s.finished(array->keys[k])) continue;
        const std::string task = array->job_id + "_" + std::to_string(k);
        out.failed.push_back(array->keys[k] + ": Slurm task " + task + " ended without a result; its log: " +
                             (slurm_dir / "logs" / (task + ".log")).string());
    }
    return out;
}

}  // namespace ascendopt
