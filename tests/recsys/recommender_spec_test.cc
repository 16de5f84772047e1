// Recommender specs: normal forms, every key reaching its model, and every kind of bad input
// a usage error that names the key.
#include "recsys/recommender_spec.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.h"
#include "recsys/funk_svd.h"
#include "recsys/hybrid.h"
#include "recsys/item_item.h"
#include "recsys/user_user.h"
#include "test_data.h"

namespace {

using namespace assay::recsys;

std::string usage_error_of(const std::string& text) {
  try {
    (void)parse_recommender_spec(text);
  } catch (const assay::core::UsageError& e) {
    return e.what();
  }
  return "no error";
}

TEST(RecommenderSpec, DefaultsAreThePlainNameAndRoundTrip) {
  for (const auto& name : recommender_spec_names()) {
    const RecommenderSpec s = parse_recommender_spec(name);
    EXPECT_EQ(s.identity(), name);
    // The full form names every key with its default, and reads back as the same thing.
    EXPECT_EQ(s.values.size(), recommender_spec_keys(name).size()) << name;
    EXPECT_EQ(parse_recommender_spec(s.full()).identity(), name) << s.full();
    EXPECT_EQ(parse_recommender_spec(s.full()).full(), s.full());
  }
  EXPECT_EQ(parse_recommender_spec("funk-svd").full(),
            "funk-svd:features=25:epochs=125:learning-rate=0.001:regularization=0.015:"
            "initial-value=0.1:damping=5:clamp=scale:order=stable");
  EXPECT_EQ(parse_recommender_spec("funk-svd-lenskit").full(),
            "funk-svd-lenskit:features=25:epochs=125:learning-rate=0.001:regularization=0.015:"
            "initial-value=0.1:damping=0:clamp=none:order=shuffle");
}

TEST(RecommenderSpec, IdentityKeepsNonDefaultKeysInTableOrderCanonically) {
  EXPECT_EQ(normalize_recommender_spec("funk-svd:damping=5.0"), "funk-svd");
  EXPECT_EQ(normalize_recommender_spec("funk-svd:clamp=none:damping=0.0"),
            "funk-svd:damping=0:clamp=none");
  EXPECT_EQ(normalize_recommender_spec("funk-svd:damping=2.50:features=040"),
            "funk-svd:features=40:damping=2.5");
  EXPECT_EQ(normalize_recommender_spec("funk-svd-lenskit:damping=0:clamp=none"),
            "funk-svd-lenskit");
  EXPECT_EQ(normalize_recommender_spec("funk-svd-lenskit:damping=5"), "funk-svd-lenskit:damping=5");
  EXPECT_EQ(normalize_recommender_spec("user-user:neighbors=30:min-sim=0.000001"),
            "user-user:neighbors=30");
  EXPECT_EQ(normalize_recommender_spec("item-item:min-sim=0"), "item-item:min-sim=0");
  EXPECT_EQ(normalize_recommender_spec("item-item:keep=auto"), "item-item");
  EXPECT_EQ(normalize_recommender_spec("item-item:keep=0050"), "item-item:keep=50");
  EXPECT_EQ(normalize_recommender_spec("item-item:keep=all:neighbors=5"),
            "item-item:neighbors=5:keep=all");
  EXPECT_EQ(normalize_recommender_spec("hybrid:attributes=no:epochs=50"),
            "hybrid:epochs=50:attributes=no");
  EXPECT_EQ(normalize_recommender_spec("hybrid:learning-rate=0.050"), "hybrid");
}

TEST(RecommenderSpec, BadInputIsAUsageErrorNamingTheKey) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"funk-svd:dampening=0", "unknown key 'dampening'"},
      {"user-user:damping=1", "unknown key 'damping'"},
      {"funk-svd:damping=-1", "'damping'"},
      {"funk-svd:damping=abc", "'damping'"},
      {"funk-svd:damping=", "'damping'"},
      {"funk-svd:damping=nan", "'damping'"},
      {"funk-svd:features=0", "'features'"},
      {"funk-svd:features=2.5", "'features'"},
      // Ranges that bound one training's memory and time.
      {"funk-svd:features=1001", "'features' (latent features (integer in [1, 1000]))"},
      {"funk-svd:features=1000000000", "'features'"},
      {"funk-svd:epochs=4000000000", "'epochs'"},
      {"hybrid:components=100000", "'components'"},
      {"hybrid:max-sampled=5000", "'max-sampled'"},
      {"user-user:neighbors=100001", "'neighbors'"},
      {"funk-svd:learning-rate=0", "'learning-rate'"},
      {"funk-svd:learning-rate=1e-60", "'learning-rate'"},
      {"funk-svd:clamp=maybe", "'clamp'"},
      {"funk-svd:order=random", "'order'"},
      {"hybrid:attributes=1", "'attributes'"},
      {"item-item:neighbors=-3", "'neighbors'"},
      {"item-item:keep=0", "'keep'"},
      {"item-item:keep=-5", "'keep'"},
      {"item-item:keep=1000001", "'keep' (similar items kept per item"},
      {"item-item:keep=some", "'keep'"},
      {"item-item:keep=", "'keep'"},
      {"item-item:keep=2.5", "'keep'"},
      {"user-user:keep=10", "unknown key 'keep'"},
      {"funk-svd:damping=1:damping=2", "'damping' given twice"},
      {"funk-svd:damping", "'damping' is not key=value"},
      {"funk-svd:", "'' is not key=value"},
      {"svd++", "unknown algorithm 'svd++'"},
      {"", "unknown algorithm ''"},
  };
  for (const auto& [text, needle] : cases) {
    EXPECT_NE(usage_error_of(text).find(needle), std::string::npos)
        << text << " -> " << usage_error_of(text);
  }
  EXPECT_THROW((void)make_recommender("funk-svd:features=x"), assay::core::UsageError);
}

TEST(RecommenderSpec, EveryKeyReachesTheModel) {
  auto funk = make_recommender(
      "funk-svd-lenskit:features=7:epochs=9:learning-rate=0.002:"
      "regularization=0.03:initial-value=0.2:damping=1.5");
  const auto* f = dynamic_cast<const FunkSvd*>(funk.get());
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->name(), "funk-svd-lenskit");
  EXPECT_EQ(f->options().n_features, 7u);
  EXPECT_EQ(f->options().n_epochs, 9u);
  EXPECT_EQ(f->options().learning_rate, 0.002f);
  EXPECT_EQ(f->options().regularization, 0.03f);
  EXPECT_EQ(f->options().initial_value, 0.2f);
  EXPECT_EQ(f->options().bias_damping, 1.5);
  EXPECT_FALSE(f->options().clamp);
  EXPECT_EQ(f->options().order, FunkSvdOrder::kShuffle);
  auto plain = make_recommender("funk-svd");
  const auto* p = dynamic_cast<const FunkSvd*>(plain.get());
  ASSERT_NE(p, nullptr);
  const FunkSvdOptions defaults;
  EXPECT_EQ(p->name(), "funk-svd");
  EXPECT_EQ(p->options().n_features, defaults.n_features);
  EXPECT_EQ(p->options().n_epochs, defaults.n_epochs);
  EXPECT_EQ(p->options().learning_rate, defaults.learning_rate);
  EXPECT_EQ(p->options().regularization, defaults.regularization);
  EXPECT_EQ(p->options().initial_value, defaults.initial_value);
  EXPECT_EQ(p->options().bias_damping, defaults.bias_damping);
  EXPECT_TRUE(p->options().clamp);
  EXPECT_EQ(p->options().order, FunkSvdOrder::kStable);

  const auto keep_of = [](const std::string& spec) {
    auto m = make_recommender(spec);
    const auto* i = dynamic_cast<const ItemItem*>(m.get());
    return i == nullptr ? std::size_t{1} : i->options().keep;
  };
  EXPECT_EQ(keep_of("item-item"), ItemItemOptions::kKeepAuto);
  EXPECT_EQ(keep_of("item-item:keep=all"), ItemItemOptions::kKeepAll);
  EXPECT_EQ(keep_of("item-item:keep=37"), 37u);

  // The neighbourhood and hybrid keys change what the models recommend.
  const Ratings r = fixtures::small_synthetic(8);
  auto lists_of = [&](const std::string& spec) {
    auto m = make_recommender(spec);
    m->fit(r, {3, 1});
    return recommend_all(*m, r, 10, 1);
  };
  for (const std::string base : {"user-user", "item-item"}) {
    EXPECT_EQ(lists_of(base), lists_of(base + ":neighbors=20:min-sim=1e-6")) << base;
    EXPECT_NE(lists_of(base), lists_of(base + ":neighbors=2")) << base;
    EXPECT_NE(lists_of(base), lists_of(base + ":min-sim=0.3")) << base;
  }
  EXPECT_EQ(lists_of("item-item"), lists_of("item-item:keep=all"));
  EXPECT_NE(lists_of("item-item"), lists_of("item-item:keep=3"));
  EXPECT_EQ(lists_of("hybrid"), lists_of("hybrid:components=10:epochs=30:max-sampled=10"));
  for (const std::string other : {"hybrid:components=4", "hybrid:epochs=3", "hybrid:max-sampled=1",
                                  "hybrid:learning-rate=0.2", "hybrid:attributes=no"}) {
    EXPECT_NE(lists_of("hybrid"), lists_of(other)) << other;
  }
}

}  // namespace
