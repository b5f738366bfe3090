// The study's HTML report in a real browser: headless Chromium driven through ChromeDriver's
// WebDriver protocol (HTTP on loopback). The report must load without console errors, show its
// tables and plots, and a screenshot is saved next to the test binary for a human to look at.
// A page that logs an error must be caught, so the check itself can fail.
#include <chrono>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <httplib.h>

#include "cli_runner.h"

namespace ascendopt::e2e {
namespace {

std::string base64_decode(const std::string& in) {
    static const std::string chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    uint32_t buffer = 0;
    int bits = 0;
    for (char c : in) {
        const size_t v = chars.find(c);
        if (v == std::string::npos) continue;  // '=' padding and line breaks
        buffer = (buffer << 6) | uint32_t(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += char((buffer >> bits) & 0xff);
        }
    }
    return out;
}

// A loopback port nobody listens on now (the kernel's choice for port 0).
int free_port() {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    close(fd);
    return ntohs(a.sin_port);
}

// A ChromeDriver process and one headless Chromium session, both ended by the destructor.
class Browser {
public:
    explicit Browser(const fs::path& profile) {
        m_port = free_port();
        m_driver = std::thread([this] {
            ProcessOptions po;
            po.timeout_seconds = 300;
            po.keep_bytes = 64 * 1024;
            m_driver_result = run_process({"chromedriver", "--port=" + std::to_string(m_port)}, po);
        });
        m_http = std::make_unique<httplib::Client>("127.0.0.1", m_port);
        m_http->set_read_timeout(60, 0);
        for (int i = 0; i < 100 && !m_http->Get("/status"); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
        const nlohmann::json caps = {{"capabilities",
                                      {{"alwaysMatch",
                                        {{"browserName", "chrome"},
                                         {"goog:loggingPrefs", {{"browser", "ALL"}}},
                                         {"goog:chromeOptions",
                                          {{"binary", "/usr/bin/chromium"},
                                           {"args", {"--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1200,1600",
                                                     "--user-data-dir=" + profile.string()}}}}}}}}};
        const auto r = post("/session", caps);
        m_session = r["value"].value("sessionId", "");
    }
    ~Browser() {
        if (!m_session.empty()) m_http->Delete("/session/" + m_session);
        m_http->Get("/shutdown");
        if (m_driver.joinable()) m_driver.join();
    }
    bool ok() const { return !m_session.empty(); }
    nlohmann::json post(const std::string& path, const nlohmann::json& body) {
        auto r = m_http->Post(path, body.dump(), "application/json");
        return r ? nlohmann::json::parse(r->body, nullptr, false) : nlohmann::json();
    }
    nlohmann::json command(const std::string& what, const nlohmann::json& body = nlohmann::json::object()) {
        return post("/session/" + m_session + "/" + what, body)["value"];
    }
    void open(const fs::path& file) { command("url", {{"url", "file://" + file.string()}}); }
    nlohmann::json script(const std::string& js) { return command("execute/sync", {{"script", js}, {"args", nlohmann::json::array()}}); }
    // Console messages at level SEVERE (errors) since the last call.
    std::vector<std::string> console_errors() {
        std::vector<std::string> out;
        for (const auto& e : command("se/log", {{"type", "browser"}}))
            if (e.value("level", "") == "SEVERE") out.push_back(e.value("message", ""));
        return out;
    }
    std::string screenshot_png() {
        auto r = m_http->Get("/session/" + m_session + "/screenshot");
        if (!r) return "";
        return base64_decode(nlohmann::json::parse(r->body, nullptr, false)["value"].get<std::string>());
    }

private:
    int m_port = 0;
    std::thread m_driver;
    ProcessResult m_driver_result;
    std::unique_ptr<httplib::Client> m_http;
    std::string m_session;
};

TEST(ReportBrowser, TheHtmlReportRendersWithoutConsoleErrors) {
    ASSERT_TRUE(find_program("chromium") && find_program("chromedriver"))
        << "headless Chromium is needed: scripts/install-deps.sh --test installs chromium and chromium-driver";
    TempDir tmp;
    fs::create_directories(tmp.path / "suite");
    for (const char* op : {"exp_custom", "sqrt_custom"}) fs::copy(source_dir() / "ops" / op, tmp.path / "suite" / op, fs::copy_options::recursive);
    const auto bench = run_cli({"bench", (tmp.path / "suite").string(), "--methods", "stage2", "--budget", "2", "--out", (tmp.path / "out").string(), "-q"},
                               {{"ASCENDOPT_CONFIG", "/dev/null"}});
    ASSERT_EQ(bench.exit_code, 0) << bench.output;
    ASSERT_EQ(run_cli({"report", (tmp.path / "out").string()}).exit_code, 0);

    Browser browser(tmp.path / "profile");
    ASSERT_TRUE(browser.ok()) << "ChromeDriver did not start a headless Chromium session";
    browser.open(tmp.path / "out" / "report.html");
    const auto errors = browser.console_errors();
    EXPECT_TRUE(errors.empty()) << errors.front();
    EXPECT_EQ(browser.script("return document.title"), "ascendopt study");
    EXPECT_EQ(browser.script("return document.querySelectorAll('svg').length"), 3);
    EXPECT_GT(browser.script("return document.querySelector('svg').getBoundingClientRect().width").get<double>(), 100) << "the plots are drawn";
    EXPECT_GE(browser.script("return document.querySelectorAll('#results tr').length").get<int>(), 2);
    const std::string png = browser.screenshot_png();
    ASSERT_GT(png.size(), 10000u);
    EXPECT_EQ(png.substr(1, 3), "PNG");
    std::ofstream(fs::path(ASCENDOPT_TEST_CACHE_DIR).parent_path() / "report-screenshot.png", std::ios::binary) << png;

    // The check can fail: a page that logs an error is caught.
    std::ofstream(tmp.path / "broken.html") << "<!DOCTYPE html><html><body><script>console.error('deliberate')</script></body></html>";
    browser.open(tmp.path / "broken.html");
    const auto caught = browser.console_errors();
    ASSERT_EQ(caught.size(), 1u);
    EXPECT_NE(caught[0].find("deliberate"), std::string::npos);
}

}  // namespace
}  // namespace ascendopt::e2e
