#include "stability/heuristic.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <memory>
#include <numeric>
#include <optional>
#include <unordered_set>

#include "core/check.h"
#include "core/error.h"
#include "core/rng.h"

namespace assay::stability {
namespace {

using recsys::ItemId;
using recsys::Modification;
using recsys::Ratings;
using recsys::UserId;
using Kind = Modification::Kind;

// The (u, i) pairs already in the set, shared by the generators of a portfolio. It counts the
// pairs taken from rated and unrated cells separately so the random baselines know when the
// data is exhausted.
class UsedPairs {
 public:
  explicit UsedPairs(const Ratings& data) : data_(data) {}
  bool contains(UserId u, ItemId i) const { return pairs_.count(key(u, i)) != 0; }
  // False when already taken.
  bool take(UserId u, ItemId i) {
    if (!pairs_.insert(key(u, i)).second) return false;
    if (data_.rating(u, i)) {
      ++n_rated_;
    } else {
      ++n_unrated_;
    }
    return true;
  }
  std::size_t n_rated() const { return n_rated_; }
  std::size_t n_unrated() const { return n_unrated_; }

 private:
  static std::uint64_t key(UserId u, ItemId i) { return (std::uint64_t{u} << 32) | i; }
  const Ratings& data_;
  std::unordered_set<std::uint64_t> pairs_;
  std::size_t n_rated_ = 0, n_unrated_ = 0;
};

struct Context {
  const Ratings& data;
  const Influence& influence;
  core::Rng& rng;
  UsedPairs& used;
  float random_value() {
    const auto& values = data.scale().values;
    return static_cast<float>(values[rng.below(values.size())]);
  }
  float low() const { return static_cast<float>(data.scale().low); }
};

// Ids 0..scores.size()-1 ordered by score (descending when `most`), ties in uniformly random
// order: shuffle, then stable sort.
template <class T>
std::vector<std::uint32_t> ranked(const std::vector<T>& scores, bool most, core::Rng& rng) {
  std::vector<std::uint32_t> order(scores.size());
  std::iota(order.begin(), order.end(), 0u);
  rng.shuffle(order.begin(), order.end());
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return most ? scores[a] > scores[b] : scores[a] < scores[b];
  });
  return order;
}

class Generator {
 public:
  virtual ~Generator() = default;
  // The next modification, or nullopt when this heuristic has nothing left to offer.
  virtual std::optional<Modification> next(Context& ctx) = 0;
};

// Walks targets (users or items) in influence order; for the current target draws candidates
// from a lazily built, shuffled list and moves to the next target when it is exhausted.
class TargetWalk : public Generator {
 public:
  std::optional<Modification> next(Context& ctx) override {
    if (!ranked_) {
      order_ = rank(ctx);
      ranked_ = true;
    }
    while (pos_ < order_.size()) {
      const std::uint32_t target = order_[pos_];
      if (!built_) {
        candidates_ = build_candidates(ctx, target);
        ctx.rng.shuffle(candidates_.begin(), candidates_.end());
        next_candidate_ = 0;
        built_ = true;
      }
      while (next_candidate_ < candidates_.size()) {
        const std::uint32_t other = candidates_[next_candidate_++];
        const auto m = make(ctx, target, other);
        if (ctx.used.take(m.user, m.item)) return m;
      }
      ++pos_;
      built_ = false;
    }
    return std::nullopt;
  }

 protected:
  virtual std::vector<std::uint32_t> rank(Context& ctx) = 0;
  virtual std::vector<std::uint32_t> build_candidates(Context& ctx, std::uint32_t target) = 0;
  virtual Modification make(Context& ctx, std::uint32_t target, std::uint32_t other) = 0;

  static std::vector<std::uint32_t> unrated_items(const Ratings& data, UserId u) {
    std::vector<std::uint32_t> out;
    const auto rated = data.items_of(u);
    std::size_t r = 0;
    for (ItemId i = 0; i < data.n_items(); ++i) {
      if (r < rated.size() && rated[r] == i) {
        ++r;
      } else {
        out.push_back(i);
      }
    }
    return out;
  }
  static std::vector<std::uint32_t> non_raters(const Ratings& data, ItemId i) {
    std::vector<std::uint32_t> out;
    const auto raters = data.users_of(i);
    std::size_t r = 0;
    for (UserId u = 0; u < data.n_users(); ++u) {
      if (r < raters.size() && raters[r] == u) {
        ++r;
      } else {
        out.push_back(u);
      }
    }
    return out;
  }

 private:
  bool ranked_ = false, built_ = false;
  std::vector<std::uint32_t> order_, candidates_;
  std::size_t pos_ = 0, next_candidate_ = 0;
};

// AMU / RMU / CMU: the most influential user's cells.
class MostInfluentialUser : public TargetWalk {
 public:
  explicit MostInfluentialUser(Kind kind) : kind_(kind) {}

 protected:
  std::vector<std::uint32_t> rank(Context& ctx) override {
    return ranked(ctx.influence.user, true, ctx.rng);
  }
  std::vector<std::uint32_t> build_candidates(Context& ctx, std::uint32_t u) override {
    if (kind_ == Kind::kAdd) return unrated_items(ctx.data, u);
    std::vector<std::uint32_t> out;
    const auto items = ctx.data.items_of(u);
    const auto values = ctx.data.values_of_user(u);
    for (std::size_t k = 0; k < items.size(); ++k) {
      // A change to l of a rating that already is l would change nothing.
      if (kind_ == Kind::kChange && values[k] == ctx.low()) continue;
      out.push_back(items[k]);
    }
    return out;
  }
  Modification make(Context& ctx, std::uint32_t u, std::uint32_t i) override {
    switch (kind_) {
      case Kind::kAdd:
        return {Kind::kAdd, u, i, ctx.random_value()};
      case Kind::kRemove:
        return {Kind::kRemove, u, i, 0};
      case Kind::kChange:
        break;
    }
    return {Kind::kChange, u, i, ctx.low()};
  }

 private:
  Kind kind_;
};

// ALI (least influential item, random value) and AMA (highest aggregate attribute influence,
// low value): additions by random users who have not rated the item.
class ItemAdditions : public TargetWalk {
 public:
  explicit ItemAdditions(bool attribute) : attribute_(attribute) {}

 protected:
  std::vector<std::uint32_t> rank(Context& ctx) override {
    return attribute_ ? ranked(ctx.influence.item_attribute_score, true, ctx.rng)
                      : ranked(ctx.influence.item, false, ctx.rng);
  }
  std::vector<std::uint32_t> build_candidates(Context& ctx, std::uint32_t i) override {
    return non_raters(ctx.data, i);
  }
  Modification make(Context& ctx, std::uint32_t i, std::uint32_t u) override {
    return {Kind::kAdd, u, i, attribute_ ? ctx.low() : ctx.random_value()};
  }

 private:
  bool attribute_;
};

// AMR: additions with random values to random items whose mean lies within epsilon of the most
// influential rating value, by random users who have not rated the item; the next value when
// every such item is exhausted.
class MostInfluentialRating : public Generator {
 public:
  std::optional<Modification> next(Context& ctx) override {
    if (!ranked_) {
      order_ = ranked(ctx.influence.rating, true, ctx.rng);
      ranked_ = true;
    }
    while (pos_ < order_.size()) {
      if (!built_) {
        items_.clear();
        const double r = ctx.influence.rating_values[order_[pos_]];
        for (ItemId i = 0; i < ctx.data.n_items(); ++i) {
          if (std::abs(r - ctx.influence.item_mean[i]) <= ctx.influence.rating_epsilon) {
            items_.push_back({i, {}, 0, false});
          }
        }
        built_ = true;
      }
      while (!items_.empty()) {
        const std::size_t j = ctx.rng.below(items_.size());
        auto& item = items_[j];
        if (!item.built) {
          item.users = non_raters(ctx.data, item.item);
          ctx.rng.shuffle(item.users.begin(), item.users.end());
          item.built = true;
        }
        bool found = false;
        UserId u = 0;
        while (item.next < item.users.size()) {
          u = item.users[item.next++];
          if (ctx.used.take(u, item.item)) {
            found = true;
            break;
          }
        }
        if (found) return Modification{Kind::kAdd, u, item.item, ctx.random_value()};
        items_[j] = std::move(items_.back());
        items_.pop_back();
      }
      ++pos_;
      built_ = false;
    }
    return std::nullopt;
  }

 private:
  static std::vector<std::uint32_t> non_raters(const Ratings& data, ItemId i) {
    std::vector<std::uint32_t> out;
    const auto raters = data.users_of(i);
    std::size_t r = 0;
    for (UserId u = 0; u < data.n_users(); ++u) {
      if (r < raters.size() && raters[r] == u) {
        ++r;
      } else {
        out.push_back(u);
      }
    }
    return out;
  }
  struct Candidate {
    ItemId item;
    std::vector<std::uint32_t> users;
    std::size_t next;
    bool built;
  };
  bool ranked_ = false, built_ = false;
  std::vector<std::uint32_t> order_;
  std::vector<Candidate> items_;
  std::size_t pos_ = 0;
};

// ARAND: uniform over unrated (user, item) cells by rejection (MovieLens is ~6% dense).
class RandomAdd : public Generator {
 public:
  std::optional<Modification> next(Context& ctx) override {
    const std::size_t n_cells = ctx.data.n_users() * ctx.data.n_items();
    if (n_cells - ctx.data.n_ratings() <= ctx.used.n_unrated()) return std::nullopt;
    for (;;) {
      const auto u = static_cast<UserId>(ctx.rng.below(ctx.data.n_users()));
      const auto i = static_cast<ItemId>(ctx.rng.below(ctx.data.n_items()));
      if (ctx.data.rating(u, i)) continue;
      if (ctx.used.take(u, i)) return Modification{Kind::kAdd, u, i, ctx.random_value()};
    }
  }
};

// RRAND / CRAND: uniform over the existing ratings (CRAND: those not already l), sampled
// without replacement by a lazy Fisher-Yates over the rating indices.
class RandomRated : public Generator {
 public:
  explicit RandomRated(Kind kind) : kind_(kind) {}
  std::optional<Modification> next(Context& ctx) override {
    if (!built_) {
      for (const auto& r : ctx.data.triplets()) {
        if (kind_ == Kind::kChange && r.value == ctx.low()) continue;
        cells_.push_back({r.user, r.item});
      }
      built_ = true;
    }
    while (taken_ < cells_.size()) {
      const std::size_t j = taken_ + ctx.rng.below(cells_.size() - taken_);
      std::swap(cells_[taken_], cells_[j]);
      const auto [u, i] = cells_[taken_++];
      if (ctx.used.take(u, i)) {
        return kind_ == Kind::kRemove ? Modification{Kind::kRemove, u, i, 0}
                                      : Modification{Kind::kChange, u, i, ctx.low()};
      }
    }
    return std::nullopt;
  }

 private:
  Kind kind_;
  bool built_ = false;
  std::vector<std::pair<UserId, ItemId>> cells_;
  std::size_t taken_ = 0;
};

std::unique_ptr<Generator> make_generator(Heuristic h) {
  switch (h) {
    case Heuristic::kAmu:
      return std::make_unique<MostInfluentialUser>(Kind::kAdd);
    case Heuristic::kRmu:
      return std::make_unique<MostInfluentialUser>(Kind::kRemove);
    case Heuristic::kCmu:
      return std::make_unique<MostInfluentialUser>(Kind::kChange);
    case Heuristic::kAli:
      return std::make_unique<ItemAdditions>(false);
    case Heuristic::kAma:
      return std::make_unique<ItemAdditions>(true);
    case Heuristic::kAmr:
      return std::make_unique<MostInfluentialRating>();
    case Heuristic::kArand:
      return std::make_unique<RandomAdd>();
    case Heuristic::kRrand:
      return std::make_unique<RandomRated>(Kind::kRemove);
    case Heuristic::kCrand:
      return std::make_unique<RandomRated>(Kind::kChange);
    case Heuristic::kAportfolio:
      break;
  }
  ASSAY_CHECK_MSG(false, "APORTFOLIO has no single generator");
  return nullptr;
}

}  // namespace

const std::vector<Heuristic>& all_heuristics() {
  static const std::vector<Heuristic> kAll{
      Heuristic::kAmu,   Heuristic::kRmu,       Heuristic::kCmu,   Heuristic::kAli,
      Heuristic::kAmr,   Heuristic::kAma,       Heuristic::kArand, Heuristic::kRrand,
      Heuristic::kCrand, Heuristic::kAportfolio};
  return kAll;
}

std::string_view to_string(Heuristic h) {
  switch (h) {
    case Heuristic::kAmu:
      return "AMU";
    case Heuristic::kRmu:
      return "RMU";
    case Heuristic::kCmu:
      return "CMU";
    case Heuristic::kAli:
      return "ALI";
    case Heuristic::kAmr:
      return "AMR";
    case Heuristic::kAma:
      return "AMA";
    case Heuristic::kArand:
      return "ARAND";
    case Heuristic::kRrand:
      return "RRAND";
    case Heuristic::kCrand:
      return "CRAND";
    case Heuristic::kAportfolio:
      return "APORTFOLIO";
  }
  return "?";
}

Heuristic parse_heuristic(std::string_view name) {
  std::string upper(name);
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (const Heuristic h : all_heuristics()) {
    if (to_string(h) == upper) return h;
  }
  throw core::UsageError("unknown heuristic '" + std::string(name) +
                         "' (expected AMU, RMU, CMU, ALI, AMR, AMA, ARAND, RRAND, CRAND or "
                         "APORTFOLIO)");
}

Modification::Kind modification_kind(Heuristic h) {
  switch (h) {
    case Heuristic::kRmu:
    case Heuristic::kRrand:
      return Kind::kRemove;
    case Heuristic::kCmu:
    case Heuristic::kCrand:
      return Kind::kChange;
    default:
      return Kind::kAdd;
  }
}

Heuristic random_baseline(Heuristic h) {
  switch (modification_kind(h)) {
    case Kind::kRemove:
      return Heuristic::kRrand;
    case Kind::kChange:
      return Heuristic::kCrand;
    case Kind::kAdd:
      break;
  }
  return Heuristic::kArand;
}

bool is_random_baseline(Heuristic h) {
  return h == Heuristic::kArand || h == Heuristic::kRrand || h == Heuristic::kCrand;
}

std::vector<Modification> generate_modifications(Heuristic h, const Ratings& data,
                                                 const Influence& influence, std::size_t n,
                                                 std::uint64_t seed,
                                                 const HeuristicOptions& options) {
  ASSAY_CHECK(influence.user.size() == data.n_users());
  ASSAY_CHECK(influence.item.size() == data.n_items());
  core::Rng rng(seed, 0);
  UsedPairs used(data);
  Context ctx{data, influence, rng, used};
  std::vector<std::unique_ptr<Generator>> generators;
  if (h == Heuristic::kAportfolio) {
    if (options.portfolio.empty())
      throw core::UsageError("APORTFOLIO needs at least one heuristic");
    for (const Heuristic part : options.portfolio) {
      if (part == Heuristic::kAportfolio) {
        throw core::UsageError("APORTFOLIO cannot contain APORTFOLIO");
      }
      generators.push_back(make_generator(part));
    }
  } else {
    generators.push_back(make_generator(h));
  }
  std::vector<Modification> out;
  out.reserve(n);
  std::vector<bool> exhausted(generators.size(), false);
  std::size_t n_exhausted = 0, turn = 0;
  while (out.size() < n && n_exhausted < generators.size()) {
    const std::size_t g = turn++ % generators.size();
    if (exhausted[g]) continue;
    if (auto m = generators[g]->next(ctx)) {
      out.push_back(*m);
    } else {
      exhausted[g] = true;
      ++n_exhausted;
    }
  }
  return out;
}

}  // namespace assay::stability
