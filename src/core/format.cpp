#include "core/format.h"

namespace ascendopt {

const std::vector<std::pair<std::string, int>>& format_names() {
    static const std::vector<std::pair<std::string, int>> names = {
        {"NCHW", 0}, {"NHWC", 1}, {"ND", 2}, {"NC1HWC0", 3}, {"FRACTAL_Z", 4}, {"NC1C0HWPAD", 5}, {"NHWC1C0", 6}, {"FSR_NCHW", 7},
        {"FRACTAL_DECONV", 8}, {"C1HWNC0", 9}, {"FRACTAL_DECONV_TRANSPOSE", 10}, {"FRACTAL_DECONV_SP_STRIDE_TRANS", 11},
        {"NC1HWC0_C04", 12}, {"FRACTAL_Z_C04", 13}, {"CHWN", 14}, {"FRACTAL_DECONV_SP_STRIDE8_TRANS", 15}, {"HWCN", 16},
        {"NC1KHKWHWC0", 17}, {"BN_WEIGHT", 18}, {"FILTER_HWCK", 19}, {"C1HWNCoC0", 25}, {"MD", 26}, {"NDHWC", 27},
        {"FRACTAL_ZZ", 28}, {"FRACTAL_NZ", 29}, {"NCDHW", 30}, {"DHWCN", 31}, {"NDC1HWC0", 32}, {"FRACTAL_Z_3D", 33}, {"CN", 34},
        {"NC", 35}, {"DHWNC", 36}, {"FRACTAL_Z_3D_TRANSPOSE", 37}, {"FRACTAL_ZN_LSTM", 38}, {"FRACTAL_Z_G", 39}, {"ND_RNN_BIAS", 43},
        {"FRACTAL_ZN_RNN", 44}, {"NCL", 47}, {"C1HWC0", 49}};
    return names;
}

std::optional<int> format_code(std::string_view name) {
    if (name.rfind("FORMAT_", 0) == 0) name.remove_prefix(7);
    for (const auto& [n, code] : format_names())
        if (n == name) return code;
    return std::nullopt;
}

}  // namespace ascendopt
