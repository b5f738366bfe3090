#include "llm/templates.h"

#include <algorithm>

#include "util/files.h"

namespace ascendopt {

Result<std::filesystem::path> TemplateStore::locate(const std::string& name) const {
    const std::string file = name + ".md";
    if (!m_user.empty() && std::filesystem::is_regular_file(m_user / file)) return m_user / file;
    if (std::filesystem::is_regular_file(m_bundled / file)) return m_bundled / file;
    return make_error("no prompt template '" + name + "' (looked for " + file + " in " +
                          (m_user.empty() ? "" : m_user.string() + " and ") + m_bundled.string() + ")",
                      "copy the bundled templates folder and set templates.dir to your copy");
}

Result<std::string> TemplateStore::render(const std::string& name, const std::map<std::string, std::string>& values) const {
    auto file = locate(name);
    if (!file) return file.error();
    auto text = read_text(*file);
    if (!text) return text.error();
    return render_template(*text, values, file->string());
}

Result<std::string> render_template(const std::string& text, const std::map<std::string, std::string>& values,
                                    const std::string& origin) {
    std::string out;
    size_t at = 0;
    while (at < text.size()) {
        const size_t open = text.find("{{", at);
        if (open == std::string::npos) break;
        const size_t close = text.find("}}", open + 2);
        if (close == std::string::npos) {
            const size_t line = size_t(std::count(text.begin(), text.begin() + long(open), '\n')) + 1;
            return make_error(origin + ":" + std::to_string(line) + ": '{{' without a closing '}}'");
        }
        std::string name = text.substr(open + 2, close - open - 2);
        name.erase(0, name.find_first_not_of(' '));
        name.erase(name.find_last_not_of(' ') + 1);
        const auto it = values.find(name);
        if (it == values.end()) {
            const size_t line = size_t(std::count(text.begin(), text.begin() + long(open), '\n')) + 1;
            std::string known;
            for (const auto& [k, v] : values) known += (known.empty() ? "" : ", ") + k;
            return make_error(origin + ":" + std::to_string(line) + ": the template uses {{" + name + "}}, which is not supplied",
                              "the values this prompt supplies: " + known);
        }
        out.append(text, at, open - at);
        out += it->second;
        at = close + 2;
    }
    out.append(text, at, std::string::npos);
    return out;
}

}  // namespace ascendopt
