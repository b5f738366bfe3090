// Goldens are untrusted programs (a manifest or msopst file from the wild names them): each runs
// with a cleared environment, under a memory limit, in a pids cgroup whose every task is killed
// when it ends, and only from a file inside the operator folder or its manifest's folder
// (docs/sandbox.md, wall 11). Each test fails if its part of that wall is taken away.
#include "hostile_kernel.h"
#include "util/task_cap.h"

namespace ascendopt::e2e {
namespace {

// exp_custom's golden, with `before` run first inside exp_golden (indented by four spaces).
// `unique` goes into a comment: goldens are cached by their source, and each test must run its own.
std::string golden_with(const std::string& imports, const std::string& before, const std::string& unique) {
    return "# " + unique + "\nimport numpy as np\n" + imports + "\n\ndef exp_golden(x, y):\n" + before +
           "    return [np.exp(x['value'].astype(np.float64)).astype(x['value'].dtype)]\n";
}

ProcessResult eval_ragged(const OperatorCopy& op, std::vector<std::string> extra = {}, std::map<std::string, std::string> env = {}) {
    std::vector<std::string> args = {"eval", op.dir().string(), "--case", "ragged[float32]", "--json", "-q"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cli(args, std::move(env));
}

// Whether process `pid` still runs (a zombie waiting for its reaper does not).
bool running(pid_t pid) {
    const auto stat = read_text("/proc/" + std::to_string(pid) + "/stat");
    if (!stat) return false;
    const auto close = stat->rfind(')');
    return close != std::string::npos && close + 2 < stat->size() && (*stat)[close + 2] != 'Z';
}

// A golden read the API key from its environment and printed it reversed, past the scrubber.
TEST(Goldens, SeeNoSecretOfTheEnvironment) {
    TempDir tmp;
    const fs::path seen = tmp.path / "environment.json";
    OperatorCopy op("exp_custom");
    op.write("golden.py", golden_with("import json\nimport os",
                                      "    json.dump(dict(os.environ), open('" + seen.string() + "', 'w'))\n"
                                      "    leaked = [v[::-1] for k, v in os.environ.items() if 'KEY' in k or 'TOKEN' in k]\n"
                                      "    if leaked:\n"
                                      "        raise RuntimeError('found ' + ' '.join(leaked))\n",
                                      tmp.path.string()));
    const std::string key = "sk-golden0123456789abcdef", other = "plain-openai-secret-42";
    const auto r = eval_ragged(op, {}, {{"ASCENDOPT_LLM_API_KEY", key}, {"OPENAI_API_KEY", other}, {"HF_TOKEN", "hf-token-77"}});
    EXPECT_EQ(case_status(r), "ok") << r.output;
    for (const std::string& s : {key, other}) {
        EXPECT_EQ(r.output.find(std::string(s.rbegin(), s.rend())), std::string::npos) << "a reversed secret was printed: " << r.output;
        EXPECT_EQ(r.output.find(s), std::string::npos) << r.output;
    }
    const auto text = read_text(seen);
    ASSERT_TRUE(text) << "the golden did not run: " << r.output;
    const auto env = nlohmann::json::parse(*text, nullptr, false);
    ASSERT_TRUE(env.is_object()) << *text;
    for (const auto& [name, value] : env.items())
        EXPECT_TRUE(name == "PATH" || name == "HOME" || name == "LC_ALL" || name == "TMPDIR") << name << " reached the golden";
    EXPECT_EQ(env.value("LC_ALL", ""), "C");
    ASSERT_TRUE(env.contains("HOME"));
    EXPECT_NE(env["HOME"].get<std::string>(), std::string(std::getenv("HOME") ? std::getenv("HOME") : ""));
    EXPECT_FALSE(fs::exists(env["HOME"].get<std::string>())) << "the golden's scratch home stayed behind";
}

// A golden runs as the user, outside the sandbox: it read the key from ascendopt's own
// /proc/<pid>/environ (the environment block a process started with) and printed it reversed.
TEST(Goldens, CannotReadTheKeyFromAscendoptsProcess) {
    TempDir tmp;
    OperatorCopy op("exp_custom");
    op.write("golden.py", golden_with("import os",
                                      "    text = open('/proc/%d/environ' % os.getppid(), 'rb').read().decode('latin-1')\n"
                                      "    leaked = [e.split('=', 1)[1][::-1] for e in text.split('\\0') if e.startswith(('ASCENDOPT_LLM_API_KEY=', 'OPENAI_API_KEY='))]\n"
                                      "    if any(v.strip('*') for v in leaked):\n"
                                      "        raise RuntimeError('found ' + ' '.join(leaked))\n",
                                      tmp.path.string()));
    const std::string key = "sk-parent0123456789abcdef";
    const auto r = eval_ragged(op, {}, {{"ASCENDOPT_LLM_API_KEY", key}, {"OPENAI_API_KEY", "plain-openai-secret-43"}});
    EXPECT_EQ(case_status(r), "ok") << r.output;
    EXPECT_EQ(r.output.find(std::string(key.rbegin(), key.rend())), std::string::npos) << r.output;
}

// A golden that reserves more than --memory fails its case; the limit follows --memory.
TEST(Goldens, HaveAMemoryLimit) {
    TempDir tmp;
    OperatorCopy op("exp_custom");
    op.write("golden.py", golden_with("", "    reserved = np.empty(3 << 30, dtype=np.uint8)  # 3 GiB of address space, never touched\n",
                                      tmp.path.string()));
    const auto r = eval_ragged(op, {"--memory", "2"});
    EXPECT_EQ(case_status(r), "golden_failed") << r.output;
    EXPECT_NE(case_reason(r).find("MemoryError"), std::string::npos) << r.output;
}

// A golden that double-forks: the child leaves the golden's session (setsid, which no process
// group kill follows), its child sleeps and then writes a file; the golden itself ends well.
// Nothing of it may outlive the golden.
TEST(Goldens, LeaveNoProcessBehindEvenAfterSetsid) {
    if (!tasks_capped()) GTEST_SKIP() << "no pids cgroup on this machine: a golden's escaped descendants cannot be found (docs/sandbox.md)";
    TempDir tmp;
    const fs::path pid_file = tmp.path / "grandchild.pid", late = tmp.path / "late.txt";
    OperatorCopy op("exp_custom");
    op.write("golden.py", golden_with("import os\nimport time",
                                      "    if os.fork() == 0:\n"
                                      "        os.setsid()\n"
                                      "        if os.fork() == 0:\n"
                                      "            null = os.open(os.devnull, os.O_RDWR)\n"
                                      "            for fd in (0, 1, 2):\n"
                                      "                os.dup2(null, fd)\n"
                                      "            open('" + pid_file.string() + ".tmp', 'w').write(str(os.getpid()))\n"
                                      "            os.rename('" + pid_file.string() + ".tmp', '" + pid_file.string() + "')\n"
                                      "            time.sleep(4)\n"
                                      "            open('" + late.string() + "', 'w').write('still alive')\n"
                                      "        os._exit(0)\n"
                                      "    for _ in range(500):\n"
                                      "        if os.path.exists('" + pid_file.string() + "'):\n"
                                      "            break\n"
                                      "        time.sleep(0.01)\n",
                                      tmp.path.string()));
    const auto r = eval_ragged(op);
    EXPECT_EQ(case_status(r), "ok") << r.output;
    const auto pid_text = read_text(pid_file);
    ASSERT_TRUE(pid_text) << "the golden's grandchild never started: " << r.output;
    const pid_t grandchild = pid_t(std::stol(*pid_text));
    EXPECT_FALSE(running(grandchild)) << "the golden's grandchild " << grandchild << " outlived the golden";
    EXPECT_FALSE(eventually([&] { return fs::exists(late); }, 6)) << "the golden's grandchild wrote its file after the golden ended";
    if (running(grandchild)) ::kill(grandchild, SIGKILL);
}

// A manifest or msopst file names the golden it runs; one outside the operator's folders is
// refused before anything runs, as other manifest errors are (exit 2).
TEST(Goldens, OnlyFilesInsideTheOperatorOrManifestFolderRun) {
    OperatorCopy op("exp_custom");
    const fs::path outside = op.dir().parent_path() / "evil.py";
    std::ofstream(outside) << golden_with("", "", "outside");
    for (const std::string& ref : std::vector<std::string>{"../evil.py", outside.string()}) {
        op.edit("ascendopt.toml", "golden = \"golden.py:exp_golden\"", "golden = \"" + ref + ":exp_golden\"");
        const auto r = run_cli({"eval", op.dir().string(), "--case", "ragged[float32]", "-q"});
        EXPECT_EQ(r.exit_code, 2) << ref << ": " << r.output;
        EXPECT_NE(r.output.find("ascendopt: error: "), std::string::npos) << r.output;
        EXPECT_NE(r.output.find("outside the operator folder"), std::string::npos) << ref << ": " << r.output;
        op.edit("ascendopt.toml", "golden = \"" + ref + ":exp_golden\"", "golden = \"golden.py:exp_golden\"");
    }

    OperatorCopy msopst("add_custom");
    const fs::path msopst_outside = msopst.dir().parent_path() / "evil.py";
    std::ofstream(msopst_outside) << "def calc_expect_func(x, y, z):\n    return [x['value'] + y['value']]\n";
    for (const std::string& ref : std::vector<std::string>{"../../../evil.py", msopst_outside.string()}) {
        const std::string json = "tests/st/AddCustom_case.json";
        auto text = *read_text(msopst.dir() / json);
        const std::string named = "\"test_add_custom.py:";
        for (size_t at; (at = text.find(named)) != std::string::npos;) text.replace(at, named.size(), "\"" + ref + ":");
        msopst.write(json, text);
        const auto r = run_cli({"eval", msopst.dir().string(), "-q"});
        EXPECT_EQ(r.exit_code, 2) << ref << ": " << r.output;
        EXPECT_NE(r.output.find("outside the operator folder"), std::string::npos) << ref << ": " << r.output;
        fs::copy_file(source_dir() / "ops/add_custom" / json, msopst.dir() / json, fs::copy_options::overwrite_existing);
    }
}

}  // namespace
}  // namespace ascendopt::e2e
