#include "eval/eval_memo.h"

#include "eval/evaluator.h"
#include "util/files.h"
#include "util/hash.h"
#include "util/json_bounded.h"

namespace ascendopt {
namespace fs = std::filesystem;
namespace {

// Bumped whenever what a stored result means changes.
constexpr const char* k_layout = "eval-memo-v2\n";

nlohmann::json tolerance_identity(const ToleranceOverride& t) {
    return {t.rtol ? nlohmann::json(*t.rtol) : nlohmann::json(), t.atol ? nlohmann::json(*t.atol) : nlohmann::json()};
}

// `shaped` false leaves the shape out: the hidden case's is drawn afresh in every evaluation.
nlohmann::json tensor_identity(const TensorSpec& t, bool shaped) {
    nlohmann::json id = {t.name, t.list_index, t.inplace, t.shape_from_kernel, t.format, dtype_name(t.dtype), shaped ? nlohmann::json(t.shape) : nlohmann::json(), int(t.distribution), t.low, t.high, t.values, tolerance_identity(t.tolerance)};
    if (t.ints_beyond_double()) id.push_back(t.int_values);
    return id;
}

// `golden_hashes` holds each golden file's content hash, read once per key: the cases of an
// operator share one golden file. The hidden case counts by everything but its shape (and its
// nonce), so an identical candidate replays the result of an earlier draw: its shape was as
// unknown to the candidate then as a new one would be now.
nlohmann::json case_identity(const Case& c, std::map<std::string, std::string>& golden_hashes) {
    nlohmann::json j = {{"name", c.name}, {"role", role_name(c.role)}, {"attrs", c.attrs}, {"known_defect", c.known_defect},
                        {"inputs", nlohmann::json::array()}, {"outputs", nlohmann::json::array()}};
    const bool shaped = !c.hidden_nonce;
    for (const auto& t : c.inputs) j["inputs"].push_back(tensor_identity(t, shaped));
    for (const auto& t : c.outputs) j["outputs"].push_back(tensor_identity(t, shaped));
    if (!c.tolerance.empty()) j["tolerance"] = tolerance_identity(c.tolerance);
    j["golden"] = {int(c.golden.kind), c.golden.function};
    // The golden by content: an edited golden changes what "correct" means.
    auto known = golden_hashes.find(c.golden.file);
    if (known == golden_hashes.end()) {
        auto text = read_text(c.golden.file);
        known = golden_hashes.emplace(c.golden.file, text ? sha256_hex(*text) : "unreadable").first;
    }
    j["golden_text"] = known->second;
    return j;
}

// This executable by size and modification time: its comparison and verdict code is part of
// every result, and any rebuild changes the stamp.
std::string executable_stamp() {
    std::error_code e1, e2;
    const fs::path self = fs::read_symlink("/proc/self/exe", e1);
    if (e1) return "unknown";
    const auto size = fs::file_size(self, e1);
    const auto time = fs::last_write_time(self, e2);
    if (e1 || e2) return "unknown";
    return self.string() + ":" + std::to_string(size) + ":" + std::to_string(time.time_since_epoch().count());
}

}  // namespace

EvalMemo::EvalMemo(fs::path dir) : m_dir(std::move(dir)) {}

bool EvalMemo::applies(const EvalOptions& o) {
    return o.replay && o.sim_noise_pct == 0 && !o.trace_dir && !o.keep_work_dirs;
}

std::string EvalMemo::key(const std::string& host_key, const std::vector<fs::path>& kernel_binaries, const std::vector<Case>& cases,
                          const std::map<std::string, std::string>& env, const EvalOptions& o) {
    static const std::string self = executable_stamp();
    nlohmann::json settings = {{"soc", o.soc_description}, {"seed", o.seed},         {"repeats", o.repeats},
                               {"timing", o.timing},        {"strict_gm", o.strict_gm}, {"strict_ub", o.strict_ub},
                               {"races", race_check_name(o.races)}, {"memory", o.memory_limit_bytes}, {"sandboxed", o.sandbox.has_value()}, {"screen", o.screen}};
    if (!o.timing_variants.empty()) settings["timing_variants"] = o.timing_variants;  // absent: keys as before
    if (o.backend != "twin") settings["backend"] = o.backend;                          // absent: keys as before
    nlohmann::json all_cases = nlohmann::json::array();
    std::map<std::string, std::string> golden_hashes;
    for (const auto& c : cases) all_cases.push_back(case_identity(c, golden_hashes));
    Sha256 h;
    h.update(k_layout).update(self).update("\n").update(host_key).update("\n");
    for (const auto& k : kernel_binaries) h.update(k.string()).update("\n");
    h.update(all_cases.dump()).update(nlohmann::json(env).dump()).update(settings.dump());
    return h.hex();
}

std::optional<EvalResult> EvalMemo::find(const std::string& key) const {
    const fs::path file = m_dir / (key + ".json");
    auto text = read_text(file);  // a miss is a file that is not there
    if (!text) return std::nullopt;
    auto doc = parse_bounded_json(*text, file.string());
    if (!doc) return std::nullopt;
    return eval_result_from_json(*doc);
}

bool EvalMemo::storable(const EvalResult& r) {
    if (r.status != EvalStatus::ok && r.status != EvalStatus::wrong_result) return false;
    for (const auto& c : r.cases)
        if (c.status != EvalStatus::ok && c.status != EvalStatus::wrong_result && !c.expected_failure()) return false;
    return true;
}

void EvalMemo::store(const std::string& key, const EvalResult& r) const {
    if (!storable(r)) return;
    EvalResult kept = r;
    for (auto& c : kept.cases)
        if (c.role == CaseRole::check && c.twin.is_object()) c.twin.erase("timing");
    std::error_code ec;
    fs::create_directories(m_dir, ec);
    (void)write_atomic(m_dir / (key + ".json"), to_json(kept).dump());
}

}  // namespace ascendopt
