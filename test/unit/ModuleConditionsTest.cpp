// ModuleConditionsTest.cpp - module-level `if` conditions decided as Python decides them, or not.
#include <catch2/catch.hpp>

#include "frontend/ModuleConditions.h"
#include "frontend/PyParser.h"

using namespace tilevm;

namespace {

// The module's binding of G after parsing `src`: the constant's value text, or "undecided".
std::string boundG(const std::string& src) {
  auto m = frontend::parsePython(src, "c.py");
  REQUIRE(m.ok());
  const auto& g = m->names.at("G");
  REQUIRE(g.size() == 1);
  if (g[0].kind == frontend::Binding::K::Undecided) return "undecided";
  REQUIRE(g[0].kind == frontend::Binding::K::Constant);
  REQUIRE(g[0].expr);
  return std::to_string(g[0].expr->ival);
}

std::string ifElse(const std::string& cond) { return "import os\nimport triton\nA = 3\nS = 'ab'\nif " + cond + ":\n    G = 1\nelse:\n    G = 2\n"; }

}  // namespace

TEST_CASE("conditions over constants take Python's branch", "[pyparser][module-if]") {
  CHECK(boundG(ifElse("False")) == "2");
  CHECK(boundG(ifElse("True")) == "1");
  CHECK(boundG(ifElse("A > 2")) == "1");
  CHECK(boundG(ifElse("1 < A < 3")) == "2");
  CHECK(boundG(ifElse("A == 3.0")) == "1");
  CHECK(boundG(ifElse("not A")) == "2");
  CHECK(boundG(ifElse("A - 3 or S")) == "1");
  CHECK(boundG(ifElse("S == 'ab' and A * 2 == 6")) == "1");
  CHECK(boundG(ifElse("S < 'aa'")) == "2");
  CHECK(boundG(ifElse("None is None")) == "1");
  CHECK(boundG(ifElse("S == 1")) == "2");  // different types are unequal
  CHECK(boundG(ifElse("triton.__version__ >= '3.0.0'")) == "1");
  CHECK(boundG("if 0:\n    G = 1\nelif 2:\n    G = 3\nelse:\n    G = 4\n") == "3");
  CHECK(boundG("G = 7\nif 0:\n    G = 1\n") == "7");  // no branch taken: the earlier binding
}

TEST_CASE("conditions Python computes at import are undecided, never a guessed branch", "[pyparser][module-if]") {
  CHECK(boundG(ifElse("os.environ.get('X') == '1'")) == "undecided");
  CHECK(boundG(ifElse("os.getenv('X')")) == "undecided");
  CHECK(boundG(ifElse("f()")) == "undecided");
  CHECK(boundG(ifElse("UNKNOWN")) == "undecided");
  CHECK(boundG(ifElse("S < 1")) == "undecided");  // TypeError in Python
  CHECK(boundG(ifElse("A is 3")) == "undecided");
  CHECK(boundG(ifElse("99999999999999999999 > 0")) == "undecided");
  CHECK(boundG("for i in range(2):\n    G = i\n") == "undecided");
  CHECK(boundG("G = 1\nwhile False:\n    G = 2\n") == "undecided");
}

TEST_CASE("the reasons name what Python would compute", "[pyparser][module-if]") {
  auto m = frontend::parsePython(ifElse("os.environ['X']"), "c.py");
  REQUIRE(m.ok());
  CHECK(m->names.at("G")[0].what.find("(it reads os.environ)") != std::string::npos);
  auto n = frontend::parsePython(ifElse("pick(1)"), "c.py");
  REQUIRE(n.ok());
  CHECK(n->names.at("G")[0].what.find("(it calls 'pick')") != std::string::npos);
  CHECK(n->names.at("G")[0].line == 5);
  CHECK(n->names.at("G")[0].col == 1);
}
