// The neutral layer's certificate where a client sees it: `assay fair serve` as a real process
// in front of a real upstream (the built-in LR; the scikit-learn pipeline served over HTTP by
// tests/data/models/sklearn_server.py), audited by `assay fair test --model http:PROXY`, finds
// exactly the violations `assay fair mitigate` reports with the same options at ε = 0.1, 1 and
// 5, and every pair (input, perturbation) is answered within the certified ε.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "biased_lr.h"
#include "models/server_process.h"
#include "serve_process.h"
#include "support/temp_dir.h"

namespace assay::fairness {
namespace {

using assay::testing::run_assay;
using assay::testing::TempDir;
using testing::ServeProcess;
using testing::words;

const std::string kModelsData = std::string(ASSAY_TEST_DATA_DIR) + "/models";

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// Texts with one person, two people, names and pronouns: their perturbations and the
// perturbations' own perturbations lead to different sets, which the per-input weighting of
// Theorem 1 leaves uncovered.
const char* const kInputs =
    "the actor was wonderful\n"
    "the actress was awful\n"
    "a great actor and a great film\n"
    "the female lead was dull\n"
    "The waiter told his wife that the actress was great.\n"
    "John thanked the nurse and she smiled at him.\n"
    "my uncle thought the actress was awful\n"
    "the director and the actor were wonderful\n"
    "a man who has just lost his wife\n"
    "the film was wonderful\n"
    "the doctor gave her a great film\n"
    "Mary and her brother loved the actors\n";

// `fair mitigate` at ε = 0.1, 1, 5, then, for each ε, `fair serve` with the same options in
// front of `upstream` audited by `fair test` through http:. `model` is the spec fair mitigate
// asks (the same model as the upstream).
void expect_audit_equals_mitigate(const TempDir& dir, const std::string& model,
                                  const std::string& upstream) {
  const std::string input = dir.write("in.txt", kInputs);
  const std::string options = " --max-k 4";
  auto r = run_assay(dir, "fair mitigate --quiet --model " + model + " --input " + input +
                              " --out " + dir.file("m") + " --epsilon 0.1,1,5" + options);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto mitigation = read_json(dir.file("m/mitigation.json"));
  ASSERT_GT(mitigation["violations_before"].get<std::size_t>(), 3u) << mitigation.dump(1);
  ASSERT_EQ(mitigation["epsilons"].size(), 3u);
  std::size_t audited_total = 0;
  for (const auto& row : mitigation["epsilons"]) {
    const double eps = row["epsilon"].get<double>();
    EXPECT_EQ(row["pairs_outside_class"], 0u) << row.dump();
    EXPECT_LE(row["max_realised_epsilon"].get<double>(), eps + 1e-12) << row.dump();
    std::ostringstream e;
    e << eps;
    const std::string tag = e.str();
    std::string serve_line = "fair serve --quiet --upstream ";
    serve_line += upstream;
    serve_line += " --epsilon ";
    serve_line += tag;
    serve_line += options;
    serve_line += " --listen 127.0.0.1:0";
    ServeProcess serve(words(serve_line), dir.file("serve-" + tag));
    const std::string out = dir.file("t-" + tag);
    r = run_assay(
        dir, "fair test --quiet --model http://127.0.0.1:" + std::to_string(serve.port()) +
                 "/predict --labels neg,pos --scores-pointer /scores --input " + input + " --out " +
                 out);
    ASSERT_LE(r.exit_code, 1) << r.err;
    const auto summary = read_json(out + "/summary.json");
    EXPECT_EQ(summary["violations"], row["violations"]) << "epsilon " << eps << ": " << row.dump();
    audited_total += summary["violations"].get<std::size_t>();
    EXPECT_EQ(serve.terminate(SIGTERM), 0) << serve.stderr_text();
  }
  // The layer leaves fewer violations at ε = 0.1 than the model had.
  EXPECT_LT(mitigation["epsilons"][0]["violations"].get<std::size_t>(),
            mitigation["violations_before"].get<std::size_t>());
  (void)audited_total;
}

TEST(FairCertificateCommand, ProxyInFrontOfTheBuiltInLrFindsWhatMitigateReports) {
  TempDir dir;
  const std::string lr = testing::train_biased_lr(dir);
  ASSERT_FALSE(HasFailure());
  expect_audit_equals_mitigate(dir, "lr:" + lr, "lr:" + lr);
}

TEST(FairCertificateCommand, ProxyInFrontOfAScikitLearnServerFindsWhatMitigateReports) {
  if (std::system("/usr/bin/python3 -c 'import sklearn' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "/usr/bin/python3 has no sklearn (python3-sklearn)";
  TempDir dir;
  const auto tsv = testing::write_biased_train_tsv(dir);
  assay::testing::ServerProcess upstream(
      {"/usr/bin/python3", kModelsData + "/sklearn_server.py", "--train", tsv, "--http", "0"});
  const std::string http = "http:" + upstream.url() + " --labels neg,pos --scores-pointer /scores";
  expect_audit_equals_mitigate(dir, http, http);
}

// An audit through a proxy that takes at most 8 texts a request (KServe v2, one request per
// predict() call): `fair test --batch 8` sends at most 8, with the answer cache and without
// it, and finds what the audit one text a request finds.
TEST(FairCertificateCommand, AuditSendsAtMostBatchTextsPerRequest) {
  TempDir dir;
  const std::string lr = testing::train_biased_lr(dir);
  ASSERT_FALSE(HasFailure());
  const std::string input = dir.write("in.txt", kInputs);
  ServeProcess serve(words("fair serve --quiet --upstream lr:" + lr +
                           " --epsilon 1 --max-k 4 --max-batch 8 --listen 127.0.0.1:0"),
                     dir.file("serve.err"));
  const std::string proxy = "http://127.0.0.1:" + std::to_string(serve.port());
  auto audit = [&](const std::string& how, const std::string& out) {
    const auto r = run_assay(dir, "fair test --quiet --labels neg,pos --input " + input +
                                      " --out " + dir.file(out) + " " + how);
    EXPECT_LE(r.exit_code, 1) << how << "\n" << r.err;
    return read_json(dir.file(out) + "/summary.json")["violations"].get<std::size_t>();
  };
  const auto one_by_one = audit("--model " + proxy + "/predict --scores-pointer /scores", "single");
  const std::string v2 = "--model " + proxy + "/v2/models/model/infer --batch 8";
  EXPECT_EQ(audit(v2, "batched"), one_by_one);
  EXPECT_EQ(audit(v2 + " --cache " + dir.file("a.sqlite"), "cached"), one_by_one);
  EXPECT_EQ(serve.terminate(SIGTERM), 0) << serve.stderr_text();
}

}  // namespace
}  // namespace assay::fairness
