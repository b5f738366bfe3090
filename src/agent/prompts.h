// The pieces of prompts that are not fixed text: an operator's files, retrieved experience and
// the episode so far, rendered as Markdown for the templates in share/templates/. Also reading
// the JSON object an LLM appends to a de-optimization (the record's mechanism fields).
#pragma once

#include <string>
#include <vector>

#include "agent/workspace.h"
#include "bank/bank.h"
#include "llm/proposer.h"
#include "llm/templates.h"

namespace ascendopt {

std::string render_files(const CandidateFiles& files);
std::string render_experience(const std::vector<Bank::Hit>& hits);
std::string render_history(const std::vector<std::string>& episode);

// The last ```json block of a reply as an object; an empty object when there is none or it does not parse.
nlohmann::json json_block(const std::string& reply);

// A request of the bundled system prompt and the template `name` rendered with `values`.
Result<ChatRequest> make_request(const TemplateStore& templates, const std::string& name, const std::map<std::string, std::string>& values,
                                 const GenerationParams& params, const std::string& purpose);

}  // namespace ascendopt
