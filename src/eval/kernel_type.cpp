#include "eval/kernel_type.h"

#include <regex>

#include "util/files.h"

namespace ascendopt {

std::string kernel_type_name(const std::string& t) {
    if (t == "KERNEL_TYPE_AIV_ONLY" || t == "KERNEL_TYPE_MIX_VECTOR_CORE") return "aiv";
    if (t == "KERNEL_TYPE_AIC_ONLY") return "aic";
    if (t == "KERNEL_TYPE_MIX_AIC_1_0") return "mix_aic_1_0";
    if (t == "KERNEL_TYPE_MIX_AIV_1_0") return "mix_aiv_1_0";
    if (t == "KERNEL_TYPE_MIX_AIC_1_1") return "mix_aic_1_1";
    if (t == "KERNEL_TYPE_MIX_AIC_1_2") return "mix_aic_1_2";
    return "";
}

KernelTypes kernel_types(const std::vector<std::filesystem::path>& files) {
    static const std::regex by_default(R"(KERNEL_TASK_TYPE_DEFAULT\s*\(\s*(\w+)\s*\))");
    static const std::regex by_key(R"(KERNEL_TASK_TYPE\s*\(\s*(\d+)[uUlL]*\s*,\s*(\w+)\s*\))");
    static const std::regex cube(R"(\b(Mmad|LoadData|Fixpipe|REGIST_MATMUL_OBJ|MatmulImpl|matmul::Matmul)\b|lib/matmul_intf\.h)");
    static const std::regex vector(R"(QuePosition::VEC|TPosition::VEC|\bVECIN\b|\bVECOUT\b|\bVECCALC\b)");
    // The Matmul high-level API in vector code makes a mixed kernel (its AIC serves the AIVs'
    // Matmul objects) unless ASCENDC_CUBE_ONLY makes it a cube-only one.
    static const std::regex matmul_api(R"(\bREGIST_MATMUL_OBJ\b|lib/matmul_intf\.h)");
    static const std::regex cube_only(R"(#\s*define\s+ASCENDC_CUBE_ONLY\b)");
    KernelTypes out;
    std::string declared;
    bool uses_cube = false, uses_vector = false, uses_matmul = false, cube_only_matmul = false;
    for (const auto& f : files) {
        const auto text = read_text(f);
        if (!text) continue;
        std::smatch m;
        if (declared.empty() && std::regex_search(*text, m, by_default)) declared = kernel_type_name(m[1].str());
        for (std::sregex_iterator it(text->begin(), text->end(), by_key), end; it != end; ++it) {
            const std::string type = kernel_type_name((*it)[2].str());
            if (!type.empty()) out.by_tiling_key[std::stoull((*it)[1].str())] = type;
        }
        uses_cube = uses_cube || std::regex_search(*text, cube);
        uses_vector = uses_vector || std::regex_search(*text, vector);
        uses_matmul = uses_matmul || std::regex_search(*text, matmul_api);
        cube_only_matmul = cube_only_matmul || std::regex_search(*text, cube_only);
    }
    if (uses_cube) out.inferred_type = uses_vector || (uses_matmul && !cube_only_matmul) ? "mix_aic_1_2" : "aic";
    out.default_type = declared.empty() ? out.inferred_type : declared;
    return out;
}

}  // namespace ascendopt
