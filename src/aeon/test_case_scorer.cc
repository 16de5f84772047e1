#include "aeon/test_case_scorer.h"

#include <cmath>
#include <cstdio>
#include <ostream>

#include "aeon/ngram_syneval.h"
#include "aeon/sentence_splitter.h"
#include "aeon/vector_semeval.h"
#include "aeon/wordnet_relations.h"
#include "core/csv_reader.h"
#include "core/error.h"
#include "core/thread_pool.h"
#include "lm/sphinx_model.h"
#include "lm/sphinx_trie.h"
#include "vectors/vector_reader.h"

namespace assay::aeon {

TestCaseScorer::TestCaseScorer(const TestCaseScorerOptions& o) {
  if (o.model_dir.empty() && o.embedding_dir.empty()) {
    if (o.ngram == nullptr) {
      if (o.ngram_normaliser != NgramNormaliser::kEnumerate)
        ngram_ = lm::SphinxTrie::load(o.ngram_model);
      else
        ngram_ = lm::SphinxModel::load(o.ngram_model);
    }
    ngram_syneval_ = std::make_unique<NgramSynEval>(o.ngram ? *o.ngram : *ngram_, o.syneval.phi,
                                                    o.ngram_normaliser);
    if (!o.vectors.empty()) {
      vectors_ = std::make_unique<vectors::EmbeddingMatrix>(
          vectors::read_vectors(o.vectors, vectors::parse_vector_format(o.vectors_format)));
    }
    wordnet_ = std::make_unique<WordNetRelations>(o.wordnet_dir);
    VectorSemEvalOptions vo;
    vo.lambda1 = o.semeval.lambda1;
    vo.lambda2 = o.semeval.lambda2;
    vo.patch_radius = o.semeval.patch_radius;
    vector_semeval_ = std::make_unique<VectorSemEval>(vectors_.get(), *wordnet_, vo);
    semeval_backend_ = vector_semeval_->backend();
    syneval_backend_ = kNgramSynEvalBackend;
    return;
  }
  if (!o.model_dir.empty()) mlm_ = lm::BertModel::load_dir(o.model_dir);
  if (!o.embedding_dir.empty()) embedder_ = lm::BertModel::load_dir(o.embedding_dir);
  const auto& mlm = mlm_ ? *mlm_ : *embedder_;
  const auto& emb = embedder_ ? *embedder_ : *mlm_;
  const std::string& mlm_dir = mlm_ ? o.model_dir : o.embedding_dir;
  const std::string& emb_dir = embedder_ ? o.embedding_dir : o.model_dir;
  semeval_ = std::make_unique<SemEval>(*emb.model, emb.vocab, o.semeval);
  syneval_ = std::make_unique<SynEval>(*mlm.model, mlm.vocab, o.syneval);
  const bool pooler =
      o.semeval.pooling == EmbeddingPooling::kPooler ||
      (o.semeval.pooling == EmbeddingPooling::kAuto && emb.model->weights().has_pooler());
  semeval_backend_ = "bert:" + emb_dir + (pooler ? ":pooler" : ":cls") +
                     (o.semeval.variant == SemEvalVariant::kPaper ? ":paper" : ":reference");
  syneval_backend_ = "bert-mlm:" + mlm_dir;
}

TestCaseScorer::~TestCaseScorer() = default;

TestCaseScore TestCaseScorer::score_generated(const TestCase& c) {
  TestCaseScore s;
  const SemEvalResult sem = semeval_only(c);
  s.semeval = sem.sim;
  s.n_patches = sem.n_patches;
  s.syneval =
      ngram_syneval_ ? ngram_syneval_->score(c.generated).nat : syneval_->score(c.generated).nat;
  s.syneval_original = std::nan("");
  return s;
}

TestCaseScore TestCaseScorer::score(const TestCase& c) {
  TestCaseScore s = score_generated(c);
  s.syneval_original =
      ngram_syneval_ ? ngram_syneval_->score(c.original).nat : syneval_->score(c.original).nat;
  return s;
}

void TestCaseScorer::clear_caches() {
  if (ngram_syneval_) ngram_syneval_->clear_caches();
}

SemEvalResult TestCaseScorer::semeval_only(const TestCase& c) {
  return vector_semeval_ ? vector_semeval_->score(c.original, c.generated)
                         : semeval_->score(c.original, c.generated);
}

void TestCaseScorer::syneval_only(const TestCase& c) {
  if (ngram_syneval_) {
    ngram_syneval_->score(c.generated);
    ngram_syneval_->score(c.original);
  } else {
    syneval_->score(c.generated);
    syneval_->score(c.original);
  }
}

std::vector<TestCaseScore> TestCaseScorer::score_all(const std::vector<TestCase>& cases,
                                                     int threads) {
  std::vector<TestCaseScore> out(cases.size());
  auto one = [&](std::size_t i) {
    try {
      out[i] = score(cases[i]);
    } catch (core::Error& e) {
      e.set_location_if_missing(cases[i].where);
      throw;
    }
  };
  if (!offline() || threads <= 1 || cases.size() < 2) {
    for (std::size_t i = 0; i < cases.size(); ++i) one(i);
    return out;
  }
  core::parallel_for(static_cast<std::size_t>(threads), 0, cases.size(), 1, one);
  return out;
}

std::size_t score_annotation_csv(const std::string& in_path, std::ostream& out,
                                 TestCaseScorer& scorer, SynEvalColumn syneval_column,
                                 int threads) {
  core::CsvReader csv(in_path);
  const std::size_t ori = csv.column("ori_text"), adv = csv.column("adv_text");
  std::vector<std::string> header = csv.header();
  auto column_or_append = [&](const char* name) {
    if (const auto i = csv.find_column(name)) return *i;
    header.emplace_back(name);
    return header.size() - 1;
  };
  const std::size_t sem_col = column_or_append("SemEval"), syn_col = column_or_append("SynEval");
  auto write_row = [&](const std::vector<std::string>& fields) {
    for (std::size_t i = 0; i < fields.size(); ++i) out << (i ? "," : "") << csv_field(fields[i]);
    out << '\n';
  };
  write_row(header);
  std::vector<std::vector<std::string>> rows;
  std::vector<TestCase> cases;
  while (csv.next()) {
    rows.push_back(csv.fields());
    cases.push_back(TestCase{strip_mutation_markers(csv.field(ori)),
                             strip_mutation_markers(csv.field(adv)), csv.record_location()});
  }
  const std::vector<TestCaseScore> scores = scorer.score_all(cases, threads);
  std::size_t n = 0;
  char buf[32];
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::vector<std::string>& fields = rows[r];
    fields.resize(header.size());
    const TestCaseScore& s = scores[r];
    std::snprintf(buf, sizeof buf, "%.9g", s.semeval);
    fields[sem_col] = buf;
    std::snprintf(buf, sizeof buf, "%.9g",
                  syneval_column == SynEvalColumn::kRelative ? s.syneval_relative() : s.syneval);
    fields[syn_col] = buf;
    write_row(fields);
    ++n;
  }
  return n;
}

}  // namespace assay::aeon
