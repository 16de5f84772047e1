#include "recsys/top_k_answer.h"

#include <algorithm>
#include <charconv>

namespace assay::recsys {
namespace {

[[noreturn]] void fail(TopKAnswerError::Kind kind, std::string what) {
  throw TopKAnswerError{kind, std::move(what)};
}

}  // namespace

TopKAnswer::TopKAnswer(const Ratings& train, std::size_t k)
    : train_(train), k_(k), lists_(train.n_users()), seen_(train.n_users(), false) {}

std::string TopKAnswer::shorten(std::string_view text) {
  constexpr std::size_t kMax = 200;
  if (text.size() <= kMax) return std::string(text);
  return std::string(text.substr(0, kMax)) + "...";
}

UserId TopKAnswer::user(const std::string& label) const {
  const auto u = train_.find_user(label);
  if (!u) fail(TopKAnswerError::Kind::kMalformed, "unknown user '" + shorten(label) + "'");
  return *u;
}

void TopKAnswer::start_list(UserId user) {
  if (seen_[user])
    fail(TopKAnswerError::Kind::kMalformed,
         "a second list for user '" + train_.user_label(user) + "'");
  seen_[user] = true;
}

void TopKAnswer::add_item(UserId user, const std::string& label) {
  const auto i = train_.find_item(label);
  if (!i)
    fail(TopKAnswerError::Kind::kMalformed,
         "unknown item '" + shorten(label) + "' for user '" + train_.user_label(user) + "'");
  if (train_.rating(user, *i))
    fail(TopKAnswerError::Kind::kRated, "recommends item '" + label + "' that user '" +
                                            train_.user_label(user) +
                                            "' rated in the training data");
  auto& list = lists_[user];
  if (std::find(list.begin(), list.end(), *i) != list.end())
    fail(TopKAnswerError::Kind::kMalformed,
         "item '" + label + "' twice in the list of user '" + train_.user_label(user) + "'");
  if (list.size() == k_)
    fail(TopKAnswerError::Kind::kMalformed, "more than k = " + std::to_string(k_) +
                                                " items for user '" + train_.user_label(user) +
                                                "'");
  list.push_back(*i);
}

TopKLists TopKAnswer::finish() {
  std::size_t missing = 0;
  std::string first_missing;
  for (UserId u = 0; u < train_.n_users(); ++u) {
    const std::size_t unrated = train_.n_items() - train_.items_of(u).size();
    const std::size_t expected = std::min(k_, unrated);
    if (!seen_[u] && expected > 0) {
      if (missing++ == 0) first_missing = train_.user_label(u);
      continue;
    }
    if (lists_[u].size() < expected)
      fail(TopKAnswerError::Kind::kIncomplete,
           "user '" + train_.user_label(u) + "' has " + std::to_string(lists_[u].size()) +
               " items, expected " + std::to_string(expected) + " (k = " + std::to_string(k_) +
               ", " + std::to_string(unrated) + " items unrated)");
  }
  if (missing > 0)
    fail(TopKAnswerError::Kind::kIncomplete,
         "no list for user '" + first_missing + "' (" + std::to_string(missing) + " of " +
             std::to_string(train_.n_users()) + " users missing)");
  return std::move(lists_);
}

std::string rating_text(float value) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, value);
  return std::string(buf, r.ptr);
}

double rating_as_given(float value) {
  const std::string text = rating_text(value);
  double out = 0;
  std::from_chars(text.data(), text.data() + text.size(), out);
  return out;
}

}  // namespace assay::recsys
