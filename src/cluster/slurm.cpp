#include "cluster/slurm.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <sstream>

namespace ascendopt {

namespace {

bool all_digits(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

Result<size_t> index_of(const std::string& text, const std::string& line) {
    if (!all_digits(text) || text.size() > 9) return make_error("squeue line '" + line + "' has no task index");
    return size_t(std::stoul(text));
}

SlurmTaskState state_of(const std::string& s) {
    if (s == "PENDING" || s == "REQUEUED" || s == "REQUEUE_HOLD" || s == "REQUEUE_FED" || s == "CONFIGURING") return SlurmTaskState::pending;
    if (s == "RUNNING" || s == "SUSPENDED" || s == "RESIZING") return SlurmTaskState::running;
    if (s == "COMPLETING" || s == "STAGE_OUT" || s == "SIGNALING") return SlurmTaskState::ending;
    return SlurmTaskState::other;
}

}  // namespace

bool valid_slurm_time(const std::string& t) {
    static const std::regex forms(R"(\d+|\d+:\d{1,2}|\d+:\d{1,2}:\d{1,2}|\d+-\d+|\d+-\d+:\d{1,2}|\d+-\d+:\d{1,2}:\d{1,2})");
    return std::regex_match(t, forms);
}

Result<std::vector<std::string>> sbatch_argv(const SlurmResources& r, const ArraySubmission& s) {
    if (s.tasks == 0) return make_error("internal: a job array of no tasks");
    if (r.cpus_per_task < 1) return make_error("--cpus-per-task " + std::to_string(r.cpus_per_task) + " is not a number of CPUs");
    if (!r.time_limit.empty() && !valid_slurm_time(r.time_limit))
        return make_error("the time limit '" + r.time_limit + "' is not one sbatch reads",
                          "give minutes (90), HH:MM:SS (4:00:00) or D-HH:MM:SS (1-00:00:00)");
    std::vector<std::string> argv = {"sbatch",
                                     "--parsable",
                                     "--job-name=" + s.job_name,
                                     "--array=0-" + std::to_string(s.tasks - 1),
                                     "--cpus-per-task=" + std::to_string(r.cpus_per_task),
                                     "--output=" + (s.log_dir / "%A_%a.log").string(),
                                     "--open-mode=append",
                                     "--requeue"};
    if (!r.time_limit.empty()) argv.push_back("--time=" + r.time_limit);
    if (!r.partition.empty()) argv.push_back("--partition=" + r.partition);
    if (!r.account.empty()) argv.push_back("--account=" + r.account);
    if (!s.workdir.empty()) argv.push_back("--chdir=" + s.workdir.string());
    argv.insert(argv.end(), r.extra.begin(), r.extra.end());
    argv.push_back(s.script.string());
    return argv;
}

Result<std::string> parse_sbatch_job_id(const std::string& output) {
    std::string line = output.substr(0, output.find('\n'));
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
    const std::string id = line.substr(0, line.find(';'));
    if (!all_digits(id)) return make_error("sbatch did not print a job id: '" + output.substr(0, 400) + "'");
    return id;
}

std::string shell_quoted(const std::vector<std::string>& command) {
    std::string out;
    for (const auto& word : command) {
        if (!out.empty()) out += ' ';
        out += '\'';
        for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
        out += '\'';
    }
    return out;
}

std::string array_task_script(const std::vector<std::string>& command) {
    return "#!/bin/bash\n"
           "# One task of an ascendopt job array: the study job at this task's index.\n"
           "exec " +
           shell_quoted(command) + " \"$SLURM_ARRAY_TASK_ID\"\n";
}

const char* slurm_task_state_name(SlurmTaskState s) {
    switch (s) {
        case SlurmTaskState::pending: return "pending";
        case SlurmTaskState::running: return "running";
        case SlurmTaskState::ending: return "ending";
        case SlurmTaskState::other: return "other";
    }
    return "other";
}

std::vector<std::string> squeue_argv(const std::string& job_id) { return {"squeue", "-h", "-r", "-j", job_id, "-o", "%i|%T"}; }

Result<std::map<size_t, SlurmTaskState>> parse_squeue_tasks(const std::string& text, const std::string& job_id) {
    std::map<size_t, SlurmTaskState> out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
        if (line.empty()) continue;
        const size_t bar = line.find('|');
        const std::string id = line.substr(0, bar);
        if (bar == std::string::npos || id.rfind(job_id + "_", 0) != 0) return make_error("squeue line '" + line + "' is not a task of job " + job_id);
        const SlurmTaskState state = state_of(line.substr(bar + 1));
        std::string tasks = id.substr(job_id.size() + 1);
        if (tasks.size() < 2 || tasks.front() != '[') {
            auto k = index_of(tasks, line);
            if (!k) return k.error();
            out[*k] = state;
            continue;
        }
        // A folded pending range: [a-b,c,d-e] with an optional %limit.
        tasks = tasks.substr(1, tasks.find_first_of("%]") - 1);
        std::istringstream parts(tasks);
        std::string part;
        while (std::getline(parts, part, ',')) {
            const size_t dash = part.find('-');
            auto first = index_of(part.substr(0, dash), line);
            auto last = dash == std::string::npos ? first : index_of(part.substr(dash + 1), line);
            if (!first) return first.error();
            if (!last) return last.error();
            if (*last < *first || *last - *first > 1000000) return make_error("squeue line '" + line + "' has a range it cannot hold");
            for (size_t k = *first; k <= *last; ++k) out[k] = state;
        }
    }
    return out;
}

}  // namespace ascendopt
