#include "cli/config.h"

#include <cstdlib>
#include <sstream>

#include <toml++/toml.h>

#include "util/secrets.h"

namespace ascendopt {
namespace {

std::string flag_name(const std::string& key) {
    std::string f = "--" + key;
    for (char& c : f)
        if (c == '.' || c == '_') c = '-';
    return f;
}

// Every TOML scalar as text, and a string array joined by newlines (llm.stop).
std::optional<std::string> toml_text(const toml::node& n) {
    if (auto s = n.value<std::string>()) return *s;
    if (auto b = n.value_exact<bool>()) return *b ? "true" : "false";
    if (auto i = n.value_exact<int64_t>()) return std::to_string(*i);
    if (auto d = n.value_exact<double>()) {
        std::ostringstream o;
        o << *d;
        return o.str();
    }
    if (const auto* a = n.as_array()) {
        std::string out;
        for (const auto& item : *a) {
            auto s = item.value<std::string>();
            if (!s) return std::nullopt;
            out += (out.empty() ? "" : "\n") + *s;
        }
        return out;
    }
    return std::nullopt;
}

std::string config_path(const SettingFlags& flags, bool& explicit_choice) {
    explicit_choice = true;
    if (!flags.config_file.empty()) return flags.config_file;
    if (const char* e = std::getenv("ASCENDOPT_CONFIG"); e && *e) return e;
    explicit_choice = false;
    return std::filesystem::exists("ascendopt.toml") ? "ascendopt.toml" : "";
}

Result<std::map<std::string, std::string>> read_config_file(const std::string& path) {
    std::map<std::string, std::string> values;
    toml::table table;
    try {
        table = toml::parse_file(path);
    } catch (const toml::parse_error& e) {
        return make_error(path + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description()),
                          "the config file is TOML: [llm] then lines like model = \"qwen2.5-coder\"");
    }
    std::map<std::string, const SettingDef*> known;
    for (const auto& d : setting_defs()) known[d.key] = &d;
    for (const auto& [section, node] : table) {
        const auto* inner = node.as_table();
        if (!inner) return make_error(path + ": '" + std::string(section.str()) + "' must be a table like [llm]");
        for (const auto& [name, value] : *inner) {
            const std::string key = std::string(section.str()) + "." + std::string(name.str());
            if (!known.count(key)) return make_error(path + ": unknown setting " + key, "`ascendopt config show` lists the settings");
            auto text = toml_text(value);
            if (!text) return make_error(path + ": " + key + " must be a string, number or boolean");
            values[key] = *text;
        }
    }
    return values;
}

Result<double> number(const ResolvedSetting& s) {
    char* end = nullptr;
    const double v = std::strtod(s.value.c_str(), &end);
    if (s.value.empty() || *end != '\0') return make_error(s.def->key + " = '" + s.value + "' (" + s.source + ") is not a number");
    return v;
}

const ResolvedSetting& find(const Settings& s, const std::string& key) {
    for (const auto& r : s.all())
        if (r.def->key == key) return r;
    throw std::logic_error("unknown setting " + key);  // a typo in this file
}

}  // namespace

const std::vector<SettingDef>& setting_defs() {
    static const std::vector<SettingDef> defs = {
        {"llm.kind", {"ASCENDOPT_LLM_KIND"}, "", false, "openai, command or replay; empty: chosen from what is set"},
        {"llm.base_url", {"ASCENDOPT_LLM_BASE_URL", "OPENAI_BASE_URL"}, "", false, "OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1"},
        {"llm.model", {"ASCENDOPT_LLM_MODEL"}, "", false, "model name sent to the endpoint"},
        {"llm.api_key", {"ASCENDOPT_LLM_API_KEY", "OPENAI_API_KEY"}, "", true, "sent as a Bearer token; never printed or stored"},
        {"llm.embedding_model", {"ASCENDOPT_LLM_EMBEDDING_MODEL"}, "", false, "model for /embeddings (dense retrieval); empty: BM25 only"},
        {"llm.temperature", {"ASCENDOPT_LLM_TEMPERATURE"}, "", false, "sampling temperature; empty: the server's default"},
        {"llm.top_p", {"ASCENDOPT_LLM_TOP_P"}, "", false, "nucleus sampling; empty: the server's default"},
        {"llm.max_tokens", {"ASCENDOPT_LLM_MAX_TOKENS"}, "", false, "reply length limit; empty: the server's default"},
        {"llm.max_completion_tokens", {"ASCENDOPT_LLM_MAX_COMPLETION_TOKENS"}, "false", false, "send the limit as max_completion_tokens (newer OpenAI models)"},
        {"llm.seed", {"ASCENDOPT_LLM_SEED"}, "", false, "seed sent to the endpoint; empty: none"},
        {"llm.stop", {"ASCENDOPT_LLM_STOP"}, "", false, "stop sequence (a TOML array for several)"},
        {"llm.connect_timeout", {"ASCENDOPT_LLM_CONNECT_TIMEOUT"}, "10", false, "seconds to connect"},
        {"llm.timeout", {"ASCENDOPT_LLM_TIMEOUT"}, "300", false, "seconds per request attempt"},
        {"llm.max_attempts", {"ASCENDOPT_LLM_MAX_ATTEMPTS"}, "5", false, "attempts per request (retries on 408, 409, 429, 5xx, network errors)"},
        {"llm.backoff", {"ASCENDOPT_LLM_BACKOFF"}, "1", false, "seconds before the first retry; doubles after each"},
        {"llm.max_concurrent", {"ASCENDOPT_LLM_MAX_CONCURRENT"}, "4", false, "requests in flight at once"},
        {"llm.price_input", {"ASCENDOPT_LLM_PRICE_INPUT"}, "0", false, "USD per million prompt tokens (cost accounting)"},
        {"llm.price_output", {"ASCENDOPT_LLM_PRICE_OUTPUT"}, "0", false, "USD per million completion tokens"},
        {"llm.command", {"ASCENDOPT_LLM_COMMAND"}, "", false, "a shell command that reads the prompt on stdin and writes the reply"},
        {"llm.command_timeout", {"ASCENDOPT_LLM_COMMAND_TIMEOUT"}, "600", false, "seconds the command may run"},
        {"llm.record", {"ASCENDOPT_LLM_RECORD"}, "", false, "cassette (JSON lines) to record every exchange to"},
        {"llm.replay", {"ASCENDOPT_LLM_REPLAY"}, "", false, "cassette to answer from instead of an LLM"},
        {"templates.dir", {"ASCENDOPT_TEMPLATES_DIR"}, "", false, "your prompt templates; they replace bundled ones of the same name"},
        {"slurm.cpus_per_task", {"ASCENDOPT_SLURM_CPUS_PER_TASK"}, "2", false, "--executor slurm (bench, rewind): CPUs of each task"},
        {"slurm.time", {"ASCENDOPT_SLURM_TIME"}, "", false, "--executor slurm (bench, rewind): each task's time limit (4:00:00); empty: the partition's"},
        {"slurm.partition", {"ASCENDOPT_SLURM_PARTITION"}, "", false, "--executor slurm (bench, rewind): the partition; empty: the cluster's default"},
        {"slurm.account", {"ASCENDOPT_SLURM_ACCOUNT"}, "", false, "--executor slurm (bench, rewind): the account; empty: yours"},
        {"slurm.extra", {"ASCENDOPT_SLURM_EXTRA"}, "", false, "--executor slurm (bench, rewind): further sbatch options (a TOML array, or one per line)"},
    };
    return defs;
}

void add_setting_flags(CLI::App& cmd, SettingFlags& flags) {
    cmd.add_option("--config", flags.config_file, "Settings file (TOML); default $ASCENDOPT_CONFIG, else ./ascendopt.toml");
    for (const auto& d : setting_defs()) {
        auto* opt = cmd.add_option_function<std::string>(
            flag_name(d.key), [&flags, key = d.key](const std::string& v) { flags.values[key] = v; }, d.help);
        opt->group("Settings (also in the environment and ascendopt.toml; see `ascendopt config show`)");
    }
}

Result<Settings> Settings::resolve(const SettingFlags& flags) {
    bool explicit_choice = false;
    const std::string path = config_path(flags, explicit_choice);
    std::map<std::string, std::string> file_values;
    if (!path.empty()) {
        if (!std::filesystem::exists(path)) return make_error("the config file " + path + " does not exist");
        auto read = read_config_file(path);
        if (!read) return read.error();
        file_values = std::move(*read);
    }
    Settings s;
    s.m_file = path;
    for (const auto& d : setting_defs()) {
        ResolvedSetting r{&d, d.default_value, "default"};
        if (const auto it = flags.values.find(d.key); it != flags.values.end()) {
            r.value = it->second, r.source = "flag " + flag_name(d.key);
        } else {
            bool from_env = false;
            for (const auto& var : d.env)
                if (const char* v = std::getenv(var.c_str()); v && *v && !from_env) r.value = v, r.source = "env " + var, from_env = true;
            if (!from_env)
                if (const auto f = file_values.find(d.key); f != file_values.end()) r.value = f->second, r.source = "file " + path;
        }
        s.m_all.push_back(std::move(r));
    }
    return s;
}

const std::string& Settings::get(const std::string& key) const { return find(*this, key).value; }

Result<SlurmResources> slurm_resources(const Settings& s) {
    SlurmResources r;
    const auto& cpus = find(s, "slurm.cpus_per_task");
    auto n = number(cpus);
    if (!n || *n < 1 || *n != double(int(*n))) return make_error("slurm.cpus_per_task = '" + cpus.value + "' (" + cpus.source + ") is not a number of CPUs");
    r.cpus_per_task = int(*n);
    r.time_limit = s.get("slurm.time");
    if (!r.time_limit.empty() && !valid_slurm_time(r.time_limit))
        return make_error("slurm.time = '" + r.time_limit + "' (" + find(s, "slurm.time").source + ") is not a time limit sbatch reads",
                          "give minutes (90), HH:MM:SS (4:00:00) or D-HH:MM:SS (1-00:00:00)");
    r.partition = s.get("slurm.partition");
    r.account = s.get("slurm.account");
    std::istringstream extra(s.get("slurm.extra"));
    for (std::string line; std::getline(extra, line);)
        if (!line.empty()) r.extra.push_back(line);
    return r;
}

Result<LlmConfig> llm_config(const Settings& s) {
    LlmConfig c;
    auto num = [&](const std::string& key, auto& out) -> Status {
        const auto& r = find(s, key);
        if (r.value.empty()) return ok_status();
        auto v = number(r);
        if (!v) return v.error();
        out = std::remove_reference_t<decltype(out)>(*v);
        return ok_status();
    };
    c.endpoint.base_url = s.get("llm.base_url");
    c.endpoint.api_key = s.get("llm.api_key");
    register_secret(c.endpoint.api_key);
    c.model = s.get("llm.model");
    c.embedding_model = s.get("llm.embedding_model");
    c.command.command = s.get("llm.command");
    c.record = s.get("llm.record");
    c.replay = s.get("llm.replay");
    c.kind = s.get("llm.kind");
    if (c.kind.empty()) c.kind = !c.replay.empty() ? "replay" : !c.command.command.empty() ? "command" : !c.endpoint.base_url.empty() ? "openai" : "";
    if (c.kind == "command" && !c.model.empty()) c.command.model = c.model;
    double temperature = -1, top_p = -1, max_tokens = -1, seed = -1, attempts = 0, concurrent = 0;
    for (auto st : {num("llm.temperature", temperature), num("llm.top_p", top_p), num("llm.max_tokens", max_tokens), num("llm.seed", seed),
                    num("llm.connect_timeout", c.endpoint.connect_timeout_seconds), num("llm.timeout", c.endpoint.total_timeout_seconds),
                    num("llm.max_attempts", attempts), num("llm.backoff", c.endpoint.backoff_base_seconds),
                    num("llm.max_concurrent", concurrent), num("llm.price_input", c.prices.input_per_million_tokens),
                    num("llm.price_output", c.prices.output_per_million_tokens), num("llm.command_timeout", c.command.timeout_seconds)})
        if (!st) return st.error();
    if (temperature >= 0) c.params.temperature = temperature;
    if (top_p >= 0) c.params.top_p = top_p;
    if (max_tokens >= 0) c.params.max_tokens = int64_t(max_tokens);
    if (seed >= 0) c.params.seed = int64_t(seed);
    c.endpoint.max_attempts = std::max(1, int(attempts));
    c.endpoint.max_concurrent = std::max(1, int(concurrent));
    const std::string mct = s.get("llm.max_completion_tokens");
    if (mct != "true" && mct != "false") return make_error("llm.max_completion_tokens must be true or false, not '" + mct + "'");
    c.params.use_max_completion_tokens = mct == "true";
    const std::string stop = s.get("llm.stop");
    for (size_t at = 0; !stop.empty() && at <= stop.size();) {
        const size_t nl = std::min(stop.find('\n', at), stop.size());
        c.params.stop.push_back(stop.substr(at, nl - at));
        at = nl + 1;
    }
    return c;
}

}  // namespace ascendopt
