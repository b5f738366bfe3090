// What a compiled candidate object would run before main(): the dynamic loader and the C
// runtime call IFUNC resolvers, .preinit_array and prioritised .init_array entries before the
// harness's first constructor (priority 101, harness_main.cpp), which puts the walls up. Such
// objects are refused whatever source produced them; ordinary static initialisers (plain
// .init_array, as OP_ADD registrations use) run after the walls and are allowed.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ascendopt {

// Why the ELF object at `path` may not be linked into an operator, or "" when it may (also
// when it is not an ELF object: the linker will say so).
std::string startup_code_in_object(const std::filesystem::path& path);

// The global and weak symbols of a relocatable ELF object: what it defines (strong or weak) and
// what it needs from elsewhere (undefined, weak or not). nullopt: not a readable ELF object.
struct ObjectSymbols {
    std::vector<std::string> defined_strong;
    std::vector<std::string> defined_weak;
    std::vector<std::string> undefined;
};
std::optional<ObjectSymbols> object_symbols(const std::filesystem::path& path);

}  // namespace ascendopt
