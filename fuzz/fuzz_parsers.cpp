// libFuzzer targets for the parsers of untrusted text (not part of make test; run `make fuzz`).
// One binary per target, chosen at compile time by ASCENDOPT_FUZZ_TARGET:
//   manifest: ascendopt.toml (read_manifest)
//   msopst:   msopst case JSON (read_msopst)
//   reply:    an LLM's reply text, parsed and applied to an operator's files (apply_reply)
//   chat:     an OpenAI-compatible Chat Completions body (parse_chat_reply)
// A parser may reject its input with an error value; it must never crash, hang or leak.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "agent/edit_apply.h"
#include "eval/case_draft.h"
#include "llm/chat_client.h"
#include "eval/operator_source.h"

namespace {

// Parsers read files; the input goes to one file per process, rewritten every run.
const std::filesystem::path& input_file(const char* name) {
    static const std::filesystem::path path = [name] {
        const auto dir = std::filesystem::temp_directory_path() / ("ascendopt-fuzz-" + std::to_string(getpid()));
        std::filesystem::create_directories(dir);
        return dir / name;
    }();
    return path;
}

// What the parsed cases are resolved against: y = f(x), fp16 or fp32, one attribute.
const ascendopt::OpDefInfo& sample_opdef() {
    static const ascendopt::OpDefInfo op = [] {
        ascendopt::OpDefInfo o;
        o.type = "FuzzOp";
        o.inputs = {{"x", false, {ascendopt::DType::f16, ascendopt::DType::f32}}};
        o.outputs = {{"y", false, {ascendopt::DType::f16, ascendopt::DType::f32}}};
        return o;
    }();
    return op;
}

void write_input(const std::filesystem::path& path, const uint8_t* data, size_t size) {
    std::ofstream(path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data), std::streamsize(size));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
#if ASCENDOPT_FUZZ_TARGET_REPLY
    static const std::map<std::string, std::string> files = {
        {"op_kernel/k.cpp", "class K {\n    void Process() {\n        CopyIn(i);\n    }\n};\n"},
        {"op_host/t.h", "#define TILE 1024\r\n"},
    };
    (void)ascendopt::apply_reply(std::string(reinterpret_cast<const char*>(data), size), files);
#elif ASCENDOPT_FUZZ_TARGET_CHAT
    const auto body = nlohmann::json::parse(reinterpret_cast<const char*>(data), reinterpret_cast<const char*>(data) + size, nullptr, false);
    if (!body.is_discarded() && body.is_object()) (void)ascendopt::parse_chat_reply(body);
#elif ASCENDOPT_FUZZ_TARGET_MANIFEST
    const auto& path = input_file("ascendopt.toml");
    write_input(path, data, size);
    ascendopt::OperatorSource op;
    op.root = path.parent_path();
    if (ascendopt::read_manifest(path, op)) (void)ascendopt::resolve_cases(op.cases, sample_opdef());
#else
    const auto& path = input_file("cases.json");
    write_input(path, data, size);
    std::vector<ascendopt::CaseDraft> drafts;
    if (ascendopt::read_msopst(path, ascendopt::GoldenSpec{}, drafts)) (void)ascendopt::resolve_cases(drafts, sample_opdef());
#endif
    return 0;
}
