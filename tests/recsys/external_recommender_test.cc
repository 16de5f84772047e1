// Recommenders known by their lists only: an object an embedding language registers as
// python:NAME (here a C++ one over a built-in algorithm) is trained through the same entry point
// as a program, and its answers are checked as a program's output is (recsys/top_k_answer.h).
#include "recsys/external_recommender.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>

#include "core/error.h"
#include "recsys/data_spec.h"
#include "recsys/recommender_spec.h"
#include "recsys/top_k_answer.h"

namespace assay::recsys {
namespace {

Ratings small_data() {
  return load_ratings("synthetic:users=40,items=60,ratings=700,seed=3");
}

// item-item's lists, given back by labels through TopKAnswer as an embedding layer does.
class ItemItemObject : public HostedRecommender {
 public:
  TopKLists recommend_all(const Ratings& train, std::size_t k, std::uint64_t seed) override {
    ++trainings;
    auto model = make_recommender("item-item");
    model->fit(train, {seed, 1});
    const auto lists = recsys::recommend_all(*model, train, k);
    TopKAnswer answer(train, k);
    for (UserId u = 0; u < train.n_users(); ++u) {
      answer.start_list(u);
      for (const auto i : lists[u]) answer.add_item(u, train.item_label(i));
    }
    return answer.finish();
  }
  std::atomic<int> trainings{0};
};

TEST(ExternalRecommender, ARegisteredObjectIsTrainedThroughItsSpec) {
  const auto data = small_data();
  auto object = std::make_shared<ItemItemObject>();
  {
    const HostedRegistration registration("python:mine", object);
    EXPECT_TRUE(is_external_spec("python:mine"));
    EXPECT_TRUE(is_hosted_spec("python:mine"));
    EXPECT_FALSE(is_hosted_spec("cmd:sh x"));
    auto model = make_recommender("item-item");
    model->fit(data, {7, 1});
    EXPECT_EQ(external_recommend_all("python:mine", data, 5, 7), recommend_all(*model, data, 5));
    EXPECT_EQ(object->trainings.load(), 1);
    EXPECT_EQ(external_identity("python:mine"), "python:mine");
    // One object per name at a time.
    EXPECT_THROW(HostedRegistration("python:mine", object), core::UsageError);
  }
  // Gone with its registration: a usage error naming the spec.
  try {
    external_recommend_all("python:mine", data, 5, 7);
    ADD_FAILURE() << "an unregistered object was trained";
  } catch (const core::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("python:mine: no such recommender object"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(HostedRegistration("python:", object), core::UsageError);
  EXPECT_THROW(HostedRegistration("python:two words", object), core::UsageError);
  EXPECT_THROW(HostedRegistration("mine", object), core::UsageError);
}

TEST(ExternalRecommender, SpecsOfObjectsNormaliseToThemselvesAndHaveNoModel) {
  EXPECT_EQ(normalize_recommender_spec("python:sklearn-svd"), "python:sklearn-svd");
  EXPECT_EQ(parse_recommender_spec("python:sklearn-svd").full(), "python:sklearn-svd");
  EXPECT_THROW(parse_recommender_spec("python:"), core::UsageError);
  try {
    (void)make_recommender("python:sklearn-svd");
    ADD_FAILURE() << "an object's spec made a model";
  } catch (const core::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("gives top-k lists, not scores"), std::string::npos);
  }
}

TEST(ExternalRecommender, AnswersAreCheckedAsAProgramsOutput) {
  const auto data = small_data();
  const UserId u = 0;
  const auto rated = data.items_of(u);
  auto error_of = [&](auto&& f) {
    TopKAnswer answer(data, 3);
    try {
      f(answer);
    } catch (const TopKAnswerError& e) {
      return e;
    }
    ADD_FAILURE() << "no error";
    return TopKAnswerError{};
  };
  const auto e1 = error_of([&](TopKAnswer& a) {
    a.start_list(u);
    a.add_item(u, data.item_label(rated[0]));
  });
  EXPECT_EQ(e1.kind, TopKAnswerError::Kind::kRated);
  EXPECT_EQ(e1.what, "recommends item '" + data.item_label(rated[0]) + "' that user '" +
                         data.user_label(u) + "' rated in the training data");
  const auto e2 = error_of([&](TopKAnswer& a) { a.add_item(u, "no-such-item"); });
  EXPECT_EQ(e2.kind, TopKAnswerError::Kind::kMalformed);
  EXPECT_EQ(e2.what, "unknown item 'no-such-item' for user '" + data.user_label(u) + "'");
  const auto e3 = error_of([&](TopKAnswer& a) { (void)a.finish(); });
  EXPECT_EQ(e3.kind, TopKAnswerError::Kind::kIncomplete);
  EXPECT_NE(e3.what.find("no list for user '" + data.user_label(0) + "'"), std::string::npos);
  EXPECT_EQ(rating_text(3.5f), "3.5");
  EXPECT_EQ(rating_as_given(0.1f), 0.1);  // the decimal a program reads, not the float's double
}

}  // namespace
}  // namespace assay::recsys
