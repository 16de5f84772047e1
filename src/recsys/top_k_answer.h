// What a recommender known only by its answers gives back — the user's program (cmd:,
// command_recommender.h) or an object of the Python module (external_recommender.h) —
// checked against the training data as it is read: every user's top-k by the data's own ids,
// best first. A user's list must hold min(k, items the user has not rated) distinct known items,
// none rated by the user. Both adapters report the same problems in the same words.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "recsys/ratings.h"
#include "recsys/recommender.h"

namespace assay::recsys {

// A problem with an answer. `what` is the message without the adapter's position in its answer
// ("output line 3: ", "recommend() list 2: "), which the adapter adds as its kind says:
//   kMalformed   "malformed output: " + position + what
//   kRated       what + " (" + position + the line or list + ")"
//   kIncomplete  "incomplete output: " + what
struct TopKAnswerError {
  enum class Kind { kMalformed, kRated, kIncomplete };
  Kind kind = Kind::kMalformed;
  std::string what;
};

class TopKAnswer {
 public:
  TopKAnswer(const Ratings& train, std::size_t k);

  // The user of a label; an unknown user is an error.
  UserId user(const std::string& label) const;
  // Whether `user`'s list was started.
  bool started(UserId user) const { return seen_[user]; }
  // Starts `user`'s list; a second list is an error.
  void start_list(UserId user);
  // Appends to `user`'s list (the next best item). Unknown items, rated items, repeated items
  // and more than k are errors.
  void add_item(UserId user, const std::string& item_label);
  // Every user's list (result[u] for dense user u); a list short of min(k, unrated) or a user
  // with unrated items and no list is an error.
  TopKLists finish();

  // The start of a long id or line, for a message.
  static std::string shorten(std::string_view text);

 private:
  const Ratings& train_;
  std::size_t k_;
  TopKLists lists_;
  std::vector<bool> seen_;
};

// The text a rating value is given to an external recommender as (the shortest that reads back
// as the same float: "4", "3.5"), and the number that text reads as, which a Python object gets.
std::string rating_text(float value);
double rating_as_given(float value);

}  // namespace assay::recsys
