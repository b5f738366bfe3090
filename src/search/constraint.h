// Declared constraints on tunables: `// ascendopt: constraint <expression>` anywhere in the
// operator's host or kernel sources, e.g.
//     // ascendopt: constraint TILE_BYTES * BUFFER_NUM * 3 <= UB_BYTES
// Expressions use tunable names, UB_BYTES and CORES, integers, + - * / %, comparisons,
// && || ! and parentheses. A configuration that violates one is rejected before it is built,
// without spending budget.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "eval/operator_source.h"
#include "util/result.h"

namespace ascendopt {

struct Constraint {
    std::string text;
    std::string where;  // file:line
};

std::vector<Constraint> find_constraints(const OperatorSource& op);

// Evaluates `expr` with `vars`; an unknown name or a syntax error is an error naming it.
Result<int64_t> evaluate_expression(const std::string& expr, const std::map<std::string, int64_t>& vars);

}  // namespace ascendopt
