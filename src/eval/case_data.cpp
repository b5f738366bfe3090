#include "eval/case_data.h"

#include "eval/inputs.h"
#include "util/files.h"
#include "util/hash.h"

namespace ascendopt {
namespace {

// Everything that decides a case's inputs and golden: two cases with equal keys are the same data.
std::string case_key(const Case& c, uint64_t seed) {
    nlohmann::json k = {{"name", c.name},           {"seed", seed},          {"attrs", c.attrs},
                        {"golden", c.golden.file},  {"fn", c.golden.function}, {"in", nlohmann::json::array()},
                        {"out", nlohmann::json::array()}};
    auto spec = [](const TensorSpec& t) {
        nlohmann::json s{t.name, t.list_index, t.format, dtype_name(t.dtype), t.shape, int(t.distribution), t.low, t.high, t.values};
        if (t.ints_beyond_double()) s.push_back(t.int_values);
        return s;
    };
    for (const auto& t : c.inputs) k["in"].push_back(spec(t));
    for (const auto& t : c.outputs) k["out"].push_back(spec(t));
    return sha256_hex(k.dump());
}

}  // namespace

Result<std::shared_ptr<const CaseData>> CaseDataStore::get(const Case& c, uint64_t seed) {
    const std::string key = case_key(c, seed);
    Slot* slot;
    {
        std::lock_guard lock(m_mutex);
        auto& s = m_slots[key];
        if (!s) s = std::make_unique<Slot>();
        slot = s.get();
    }
    std::lock_guard lock(slot->mutex);
    if (!slot->data) {
        auto made = prepare(c, seed, m_dir / key.substr(0, 16));
        if (!made) return made.error();
        slot->data = *made;
    }
    return slot->data;
}

Result<std::shared_ptr<const CaseData>> CaseDataStore::prepare_unshared(const Case& c, uint64_t seed, const fs::path& dir) {
    return prepare(c, seed, fs::absolute(dir));
}

Result<std::shared_ptr<const CaseData>> CaseDataStore::prepare(const Case& c, uint64_t seed, const fs::path& dir) {
    auto data = std::make_shared<CaseData>();
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return make_error("cannot create " + dir.string() + ": " + ec.message());
    for (const auto& t : c.inputs) {
        data->input_files.push_back(dir / ("in_" + t.file_stem() + ".bin"));
        data->inputs.push_back(generate_input(t, tensor_seed(seed, c.name, t.label())));
        const auto& bytes = data->inputs.back();
        if (auto s = write_atomic(data->input_files.back(), std::string_view(bytes.data(), bytes.size())); !s) return s.error();
    }
    if (c.golden.kind == GoldenSpec::Kind::none) return std::shared_ptr<const CaseData>(std::move(data));  // a smoke case
    auto expected = m_golden.compute(c, data->inputs, data->input_files, dir);
    if (!expected && expected.error().missing_tool) return expected.error();
    if (expected) {
        data->expected = std::move(expected->expected);
        data->left_unwritten = std::move(expected->left_unwritten);
    }
    else data->golden_failure = expected.error();
    return std::shared_ptr<const CaseData>(std::move(data));
}

}  // namespace ascendopt
