// The whole-file reader of model files: a device or a binary file stops at its first NUL, a file
// over the limit as soon as it passes it; neither is read whole.
#include "models/whole_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/error.h"
#include "support/error_message.h"
#include "support/temp_dir.h"

namespace assay::models {
namespace {

using assay::testing::error_message_of;
using ::testing::HasSubstr;

TEST(WholeFile, ReadsTheBytesOfAJsonText) {
  assay::testing::TempDir dir;
  const std::string text = "{\"a\": [" + std::string(200000, ' ') + "1]}\n";
  EXPECT_EQ(read_whole_file(dir.write("m.json", text)), text);
  EXPECT_THAT(error_message_of<core::IoError>([&] { read_whole_file(dir.file("none.json")); }),
              HasSubstr("none.json: cannot open"));
}

// /dev/zero never ends: an unbounded read would grow until memory runs out.
TEST(WholeFile, NulOrOverTheLimitStopsTheReadAtOnce) {
  EXPECT_THAT(error_message_of<core::ParseError>([] { read_whole_file("/dev/zero"); }),
              HasSubstr("/dev/zero at byte 0: binary data (a NUL byte) where a JSON text was "
                        "expected"));
  assay::testing::TempDir dir;
  const auto late = dir.write("late.json", std::string(100000, ' ') + std::string(1, '\0'));
  EXPECT_THAT(error_message_of<core::ParseError>([&] { read_whole_file(late); }),
              HasSubstr("late.json at byte 100000: binary data"));
  const auto big = dir.write("big.json", std::string(300000, ' '));
  EXPECT_THAT(error_message_of<core::ParseError>([&] { read_whole_file(big, 200000); }),
              HasSubstr("big.json: larger than the limit of 200000 bytes"));
  EXPECT_EQ(read_whole_file(big, 300000).size(), 300000u);
}

}  // namespace
}  // namespace assay::models
