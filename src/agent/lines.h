// Line handling shared by reply parsing and edit application.
#pragma once

#include <string>
#include <vector>

namespace ascendopt {

// The lines of `text` without their ends; a CR before an LF is dropped, so CRLF reads as LF.
std::vector<std::string> split_lines(const std::string& text);
// `s` without leading and trailing spaces and tabs.
std::string trim_blanks(const std::string& s);

}  // namespace ascendopt
