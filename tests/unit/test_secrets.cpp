// One scrubber for everything ascendopt writes: registered keys and key-shaped text never reach
// a text file, a store or the terminal; binary data and ordinary words pass unchanged.
#include <gtest/gtest.h>

#include "util/files.h"
#include "util/secrets.h"
#include "util/sqlite.h"

namespace ascendopt {
namespace {

TEST(Secrets, KeyShapedTextIsRedacted) {
    EXPECT_EQ(scrub_secrets("key sk-abcdefghijklmnopqrstuv end"), "key [REDACTED] end");
    EXPECT_EQ(scrub_secrets("\"sk-proj-AbC123_xyz-0987654321\""), "\"[REDACTED]\"");
    EXPECT_EQ(scrub_secrets("Authorization: Bearer abc.def-ghi_jklmnop"), "Authorization: [REDACTED]");
    EXPECT_EQ(scrub_secrets("my-own-secret here", {"my-own-secret"}), "[REDACTED] here");
    EXPECT_EQ(scrub_secrets("plain text", {""}), "plain text");
}

TEST(Secrets, OrdinaryWordsPass) {
    for (const char* text : {"disk-cache-directory-for-builds", "task-0123456789abcdefgh", "sk-short", "Bearer abc", "Bearers of news",
                             "risk-assessment-of-the-kernel-rewrite"})
        EXPECT_EQ(scrub_secrets(text), text);
}

TEST(Secrets, ARegisteredKeyIsRedactedEverywhereItIsWritten) {
    const std::string key = "zz-registered-key-7f3a91";
    register_secret(key);
    register_secret("short");  // too short to be a key: ignored
    EXPECT_EQ(scrub_secrets("error: bad key " + key + " (" + key + ")"), "error: bad key [REDACTED] ([REDACTED])");
    EXPECT_EQ(scrub_secrets("a short word"), "a short word");

    auto dir = make_temp_dir(std::filesystem::temp_directory_path(), "ascendopt-secrets");
    ASSERT_TRUE(dir);
    const std::string text = "{\"error\": \"" + key + "\"}";
    ASSERT_TRUE(write_atomic(*dir / "summary.json", text));
    ASSERT_TRUE(write_atomic(*dir / "data.bin", text));
    EXPECT_EQ(*read_text(*dir / "summary.json"), "{\"error\": \"[REDACTED]\"}");
    EXPECT_EQ(*read_text(*dir / "data.bin"), text);  // tensors and archives byte for byte

    auto db = Db::open(*dir / "s.db");
    ASSERT_TRUE(db);
    ASSERT_TRUE(db->exec("CREATE TABLE t(x TEXT)"));
    auto st = db->prepare("INSERT INTO t VALUES(?)");
    ASSERT_TRUE(st);
    st->bind(1, std::string_view(text));
    ASSERT_TRUE(st->run());
    auto q = db->prepare("SELECT x FROM t");
    ASSERT_TRUE(q);
    auto row = q->step();
    ASSERT_TRUE(row && *row);
    EXPECT_EQ(q->column_text(0), "{\"error\": \"[REDACTED]\"}");
    std::filesystem::remove_all(*dir);
}

}  // namespace
}  // namespace ascendopt
