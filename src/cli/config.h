// ascendopt's settings and where each value comes from. Precedence, highest first: a command
// line flag (--llm-model ...), an environment variable (ASCENDOPT_LLM_MODEL ...), the config
// file (--config FILE, else $ASCENDOPT_CONFIG, else ./ascendopt.toml when present), the
// default. Every setting is listed in one table (config.cpp); `ascendopt config show`
// prints them all with their sources. Secret values are never printed.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cluster/slurm.h"
#include "llm/factory.h"
#include "util/result.h"

namespace ascendopt {

struct SettingDef {
    std::string key;               // "llm.model": the TOML table and key
    std::vector<std::string> env;  // variables read, first set wins
    std::string default_value;
    bool secret = false;
    std::string help;
};
const std::vector<SettingDef>& setting_defs();

// What the command line said: --config and one optional value per setting.
struct SettingFlags {
    std::string config_file;
    std::map<std::string, std::string> values;  // key -> value, only for flags given
};
// Adds --config and --<key with '.' and '_' as '-'> for every setting to `cmd`.
void add_setting_flags(CLI::App& cmd, SettingFlags& flags);

struct ResolvedSetting {
    const SettingDef* def = nullptr;
    std::string value;
    std::string source;  // "flag --llm-model", "env ASCENDOPT_LLM_MODEL", "file ascendopt.toml", "default"
};

class Settings {
public:
    // An unreadable or malformed config file, or an unknown key in it, is an error naming it.
    static Result<Settings> resolve(const SettingFlags& flags);
    const std::string& get(const std::string& key) const;
    const std::vector<ResolvedSetting>& all() const { return m_all; }
    const std::string& config_file() const { return m_file; }  // empty when none was read

private:
    std::vector<ResolvedSetting> m_all;
    std::string m_file;
};

// The LLM configuration the settings describe; a value of the wrong type is an error naming
// the setting and where its value came from.
Result<LlmConfig> llm_config(const Settings& s);

// The per-task resources of bench --executor slurm (the slurm.* settings).
Result<SlurmResources> slurm_resources(const Settings& s);

}  // namespace ascendopt
