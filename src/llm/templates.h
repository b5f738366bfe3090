// Prompt templates are files (NAME.md), so a user can change a prompt without rebuilding:
// a template in the user's folder replaces the bundled one of the same name. A template
// refers to values as {{name}}; rendering fails, naming the template file and the value,
// when a referenced value is not supplied, so a typo never reaches an LLM as literal braces.
#pragma once

#include <filesystem>
#include <map>
#include <string>

#include "util/result.h"

namespace ascendopt {

class TemplateStore {
public:
    // `user_dir` may be empty (bundled templates only).
    TemplateStore(std::filesystem::path bundled_dir, std::filesystem::path user_dir = {})
        : m_bundled(std::move(bundled_dir)), m_user(std::move(user_dir)) {}

    // The file that provides `name`: the user's when present, else the bundled one.
    Result<std::filesystem::path> locate(const std::string& name) const;
    Result<std::string> render(const std::string& name, const std::map<std::string, std::string>& values) const;

private:
    std::filesystem::path m_bundled, m_user;
};

// Substitutes {{name}} in `text`; `origin` names the template in errors.
Result<std::string> render_template(const std::string& text, const std::map<std::string, std::string>& values,
                                    const std::string& origin);

}  // namespace ascendopt
