#include "lm/bert_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "lm/safetensors_builder.h"
#include "lm/wordpiece_tokenizer.h"
#include "support/temp_dir.h"

namespace assay::lm {
namespace {

namespace fs = std::filesystem;
const std::string kDir = std::string(ASSAY_TEST_DATA_DIR) + "/lm/bert";

nlohmann::json goldens() {
  std::ifstream in(kDir + "/goldens.json");
  return nlohmann::json::parse(in);
}

// |got − want| ≤ 1e-4·max(|want|, 1) element-wise: 1e-4 relative for values of magnitude
// above 1 (logits reach ±10 here), and 1e-4 absolute for the ones near zero, whose relative
// error is float32 rounding noise in a sum of large terms. The reference runs in float64.
void expect_close(const std::vector<float>& got, const nlohmann::json& want, const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  std::size_t n_bad = 0;
  double worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double w = want[i].get<double>();
    const double err = std::fabs(got[i] - w);
    const double scale = std::max(std::fabs(w), 1.0);
    worst = std::max(worst, err / scale);
    if (err > 1e-4 * scale) ++n_bad;
  }
  EXPECT_EQ(n_bad, 0u) << what << ": worst scaled error " << worst;
  EXPECT_LT(worst, 1e-5) << what;  // the actual margin: float32 vs float64 is ~1e-6
}

std::vector<std::vector<std::int32_t>> seqs_of(const nlohmann::json& batch) {
  return batch["seqs"].get<std::vector<std::vector<std::int32_t>>>();
}

TEST(BertModel, TokenizerReproducesGoldenIds) {
  auto loaded = BertModel::load_dir(kDir);
  const WordpieceTokenizer tok(loaded.vocab);
  const auto g = goldens();  // range-for over a temporary's member would dangle
  for (const auto& s : g["sentences"]) {
    EXPECT_EQ(tok.wrap(tok.encode(s["text"].get<std::string>()), 512),
              s["ids"].get<std::vector<std::int32_t>>());
  }
}

TEST(BertModel, MatchesTorchGoldens) {
  auto loaded = BertModel::load_dir(kDir);
  const BertModel& m = *loaded.model;
  EXPECT_EQ(m.weights().prefix, "bert.");
  EXPECT_TRUE(m.weights().has_mlm_head());
  EXPECT_TRUE(m.weights().mlm_decoder_w.empty());  // tied to the word embeddings
  const auto g = goldens();
  ASSERT_EQ(g["batches"].size(), 2u);
  for (const auto& batch : g["batches"]) {
    const EncoderOutput out = m.encode(seqs_of(batch));
    EXPECT_EQ(out.seq_len, batch["seq_len"].get<std::size_t>());
    expect_close(out.states, batch["hidden"], "hidden states");
    expect_close(m.pool(out), batch["pooled"], "pooled output");
    std::vector<std::pair<std::size_t, std::size_t>> pos;
    for (const auto& p : batch["mlm_positions"])
      pos.emplace_back(p[0].get<std::size_t>(), p[1].get<std::size_t>());
    expect_close(m.mlm_logits(out, pos), batch["mlm_logits"], "MLM logits");
  }
}

TEST(BertModel, PaddingDoesNotChangeASequence) {
  auto loaded = BertModel::load_dir(kDir);
  const auto g = goldens();
  const auto seqs = seqs_of(g["batches"][1]);
  const EncoderOutput batch = loaded.model->encode(seqs);
  for (std::size_t s = 0; s < seqs.size(); ++s) {
    const EncoderOutput alone = loaded.model->encode({seqs[s]});
    for (std::size_t t = 0; t < seqs[s].size(); ++t) {
      for (std::size_t i = 0; i < alone.hidden; ++i) {
        EXPECT_NEAR(batch.row(s, t)[i], alone.row(0, t)[i], 1e-5);
      }
    }
  }
}

TEST(BertModel, SimcseNamingWithF16Weights) {
  auto loaded = BertModel::load_dir(kDir + "/simcse");
  const BertModel& m = *loaded.model;
  EXPECT_EQ(m.weights().prefix, "");
  EXPECT_FALSE(m.weights().has_mlm_head());
  const auto g = goldens();
  for (const auto& batch : g["batches"]) {
    const EncoderOutput out = m.encode(seqs_of(batch));
    expect_close(out.states, batch["simcse_f16_hidden"], "F16 hidden states");
    expect_close(m.pool(out), batch["simcse_f16_pooled"], "F16 pooled output");
  }
  const EncoderOutput out = m.encode({{7, 8}});
  EXPECT_THROW(m.mlm_logits(out, {{0, 0}}), core::UsageError);
}

TEST(BertModel, RejectsBadInputIds) {
  auto loaded = BertModel::load_dir(kDir);
  const auto v = static_cast<std::int32_t>(loaded.vocab.size());
  EXPECT_THROW(loaded.model->encode({{7, v}}), core::UsageError);
  EXPECT_THROW(loaded.model->encode({{}}), core::UsageError);
  EXPECT_THROW(loaded.model->encode({std::vector<std::int32_t>(65, 7)}), core::UsageError);
}

// ---- bad model directories: one test per failure, each checking the message.

struct ModelCopy {
  assay::testing::TempDir dir;
  ModelCopy() {
    for (const char* f : {"config.json", "vocab.txt", "model.safetensors"}) {
      fs::copy_file(kDir + "/" + f, dir.file(f));
    }
  }
  std::string path() const { return dir.path().string(); }
  // Rewrites model.safetensors with `edit` applied to the tensor map.
  template <class Edit>
  void rewrite(Edit edit) {
    std::map<std::string, testing::RawTensor> tensors;
    {
      const SafetensorsFile f(kDir + "/model.safetensors");
      for (const auto& [name, info] : f.tensors()) {
        const auto b = f.bytes(info);
        tensors[name] = {to_string(info.dtype), info.shape,
                         std::string(reinterpret_cast<const char*>(b.data()), b.size())};
      }
    }
    edit(tensors);
    dir.write("model.safetensors", testing::build_file(tensors));
  }
};

std::string load_error(const std::string& dir) {
  try {
    BertModel::load_dir(dir);
  } catch (const core::Error& e) {
    return e.what();
  }
  return "";
}

TEST(BertModelLoad, MissingTensor) {
  ModelCopy m;
  m.rewrite([](auto& t) { t.erase("bert.encoder.layer.1.output.dense.bias"); });
  const std::string msg = load_error(m.path());
  EXPECT_NE(msg.find("model.safetensors: missing tensor 'bert.encoder.layer.1.output.dense.bias'"),
            std::string::npos)
      << msg;
}

TEST(BertModelLoad, MissingLayerNormReportsBothNames) {
  ModelCopy m;
  m.rewrite([](auto& t) { t.erase("bert.embeddings.LayerNorm.gamma"); });
  const std::string msg = load_error(m.path());
  EXPECT_NE(msg.find("missing tensor 'bert.embeddings.LayerNorm.weight' (or legacy "
                     "'bert.embeddings.LayerNorm.gamma')"),
            std::string::npos)
      << msg;
}

TEST(BertModelLoad, WrongShape) {
  ModelCopy m;
  m.rewrite([](auto& t) {
    auto& x = t["bert.encoder.layer.0.attention.self.key.bias"];
    x.shape = {16};
    x.bytes.resize(64);
  });
  const std::string msg = load_error(m.path());
  EXPECT_NE(msg.find("tensor 'bert.encoder.layer.0.attention.self.key.bias' has shape [16], "
                     "expected [32] (from config.json)"),
            std::string::npos)
      << msg;
}

TEST(BertModelLoad, NotABertCheckpoint) {
  ModelCopy m;
  m.rewrite([](auto& t) { t.erase("bert.embeddings.word_embeddings.weight"); });
  EXPECT_NE(load_error(m.path()).find("no word embeddings: neither 'bert.embeddings"),
            std::string::npos);
}

TEST(BertModelLoad, RobertaNeedsTheBpeLoader) {
  const std::string msg =
      load_error(std::string(ASSAY_TEST_DATA_DIR) + "/models/roberta_classifier");
  EXPECT_NE(msg.find("byte-level BPE vocabulary"), std::string::npos) << msg;
}

TEST(BertModelLoad, IntegerWeights) {
  ModelCopy m;
  m.rewrite([](auto& t) { t["bert.pooler.dense.bias"].dtype = "I32"; });
  EXPECT_NE(load_error(m.path()).find("tensor 'bert.pooler.dense.bias' has dtype I32"),
            std::string::npos);
}

TEST(BertModelLoad, VocabConfigMismatch) {
  ModelCopy m;
  std::ofstream(m.dir.file("vocab.txt"), std::ios::app) << "extra\n";
  const std::string msg = load_error(m.path());
  EXPECT_NE(msg.find("vocab.txt: vocab.txt has"), std::string::npos) << msg;
  EXPECT_NE(msg.find("tokens but config.json says vocab_size"), std::string::npos) << msg;
}

TEST(BertModelLoad, OnlyPytorchBin) {
  ModelCopy m;
  fs::rename(m.dir.file("model.safetensors"), m.dir.file("pytorch_model.bin"));
  const std::string msg = load_error(m.path());
  EXPECT_NE(msg.find("missing model.safetensors; only pytorch_model.bin is present"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("safe_serialization=True"), std::string::npos) << msg;
}

TEST(BertModelLoad, MissingConfig) {
  ModelCopy m;
  fs::remove(m.dir.file("config.json"));
  EXPECT_NE(load_error(m.path()).find("missing config.json"), std::string::npos);
  EXPECT_NE(load_error("/nonexistent-dir").find("not a directory"), std::string::npos);
}

TEST(BertModelLoad, BadConfig) {
  ModelCopy m;
  auto edit = [&](const std::string& key, const nlohmann::json& value) {
    std::ifstream in(kDir + "/config.json");
    auto j = nlohmann::json::parse(in);
    if (value.is_null())
      j.erase(key);
    else
      j[key] = value;
    m.dir.write("config.json", j.dump());
    return load_error(m.path());
  };
  EXPECT_NE(edit("num_attention_heads", 5)
                .find("hidden_size 32 is not divisible by num_attention_heads 5"),
            std::string::npos);
  EXPECT_NE(edit("hidden_size", nullptr).find("missing 'hidden_size'"), std::string::npos);
  EXPECT_NE(edit("hidden_size", -3).find("'hidden_size' must be an integer"), std::string::npos);
  EXPECT_NE(edit("hidden_act", "relu").find("hidden_act \"relu\" is not supported"),
            std::string::npos);
  EXPECT_NE(edit("model_type", "gpt2").find("model_type 'gpt2' is not supported"),
            std::string::npos);
  m.dir.write("config.json", "{\"vocab_size\": 3,");
  // Cut short: named at the line and column where the JSON ends.
  EXPECT_NE(load_error(m.path()).find("config.json:1:"), std::string::npos) << load_error(m.path());
  EXPECT_NE(load_error(m.path()).find("not valid JSON"), std::string::npos);
}

}  // namespace
}  // namespace assay::lm

namespace assay::lm {
namespace {

// The encoder has no randomness: repeated runs give the same bytes. At this size OpenBLAS
// does not split the GEMMs, so 1 and 2 threads agree bitwise too; at BERT-base size they
// differ by up to ~4e-6 (bench/bert reports threads_bitwise_equal / threads_max_abs_diff),
// a documented deviation (docs/bert.md).
TEST(BertModel, BitwiseSameAcrossBlasThreadCounts) {
  auto loaded = BertModel::load_dir(kDir);
  const auto seqs = seqs_of(goldens()["batches"][1]);
  set_blas_threads(1);
  const EncoderOutput one = loaded.model->encode(seqs);
  const auto logits_one = loaded.model->mlm_logits(one, {{0, 1}, {2, 3}});
  set_blas_threads(2);
  const EncoderOutput two = loaded.model->encode(seqs);
  const auto logits_two = loaded.model->mlm_logits(two, {{0, 1}, {2, 3}});
  const EncoderOutput again = loaded.model->encode(seqs);
  EXPECT_EQ(std::memcmp(again.states.data(), two.states.data(), two.states.size() * sizeof(float)),
            0);
  ASSERT_EQ(one.states.size(), two.states.size());
  EXPECT_EQ(std::memcmp(one.states.data(), two.states.data(), one.states.size() * sizeof(float)),
            0);
  EXPECT_EQ(std::memcmp(logits_one.data(), logits_two.data(), logits_one.size() * sizeof(float)),
            0);
}

}  // namespace
}  // namespace assay::lm
