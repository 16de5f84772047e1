#include "core/sqlite_store.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>

#include "core/error.h"
#include "support/temp_dir.h"

namespace assay::core {
namespace {

TEST(SqliteStore, RoundTripsValuesBitwise) {
  testing::TempDir dir;
  const std::string path = dir.file("s.sqlite");
  const double tricky = 0.1 + 0.2;
  {
    SqliteStore store(path);
    store.exec("CREATE TABLE t (k TEXT PRIMARY KEY, i INTEGER, d REAL, n REAL)");
    auto insert = store.prepare("INSERT INTO t VALUES (?, ?, ?, ?)");
    insert.bind(1, std::string_view("a")).bind(2, std::int64_t{-7}).bind(3, tricky).bind_null(4);
    insert.run();
    insert.bind(1, std::string_view("b")).bind(2, std::numeric_limits<std::int64_t>::max());
    insert.bind(3, 1e-300).bind(4, 2.5);
    insert.run();
  }
  SqliteStore store(path);  // reopen: the rows were committed
  auto select = store.prepare("SELECT k, i, d, n FROM t ORDER BY k");
  ASSERT_TRUE(select.step());
  EXPECT_EQ(select.column_text(0), "a");
  EXPECT_EQ(select.column_int64(1), -7);
  const double d = select.column_double(2);
  EXPECT_EQ(std::memcmp(&d, &tricky, sizeof d), 0);
  EXPECT_TRUE(select.column_is_null(3));
  ASSERT_TRUE(select.step());
  EXPECT_EQ(select.column_int64(1), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(select.column_double(2), 1e-300);
  EXPECT_FALSE(select.step());
}

TEST(SqliteStore, UsesWalJournal) {
  testing::TempDir dir;
  SqliteStore store(dir.file("w.sqlite"));
  auto mode = store.prepare("PRAGMA journal_mode");
  ASSERT_TRUE(mode.step());
  EXPECT_EQ(mode.column_text(0), "wal");
}

TEST(SqliteStore, TransactionRollsBackUnlessCommitted) {
  testing::TempDir dir;
  SqliteStore store(dir.file("t.sqlite"));
  store.exec("CREATE TABLE t (x INTEGER)");
  {
    SqliteTransaction tx(store);
    store.exec("INSERT INTO t VALUES (1)");
  }
  {
    SqliteTransaction tx(store);
    store.exec("INSERT INTO t VALUES (2)");
    tx.commit();
  }
  auto q = store.prepare("SELECT group_concat(x) FROM t");
  ASSERT_TRUE(q.step());
  EXPECT_EQ(q.column_text(0), "2");
}

TEST(SqliteStore, NotADatabaseNamesTheFile) {
  testing::TempDir dir;
  const std::string path = dir.write("junk.sqlite", std::string(4096, 'x'));
  try {
    SqliteStore store(path);
    FAIL() << "expected IoError";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("junk.sqlite"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not a database"), std::string::npos) << e.what();
  }
}

TEST(SqliteStore, UnopenablePathNamesTheFile) {
  testing::TempDir dir;
  try {
    SqliteStore store(dir.file("missing-dir/x.sqlite"));
    FAIL() << "expected IoError";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("missing-dir/x.sqlite"), std::string::npos) << e.what();
  }
}

TEST(SqliteStore, BadSqlNamesFileAndStatement) {
  testing::TempDir dir;
  SqliteStore store(dir.file("b.sqlite"));
  try {
    store.exec("CREATE TABLEX nope");
    FAIL() << "expected IoError";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("b.sqlite"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("CREATE TABLEX"), std::string::npos) << e.what();
  }
  EXPECT_THROW(store.prepare("SELECT * FROM missing_table"), IoError);
  store.exec("CREATE TABLE u (k INTEGER PRIMARY KEY)");
  store.exec("INSERT INTO u VALUES (1)");
  auto dup = store.prepare("INSERT INTO u VALUES (1)");
  EXPECT_THROW(dup.step(), IoError);
}

}  // namespace
}  // namespace assay::core
