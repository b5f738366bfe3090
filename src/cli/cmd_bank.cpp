// `ascendopt bank list|show|export|import --bank FILE`: read and move experience banks.
#include <fstream>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "bank/bank.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/report_text.h"
#include "util/files.h"
#include "util/json_bounded.h"

namespace ascendopt {
namespace {

struct BankOptions {
    std::string bank;
    int64_t id = 0;
    std::string file;
    bool json = false;
};

int fail(const Error& e, int code = k_exit_bad_input) {
    std::cerr << render_error(e);
    return code;
}

Result<Bank> open_existing(const std::string& path) {
    if (!std::filesystem::exists(path))
        return make_error("no experience bank at " + path, "build one with `ascendopt rewind SUITE --bank " + path + "`, or import one");
    return Bank::open(path);
}

int run_list(const BankOptions& o) {
    auto bank = open_existing(o.bank);
    if (!bank) return fail(bank.error());
    auto records = bank->list();
    if (!records) return fail(records.error());
    if (o.json) {
        nlohmann::json j = nlohmann::json::array();
        for (const auto& r : *records) j.push_back(to_json(r));
        std::cout << j.dump(2) << "\n";
        return k_exit_ok;
    }
    std::cout << fmt::format("{:>4}  {:<20} {:<32} {:>8}  {}\n", "id", "operator", "family", "speedup", "title");
    for (const auto& r : *records)
        std::cout << fmt::format("{:>4}  {:<20} {:<32} {:>7.3f}x  {}\n", r.id, r.operator_name, r.family, r.speedup(), r.title);
    std::cout << records->size() << " records in " << o.bank << "\n";
    return k_exit_ok;
}

int run_show(const BankOptions& o) {
    auto bank = open_existing(o.bank);
    if (!bank) return fail(bank.error());
    auto r = bank->get(o.id);
    if (!r) return fail(r.error());
    if (!*r) return fail(make_error("no record " + std::to_string(o.id) + " in " + o.bank, "`ascendopt bank list` shows the ids"));
    const auto& x = **r;
    if (o.json) {
        std::cout << to_json(x).dump(2) << "\n";
        return k_exit_ok;
    }
    std::cout << fmt::format("#{} {} ({})\noperator: {}   soc: {}   backend: {}   support: {}\n", x.id, x.title, x.family, x.operator_name,
                             x.soc, x.backend, x.support);
    std::cout << fmt::format("latency: {:.3f} us -> {:.3f} us ({:.3f}x)\n", x.slow_latency_us, x.fast_latency_us, x.speedup());
    for (const auto& [label, text] : {std::pair{"bottleneck", x.bottleneck}, {"mechanism", x.mechanism}, {"causal chain", x.causal_chain},
                                      {"reusable when", x.reusable_when}, {"avoid when", x.avoid_when}, {"guidance", x.guidance},
                                      {"expected effect", x.expected_effect}})
        if (!text.empty()) std::cout << label << ": " << text << "\n";
    std::cout << "profile before: " << x.profile_before.dump() << "\nprofile after:  " << x.profile_after.dump() << "\n";
    std::cout << "diff:\n" << x.diff;
    return k_exit_ok;
}

int run_export(const BankOptions& o) {
    auto bank = open_existing(o.bank);
    if (!bank) return fail(bank.error());
    auto records = bank->list();
    if (!records) return fail(records.error());
    nlohmann::json j = {{"format", "ascendopt-bank"}, {"version", 1}, {"records", nlohmann::json::array()}};
    for (const auto& r : *records) j["records"].push_back(to_json(r));
    if (o.file.empty()) {
        std::cout << j.dump(2) << "\n";
        return k_exit_ok;
    }
    if (auto st = write_atomic(o.file, j.dump(2) + "\n"); !st) return fail(st.error(), k_exit_environment);
    std::cerr << "ascendopt: exported " << records->size() << " records to " << o.file << "\n";
    return k_exit_ok;
}

int run_import(const BankOptions& o) {
    auto text = read_text(o.file);
    if (!text) return fail(text.error());
    const auto parsed = parse_bounded_json(*text, o.file);
    if (!parsed) return fail(make_error(parsed.error().message, "a bank export is written by `ascendopt bank export`"));
    const nlohmann::json& j = *parsed;
    if (!j.is_object() || !j.contains("records") || !j["records"].is_array())
        return fail(make_error(o.file + " is not a bank export", "make one with `ascendopt bank export --bank FILE --out " + o.file + "`"));
    std::vector<ExperienceRecord> records;  // all are checked before any is written
    for (size_t i = 0; i < j["records"].size(); ++i) {
        auto r = record_from_json(j["records"][i]);
        if (!r) return fail(make_error(o.file + ": record " + std::to_string(i + 1) + ": " + r.error().message));
        records.push_back(std::move(*r));
    }
    auto bank = Bank::open(o.bank);
    if (!bank) return fail(bank.error());
    size_t added = 0, merged = 0;
    for (const auto& r : records) {
        auto put = bank->put(r);
        if (!put) return fail(put.error(), k_exit_environment);
        ++(put->merged ? merged : added);
    }
    std::cout << fmt::format("imported {} records into {}: {} new, {} merged with equivalent ones\n", records.size(), o.bank, added, merged);
    return k_exit_ok;
}

}  // namespace

CommandRunner add_bank_command(CLI::App& app) {
    auto o = std::make_shared<BankOptions>();
    auto* bank = app.add_subcommand("bank", "List, show, export and import experience records");
    bank->require_subcommand(1);
    auto bank_option = [&](CLI::App* cmd) { cmd->add_option("--bank", o->bank, "Experience bank (SQLite file)")->required(); };
    auto* list = bank->add_subcommand("list", "One line per record");
    bank_option(list);
    list->add_flag("--json", o->json, "Every record as JSON");
    auto* show = bank->add_subcommand("show", "One record in full");
    show->add_option("id", o->id, "Record id (from bank list)")->required();
    bank_option(show);
    show->add_flag("--json", o->json, "As JSON");
    auto* exp = bank->add_subcommand("export", "All records as JSON");
    bank_option(exp);
    exp->add_option("--out", o->file, "Write to this file (default: stdout)");
    auto* imp = bank->add_subcommand("import", "Add the records of an export; equivalent records merge");
    imp->add_option("file", o->file, "A file written by bank export")->required();
    bank_option(imp);
    return [o, list, show, exp] {
        if (list->parsed()) return run_list(*o);
        if (show->parsed()) return run_show(*o);
        if (exp->parsed()) return run_export(*o);
        return run_import(*o);
    };
}

}  // namespace ascendopt
