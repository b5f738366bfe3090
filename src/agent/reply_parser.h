// Reading the code out of an LLM reply. Two forms are understood:
//   * SEARCH/REPLACE blocks, each preceded by the file it edits (on the line before, or in
//     the code fence's info string; a block without one edits the previous block's file):
//         op_kernel/add_custom.cpp
//         <<<<<<< SEARCH
//         old lines
//         =======
//         new lines
//         >>>>>>> REPLACE
//   * whole files: a fenced code block whose file is named in its info string
//     (```cpp op_kernel/add_custom.cpp), on the line before it, or on its first line as a
//     comment (// file: op_kernel/add_custom.cpp).
// CRLF line ends are read as LF. Parsing never fails: what cannot be read becomes a problem
// with its line number, which the caller reports back to the LLM.
#pragma once

#include <string>
#include <vector>

namespace ascendopt {

struct SearchReplace {
    std::string file;     // as written in the reply; empty when none could be found
    std::string search;   // lines to find (LF ends); empty: create the file
    std::string replace;  // lines to put in their place
    size_t line = 0;      // the reply line of the SEARCH marker
};

struct WholeFile {
    std::string file;
    std::string content;
    size_t line = 0;  // the reply line of the opening fence
};

struct ParsedReply {
    std::vector<SearchReplace> edits;
    std::vector<WholeFile> files;
    std::vector<WholeFile> unnamed;      // code blocks that name no file
    std::vector<std::string> problems;  // "line 12: a SEARCH block without =======", ...
    bool empty() const { return edits.empty() && files.empty() && unnamed.empty(); }
};

ParsedReply parse_reply(const std::string& reply);

}  // namespace ascendopt
