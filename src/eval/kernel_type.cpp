#include "eval/kernel_type.h"

#include <regex>

#include "util/files.h"

namespace ascendopt {

std::string inferred_kernel_type(const std::vector<std::filesystem::path>& files) {
    static const std::regex cube(R"(\b(Mmad|LoadData|Fixpipe|REGIST_MATMUL_OBJ|MatmulImpl|matmul::Matmul)\b|lib/matmul_intf\.h)");
    static const std::regex vector(R"(QuePosition::VEC|TPosition::VEC|\bVECIN\b|\bVECOUT\b|\bVECCALC\b)");
    // The Matmul high-level API in vector code makes a mixed kernel (its AIC serves the AIVs'
    // Matmul objects) unless ASCENDC_CUBE_ONLY makes it a cube-only one.
    static const std::regex matmul_api(R"(\bREGIST_MATMUL_OBJ\b|lib/matmul_intf\.h)");
    static const std::regex cube_only(R"(#\s*define\s+ASCENDC_CUBE_ONLY\b)");
    bool uses_cube = false, uses_vector = false, uses_matmul = false, cube_only_matmul = false;
    for (const auto& f : files) {
        const auto text = read_text(f);
        if (!text) continue;
        uses_cube = uses_cube || std::regex_search(*text, cube);
        uses_vector = uses_vector || std::regex_search(*text, vector);
        uses_matmul = uses_matmul || std::regex_search(*text, matmul_api);
        cube_only_matmul = cube_only_matmul || std::regex_search(*text, cube_only);
    }
    if (!uses_cube) return "aiv";
    return uses_vector || (uses_matmul && !cube_only_matmul) ? "mix_aic_1_2" : "aic";
}

}  // namespace ascendopt
