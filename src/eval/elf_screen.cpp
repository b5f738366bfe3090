#include "eval/elf_screen.h"

#include <elf.h>

#include <cstring>
#include <string_view>

#include "util/files.h"

namespace ascendopt {
namespace {

template <class T>
bool read_at(const std::string& file, uint64_t offset, T& out) {
    if (offset > file.size() || file.size() - offset < sizeof(T)) return false;
    std::memcpy(&out, file.data() + offset, sizeof(T));
    return true;
}

std::string_view string_at(const std::string& file, uint64_t table, uint64_t table_size, uint32_t index) {
    if (index >= table_size || table > file.size() || file.size() - table < table_size) return {};
    const char* start = file.data() + table + index;
    return std::string_view(start, strnlen(start, size_t(table_size - index)));
}

std::string refused_section(std::string_view name) {
    if (name.starts_with(".preinit_array")) return "a .preinit_array entry, which runs before every constructor";
    if (name.starts_with(".init_array.") || name.starts_with(".ctors"))
        return "a constructor with a priority (" + std::string(name) + "), which may run before the harness's first one";
    if (name == ".init") return "code in .init, which runs before every constructor";
    return "";
}

}  // namespace

std::string startup_code_in_object(const std::filesystem::path& path) {
    const auto file = read_text(path);
    Elf64_Ehdr eh{};
    if (!file || !read_at(*file, 0, eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64) return "";
    Elf64_Shdr names{};
    if (eh.e_shstrndx == SHN_UNDEF || !read_at(*file, eh.e_shoff + uint64_t(eh.e_shstrndx) * sizeof(Elf64_Shdr), names)) return "";
    for (uint16_t i = 0; i < eh.e_shnum; ++i) {
        Elf64_Shdr sh{};
        if (!read_at(*file, eh.e_shoff + uint64_t(i) * sizeof(Elf64_Shdr), sh)) return "its section table is damaged";
        const auto name = string_at(*file, names.sh_offset, names.sh_size, sh.sh_name);
        if (auto why = refused_section(name); !why.empty()) return why;
        if (sh.sh_type == SHT_PREINIT_ARRAY) return "a .preinit_array entry, which runs before every constructor";
        if (sh.sh_type != SHT_SYMTAB || sh.sh_entsize != sizeof(Elf64_Sym)) continue;
        Elf64_Shdr strings{};
        if (!read_at(*file, eh.e_shoff + uint64_t(sh.sh_link) * sizeof(Elf64_Shdr), strings)) return "its symbol table is damaged";
        for (uint64_t s = 0; s < sh.sh_size / sizeof(Elf64_Sym); ++s) {
            Elf64_Sym sym{};
            if (!read_at(*file, sh.sh_offset + s * sizeof(Elf64_Sym), sym)) return "its symbol table is damaged";
            if (ELF64_ST_TYPE(sym.st_info) == STT_GNU_IFUNC)
                return "an IFUNC symbol (" + std::string(string_at(*file, strings.sh_offset, strings.sh_size, sym.st_name)) +
                       "), whose resolver the loader runs before every constructor";
        }
    }
    return "";
}

std::optional<ObjectSymbols> object_symbols(const std::filesystem::path& path) {
    const auto file = read_text(path);
    Elf64_Ehdr eh{};
    if (!file || !read_at(*file, 0, eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64) return std::nullopt;
    ObjectSymbols out;
    for (uint16_t i = 0; i < eh.e_shnum; ++i) {
        Elf64_Shdr sh{};
        if (!read_at(*file, eh.e_shoff + uint64_t(i) * sizeof(Elf64_Shdr), sh)) return std::nullopt;
        if (sh.sh_type != SHT_SYMTAB || sh.sh_entsize != sizeof(Elf64_Sym)) continue;
        Elf64_Shdr strings{};
        if (!read_at(*file, eh.e_shoff + uint64_t(sh.sh_link) * sizeof(Elf64_Shdr), strings)) return std::nullopt;
        for (uint64_t s = 0; s < sh.sh_size / sizeof(Elf64_Sym); ++s) {
            Elf64_Sym sym{};
            if (!read_at(*file, sh.sh_offset + s * sizeof(Elf64_Sym), sym)) return std::nullopt;
            const unsigned bind = ELF64_ST_BIND(sym.st_info);
            if (bind != STB_GLOBAL && bind != STB_WEAK && bind != STB_GNU_UNIQUE) continue;
            std::string name(string_at(*file, strings.sh_offset, strings.sh_size, sym.st_name));
            if (name.empty()) continue;
            if (sym.st_shndx == SHN_UNDEF) out.undefined.push_back(std::move(name));
            else if (bind == STB_GLOBAL) out.defined_strong.push_back(std::move(name));
            else out.defined_weak.push_back(std::move(name));
        }
    }
    return out;
}

}  // namespace ascendopt
