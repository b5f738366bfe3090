#include "npu/msprof_csv.h"

#include <cstdlib>
#include <map>
#include <sstream>
#include <vector>

namespace ascendopt {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::vector<std::string> split_csv_line(const std::string& line) {
    std::vector<std::string> out;
    std::string cell;
    std::istringstream in(line);
    while (std::getline(in, cell, ',')) {
        while (!cell.empty() && (cell.back() == '\r' || cell.back() == ' ')) cell.pop_back();
        while (!cell.empty() && cell.front() == ' ') cell.erase(cell.begin());
        out.push_back(cell);
    }
    return out;
}

// The twin's pipe each column's busy time belongs to: the vector cores' (aiv_) and the cube
// cores' (aic_) columns of a mixed operator both count, as the twin counts both kinds of core.
const std::map<std::string, const char*>& pipe_columns() {
    static const std::map<std::string, const char*> columns = {
        {"aiv_scalar_time(us)", "S"}, {"aic_scalar_time(us)", "S"},   {"aiv_vec_time(us)", "V"},
        {"aiv_mte2_time(us)", "MTE2"}, {"aic_mte2_time(us)", "MTE2"}, {"aiv_mte3_time(us)", "MTE3"},
        {"aic_mte3_time(us)", "MTE3"}, {"aic_mte1_time(us)", "MTE1"}, {"aic_cube_time(us)", "M"},
        {"aic_fixpipe_time(us)", "FIX"}};
    return columns;
}

Result<double> number(const std::string& cell, const std::string& column, size_t row) {
    if (cell.empty() || cell == "N/A") return 0.0;
    char* end = nullptr;
    const double v = std::strtod(cell.c_str(), &end);
    if (end == cell.c_str() || *end != '\0')
        return make_error("PipeUtilization.csv row " + std::to_string(row) + ": " + column + " is '" + cell + "', not a number",
                          "msprof from a CANN release other than 8.0 may write the file otherwise; docs/npu.md says what to send back");
    return v;
}

}  // namespace

Result<json> blocks_from_pipe_utilization(const std::string& csv) {
    std::istringstream in(csv);
    std::string line;
    std::vector<std::string> header;
    while (header.empty() && std::getline(in, line))
        if (line.find_first_not_of(" \r") != std::string::npos) header = split_csv_line(line);
    std::map<std::string, size_t> at;
    for (size_t i = 0; i < header.size(); ++i) at[header[i]] = i;
    if (!at.count("block_id") || (!at.count("aiv_time(us)") && !at.count("aic_time(us)")))
        return make_error("PipeUtilization.csv has no block_id and core time columns (its header: " + line + ")",
                          "msprof from a CANN release other than 8.0 may write the file otherwise; docs/npu.md says what to send back");
    json blocks = json::array();
    for (size_t row = 1; std::getline(in, line); ++row) {
        if (line.find_first_not_of(" \r") == std::string::npos) continue;
        const auto cells = split_csv_line(line);
        auto cell = [&](const std::string& column) -> Result<double> {
            const auto it = at.find(column);
            if (it == at.end() || it->second >= cells.size()) return 0.0;
            return number(cells[it->second], column, row);
        };
        auto block = cell("block_id");
        auto aiv = cell("aiv_time(us)"), aic = cell("aic_time(us)");
        if (!block) return block.error();
        if (!aiv) return aiv.error();
        if (!aic) return aic.error();
        json pipes = json::object();
        for (const char* p : {"S", "V", "MTE2", "MTE3", "MTE1", "M", "FIX"}) pipes[p] = {{"busy_us", 0.0}};
        for (const auto& [column, pipe] : pipe_columns()) {
            auto v = cell(column);
            if (!v) return v.error();
            pipes[pipe]["busy_us"] = pipes[pipe]["busy_us"].get<double>() + *v;
        }
        const std::string sub = at.count("sub_block_id") && at["sub_block_id"] < cells.size() ? cells[at["sub_block_id"]] : "";
        blocks.push_back({{"block", int64_t(*block)}, {"core", sub}, {"busy_end_us", std::max(*aiv, *aic)}, {"pipes", pipes}});
    }
    return blocks;
}

std::optional<fs::path> find_named_file(const fs::path& dir, const std::string& name) {
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file(ec) && it->path().filename() == name) return it->path();
    return std::nullopt;
}

}  // namespace ascendopt
