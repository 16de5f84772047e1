// The option tables of the perturbator and of the AEON gate: the command line's flags,
// Python's keywords and the options table of docs/fairness.md come from them or are checked.
#include "fairness/perturbator_option_table.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "core/error.h"
#include "fairness/gate_option_table.h"

namespace assay::fairness {
namespace {

using ::testing::HasSubstr;

// The rows of docs/fairness.md's "Perturbation options" table, backticks removed.
std::vector<std::string> documented_rows() {
  std::ifstream in(std::string(ASSAY_TEST_DATA_DIR) + "/../../docs/fairness.md");
  EXPECT_TRUE(in) << "docs/fairness.md";
  std::vector<std::string> rows;
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line.rfind("**Perturbation options**", 0) == 0) {
      inside = true;
    } else if (inside && line.rfind("| `--", 0) == 0) {
      line.erase(std::remove(line.begin(), line.end(), '`'), line.end());
      rows.push_back(line);
    } else if (inside && !rows.empty() && line.rfind('|', 0) != 0) {
      break;
    }
  }
  return rows;
}

TEST(PerturbatorOptionTable, DocsListEveryOptionWithItsDefault) {
  const auto rows = documented_rows();
  ASSERT_FALSE(rows.empty());
  std::set<std::string> documented;
  for (const auto& row : rows) {
    const auto end = row.find_first_of(" |", 4);
    documented.insert(row.substr(4, end - 4));
  }
  std::set<std::string> flags;
  for (const auto& o : perturbator_option_table()) {
    const std::string flag(o.flag);
    flags.insert(flag);
    EXPECT_TRUE(documented.count(flag)) << "--" << flag << " is not in docs/fairness.md";
    if (o.hide_default || std::holds_alternative<FlagField>(o.field)) continue;
    const auto row = std::find_if(rows.begin(), rows.end(), [&](const std::string& r) {
      return r.rfind("| --" + flag + " ", 0) == 0 || r.rfind("| --" + flag + "|", 0) == 0;
    });
    if (row == rows.end()) continue;
    EXPECT_THAT(*row, HasSubstr("default " + default_text(o))) << "--" << flag;
  }
  for (const auto& flag : documented) {
    EXPECT_TRUE(flags.count(flag))
        << "docs/fairness.md documents --" << flag << ", which the table lacks";
  }
}

TEST(PerturbatorOptionTable, NamesAreUniqueAndFindable) {
  std::set<std::string> flags, keywords;
  for (const auto& o : perturbator_option_table()) {
    EXPECT_TRUE(flags.insert(std::string(o.flag)).second) << o.flag;
    EXPECT_TRUE(keywords.insert(std::string(o.keyword)).second) << o.keyword;
    EXPECT_EQ(find_perturbator_flag(o.flag), &o);
    EXPECT_EQ(find_perturbator_keyword(o.keyword), &o);
  }
  EXPECT_EQ(find_perturbator_keyword("no_strict"), nullptr);
  EXPECT_EQ(default_text(*find_perturbator_flag("min-cosine")), "0.7");
  EXPECT_EQ(default_text(*find_perturbator_flag("max-perturbations")),
            std::to_string(PerturbatorOptions{}.max_perturbations));
  EXPECT_EQ(default_text(*find_perturbator_keyword("strict")), "true");  // --no-strict is off
}

TEST(PerturbatorOptionTable, ChecksBetweenOptions) {
  PerturbatorConfig c;
  EXPECT_NO_THROW(check_perturbator_config(c));
  c.min_cosine = 0.5;
  try {
    check_perturbator_config(c);
    ADD_FAILURE() << "a vector setting without vectors was accepted";
  } catch (const core::UsageError& e) {
    EXPECT_THAT(e.what(), HasSubstr("min_cosine is a setting of the word vectors"));
  }
  c.resources.vectors = "vectors.txt";
  EXPECT_NO_THROW(check_perturbator_config(c));
  c.no_analogy = c.no_active = true;
  EXPECT_THROW(check_perturbator_config(c), core::UsageError);
}

// The gate's table: "gate" first (the others need it), every flag "gate-" and the Python key with
// dashes, so `--gate-model-dir` is gate={'model_dir': ...}.
TEST(GateOptionTable, FlagsAreThePythonKeys) {
  const auto table = gate_option_table();
  ASSERT_FALSE(table.empty());
  EXPECT_EQ(table.front().key, "gate");
  for (const auto& o : table) {
    std::string flag = o.key == "gate" ? "gate" : "gate-" + std::string(o.key);
    std::replace(flag.begin(), flag.end(), '_', '-');
    EXPECT_EQ(o.flag, flag);
    EXPECT_EQ(find_gate_key(o.key), &o);
  }
  EXPECT_EQ(find_gate_key("threshold"), nullptr);
  EXPECT_THAT(gate_keys(), HasSubstr("sim, nat"));
}

}  // namespace
}  // namespace assay::fairness
