// Settings precedence (flag > environment > file > default) and config-file errors.
#include <gtest/gtest.h>

#include <cstdlib>

#include "cli/config.h"
#include "util/files.h"

namespace ascendopt {
namespace {

class ConfigTest : public ::testing::Test {
protected:
    void SetUp() override {
        for (const auto& d : setting_defs())
            for (const auto& var : d.env) unsetenv(var.c_str());
        unsetenv("ASCENDOPT_CONFIG");
        m_dir = *make_temp_dir(std::filesystem::temp_directory_path(), "config-test");
    }
    void TearDown() override { std::filesystem::remove_all(m_dir); }
    std::string write(const std::string& text) {
        const auto f = m_dir / "ascendopt.toml";
        EXPECT_TRUE(write_atomic(f, text));
        return f.string();
    }
    std::filesystem::path m_dir;
};

const ResolvedSetting& row(const Settings& s, const std::string& key) {
    for (const auto& r : s.all())
        if (r.def->key == key) return r;
    throw std::logic_error(key);
}

TEST_F(ConfigTest, FlagBeatsEnvBeatsFileBeatsDefault) {
    SettingFlags flags;
    flags.config_file = write("[llm]\nmodel = \"from-file\"\nbase_url = \"http://file/v1\"\ntemperature = 0.3\nmax_tokens = 100\n");
    flags.values["llm.model"] = "from-flag";
    setenv("ASCENDOPT_LLM_MODEL", "from-env", 1);
    setenv("ASCENDOPT_LLM_BASE_URL", "http://env/v1", 1);
    auto s = Settings::resolve(flags);
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(row(*s, "llm.model").value, "from-flag");
    EXPECT_EQ(row(*s, "llm.model").source, "flag --llm-model");
    EXPECT_EQ(row(*s, "llm.base_url").value, "http://env/v1");
    EXPECT_EQ(row(*s, "llm.base_url").source, "env ASCENDOPT_LLM_BASE_URL");
    EXPECT_EQ(row(*s, "llm.temperature").source, "file " + flags.config_file);
    EXPECT_EQ(row(*s, "llm.timeout").source, "default");
    auto c = llm_config(*s);
    ASSERT_TRUE(c) << c.error().message;
    EXPECT_EQ(c->kind, "openai");
    EXPECT_EQ(*c->params.temperature, 0.3);
    EXPECT_EQ(*c->params.max_tokens, 100);
    EXPECT_FALSE(c->params.seed);
}

TEST_F(ConfigTest, TheOpenAiKeyIsTheFallbackKey) {
    setenv("OPENAI_API_KEY", "sk-fallback", 1);
    auto s = Settings::resolve({});
    ASSERT_TRUE(s);
    EXPECT_EQ(row(*s, "llm.api_key").value, "sk-fallback");
    EXPECT_EQ(row(*s, "llm.api_key").source, "env OPENAI_API_KEY");
    setenv("ASCENDOPT_LLM_API_KEY", "sk-primary", 1);
    EXPECT_EQ(row(*Settings::resolve({}), "llm.api_key").value, "sk-primary");
}

TEST_F(ConfigTest, FileMistakesAreErrorsThatNameThem) {
    SettingFlags flags;
    flags.config_file = write("[llm]\nmodle = \"x\"\n");
    auto typo = Settings::resolve(flags);
    ASSERT_FALSE(typo);
    EXPECT_NE(typo.error().message.find("unknown setting llm.modle"), std::string::npos);
    flags.config_file = write("[llm\nmodel = \"x\"\n");
    EXPECT_FALSE(Settings::resolve(flags));
    flags.config_file = (m_dir / "missing.toml").string();
    EXPECT_NE(Settings::resolve(flags).error().message.find("does not exist"), std::string::npos);
    flags.config_file = write("[llm]\ntemperature = \"warm\"\n");
    auto s = Settings::resolve(flags);
    ASSERT_TRUE(s);
    auto c = llm_config(*s);
    ASSERT_FALSE(c);
    EXPECT_NE(c.error().message.find("llm.temperature = 'warm'"), std::string::npos) << c.error().message;
}

TEST_F(ConfigTest, KindFollowsWhatIsSet) {
    SettingFlags flags;
    flags.values["llm.command"] = "my-agent";
    EXPECT_EQ(llm_config(*Settings::resolve(flags))->kind, "command");
    flags.values["llm.replay"] = "calls.jsonl";
    EXPECT_EQ(llm_config(*Settings::resolve(flags))->kind, "replay");
    flags.config_file = write("[llm]\nstop = [\"###\", \"END\"]\n");
    EXPECT_EQ(llm_config(*Settings::resolve(flags))->params.stop, (std::vector<std::string>{"###", "END"}));
}

}  // namespace
}  // namespace ascendopt
