#include "agent/vectorize.h"

#include <regex>
#include <vector>

#include "agent/deopt.h"

namespace ascendopt {
namespace {

// The arguments of a call, split at the commas outside parentheses, brackets and braces; empty when they do not balance.
std::vector<std::string> top_level_arguments(const std::string& args) {
    std::vector<std::string> out(1);
    int depth = 0;
    for (const char c : args) {
        if (c == '(' || c == '[' || c == '{') ++depth;  // not <>: `a->b` and `a < b` would unbalance them
        if (c == ')' || c == ']' || c == '}') --depth;
        if (depth < 0) return {};
        if (c == ',' && depth == 0) {
            out.emplace_back();
            continue;
        }
        out.back() += c;
    }
    if (depth != 0) return {};
    for (auto& a : out) {
        const size_t b = a.find_first_not_of(" \t\n"), e = a.find_last_not_of(" \t\n");
        a = b == std::string::npos ? "" : a.substr(b, e - b + 1);
    }
    return out;
}

// A vector fill written as the scalar loop a kernel without it would have. The scalar unit
// does not wait for the other pipes, nor they for it: a correct scalar fill waits for what
// earlier instructions still do with the tensor and makes later ones wait for it (the hazard
// checker, docs/twin.md "Races", rejects the loop without them). The barriers are part of the
// slower version's cost, as in a kernel written that way.
std::string scalar_fill_loops(const std::string& text) {
    static const std::regex call(R"(\b(?:AscendC::)?Duplicate\s*(?:<[^<>;()]*>)?\s*\(([^;]*)\)\s*;)");
    std::string out;
    auto from = text.cbegin();
    for (std::sregex_iterator it(text.begin(), text.end(), call), end; it != end; ++it) {
        const auto args = top_level_arguments((*it)[1].str());
        out.append(from, (*it)[0].first);
        if (args.size() == 3 && !args[0].empty())
            out += "AscendC::PipeBarrier<PIPE_ALL>(); for (int32_t fillIdx = 0; fillIdx < static_cast<int32_t>(" + args[2] + "); ++fillIdx) { " +
                   args[0] + ".SetValue(fillIdx, " + args[1] + "); } AscendC::PipeBarrier<PIPE_ALL>();";
        else
            out.append((*it)[0].first, (*it)[0].second);
        from = (*it)[0].second;
    }
    out.append(from, text.cend());
    return out;
}

// The element type of the LocalTensor named `name` where one declaration in `text` says it.
std::string local_tensor_type(const std::string& text, const std::string& name) {
    const std::regex decl(R"(LocalTensor\s*<\s*([\w:]+)\s*>\s*(?:[A-Za-z_]\w*\s*,\s*)*)" + name + R"(\b)");
    std::smatch m;
    return std::regex_search(text, m, decl) ? m[1].str() : "";
}

// The scalar unit does not wait for a vector instruction: where the kernel reads `tensor` with
// GetValue, the fill is followed by a barrier (the twin runs in program order and would not
// show the race the device has).
std::string scalar_reads_wait(const std::string& text, const std::string& tensor) {
    const std::regex read("\\b" + tensor + R"(\s*(\[[^\]\n]*\])?\s*\.\s*GetValue\b)");
    return std::regex_search(text, read) ? " AscendC::PipeBarrier<PIPE_ALL>();  // " + tensor + " is read by the scalar unit" : "";
}

std::string without_int_cast(const std::string& bound) {
    static const std::regex cast(R"(^static_cast<\s*u?int(?:32|64)_t\s*>\s*\((.*)\)$)");
    std::smatch m;
    return std::regex_match(bound, m, cast) ? m[1].str() : bound;
}

std::string vector_fill_loops(const std::string& text) {
    static const std::regex loop(
        R"(\bfor\s*\(\s*(?:[\w:]+\s+)+([A-Za-z_]\w*)\s*=\s*0\s*;\s*\1\s*<\s*([^;{}]+?)\s*;\s*(?:\1\s*\+\+|\+\+\s*\1|\1\s*\+=\s*1)\s*\)\s*)"
        R"((\{\s*)?([A-Za-z_]\w*(?:\s*\[[^\]\n]*\])?)\s*\.\s*SetValue\s*\(\s*\1\s*,\s*([^;]+?)\s*\)\s*;(\s*\})?)");
    std::string out;
    auto from = text.cbegin();
    for (std::sregex_iterator it(text.begin(), text.end(), loop), end; it != end; ++it) {
        const auto& m = *it;
        out.append(from, m[0].first);
        from = m[0].second;
        const std::string index = m[1], bound = without_int_cast(m[2]), tensor = m[4], value = m[5];
        const std::string base = tensor.substr(0, tensor.find_first_of(" [")), type = local_tensor_type(text, base);
        // `(T)i` or `static_cast<T>(i)`: the index itself, as the element type.
        const std::regex index_cast("^(?:\\(\\s*[\\w:]+\\s*\\)\\s*|static_cast<\\s*[\\w:]+\\s*>\\s*\\(\\s*)" + index + "\\s*\\)?$");
        const bool braces_balance = m[3].matched == m[6].matched;
        if (!braces_balance || type.empty()) {
            out.append(m[0].first, m[0].second);
        } else if (std::regex_match(value, index_cast)) {
            out += "AscendC::CreateVecIndex(" + tensor + ", static_cast<" + type + ">(0), " + bound + ");" + scalar_reads_wait(text, base);
        } else if (!std::regex_search(value, std::regex("\\b" + index + "\\b"))) {
            out += "AscendC::Duplicate<" + type + ">(" + tensor + ", " + value + ", " + bound + ");" + scalar_reads_wait(text, base);
        } else {
            out.append(m[0].first, m[0].second);
        }
    }
    out.append(from, text.cend());
    return out;
}

}  // namespace

std::optional<CandidateFiles> scalar_fills(const CandidateFiles& files) { return edit_files_under(files, "op_kernel/", scalar_fill_loops); }

std::optional<CandidateFiles> vector_fills(const CandidateFiles& files) { return edit_files_under(files, "op_kernel/", vector_fill_loops); }

}  // namespace ascendopt
