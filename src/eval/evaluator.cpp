#include "eval/evaluator.h"

#include <chrono>
#include <future>
#include <map>

#include "eval/case_runner.h"
#include "util/files.h"

namespace ascendopt {
namespace {

class TwinEvaluator : public Evaluator {
public:
    TwinEvaluator(Builder& b, GoldenRunner& g, EvalOptions o) : m_builder(b), m_golden(g), m_opts(std::move(o)) {}

    Result<EvalResult> evaluate(const OperatorSource& op, const ProgressFn& progress) override {
        EvalResult result;
        result.op_dir = op.root.string();
        result.op_name = op.display_name();
        const auto start = std::chrono::steady_clock::now();
        progress("build", "host code of " + op.display_name());
        auto host = m_builder.build_host(op);
        if (!host) return build_failed(result, host.error(), start);
        result.op_name = host->opdef.type;

        auto cases = resolve_cases(op.cases, host->opdef);
        if (!cases) return cases.error();
        std::vector<Case> selected = select(*cases);
        if (selected.empty())
            return make_error("operator " + result.op_name + " has no " +
                                  (m_opts.case_filter ? "case named '" + *m_opts.case_filter + "'" : std::string("perf case")),
                              case_names(*cases));

        auto kernels = build_kernels(op, *host, selected, progress);
        result.build_seconds = seconds_since(start);
        result.build_cached = host->cached;
        for (const auto& [sig, k] : kernels) {
            if (!k) return build_failed(result, k.error(), start);
            result.build_cached = result.build_cached && k->cached;
        }
        auto work = make_temp_dir(fs::temp_directory_path(), "ascendopt-eval");
        if (!work) return work.error();
        for (const auto& c : selected) {
            progress("case", c.name);
            const fs::path dir = *work / sanitize(c.name);
            fs::create_directories(dir);
            auto r = run_case(c, *kernels.at(c.dtype_signature()), result.op_name, m_golden, m_opts, dir);
            if (!r) return r.error();
            if (r->status != EvalStatus::ok && result.status == EvalStatus::ok) {
                result.status = r->status;
                result.reason = c.name + ": " + r->reason;
            }
            result.cases.push_back(std::move(*r));
        }
        std::error_code ec;
        if (!m_opts.keep_work_dirs) fs::remove_all(*work, ec);
        return result;
    }

private:
    static double seconds_since(std::chrono::steady_clock::time_point t) {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
    }
    static std::string sanitize(std::string s) {
        for (auto& c : s)
            if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
        return s;
    }
    static std::string case_names(const std::vector<Case>& cases) {
        std::string s = "cases:";
        for (const auto& c : cases) s += " " + c.name;
        return s;
    }
    Result<EvalResult> build_failed(EvalResult& r, const Error& e, std::chrono::steady_clock::time_point start) {
        r.status = EvalStatus::build_failed;
        r.reason = e.message;
        r.build_log = e.detail;
        r.build_seconds = seconds_since(start);
        return r;
    }
    std::vector<Case> select(const std::vector<Case>& cases) const {
        std::vector<Case> out;
        for (const auto& c : cases)
            if ((!m_opts.case_filter || c.name == *m_opts.case_filter) && (!m_opts.role_filter || c.role == *m_opts.role_filter))
                out.push_back(c);
        return out;
    }
    // One kernel build per dtype combination, at most `jobs` at a time.
    std::map<std::string, Result<KernelBuild>> build_kernels(const OperatorSource& op, const HostBuild& host,
                                                            const std::vector<Case>& cases, const ProgressFn& progress) {
        std::map<std::string, const Case*> samples;
        for (const auto& c : cases) samples.emplace(c.dtype_signature(), &c);
        std::map<std::string, Result<KernelBuild>> out;
        std::vector<std::pair<std::string, std::future<Result<KernelBuild>>>> running;
        auto drain = [&](size_t keep) {
            while (running.size() > keep) {
                out.emplace(running.front().first, running.front().second.get());
                running.erase(running.begin());
            }
        };
        for (const auto& [sig, sample] : samples) {
            progress("build", "kernel for " + sig);
            drain(size_t(std::max(1, m_opts.jobs)) - 1);
            running.emplace_back(sig, std::async(std::launch::async, [this, &op, &host, sample] { return m_builder.build_kernel(op, host, *sample); }));
        }
        drain(0);
        return out;
    }

    Builder& m_builder;
    GoldenRunner& m_golden;
    EvalOptions m_opts;
};

}  // namespace

std::unique_ptr<Evaluator> make_twin_evaluator(Builder& builder, GoldenRunner& golden, EvalOptions options) {
    return std::make_unique<TwinEvaluator>(builder, golden, std::move(options));
}

}  // namespace ascendopt
