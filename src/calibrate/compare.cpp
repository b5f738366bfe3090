#include "calibrate/compare.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace ascendopt {
namespace fs = std::filesystem;

namespace {

// 1-based ranks, ties sharing the average of the ranks they span.
std::vector<double> ranks(const std::vector<double>& v) {
    std::vector<size_t> order(v.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return v[a] < v[b]; });
    std::vector<double> r(v.size());
    for (size_t i = 0; i < order.size();) {
        size_t j = i;
        while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]]) ++j;
        const double shared = (double(i) + double(j)) / 2 + 1;
        for (size_t k = i; k <= j; ++k) r[order[k]] = shared;
        i = j + 1;
    }
    return r;
}

double mean(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0) / double(v.size()); }

// The perf cases' latencies of one evaluation, by case name; the reason when it cannot give them.
struct Latencies {
    std::map<std::string, double> us;
    std::string failure;
};

Latencies perf_latencies(Evaluator& evaluator, const OperatorSource& op, const ProgressFn& progress) {
    EvalRequest request;
    request.role_filter = CaseRole::perf;
    auto result = evaluator.evaluate(op, request, progress);
    if (!result) return {{}, result.error().message};
    if (result->status != EvalStatus::ok) return {{}, std::string(status_name(result->status)) + ": " + result->reason};
    Latencies out;
    for (const auto& c : result->cases)
        if (c.latency_us && *c.latency_us > 0) out.us[c.name] = *c.latency_us;
    if (out.us.empty()) out.failure = "no perf case was timed";
    return out;
}

// The machine's and the model's latencies of one operator folder.
struct Pair {
    Latencies machine, model;
    std::string failure() const {
        if (!machine.failure.empty()) return "on the machine, " + machine.failure;
        if (!model.failure.empty()) return "on the model, " + model.failure;
        return "";
    }
};

Result<Pair> measure_both(const fs::path& folder, Evaluator& machine, Evaluator& model, const ProgressFn& progress) {
    auto op = load_operator(folder);
    if (!op) return op.error();
    return Pair{perf_latencies(machine, *op, progress), perf_latencies(model, *op, progress)};
}

// GM over the cases both versions timed of baseline / operator; nullopt when they share none.
std::optional<std::pair<double, size_t>> gm_ratio(const std::map<std::string, double>& baseline, const std::map<std::string, double>& op) {
    double log_sum = 0;
    size_t n = 0;
    for (const auto& [name, us] : op)
        if (auto it = baseline.find(name); it != baseline.end()) {
            log_sum += std::log(it->second / us);
            ++n;
        }
    if (n == 0) return std::nullopt;
    return std::make_pair(std::exp(log_sum / double(n)), n);
}

}  // namespace

std::optional<double> spearman(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size() || a.size() < 3) return std::nullopt;
    const auto ra = ranks(a), rb = ranks(b);
    const double ma = mean(ra), mb = mean(rb);
    double cov = 0, va = 0, vb = 0;
    for (size_t i = 0; i < ra.size(); ++i) {
        cov += (ra[i] - ma) * (rb[i] - mb);
        va += (ra[i] - ma) * (ra[i] - ma);
        vb += (rb[i] - mb) * (rb[i] - mb);
    }
    if (va == 0 || vb == 0) return std::nullopt;
    return cov / std::sqrt(va * vb);
}

Result<Comparison> compare_backends(const std::vector<std::string>& operators, Evaluator& machine, Evaluator& model,
                                    const ProgressFn& progress) {
    Comparison out;
    for (const auto& name : operators) {
        auto pair = measure_both(name, machine, model, progress);
        if (!pair) return pair.error();
        if (const std::string why = pair->failure(); !why.empty()) {
            out.skipped.push_back(name + ": " + why);
            continue;
        }
        for (const auto& [c, us] : pair->machine.us)
            if (auto it = pair->model.us.find(c); it != pair->model.us.end()) out.cases.push_back({name, c, it->second, us});
        std::error_code ec;
        if (!fs::is_directory(fs::path(name) / "baseline", ec)) continue;
        auto base = measure_both(fs::path(name) / "baseline", machine, model, progress);
        if (!base) return base.error();
        if (const std::string why = base->failure(); !why.empty()) {
            out.skipped.push_back(name + "/baseline: " + why);
            continue;
        }
        const auto on_model = gm_ratio(base->model.us, pair->model.us), on_machine = gm_ratio(base->machine.us, pair->machine.us);
        if (on_model && on_machine) out.speedups.push_back({name, on_model->first, on_machine->first, on_machine->second});
    }
    std::vector<double> model_us, machine_us, model_x, machine_x;
    for (const auto& c : out.cases) model_us.push_back(c.model_us), machine_us.push_back(c.machine_us);
    for (const auto& s : out.speedups) model_x.push_back(s.model), machine_x.push_back(s.machine);
    out.latency_rho = spearman(model_us, machine_us);
    out.speedup_rho = spearman(model_x, machine_x);
    return out;
}

}  // namespace ascendopt
