#include "lm/sphinx_trie.h"

#include <sphinxbase/err.h>
#include <sphinxbase/logmath.h>
#include <sphinxbase/ngram_model.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>

#include "core/check.h"
#include "core/error.h"
#include "lm/sphinx_model.h"

namespace assay::lm {
namespace {

constexpr char kTrieHeader[] = "Trie Language Model";
constexpr int kQuantBits = 16;  // sphinxbase's prob_bits and bo_bits
constexpr std::size_t kBins = std::size_t{1} << kQuantBits;
constexpr int kMaxOrder = 6;  // NGRAM_MAX_ORDER in sphinxbase

std::uint8_t required_bits(std::uint32_t max_value) {
  std::uint8_t r = 0;
  while (max_value) {
    ++r;
    max_value >>= 1;
  }
  return r;
}

// sphinxbase's base_size: one extra entry for the end pointer, rounded up to bytes, plus 8
// bytes of slack for its 64-bit reads.
std::uint64_t layer_bytes(std::uint64_t entries, std::uint32_t total_bits) {
  return ((1 + entries) * total_bits + 7) / 8 + 8;
}

class Reader {
 public:
  Reader(const std::vector<unsigned char>& data, const std::string& path) : d_(data), path_(path) {}
  const unsigned char* take(std::uint64_t n, const char* what) {
    if (n > d_.size() - pos_) {
      throw core::ParseError(core::SourceLocation(path_, 0, 0, pos_),
                             std::string("truncated sphinxbase trie model: ") + what + " needs " +
                                 std::to_string(n) + " bytes, " + std::to_string(d_.size() - pos_) +
                                 " left");
    }
    const unsigned char* p = d_.data() + pos_;
    pos_ += n;
    return p;
  }
  template <class T>
  T get(const char* what) {
    T v;
    std::memcpy(&v, take(sizeof(T), what), sizeof(T));
    return v;
  }
  std::uint64_t pos() const { return pos_; }

 private:
  const std::vector<unsigned char>& d_;
  const std::string& path_;
  std::uint64_t pos_ = 0;
};

// Little-endian bit field of `bits` (≤ 25) at bit `offset` of `base` (sphinxbase's bitarr).
std::uint32_t read_bits(const unsigned char* base, std::uint64_t offset, std::uint8_t bits) {
  std::uint64_t v;
  std::memcpy(&v, base + (offset >> 3), sizeof v);
  return static_cast<std::uint32_t>((v >> (offset & 7)) & ((std::uint64_t{1} << bits) - 1));
}

void silence_sphinxbase() {
  static std::once_flag once;
  std::call_once(once, [] { err_set_logfp(nullptr); });
}

bool has_trie_header(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char buf[sizeof kTrieHeader - 1] = {};
  in.read(buf, sizeof buf);
  return in && std::memcmp(buf, kTrieHeader, sizeof buf) == 0;
}

std::vector<unsigned char> slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw core::IoError(core::SourceLocation{path}, "cannot open the n-gram model");
  const std::streamoff size = in.tellg();
  if (size < 0) throw core::IoError(core::SourceLocation{path}, "cannot read the n-gram model");
  std::vector<unsigned char> data(static_cast<std::size_t>(size));
  in.seekg(0);
  in.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(size));
  if (in.gcount() != static_cast<std::streamsize>(size) || in.bad())
    throw core::IoError(core::SourceLocation{path}, "cannot read the n-gram model");
  return data;
}

// Whether layer entries [begin, end) are strictly increasing by word: then sphinxbase's
// interpolation search (find_child) reaches every one of them, and none needs searching for.
bool strictly_increasing(const std::vector<SphinxTrie::Entry>& e, std::uint32_t begin,
                         std::uint32_t end) {
  for (std::uint32_t j = begin + 1; j < end; ++j) {
    if (!(e[j - 1].word < e[j].word)) return false;
  }
  return true;
}

}  // namespace

double SphinxTrie::log_base() {
  return std::log(1.0001);
}

std::unique_ptr<SphinxTrie> SphinxTrie::load(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw core::MissingResourceError(
        core::SourceLocation{path},
        std::string("n-gram language model not found; the CMU English trigram model is in the "
                    "Debian package ") +
            kCmuTrigramPackage + " (apt-get install " + kCmuTrigramPackage + ")");
  }
  std::unique_ptr<SphinxTrie> m(new SphinxTrie());
  m->name_ = "sphinx-trie:" + path;
  if (has_trie_header(path)) {
    m->read_file(path, path);
  } else {
    // Let sphinxbase build its trie from the ARPA/DMP file, then read that trie.
    silence_sphinxbase();
    logmath_t* lmath = logmath_init(1.0001, 0, 0);
    ASSAY_CHECK(lmath != nullptr);
    ngram_model_t* model = ngram_model_read(nullptr, path.c_str(), NGRAM_AUTO, lmath);
    if (!model) {
      logmath_free(lmath);
      throw core::ParseError(core::SourceLocation{path},
                             "sphinxbase cannot read this file as an n-gram language model "
                             "(expected the binary trie, DMP or ARPA format)");
    }
    std::string tmp = (std::filesystem::temp_directory_path() / "assay-trie-XXXXXX").string();
    const int fd = mkstemp(tmp.data());
    if (fd < 0) {
      ngram_model_free(model);
      logmath_free(lmath);
      throw core::IoError(core::SourceLocation{tmp}, "cannot create a temporary file");
    }
    close(fd);
    const int rc = ngram_model_write(model, tmp.c_str(), NGRAM_BIN);
    ngram_model_free(model);
    logmath_free(lmath);
    try {
      if (rc != 0)
        throw core::IoError(core::SourceLocation{tmp}, "sphinxbase cannot write its trie");
      m->read_file(tmp, path);
    } catch (...) {
      std::filesystem::remove(tmp, ec);
      throw;
    }
    std::filesystem::remove(tmp, ec);
  }
  return m;
}

SphinxTrie::~SphinxTrie() = default;

void SphinxTrie::read_file(const std::string& file, const std::string& shown) {
  const std::vector<unsigned char> data = slurp(file);
  Reader r(data, shown);
  if (std::memcmp(r.take(sizeof kTrieHeader - 1, "header"), kTrieHeader, sizeof kTrieHeader - 1) !=
      0) {
    throw core::ParseError(core::SourceLocation{shown}, "not a sphinxbase trie model");
  }
  order_ = r.get<std::uint8_t>("order");
  if (order_ < 1 || order_ > kMaxOrder) {
    throw core::ParseError(
        core::SourceLocation{shown},
        "n-gram order " + std::to_string(order_) + " out of range 1.." + std::to_string(kMaxOrder));
  }
  std::vector<std::uint32_t> counts(static_cast<std::size_t>(order_));
  for (auto& c : counts) c = r.get<std::uint32_t>("n-gram counts");
  if (counts[0] == 0 || counts[0] >= (1u << 25)) {
    throw core::ParseError(core::SourceLocation{shown}, "unigram count out of range");
  }
  n_words_ = static_cast<WordId>(counts[0]);
  // Quantiser tables: per middle layer a prob and a backoff table, then the longest's probs.
  std::vector<std::vector<float>> prob_tables, bo_tables;
  if (order_ > 1) {
    r.get<std::int32_t>("quantiser header");
    for (int i = 0; i < order_ - 2; ++i) {
      for (auto* tables : {&prob_tables, &bo_tables}) {
        std::vector<float> t(kBins);
        std::memcpy(t.data(), r.take(kBins * sizeof(float), "quantiser table"),
                    kBins * sizeof(float));
        tables->push_back(std::move(t));
      }
    }
    std::vector<float> t(kBins);
    std::memcpy(t.data(), r.take(kBins * sizeof(float), "quantiser table"), kBins * sizeof(float));
    prob_tables.push_back(std::move(t));
  }
  // Unigrams.
  const std::size_t nu = counts[0] + std::size_t{1};
  const unsigned char* up = r.take(nu * 12, "unigrams");
  uni_prob_.resize(nu);
  uni_bo_.resize(nu);
  uni_next_.resize(nu);
  for (std::size_t i = 0; i < nu; ++i) {
    std::memcpy(&uni_prob_[i], up + 12 * i, 4);
    std::memcpy(&uni_bo_[i], up + 12 * i + 4, 4);
    std::memcpy(&uni_next_[i], up + 12 * i + 8, 4);
  }
  uni_prob_.pop_back();
  uni_bo_.pop_back();
  // Layers.
  const std::uint8_t word_bits = required_bits(counts[0]);
  layers_.resize(static_cast<std::size_t>(order_ - 1));
  for (int li = 0; li + 1 < order_; ++li) {
    const bool longest = li == order_ - 2;
    const std::uint32_t n = counts[static_cast<std::size_t>(li) + 1];
    const std::uint8_t next_bits =
        longest ? 0 : required_bits(counts[static_cast<std::size_t>(li) + 2]);
    const std::uint32_t quant_bits = longest ? kQuantBits : 2 * kQuantBits;
    const std::uint32_t total = word_bits + quant_bits + next_bits;
    const unsigned char* base = r.take(layer_bytes(n, total), "n-gram layer");
    Layer& layer = layers_[static_cast<std::size_t>(li)];
    layer.entries.resize(n);
    const std::vector<float>& probs = prob_tables[static_cast<std::size_t>(li)];
    for (std::uint32_t j = 0; j < n; ++j) {
      const std::uint64_t off = std::uint64_t{j} * total;
      Entry& e = layer.entries[j];
      e.word = static_cast<WordId>(read_bits(base, off, word_bits));
      if (e.word >= n_words_)
        throw core::ParseError(core::SourceLocation{shown}, "word id out of range in the trie");
      if (longest) {
        e.prob = probs[read_bits(base, off + word_bits, kQuantBits)];
        e.backoff = 0;
      } else {
        e.backoff =
            bo_tables[static_cast<std::size_t>(li)][read_bits(base, off + word_bits, kQuantBits)];
        e.prob = probs[read_bits(base, off + word_bits + kQuantBits, kQuantBits)];
      }
    }
    if (!longest) {
      layer.next.resize(std::size_t{n} + 1);
      for (std::uint32_t j = 0; j <= n; ++j) {
        layer.next[j] =
            read_bits(base, std::uint64_t{j} * total + word_bits + quant_bits, next_bits);
      }
    }
  }
  // Pointers must be monotone and in range over the reachable entries (sphinxbase's counts may
  // exceed the entries it inserted; the surplus is unreachable and left zero).
  if (order_ > 1) {
    auto check = [&](const std::vector<std::uint32_t>& next, std::uint32_t reachable,
                     std::uint32_t limit) {
      if (reachable >= next.size())
        throw core::ParseError(core::SourceLocation{shown}, "corrupt pointer in the trie");
      for (std::uint32_t j = 0; j <= reachable; ++j) {
        if (next[j] > limit || (j > 0 && next[j] < next[j - 1])) {
          throw core::ParseError(core::SourceLocation{shown}, "corrupt pointer in the trie");
        }
      }
      return next[reachable];
    };
    std::uint32_t reachable = check(uni_next_, counts[0], counts[1]);
    for (int li = 0; li + 2 < order_; ++li) {
      reachable = check(layers_[static_cast<std::size_t>(li)].next, reachable,
                        counts[static_cast<std::size_t>(li) + 2]);
    }
  }
  // Words: total byte count, then NUL-terminated strings.
  const auto k = r.get<std::int32_t>("word string size");
  if (k < 0) throw core::ParseError(core::SourceLocation{shown}, "negative word string size");
  const char* s =
      reinterpret_cast<const char*>(r.take(static_cast<std::uint64_t>(k), "word strings"));
  words_.reserve(counts[0]);
  for (std::int32_t i = 0; i < k && words_.size() < counts[0];) {
    const void* nul = std::memchr(s + i, '\0', static_cast<std::size_t>(k - i));
    if (!nul) break;
    const auto len = static_cast<std::int32_t>(static_cast<const char*>(nul) - (s + i));
    words_.emplace_back(s + i, static_cast<std::size_t>(len));
    i += len + 1;
  }
  if (words_.size() != counts[0]) {
    throw core::ParseError(core::SourceLocation{shown},
                           "the trie has " + std::to_string(counts[0]) + " unigrams but " +
                               std::to_string(words_.size()) + " word strings");
  }
  ids_.reserve(words_.size());
  for (std::size_t i = 0; i < words_.size(); ++i) ids_.emplace(words_[i], static_cast<WordId>(i));
  begin_ = find("<s>");
  end_ = find("</s>");
  unknown_ = find("<UNK>");
  if (begin_ == kNoWord || end_ == kNoWord) {
    throw core::ParseError(core::SourceLocation{shown},
                           "the model lacks the sentence markers <s> and </s>");
  }
}

void SphinxTrie::build_indexes() const {
  if (order_ < 2) return;
  const auto V = static_cast<std::size_t>(n_words_);
  const Layer& bi = layers_[0];
  // Bigrams (v, ·) by v: the trie stores them under their last word.
  // Only the n-grams sphinxbase's look-up reaches (see find_child) enter the indexes.
  core::HugeArray<std::uint8_t> bi_found(uni_next_[V]);
  before_offsets_ = core::HugeArray<std::uint32_t>(V + 1);
  for (std::size_t w = 0; w < V; ++w) {
    const bool sorted = strictly_increasing(bi.entries, uni_next_[w], uni_next_[w + 1]);
    for (std::uint32_t j = uni_next_[w]; j < uni_next_[w + 1]; ++j) {
      bi_found[j] = sorted || find_child(0, uni_next_[w], uni_next_[w + 1], bi.entries[j].word) ==
                                  static_cast<std::int64_t>(j);
      before_offsets_[w + 1] += bi_found[j];
    }
  }
  for (std::size_t v = 0; v < V; ++v) before_offsets_[v + 1] += before_offsets_[v];
  before_ = core::HugeArray<Entry>(before_offsets_[V]);
  for (std::uint32_t j = 0, n = 0; j < uni_next_[V]; ++j) {
    if (bi_found[j]) before_[n++] = bi.entries[j];
  }
  after_offsets_ = core::HugeArray<std::uint32_t>(V + 1);
  for (std::uint32_t j = 0; j < uni_next_[V]; ++j) {
    if (bi_found[j]) ++after_offsets_[static_cast<std::size_t>(bi.entries[j].word) + 1];
  }
  for (std::size_t v = 0; v < V; ++v) after_offsets_[v + 1] += after_offsets_[v];
  after_ = core::HugeArray<Entry>(after_offsets_[V]);
  core::HugeArray<std::uint32_t> after_entry(after_offsets_[V]);  // the bigram entry of after_[p]
  {
    std::vector<std::uint32_t> fill(after_offsets_.begin(), after_offsets_.end() - 1);
    for (std::size_t w = 0; w < V; ++w) {
      for (std::uint32_t j = uni_next_[w]; j < uni_next_[w + 1]; ++j) {
        if (!bi_found[j]) continue;
        const Entry& e = bi.entries[j];
        const std::uint32_t p = fill[static_cast<std::size_t>(e.word)]++;
        after_[p] = Entry{static_cast<WordId>(w), e.prob, e.backoff};
        after_entry[p] = j;
      }
    }
  }
  if (order_ != 3) return;
  const Layer& tri = layers_[1];
  // Trigram (a, b, c) is stored along c → b → a.
  const std::uint32_t n_all = bi.next[uni_next_[V]];
  core::HugeArray<std::uint8_t> tri_found(n_all);
  tri_bc_offsets_ = core::HugeArray<std::uint32_t>(std::size_t{uni_next_[V]} + 1);
  tri_ab_offsets_ = core::HugeArray<std::uint32_t>(V + 1);
  for (std::uint32_t j = 0; j < uni_next_[V]; ++j) {
    if (!bi_found[j]) continue;
    const bool sorted = strictly_increasing(tri.entries, bi.next[j], bi.next[j + 1]);
    for (std::uint32_t k = bi.next[j]; k < bi.next[j + 1]; ++k) {
      tri_found[k] = sorted || find_child(1, bi.next[j], bi.next[j + 1], tri.entries[k].word) ==
                                   static_cast<std::int64_t>(k);
      tri_bc_offsets_[j + 1] += tri_found[k];
      if (tri_found[k]) ++tri_ab_offsets_[static_cast<std::size_t>(tri.entries[k].word) + 1];
    }
  }
  for (std::uint32_t j = 0; j < uni_next_[V]; ++j) tri_bc_offsets_[j + 1] += tri_bc_offsets_[j];
  tri_bc_ = core::HugeArray<Entry>(tri_bc_offsets_[uni_next_[V]]);
  for (std::uint32_t k = 0, n = 0; k < n_all; ++k) {
    if (tri_found[k]) tri_bc_[n++] = tri.entries[k];
  }
  const std::uint32_t n_tri = static_cast<std::uint32_t>(tri_bc_.size());
  for (std::size_t a = 0; a < V; ++a) tri_ab_offsets_[a + 1] += tri_ab_offsets_[a];
  tri_ac_offsets_ = core::HugeArray<std::uint32_t>(V + 1);
  std::copy(tri_ab_offsets_.begin(), tri_ab_offsets_.end(), tri_ac_offsets_.begin());
  // Each (key, entry) is written straight into its place in the two arrays of its index.
  tri_ab_keys_ = core::HugeArray<std::uint32_t>(n_tri);
  tri_ab_ = core::HugeArray<Entry>(n_tri);
  tri_ac_keys_ = core::HugeArray<std::uint32_t>(n_tri);
  tri_ac_ = core::HugeArray<Entry>(n_tri);
  {
    // `ac` in (c, b) order within each a: c outer, b in the trie's order under c.
    std::vector<std::uint32_t> fill(tri_ac_offsets_.begin(), tri_ac_offsets_.end() - 1);
    for (std::size_t c = 0; c < V; ++c) {
      for (std::uint32_t j = uni_next_[c]; j < uni_next_[c + 1]; ++j) {
        if (!bi_found[j]) continue;
        const WordId b = bi.entries[j].word;
        for (std::uint32_t k = bi.next[j]; k < bi.next[j + 1]; ++k) {
          if (!tri_found[k]) continue;
          const Entry& t = tri.entries[k];
          const std::uint32_t p = fill[static_cast<std::size_t>(t.word)]++;
          tri_ac_keys_[p] = static_cast<std::uint32_t>(c);
          tri_ac_[p] = Entry{b, t.prob, 0};
        }
      }
    }
  }
  {
    // `ab` in (b, c) order within each a: b outer, then the bigrams (b, c) by c (after_'s order).
    std::vector<std::uint32_t> fill(tri_ab_offsets_.begin(), tri_ab_offsets_.end() - 1);
    for (std::size_t b = 0; b < V; ++b) {
      for (std::uint32_t p = after_offsets_[b]; p < after_offsets_[b + 1]; ++p) {
        const std::uint32_t j = after_entry[p];
        const WordId c = after_[p].word;
        for (std::uint32_t k = bi.next[j]; k < bi.next[j + 1]; ++k) {
          if (!tri_found[k]) continue;
          const Entry& t = tri.entries[k];
          const std::uint32_t q = fill[static_cast<std::size_t>(t.word)]++;
          tri_ab_keys_[q] = static_cast<std::uint32_t>(b);
          tri_ab_[q] = Entry{c, t.prob, 0};
        }
      }
    }
  }
}

std::string_view SphinxTrie::word(WordId id) const {
  ASSAY_CHECK(id >= 0 && id < n_words_);
  return words_[static_cast<std::size_t>(id)];
}

WordId SphinxTrie::find(std::string_view w) const {
  const auto it = ids_.find(w);
  return it == ids_.end() ? kNoWord : it->second;
}

// sphinxbase's uniform_find (an interpolation search in 32-bit arithmetic) reproduced step for
// step: the trie's sibling lists are not all sorted (sphinxbase inserts placeholder entries),
// so a binary search would find n-grams that sphinxbase's look-up never reaches.
std::int64_t SphinxTrie::find_child(int layer, std::uint32_t begin, std::uint32_t end,
                                    WordId w) const {
  const std::vector<Entry>& e = layers_[static_cast<std::size_t>(layer)].entries;
  const auto key = static_cast<std::uint32_t>(w);
  std::uint32_t before_it = begin - 1, before_v = 0, after_it = end,
                after_v = static_cast<std::uint32_t>(n_words_);
  if (key > after_v) return -1;
  while (after_it - before_it > 1) {
    const std::uint32_t off = key - before_v, range = after_v - before_v,
                        width = after_it - before_it - 1;
    const std::uint32_t pivot =
        before_it + (1 + static_cast<std::uint32_t>((off * width) / (range + 1)));
    const auto mid = static_cast<std::uint32_t>(e[pivot].word);
    if (mid < key) {
      before_it = pivot;
      before_v = mid;
    } else if (mid > key) {
      after_it = pivot;
      after_v = mid;
    } else {
      return pivot;
    }
  }
  return -1;
}

float SphinxTrie::trie_score(WordId w, const WordId* hist, int n) const {
  const auto wi = static_cast<std::size_t>(w);
  float prob = uni_prob_[wi];
  if (n == 0) return prob;
  std::uint32_t begin = uni_next_[wi], end = uni_next_[wi + 1];
  if (n < order_ - 1) {
    // lm_trie_nobo_score: the longest available n-gram, then the back-off weights of the
    // history not used by it.
    int n_used = 1;
    bool independent = begin == end;
    for (int k = 0; k < n && !independent; ++k) {
      const std::int64_t idx = find_child(k, begin, end, hist[k]);
      if (idx < 0) break;
      const Layer& layer = layers_[static_cast<std::size_t>(k)];
      prob = layer.entries[static_cast<std::size_t>(idx)].prob;
      n_used = k + 2;
      begin = layer.next[static_cast<std::size_t>(idx)];
      end = layer.next[static_cast<std::size_t>(idx) + 1];
      independent = begin == end;
    }
    if (n < n_used) return prob;
    // get_available_backoff(start = n_used).
    float backoff = 0.0f;
    const auto h0 = static_cast<std::size_t>(hist[0]);
    std::uint32_t nb = uni_next_[h0], ne = uni_next_[h0 + 1];
    int start = n_used;
    if (start <= 1) {
      backoff += uni_bo_[h0];
      start = 2;
    }
    for (int i = start - 1, layer_i = start - 2; i < n; ++i, ++layer_i) {
      const std::int64_t idx = find_child(layer_i, nb, ne, hist[i]);
      if (idx < 0) break;
      const Layer& layer = layers_[static_cast<std::size_t>(layer_i)];
      backoff += layer.entries[static_cast<std::size_t>(idx)].backoff;
      nb = layer.next[static_cast<std::size_t>(idx)];
      ne = layer.next[static_cast<std::size_t>(idx) + 1];
    }
    return prob + backoff;
  }
  // Full history: update_backoff, then lm_trie_hist_score.
  float bc[kMaxOrder] = {};
  {
    const auto h0 = static_cast<std::size_t>(hist[0]);
    bc[0] = uni_bo_[h0];
    std::uint32_t nb = uni_next_[h0], ne = uni_next_[h0 + 1];
    for (int i = 1; i < n; ++i) {
      const std::int64_t idx = find_child(i - 1, nb, ne, hist[i]);
      if (idx < 0) break;
      const Layer& layer = layers_[static_cast<std::size_t>(i) - 1];
      bc[i] = layer.entries[static_cast<std::size_t>(idx)].backoff;
      nb = layer.next[static_cast<std::size_t>(idx)];
      ne = layer.next[static_cast<std::size_t>(idx) + 1];
    }
  }
  for (int i = 0; i < n - 1; ++i) {
    const std::int64_t idx = find_child(i, begin, end, hist[i]);
    if (idx < 0) {
      for (int j = i; j < n; ++j) prob += bc[j];
      return prob;
    }
    const Layer& layer = layers_[static_cast<std::size_t>(i)];
    prob = layer.entries[static_cast<std::size_t>(idx)].prob;
    begin = layer.next[static_cast<std::size_t>(idx)];
    end = layer.next[static_cast<std::size_t>(idx) + 1];
  }
  const std::int64_t idx = find_child(n - 1, begin, end, hist[n - 1]);
  if (idx < 0) return prob + bc[n - 1];
  return layers_[static_cast<std::size_t>(n) - 1].entries[static_cast<std::size_t>(idx)].prob;
}

int SphinxTrie::raw_score(WordId w, std::span<const WordId> context) const {
  ASSAY_CHECK(w >= 0 && w < n_words_);
  WordId hist[kMaxOrder];
  const std::size_t max_history = static_cast<std::size_t>(order_ - 1);
  int n = 0;
  for (std::size_t i = context.size(); i > 0 && static_cast<std::size_t>(n) < max_history; --i) {
    if (context[i - 1] == kNoWord) break;
    ASSAY_CHECK(context[i - 1] >= 0 && context[i - 1] < n_words_);
    hist[n++] = context[i - 1];
  }
  return static_cast<int>(trie_score(w, hist, n));
}

double SphinxTrie::log_prob(WordId w, std::span<const WordId> context) const {
  return static_cast<double>(raw_score(w, context)) * log_base();
}

std::span<const SphinxTrie::Entry> SphinxTrie::bigrams_after(WordId v) const {
  ASSAY_CHECK(order_ >= 2 && v >= 0 && v < n_words_);
  ensure_indexes();
  const auto i = static_cast<std::size_t>(v);
  return {after_.data() + after_offsets_[i], after_offsets_[i + 1] - after_offsets_[i]};
}

std::span<const SphinxTrie::Entry> SphinxTrie::bigrams_before(WordId x) const {
  ASSAY_CHECK(order_ >= 2 && x >= 0 && x < n_words_);
  ensure_indexes();
  const auto i = static_cast<std::size_t>(x);
  return {before_.data() + before_offsets_[i], before_offsets_[i + 1] - before_offsets_[i]};
}

const SphinxTrie::Entry* SphinxTrie::bigram(WordId a, WordId b) const {
  ASSAY_CHECK(order_ >= 2 && a >= 0 && a < n_words_ && b >= 0 && b < n_words_);
  const auto bi = static_cast<std::size_t>(b);
  const std::int64_t idx = find_child(0, uni_next_[bi], uni_next_[bi + 1], a);
  return idx < 0 ? nullptr : &layers_[0].entries[static_cast<std::size_t>(idx)];
}

namespace {
std::span<const SphinxTrie::Entry> keyed_range(const core::HugeArray<std::uint32_t>& offsets,
                                               const core::HugeArray<std::uint32_t>& keys,
                                               const core::HugeArray<SphinxTrie::Entry>& entries,
                                               WordId a, WordId key) {
  const auto i = static_cast<std::size_t>(a);
  const auto first = keys.begin() + offsets[i], last = keys.begin() + offsets[i + 1];
  const auto [lo, hi] = std::equal_range(first, last, static_cast<std::uint32_t>(key));
  return {entries.data() + (lo - keys.begin()), static_cast<std::size_t>(hi - lo)};
}
}  // namespace

std::span<const SphinxTrie::Entry> SphinxTrie::trigrams_after(WordId a, WordId b) const {
  ASSAY_CHECK(order_ == 3 && a >= 0 && a < n_words_ && b >= 0 && b < n_words_);
  ensure_indexes();
  return keyed_range(tri_ab_offsets_, tri_ab_keys_, tri_ab_, a, b);
}

std::span<const SphinxTrie::Entry> SphinxTrie::trigrams_around(WordId a, WordId c) const {
  ASSAY_CHECK(order_ == 3 && a >= 0 && a < n_words_ && c >= 0 && c < n_words_);
  ensure_indexes();
  return keyed_range(tri_ac_offsets_, tri_ac_keys_, tri_ac_, a, c);
}

std::span<const SphinxTrie::Entry> SphinxTrie::trigrams_before(WordId b, WordId c) const {
  ASSAY_CHECK(order_ == 3 && b >= 0 && b < n_words_ && c >= 0 && c < n_words_);
  ensure_indexes();
  const auto ci = static_cast<std::size_t>(c);
  const std::int64_t j = find_child(0, uni_next_[ci], uni_next_[ci + 1], b);
  if (j < 0) return {};
  const auto ju = static_cast<std::size_t>(j);
  return {tri_bc_.data() + tri_bc_offsets_[ju], tri_bc_offsets_[ju + 1] - tri_bc_offsets_[ju]};
}

}  // namespace assay::lm
