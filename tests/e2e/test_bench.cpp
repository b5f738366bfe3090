// `ascendopt bench`: every method at the same budget, metrics recomputed here from the
// per-evaluation latencies it reports, LLM methods skipped with a message, and a rerun that
// repeats nothing.
#include <cmath>

#include "cli_runner.h"
#include "support/scripted_llm_server.h"

namespace ascendopt::e2e {
namespace {

// The start of a method's "all" row in report.md.
std::string fmt_gm_row(const std::string& method, double gm) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "| %s | all | 2 | %.3fx |", method.c_str(), gm);
    return buf;
}

double by_hand_speedup(const nlohmann::json& op) {
    const double baseline = op["baseline_us"];
    double best = baseline;
    for (const auto& e : op["evaluations_us"])
        if (e.is_number()) best = std::min(best, e.get<double>());
    return best < baseline ? baseline / best : 1.0;
}

TEST(Bench, MetricsMatchTheEvaluationsAndARerunRepeatsNothing) {
    TempDir tmp;
    fs::create_directories(tmp.path / "suite");
    for (const char* op : {"exp_custom", "sqrt_custom"}) fs::copy(source_dir() / "ops" / op, tmp.path / "suite" / op, fs::copy_options::recursive);
    const std::vector<std::string> args = {"bench", (tmp.path / "suite").string(), "--methods", "stage2,ascendopt,best-of-n", "--budget", "4",
                                           "--bank", (tmp.path / "bank.db").string(), "--out", (tmp.path / "out").string(), "--json"};
    const auto r = run_cli(args, {{"ASCENDOPT_CONFIG", "/dev/null"}});
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("skipping best-of-n: it needs an LLM"), std::string::npos) << r.output;
    const auto results = nlohmann::json::parse(*read_text(tmp.path / "out" / "results.json"));
    ASSERT_EQ(results["methods"].size(), 2u);
    for (const auto& [name, m] : results["methods"].items()) {
        ASSERT_EQ(m["operators"].size(), 2u) << name;
        double log_sum = 0;
        int faster = 0;
        for (const auto& op : m["operators"]) {
            EXPECT_LE(op["evaluations_us"].size(), 4u) << name << " spent more than its budget";
            EXPECT_GT(op["baseline_us"].get<double>(), 0);
            const double s = by_hand_speedup(op);
            log_sum += std::log(s);
            faster += s > 1.0;
        }
        const auto& all = m["summary"]["all"];
        EXPECT_NEAR(all["gm"].get<double>(), std::exp(log_sum / 2), 1e-9) << name;
        EXPECT_DOUBLE_EQ(all["fast_p"]["1.0"].get<double>(), faster / 2.0) << name;
        ASSERT_EQ(m["summary"]["progress_gm"].size(), 4u);
        EXPECT_NEAR(m["summary"]["progress_gm"][3].get<double>(), all["gm"].get<double>(), 1e-9);
        for (size_t k = 1; k < 4; ++k) EXPECT_GE(m["summary"]["progress_gm"][k].get<double>(), m["summary"]["progress_gm"][k - 1].get<double>());
    }
    EXPECT_GT(results["methods"]["stage2"]["summary"]["all"]["gm"].get<double>(), 1.0) << "the exp baseline's tile constant is tunable";
    const int64_t evaluations = count_rows(tmp.path / "out" / "stage2" / "exp_custom" / "run.db", "SELECT COUNT(*) FROM evaluations");
    const auto again = run_cli(args, {{"ASCENDOPT_CONFIG", "/dev/null"}});
    ASSERT_EQ(again.exit_code, 0) << again.output;
    EXPECT_EQ(count_rows(tmp.path / "out" / "stage2" / "exp_custom" / "run.db", "SELECT COUNT(*) FROM evaluations"), evaluations);
    EXPECT_EQ(nlohmann::json::parse(*read_text(tmp.path / "out" / "results.json")), results);
    EXPECT_TRUE(fs::exists(tmp.path / "out" / "results.csv"));
    // The report: the results table in Markdown, and HTML with both plots inline.
    const auto report = run_cli({"report", (tmp.path / "out").string()});
    ASSERT_EQ(report.exit_code, 0) << report.output;
    const auto md = *read_text(tmp.path / "out" / "report.md");
    EXPECT_NE(md.find(fmt_gm_row("stage2", results["methods"]["stage2"]["summary"]["all"]["gm"].get<double>())), std::string::npos) << md;
    const auto html = *read_text(tmp.path / "out" / "report.html");
    size_t svgs = 0;
    for (size_t at = html.find("<svg"); at != std::string::npos; at = html.find("<svg", at + 1)) ++svgs;
    EXPECT_EQ(svgs, 2u);
    EXPECT_NE(html.find("<table id=\"results\">"), std::string::npos);
}

TEST(Bench, BestOfNSamplesOnePromptAndKeepsTheBestCorrect) {
    testing::ScriptedLlmServer server;
    server.set_responder([](const nlohmann::json& body) {
        const std::string user = body["messages"].back()["content"];
        if (user.find("Rewrite the kernel") == std::string::npos) return testing::Scripted::ok("no");
        return testing::Scripted::ok("op_kernel/axpb_custom.cpp\n<<<<<<< SEARCH\nconstexpr int32_t BUFFER_NUM = 1;\n=======\n"
                                     "constexpr int32_t BUFFER_NUM = 2;\n>>>>>>> REPLACE\n");
    });
    TempDir tmp;
    const auto r = run_cli({"bench", "suite/untuned", "--methods", "best-of-n", "--budget", "3", "--out", (tmp.path / "out").string(), "--json", "-q"},
                           {{"ASCENDOPT_LLM_BASE_URL", server.base_url()}, {"ASCENDOPT_LLM_MODEL", "scripted"}});
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto m = json_of(r)["methods"]["best-of-n"];
    ASSERT_EQ(m["operators"].size(), 1u);
    EXPECT_GT(m["summary"]["all"]["gm"].get<double>(), 1.05) << m.dump(2);
    EXPECT_EQ(m["operators"][0]["operator"], "axpb_custom");
    size_t rewrites = 0;
    for (const auto& q : server.received()) rewrites += q.body["messages"].back()["content"].get<std::string>().find("Rewrite the kernel") != std::string::npos;
    EXPECT_EQ(rewrites, 2u);  // budget 3: the baseline and two samples of the same prompt
}

TEST(Bench, AnUnknownMethodIsAnErrorThatListsTheMethods) {
    const auto r = run_cli({"bench", "ops", "--methods", "magic", "--budget", "4"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.output.find("unknown method 'magic'"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("openevolve"), std::string::npos);
}

}  // namespace
}  // namespace ascendopt::e2e
