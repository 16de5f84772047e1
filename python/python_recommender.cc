#include "python_recommender.h"

#include <pybind11/numpy.h>

#include <utility>
#include <vector>

#include "core/error.h"
#include "recsys/recommender_spec.h"
#include "recsys/top_k_answer.h"

namespace assay::python {
namespace py = pybind11;
namespace {

std::string type_name(const py::handle& obj) {
  return py::str(py::type::of(obj).attr("__name__"));
}

// The ratings as fit() gets them: a structured array (user: str, item: str, rating: float64),
// one row per rating in (user, item) order, the values as a program reads them from train.tsv.
py::object ratings_array(const recsys::Ratings& train) {
  const auto np = py::module_::import("numpy");
  const std::size_t n = train.n_ratings();
  std::vector<py::str> item_labels;
  item_labels.reserve(train.n_items());
  for (recsys::ItemId i = 0; i < train.n_items(); ++i)
    item_labels.emplace_back(train.item_label(i));
  py::list users(n), items(n);
  py::array_t<double> values(static_cast<py::ssize_t>(n));
  auto v = values.mutable_unchecked<1>();
  std::size_t row = 0;
  for (recsys::UserId u = 0; u < train.n_users(); ++u) {
    const py::str label(train.user_label(u));
    const auto rated = train.items_of(u);
    const auto value = train.values_of_user(u);
    for (std::size_t j = 0; j < rated.size(); ++j, ++row) {
      users[row] = label;
      items[row] = item_labels[rated[j]];
      v(static_cast<py::ssize_t>(row)) = recsys::rating_as_given(value[j]);
    }
  }
  const py::object user_column = np.attr("array")(users, py::arg("dtype") = "str");
  const py::object item_column = np.attr("array")(items, py::arg("dtype") = "str");
  py::list dtype;
  dtype.append(py::make_tuple("user", user_column.attr("dtype")));
  dtype.append(py::make_tuple("item", item_column.attr("dtype")));
  dtype.append(py::make_tuple("rating", np.attr("float64")));
  py::object out = np.attr("empty")(n, py::arg("dtype") = dtype);
  out[py::str("user")] = user_column;
  out[py::str("item")] = item_column;
  out[py::str("rating")] = values;
  return out;
}

// A sequence that is not text (a list, a tuple, a NumPy row after tolist()).
bool is_list_like(const py::handle& obj) {
  return PySequence_Check(obj.ptr()) != 0 && !py::isinstance<py::str>(obj) &&
         !py::isinstance<py::bytes>(obj);
}

py::object as_lists(py::object obj) {
  if (py::hasattr(obj, "tolist")) return obj.attr("tolist")();  // a NumPy array
  return obj;
}

// The last `limit` bytes of `text`, from a line's start, without the final newline.
std::string tail_of(std::string text, std::size_t limit) {
  if (text.size() > limit) {
    text.erase(0, text.size() - limit);
    const auto newline = text.find('\n');
    if (newline != std::string::npos && newline + 1 < text.size()) text.erase(0, newline + 1);
  }
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

// An Exception that the object raised in `call` is this training's failure; anything else
// (KeyboardInterrupt, SystemExit) ends the call as itself. Called in the handler of `e`.
[[noreturn]] void python_failure(const std::string& spec, const char* call,
                                 py::error_already_set& e) {
  if (!e.matches(PyExc_Exception)) throw;
  std::string reason =
      std::string(call) + " raised " + py::str(e.type().attr("__name__")).cast<std::string>();
  const std::string message = py::str(e.value());
  if (!message.empty()) reason += ": " + message;
  std::string traceback;
  try {
    traceback = py::str("")
                    .attr("join")(py::module_::import("traceback")
                                      .attr("format_exception")(e.type(), e.value(), e.trace()))
                    .cast<std::string>();
  } catch (const py::error_already_set&) {  // no traceback then
  }
  throw PythonRecommenderFailure(
      spec, std::move(reason),
      tail_of(std::move(traceback), recsys::command_recommender_options().stderr_tail_bytes), e);
}

[[noreturn]] void answer_failure(const std::string& spec, const std::string& reason) {
  throw recsys::RecommenderFailure(spec, reason, "");
}

}  // namespace

bool is_recommender_object(const py::handle& obj) {
  return !py::isinstance<py::str>(obj) && py::hasattr(obj, "fit") &&
         py::hasattr(obj, "recommend") && PyCallable_Check(obj.attr("fit").ptr()) != 0 &&
         PyCallable_Check(obj.attr("recommend").ptr()) != 0;
}

std::string recommender_object_spec(const py::handle& obj) {
  if (py::hasattr(obj, "name")) {
    const py::object name = obj.attr("name");
    if (py::isinstance<py::str>(name) && !name.cast<std::string>().empty())
      return "python:" + name.cast<std::string>();
  }
  return "python:" + py::str(py::type::of(obj).attr("__name__")).cast<std::string>();
}

PythonRecommender::PythonRecommender(py::object obj, std::string spec, const CallHooks& hooks)
    : obj_(std::move(obj)), spec_(std::move(spec)), hooks_(hooks) {
  try {
    const py::object parameters =
        py::module_::import("inspect").attr("signature")(obj_.attr("fit")).attr("parameters");
    fit_takes_seed_ = parameters.contains("seed");
  } catch (const py::error_already_set&) {  // no signature (a builtin): fit(ratings)
    fit_takes_seed_ = false;
  }
}

PythonRecommender::~PythonRecommender() {
  py::gil_scoped_acquire acquire;
  obj_ = py::object();
}

recsys::TopKLists PythonRecommender::recommend_all(const recsys::Ratings& train, std::size_t k,
                                                   std::uint64_t seed) {
  hooks_.check();
  const std::lock_guard lock(mutex_);  // taken before the GIL, never while holding it
  hooks_.check();
  // On the calling thread, where Ctrl-C reaches fit() or recommend() while they wait
  // (CallHooks::on_caller).
  return hooks_.on_caller([&] { return fit_and_recommend(train, k, seed); });
}

recsys::TopKLists PythonRecommender::fit_and_recommend(const recsys::Ratings& train, std::size_t k,
                                                       std::uint64_t seed) {
  py::gil_scoped_acquire acquire;
  const py::object ratings = ratings_array(train);
  try {
    const InCallable in(hooks_);
    if (fit_takes_seed_)
      obj_.attr("fit")(ratings, py::arg("seed") = seed);
    else
      obj_.attr("fit")(ratings);
  } catch (py::error_already_set& e) {
    python_failure(spec_, "fit()", e);
  }
  py::list users(train.n_users());
  for (recsys::UserId u = 0; u < train.n_users(); ++u) users[u] = py::str(train.user_label(u));
  py::object answer;
  try {
    const InCallable in(hooks_);
    answer = as_lists(obj_.attr("recommend")(users, k));
  } catch (py::error_already_set& e) {
    python_failure(spec_, "recommend()", e);
  }
  if (!is_list_like(answer))
    answer_failure(spec_, "malformed output: recommend() returned " + type_name(answer) +
                              ", expected one list of item ids per user");
  const auto rows = answer.cast<py::sequence>();
  if (rows.size() != train.n_users())
    answer_failure(spec_, "malformed output: recommend() returned " + std::to_string(rows.size()) +
                              " lists for " + std::to_string(train.n_users()) + " users");
  recsys::TopKAnswer check(train, k);
  std::string where;
  try {
    for (recsys::UserId u = 0; u < train.n_users(); ++u) {
      where = "recommend() list " + std::to_string(u);
      const py::object row = as_lists(rows[u]);
      if (!is_list_like(row))
        answer_failure(spec_, "malformed output: " + where + ": expected a list of item ids, got " +
                                  type_name(row));
      check.start_list(u);
      const auto items = row.cast<py::sequence>();
      for (std::size_t j = 0; j < items.size(); ++j) {
        const py::object item = items[j];
        std::string id;
        if (py::isinstance<py::str>(item)) {
          id = item.cast<std::string>();
        } else if (PyIndex_Check(item.ptr()) != 0 && !py::isinstance<py::bool_>(item)) {
          id = py::str(py::int_(item));
        } else {
          answer_failure(spec_, "malformed output: " + where +
                                    ": an item must be a string or an integer, got " +
                                    recsys::TopKAnswer::shorten(std::string(py::repr(item))));
        }
        check.add_item(u, id);
      }
    }
    return check.finish();
  } catch (const recsys::TopKAnswerError& e) {
    switch (e.kind) {
      case recsys::TopKAnswerError::Kind::kMalformed:
        answer_failure(spec_, "malformed output: " + where + ": " + e.what);
      case recsys::TopKAnswerError::Kind::kRated:
        answer_failure(spec_, e.what + " (" + where + ")");
      case recsys::TopKAnswerError::Kind::kIncomplete:
        break;
    }
    answer_failure(spec_, "incomplete output: " + e.what);
  }
}

std::string AlgorithmArg::spec_of(const py::object& algorithm) {
  if (py::isinstance<py::str>(algorithm))
    return recsys::normalize_recommender_spec(algorithm.cast<std::string>());
  if (!is_recommender_object(algorithm))
    throw core::UsageError(
        "algorithm: expected a spec (str) or an object with fit(ratings) and recommend(users, "
        "k), got " +
        type_name(algorithm));
  return recommender_object_spec(algorithm);
}

AlgorithmArg::AlgorithmArg(const py::object& algorithm, const CallHooks& hooks)
    : spec_(spec_of(algorithm)) {
  if (py::isinstance<py::str>(algorithm)) return;
  object_ = std::make_shared<PythonRecommender>(algorithm, spec_, hooks);
  registration_ = std::make_unique<recsys::HostedRegistration>(spec_, object_);
}

AlgorithmArg::~AlgorithmArg() {
  registration_.reset();
  object_.reset();  // ~PythonRecommender takes the GIL
}

}  // namespace assay::python
