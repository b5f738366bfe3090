// The inputs and expected outputs of a case under a seed, prepared once and shared by every
// evaluation that runs the case. Stage II runs the same cases hundreds of times with only the
// tiling changed; generating 1M-element inputs, hashing them for the golden cache and reading
// the golden back each time cost more than running the operator.
// Thread-safe: concurrent requests for one case prepare it once; other cases proceed in parallel.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "core/case.h"
#include "eval/golden.h"

namespace ascendopt {

struct CaseData {
    std::vector<std::filesystem::path> input_files;  // in the case's input order
    std::vector<std::vector<char>> inputs;            // the bytes of those files
    std::vector<std::vector<double>> expected;        // one per output, in output order
    std::vector<char> left_unwritten;                 // per output: the golden gave None (GoldenRunner::Outputs)
    // Set when the golden could not be computed (it raised, or cannot be imported): the case
    // is not run and gets EvalStatus::golden_failed with this reason; `expected` is empty.
    std::optional<Error> golden_failure;
};

class CaseDataStore {
public:
    // Input files are written under `dir`, which must outlive the store's users. It is made
    // absolute: the paths are handed to sandboxed operator runs, which have another cwd.
    CaseDataStore(const std::filesystem::path& dir, GoldenRunner& golden) : m_dir(std::filesystem::absolute(dir)), m_golden(golden) {}

    // Fails when the inputs cannot be written or no golden can run on this machine (a missing
    // tool); a golden that fails for this case is recorded in CaseData::golden_failure.
    Result<std::shared_ptr<const CaseData>> get(const Case& c, uint64_t seed);

    // The same for a case no other evaluation will run (the hidden case, of a shape drawn for one
    // evaluation): prepared under `dir`, which the caller removes, and not kept by the store.
    Result<std::shared_ptr<const CaseData>> prepare_unshared(const Case& c, uint64_t seed, const std::filesystem::path& dir);

private:
    struct Slot {
        std::mutex mutex;
        std::shared_ptr<const CaseData> data;
    };
    Result<std::shared_ptr<const CaseData>> prepare(const Case& c, uint64_t seed, const std::filesystem::path& dir);

    std::filesystem::path m_dir;
    GoldenRunner& m_golden;
    std::mutex m_mutex;
    std::map<std::string, std::unique_ptr<Slot>> m_slots;
};

}  // namespace ascendopt
