#include "lm/safetensors_file.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/error.h"
#include "lm/safetensors_builder.h"
#include "support/temp_dir.h"

namespace assay::lm {
namespace {

using testing::build_file;
using testing::f32_bytes;
using testing::raw_file;
using testing::RawTensor;

// Opens `content` written to a temp file and returns the error message (empty if it opened).
std::string open_error(const std::string& content) {
  assay::testing::TempDir dir;
  const std::string path = dir.write("m.safetensors", content);
  try {
    SafetensorsFile f(path);
  } catch (const core::ParseError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    return e.what();
  }
  return "";
}

std::string u16_bytes(std::initializer_list<std::uint16_t> v) {
  std::string s;
  for (auto x : v) {
    s.push_back(static_cast<char>(x & 0xFF));
    s.push_back(static_cast<char>(x >> 8));
  }
  return s;
}

TEST(SafetensorsFile, ReadsF32F16Bf16AndMetadata) {
  assay::testing::TempDir dir;
  std::map<std::string, RawTensor> t;
  t["a"] = {"F32", {2, 2}, f32_bytes({1.0f, -2.5f, 3.25f, 0.0f})};
  // 1.0, -2.0, 65504 (max half), smallest subnormal, +inf
  t["h"] = {"F16", {5}, u16_bytes({0x3C00, 0xC000, 0x7BFF, 0x0001, 0x7C00})};
  t["b"] = {"BF16", {3}, u16_bytes({0x3F80, 0xC0A0, 0x0000})};  // 1.0, -5.0, 0
  t["i"] = {"I64", {1}, std::string(8, '\0')};
  t["z"] = {"F32", {0, 4}, ""};
  std::string content = build_file(t);
  const std::string path = dir.write("m.safetensors", content);
  SafetensorsFile f(path);
  ASSERT_EQ(f.tensors().size(), 5u);
  EXPECT_EQ(f.to_f32(*f.find("a")), (std::vector<float>{1.0f, -2.5f, 3.25f, 0.0f}));
  const auto h = f.to_f32(*f.find("h"));
  EXPECT_EQ(h[0], 1.0f);
  EXPECT_EQ(h[1], -2.0f);
  EXPECT_EQ(h[2], 65504.0f);
  EXPECT_EQ(h[3], std::ldexp(1.0f, -24));
  EXPECT_TRUE(std::isinf(h[4]));
  EXPECT_EQ(f.to_f32(*f.find("b")), (std::vector<float>{1.0f, -5.0f, 0.0f}));
  EXPECT_EQ(f.find("z")->n_elements(), 0u);
  EXPECT_TRUE(f.to_f32(*f.find("z")).empty());
  EXPECT_EQ(f.find("missing"), nullptr);
  try {
    f.to_f32(*f.find("i"));
    FAIL();
  } catch (const core::ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("tensor 'i' has dtype I64, expected a floating-point"),
              std::string::npos)
        << e.what();
  }
}

TEST(SafetensorsFile, Metadata) {
  assay::testing::TempDir dir;
  const std::string header =
      R"({"__metadata__":{"format":"pt"},"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})";
  SafetensorsFile f(dir.write("m.safetensors", raw_file(header, f32_bytes({7.0f}))));
  EXPECT_EQ(f.metadata().at("format"), "pt");
  EXPECT_EQ(f.to_f32(*f.find("w"))[0], 7.0f);
  EXPECT_NE(open_error(raw_file(R"({"__metadata__":{"format":1}})", ""))
                .find("__metadata__ value of 'format' is not a string"),
            std::string::npos);
}

TEST(SafetensorsFile, MissingFileIsIoError) {
  EXPECT_THROW(SafetensorsFile("/nonexistent/model.safetensors"), core::IoError);
}

TEST(SafetensorsFile, ShorterThanTheLengthField) {
  EXPECT_NE(open_error("abc").find("truncated safetensors file: 3 bytes, expected at least 8"),
            std::string::npos);
  EXPECT_NE(open_error("").find("0 bytes"), std::string::npos);
}

TEST(SafetensorsFile, HeaderLengthPastEndOfFile) {
  const std::string msg = open_error(testing::le64(1000) + "{}");
  EXPECT_NE(msg.find("header length 1000 runs past the end of the 10-byte file"), std::string::npos)
      << msg;
}

TEST(SafetensorsFile, HugeHeaderLength) {
  const std::string msg = open_error(testing::le64(0xFFFFFFFFFFFFFFF0ull) + "{}");
  EXPECT_NE(msg.find("exceeds the 100000000-byte limit"), std::string::npos) << msg;
}

TEST(SafetensorsFile, PyTorchZipIsRecognisedAsNotSafetensors) {
  // A torch.save zip starts with "PK\x03\x04": read as a length that is absurdly large.
  const std::string msg = open_error(std::string("PK\x03\x04\x14\x00\x00\x00", 8) + "junkjunk");
  EXPECT_NE(msg.find("PyTorch"), std::string::npos) << msg;
}

TEST(SafetensorsFile, MalformedJson) {
  const std::string msg = open_error(raw_file(R"({"w":{"dtype":"F32",)", ""));
  EXPECT_NE(msg.find("malformed JSON header"), std::string::npos) << msg;
  EXPECT_NE(msg.find("at byte"), std::string::npos) << msg;
}

TEST(SafetensorsFile, NumberOverflowInHeaderIsAParseError) {
  // Found by the libFuzzer target: nlohmann reports a number beyond double range as
  // out_of_range (not parse_error); it must still surface as a ParseError naming the file.
  const std::string msg = open_error(
      raw_file(R"({"w":{"dtype":"F32","shape":[3e9040],"data_offsets":[0,4]}})", "abcd"));
  EXPECT_NE(msg.find("malformed JSON header"), std::string::npos) << msg;
  EXPECT_NE(msg.find("number overflow"), std::string::npos) << msg;
}

TEST(SafetensorsFile, HeaderNotAnObject) {
  EXPECT_NE(open_error(raw_file("[1,2]", "")).find("does not start with '{'"), std::string::npos);
  EXPECT_NE(open_error(raw_file("", "")).find("does not start with '{'"), std::string::npos);
}

TEST(SafetensorsFile, UnknownDtype) {
  const std::string msg =
      open_error(raw_file(R"({"w":{"dtype":"F8","shape":[1],"data_offsets":[0,1]}})", "x"));
  EXPECT_NE(msg.find("tensor 'w': unknown dtype 'F8'"), std::string::npos) << msg;
}

TEST(SafetensorsFile, NegativeOrFractionalShape) {
  EXPECT_NE(open_error(raw_file(R"({"w":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}})",
                                std::string(4, '\0')))
                .find("shape entries must be non-negative integers"),
            std::string::npos);
  EXPECT_NE(open_error(raw_file(R"({"w":{"dtype":"F32","shape":[1.5],"data_offsets":[0,4]}})",
                                std::string(4, '\0')))
                .find("shape entries must be non-negative integers"),
            std::string::npos);
}

TEST(SafetensorsFile, ShapeDisagreesWithOffsets) {
  const std::string msg = open_error(raw_file(
      R"({"w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,12]}})", std::string(16, '\0')));
  EXPECT_NE(msg.find("dtype F32 shape [2,2] needs 16 bytes, data_offsets [0, 12) hold 12"),
            std::string::npos)
      << msg;
}

TEST(SafetensorsFile, OffsetsPastTheData) {
  const std::string msg = open_error(
      raw_file(R"({"w":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}})", std::string(8, '\0')));
  EXPECT_NE(msg.find("data_offsets end 16 lies past the 8-byte data buffer"), std::string::npos)
      << msg;
}

TEST(SafetensorsFile, OffsetsReversed) {
  const std::string msg = open_error(
      raw_file(R"({"w":{"dtype":"F32","shape":[0],"data_offsets":[8,4]}})", std::string(8, '\0')));
  EXPECT_NE(msg.find("data_offsets [8, 4) end before they begin"), std::string::npos) << msg;
}

TEST(SafetensorsFile, OffsetsMalformed) {
  const std::string msg = open_error(
      raw_file(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0]}})", std::string(4, '\0')));
  EXPECT_NE(msg.find("'data_offsets' must be two non-negative integers"), std::string::npos) << msg;
  EXPECT_NE(open_error(raw_file(R"({"w":{"dtype":"F32","shape":[1]}})", std::string(4, '\0')))
                .find("'data_offsets' must be"),
            std::string::npos);
  EXPECT_NE(
      open_error(raw_file(R"({"w":{"shape":[1],"data_offsets":[0,4]}})", std::string(4, '\0')))
          .find("missing string 'dtype'"),
      std::string::npos);
  EXPECT_NE(
      open_error(raw_file(R"({"w":{"dtype":"F32","data_offsets":[0,4]}})", std::string(4, '\0')))
          .find("missing array 'shape'"),
      std::string::npos);
  EXPECT_NE(open_error(raw_file(R"({"w":3})", "")).find("tensor 'w': entry is not an object"),
            std::string::npos);
  EXPECT_NE(open_error(raw_file(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4],"x":1}})",
                                std::string(4, '\0')))
                .find("unexpected field 'x'"),
            std::string::npos);
}

TEST(SafetensorsFile, OverlappingTensors) {
  const std::string msg = open_error(raw_file(
      R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
      std::string(12, '\0')));
  EXPECT_NE(msg.find("tensor 'b' data_offsets [4, 12) overlap tensor 'a' [0, 8)"),
            std::string::npos)
      << msg;
}

TEST(SafetensorsFile, DuplicateTensorName) {
  const std::string msg = open_error(raw_file(
      R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
      std::string(8, '\0')));
  EXPECT_NE(msg.find("duplicate key 'a' in the header"), std::string::npos) << msg;
}

TEST(SafetensorsFile, ShapeOverflow) {
  const std::string msg = open_error(
      raw_file(R"({"w":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,4]}})",
               std::string(4, '\0')));
  EXPECT_NE(msg.find("overflows a 64-bit byte count"), std::string::npos) << msg;
}

TEST(SafetensorsFile, TruncatedData) {
  // A valid file cut short: the last tensor's end now lies past the data.
  std::map<std::string, RawTensor> t;
  t["w"] = {"F32", {4}, f32_bytes({1, 2, 3, 4})};
  std::string content = build_file(t);
  content.resize(content.size() - 3);
  EXPECT_NE(open_error(content).find("lies past the 13-byte data buffer"), std::string::npos);
}

}  // namespace
}  // namespace assay::lm
