#include "core/unit_store.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <string>

#include "core/error.h"
#include "support/error_message.h"
#include "support/temp_dir.h"

namespace assay::core {
namespace {

using ::assay::testing::TempDir;

TEST(UnitStore, ContentHashIsSha256OfTheBytes) {
  TempDir dir;
  // sha256("abc"), FIPS 180-2 appendix B.1.
  EXPECT_EQ(file_content_hash(dir.write("abc.txt", "abc")),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_THROW(file_content_hash(dir.file("absent")), IoError);
}

TEST(UnitStore, IdentityIsRecordedOnceAndCheckedAfter) {
  TempDir dir;
  const std::string path = dir.file("s.sqlite");
  {
    UnitStore store(path);
    store.check_identity({{"seed", "1"}, {"k", "10"}});
  }
  UnitStore store(path);
  EXPECT_NO_THROW(store.check_identity({{"seed", "1"}, {"k", "10"}}));
  const auto what = assay::testing::error_message_of<UsageError>([&] {
    store.check_identity({{"seed", "2"}, {"k", "10"}});
  });
  EXPECT_NE(what.find(path), std::string::npos) << what;
  EXPECT_NE(what.find("seed is '1' there but '2' now"), std::string::npos) << what;
  // A key the store lacks is recorded (stores begun by older versions gain it).
  store.check_identity({{"seed", "1"}, {"new", "x"}});
  EXPECT_EQ(store.identity().at("new"), "x");
}

TEST(UnitStore, ChangedInputFileIsNamed) {
  TempDir dir;
  const std::string data = dir.write("ratings.csv", "user,item,rating\n1,2,5\n");
  StoreIdentity identity{{"seed", "1"}};
  add_input_files(identity, {data});
  UnitStore store(dir.file("s.sqlite"));
  store.check_identity(identity);

  dir.write("ratings.csv", "user,item,rating\n1,2,4\n");
  StoreIdentity now{{"seed", "1"}};
  add_input_files(now, {data});
  const auto what =
      assay::testing::error_message_of<UsageError>([&] { store.check_identity(now); });
  EXPECT_EQ(what.rfind(data + ": this input file changed", 0), 0u) << what;
  EXPECT_NE(what.find(store.path()), std::string::npos) << what;
}

TEST(UnitStore, MergeRefusesAbsentSelfForeignAndUnidentifiedStores) {
  TempDir dir;
  const StoreIdentity identity{{"seed", "1"}};
  UnitStore store(dir.file("mine.sqlite"));
  store.check_identity(identity);

  EXPECT_THROW(store.merge(dir.file("absent.sqlite"), {}, identity), IoError);
  EXPECT_FALSE(std::filesystem::exists(dir.file("absent.sqlite")));
  EXPECT_NE(assay::testing::error_message_of<UsageError>([&] {
              store.merge(dir.file("mine.sqlite"), {}, identity);
            }).find("itself"),
            std::string::npos);
  {
    UnitStore foreign(dir.file("foreign.sqlite"));
    foreign.check_identity({{"seed", "2"}});
    UnitStore blank(dir.file("blank.sqlite"));
  }
  const auto what = assay::testing::error_message_of<UsageError>(
      [&] { store.merge(dir.file("foreign.sqlite"), {}, identity); });
  EXPECT_NE(what.find("foreign.sqlite"), std::string::npos) << what;
  EXPECT_NE(what.find("another campaign"), std::string::npos) << what;
  EXPECT_NE(assay::testing::error_message_of<UsageError>([&] {
              store.merge(dir.file("blank.sqlite"), {}, identity);
            }).find("no campaign identity"),
            std::string::npos);
}

TEST(UnitStore, MergeOfAStoreBeingWrittenIsRefused) {
  TempDir dir;
  const StoreIdentity identity{{"seed", "1"}};
  const std::string other_path = dir.file("shard.sqlite");
  {
    UnitStore other(other_path);
    other.check_identity(identity);
  }
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    // A shard still running: holds its store's lock.
    ::close(ready[0]);
    UnitStore other(other_path);
    const auto lock = other.lock();
    (void)!::write(ready[1], "1", 1);
    for (;;) ::pause();
  }
  ::close(ready[1]);
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  ::close(ready[0]);
  UnitStore store(dir.file("mine.sqlite"));
  store.check_identity(identity);
  const auto what =
      assay::testing::error_message_of<UsageError>([&] { store.merge(other_path, {}, identity); });
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  EXPECT_NE(what.find(other_path), std::string::npos) << what;
  EXPECT_NE(what.find("being written"), std::string::npos) << what;
  EXPECT_NO_THROW(store.merge(other_path, {}, identity));
}

}  // namespace
}  // namespace assay::core
