// Applying a parsed LLM reply to a candidate's files, all or nothing. A SEARCH text must
// match one place exactly; the one tolerance is indentation drift (the same lines indented
// differently), where the replacement is re-indented to match and a note says so. A SEARCH
// that matches nowhere is an error quoting the closest lines of the file; one that matches
// several places is an error too. Files keep their own line ends (CRLF stays CRLF).
// Only files under op_kernel/ and op_host/ may be edited or created.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "agent/reply_parser.h"

namespace ascendopt {

enum class ReplyStatus { applied, no_code, malformed, unknown_file, outside_operator, search_mismatch, ambiguous };
const char* to_string(ReplyStatus s);

struct AppliedReply {
    ReplyStatus status = ReplyStatus::no_code;
    // For the next prompt when not applied: every problem found, one per line.
    std::string reason;
    std::map<std::string, std::string> files;  // the candidate's files after the edits (when applied)
    std::vector<std::string> changed;          // relative paths whose content changed, sorted
    std::vector<std::string> notes;            // tolerances used ("indentation adjusted in ...")
    bool touches_kernel = false;               // something under op_kernel/ changed
    bool touches_host = false;                 // something under op_host/ changed
    bool ok() const { return status == ReplyStatus::applied; }
};

// `files`: relative path -> content, the candidate before the reply.
AppliedReply apply_reply(const std::string& reply, const std::map<std::string, std::string>& files);

}  // namespace ascendopt
