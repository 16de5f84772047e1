#include "stability/campaign_store.h"

#include <string>

#include "core/error.h"
#include "core/sqlite_store.h"

namespace assay::stability {
namespace {

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS campaign (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
  algorithm TEXT NOT NULL, heuristic TEXT NOT NULL, size INTEGER NOT NULL,
  trial INTEGER NOT NULL, seed INTEGER NOT NULL, n_modifications INTEGER NOT NULL,
  generation_seconds REAL NOT NULL,
  top_out REAL, jaccard REAL, aod REAL, rbo REAL,
  PRIMARY KEY (algorithm, heuristic, size, trial));
CREATE TABLE IF NOT EXISTS noise (
  algorithm TEXT NOT NULL, trial INTEGER NOT NULL, seed INTEGER NOT NULL,
  top_out REAL, jaccard REAL, aod REAL, rbo REAL,
  PRIMARY KEY (algorithm, trial));
CREATE TABLE IF NOT EXISTS failures (
  unit TEXT PRIMARY KEY, algorithm TEXT NOT NULL, heuristic TEXT, size INTEGER,
  trial INTEGER NOT NULL, reason TEXT NOT NULL, stderr_tail TEXT NOT NULL,
  attempts INTEGER NOT NULL);
)sql";

// SQLite integers are signed 64-bit; seeds are stored bit for bit.
std::int64_t to_sql(std::uint64_t v) {
  return static_cast<std::int64_t>(v);
}
std::uint64_t from_sql(std::int64_t v) {
  return static_cast<std::uint64_t>(v);
}

// NaN is stored as NULL (SQLite turns NaN into NULL anyway) and read back as NaN.
void bind_value(core::SqliteStatement& s, int index, double v) {
  if (v != v) {
    s.bind_null(index);
  } else {
    s.bind(index, v);
  }
}
double read_value(const core::SqliteStatement& s, int column) {
  return s.column_is_null(column) ? std::numeric_limits<double>::quiet_NaN()
                                  : s.column_double(column);
}

// The rows of the store attached as "merge_source" read as this store reads them: a heuristic
// it knows, whole non-negative numbers where counts go, numbers (or NULL: NaN) where values go.
// Throws core::ParseError naming `path` and the first row that is not, so a bad shard is refused
// before anything of it is copied (copied, it would fail every later run on the merged store).
void check_source_rows(core::SqliteStore& db, const std::string& path) {
  const auto fail = [&](const std::string& row, const std::string& what) {
    throw core::ParseError(core::SourceLocation(path), row + ": " + what);
  };
  const auto whole = [](const core::SqliteStatement& q, int c) {
    return q.column_text(c) == "integer" && q.column_int64(c + 1) >= 0;
  };
  const auto number = [](const core::SqliteStatement& q, int c) {
    const std::string type = q.column_text(c);
    return type == "real" || type == "integer" || type == "null";
  };
  auto runs = db.prepare(
      "SELECT algorithm, heuristic, typeof(size), size, typeof(trial), trial, typeof(seed), seed, "
      "typeof(n_modifications), n_modifications, typeof(generation_seconds), typeof(top_out), "
      "typeof(jaccard), typeof(aod), typeof(rbo) FROM merge_source.runs");
  while (runs.step()) {
    const std::string row = "run of '" + runs.column_text(0) + "' " + runs.column_text(1) +
                            " size " + runs.column_text(3) + " trial " + runs.column_text(5);
    try {
      (void)parse_heuristic(runs.column_text(1));
    } catch (const core::Error& e) {
      fail(row, e.detail());
    }
    if (!whole(runs, 2) || !whole(runs, 4) || runs.column_text(6) != "integer" || !whole(runs, 8))
      fail(row, "its size, trial, seed and modifications must be whole numbers");
    for (int c = 10; c <= 14; ++c)
      if (!number(runs, c)) fail(row, "its time and oracle values must be numbers");
  }
  auto noise = db.prepare(
      "SELECT algorithm, typeof(trial), trial, typeof(seed), seed, typeof(top_out), "
      "typeof(jaccard), typeof(aod), typeof(rbo) FROM merge_source.noise");
  while (noise.step()) {
    const std::string row =
        "noise run of '" + noise.column_text(0) + "' trial " + noise.column_text(2);
    if (!whole(noise, 1) || noise.column_text(3) != "integer")
      fail(row, "its trial and seed must be whole numbers");
    for (int c = 5; c <= 8; ++c)
      if (!number(noise, c)) fail(row, "its oracle values must be numbers");
  }
}

core::SqliteStore& with_schema(core::SqliteStore& db) {
  db.exec(kSchema);
  return db;
}

}  // namespace

CampaignStore::CampaignStore(const std::string& path)
    : store_(path, "campaign"),
      db_(store_.db()),
      insert_run_(
          with_schema(db_).prepare("INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")),
      insert_noise_(db_.prepare("INSERT INTO noise VALUES (?, ?, ?, ?, ?, ?, ?)")),
      insert_failure_(db_.prepare(
          "INSERT INTO failures VALUES (?, ?, ?, ?, ?, ?, ?, 1) ON CONFLICT(unit) DO UPDATE SET "
          "reason = excluded.reason, stderr_tail = excluded.stderr_tail, "
          "attempts = attempts + 1")),
      delete_failure_(db_.prepare("DELETE FROM failures WHERE unit = ?")) {}

std::string FailedRun::unit_key() const {
  return noise ? noise_unit_key(algorithm, trial)
               : run_unit_key(RunKey{algorithm, heuristic, size, trial});
}

void CampaignStore::check_identity(const std::map<std::string, std::string>& identity) {
  std::lock_guard lock(mutex_);
  store_.check_identity(identity);
}

std::pair<std::size_t, std::size_t> CampaignStore::merge(
    const std::string& other_path, const std::map<std::string, std::string>& identity) {
  std::lock_guard lock(mutex_);
  const auto added =
      store_.merge(other_path, {"runs", "noise"}, identity,
                   [&](core::SqliteStore& db) { check_source_rows(db, other_path); });
  return {added[0], added[1]};
}

std::vector<std::string> CampaignStore::finished_keys() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  auto q = db_.prepare("SELECT algorithm, heuristic, size, trial FROM runs");
  while (q.step()) {
    RunKey key;
    key.algorithm = q.column_text(0);
    try {
      key.heuristic = parse_heuristic(q.column_text(1));
    } catch (core::Error& e) {
      e.set_location_if_missing(core::SourceLocation(db_.path()));
      throw;
    }
    key.size = static_cast<std::size_t>(q.column_int64(2));
    key.trial = static_cast<std::size_t>(q.column_int64(3));
    out.push_back(run_unit_key(key));
  }
  auto n = db_.prepare("SELECT algorithm, trial FROM noise");
  while (n.step()) {
    out.push_back(noise_unit_key(n.column_text(0), static_cast<std::size_t>(n.column_int64(1))));
  }
  return out;
}

void CampaignStore::append(const RunResult& r) {
  std::lock_guard lock(mutex_);
  auto& s = insert_run_;
  s.bind(1, std::string_view(r.key.algorithm));
  s.bind(2, to_string(r.key.heuristic));
  s.bind(3, static_cast<std::int64_t>(r.key.size));
  s.bind(4, static_cast<std::int64_t>(r.key.trial));
  s.bind(5, to_sql(r.seed));
  s.bind(6, static_cast<std::int64_t>(r.n_modifications));
  s.bind(7, r.generation_seconds);
  for (std::size_t o = 0; o < kNumOracles; ++o) bind_value(s, static_cast<int>(8 + o), r.oracle[o]);
  s.run();  // autocommit: durable on return
  delete_failure_.bind(1, std::string_view(run_unit_key(r.key)));
  delete_failure_.run();
}

void CampaignStore::append(const NoiseResult& r) {
  std::lock_guard lock(mutex_);
  auto& s = insert_noise_;
  s.bind(1, std::string_view(r.algorithm));
  s.bind(2, static_cast<std::int64_t>(r.trial));
  s.bind(3, to_sql(r.seed));
  for (std::size_t o = 0; o < kNumOracles; ++o) bind_value(s, static_cast<int>(4 + o), r.oracle[o]);
  s.run();
  delete_failure_.bind(1, std::string_view(noise_unit_key(r.algorithm, r.trial)));
  delete_failure_.run();
}

void CampaignStore::record_failure(const FailedRun& f) {
  std::lock_guard lock(mutex_);
  auto& s = insert_failure_;
  s.bind(1, std::string_view(f.unit_key()));
  s.bind(2, std::string_view(f.algorithm));
  if (f.noise) {
    s.bind_null(3);
    s.bind_null(4);
  } else {
    s.bind(3, to_string(f.heuristic));
    s.bind(4, static_cast<std::int64_t>(f.size));
  }
  s.bind(5, static_cast<std::int64_t>(f.trial));
  s.bind(6, std::string_view(f.reason));
  s.bind(7, std::string_view(f.stderr_tail));
  s.run();
}

std::vector<FailedRun> CampaignStore::failures() const {
  std::lock_guard lock(mutex_);
  auto q = db_.prepare(
      "SELECT algorithm, heuristic, size, trial, reason, stderr_tail, attempts FROM failures "
      "ORDER BY unit");
  std::vector<FailedRun> out;
  while (q.step()) {
    FailedRun f;
    f.algorithm = q.column_text(0);
    f.noise = q.column_is_null(1);
    if (!f.noise) {
      try {
        f.heuristic = parse_heuristic(q.column_text(1));
      } catch (core::Error& e) {
        e.set_location_if_missing(core::SourceLocation(db_.path()));
        throw;
      }
      f.size = static_cast<std::size_t>(q.column_int64(2));
    }
    f.trial = static_cast<std::size_t>(q.column_int64(3));
    f.reason = q.column_text(4);
    f.stderr_tail = q.column_text(5);
    f.attempts = static_cast<std::size_t>(q.column_int64(6));
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<RunResult> CampaignStore::runs() const {
  std::lock_guard lock(mutex_);
  auto q = db_.prepare(
      "SELECT algorithm, heuristic, size, trial, seed, n_modifications, generation_seconds, "
      "top_out, jaccard, aod, rbo FROM runs ORDER BY algorithm, heuristic, size, trial");
  std::vector<RunResult> out;
  while (q.step()) {
    RunResult r;
    r.key.algorithm = q.column_text(0);
    try {
      r.key.heuristic = parse_heuristic(q.column_text(1));
    } catch (core::Error& e) {
      e.set_location_if_missing(core::SourceLocation(db_.path()));
      throw;
    }
    r.key.size = static_cast<std::size_t>(q.column_int64(2));
    r.key.trial = static_cast<std::size_t>(q.column_int64(3));
    r.seed = from_sql(q.column_int64(4));
    r.n_modifications = static_cast<std::size_t>(q.column_int64(5));
    r.generation_seconds = q.column_double(6);
    for (std::size_t o = 0; o < kNumOracles; ++o)
      r.oracle[o] = read_value(q, static_cast<int>(7 + o));
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<NoiseResult> CampaignStore::noise() const {
  std::lock_guard lock(mutex_);
  auto q = db_.prepare(
      "SELECT algorithm, trial, seed, top_out, jaccard, aod, rbo FROM noise "
      "ORDER BY algorithm, trial");
  std::vector<NoiseResult> out;
  while (q.step()) {
    NoiseResult r;
    r.algorithm = q.column_text(0);
    r.trial = static_cast<std::size_t>(q.column_int64(1));
    r.seed = from_sql(q.column_int64(2));
    for (std::size_t o = 0; o < kNumOracles; ++o)
      r.oracle[o] = read_value(q, static_cast<int>(3 + o));
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace assay::stability
