// Checkpoint files: the archive round trip, and every way a damaged file must be refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "solvers/common/checkpoint.hpp"
#include "test_support.hpp"

using namespace parcae;
namespace fs = std::filesystem;

namespace {

std::vector<char> sample_payload() {
  StateArchive ar;
  std::vector<double> v{1.5, -2.25, 3e300, 0.0};
  std::vector<std::uint8_t> flags{1, 0, 1};
  std::string s = "solid";
  int n = 42;
  ar.vec(v);
  ar.vec(flags);
  ar.str(s);
  ar.pod(n);
  return ar.bytes();
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const RuntimeError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(Checkpoint, ArchiveRoundTripIsExact) {
  StateArchive in(sample_payload(), "mem");
  std::vector<double> v;
  std::vector<std::uint8_t> flags;
  std::string s;
  int n = 0;
  in.vec(v);
  in.vec(flags);
  in.str(s);
  in.pod(n);
  in.expect_end();
  EXPECT_EQ(v, (std::vector<double>{1.5, -2.25, 3e300, 0.0}));
  EXPECT_EQ(flags, (std::vector<std::uint8_t>{1, 0, 1}));
  EXPECT_EQ(s, "solid");
  EXPECT_EQ(n, 42);
}

TEST(Checkpoint, ArchiveRefusesShortOrLongPayloads) {
  auto bytes = sample_payload();
  bytes.resize(bytes.size() - 3);
  StateArchive shortened(bytes, "short.bin");
  std::vector<double> v;
  std::vector<std::uint8_t> flags;
  std::string s;
  int n = 0;
  shortened.vec(v);
  shortened.vec(flags);
  shortened.str(s);
  EXPECT_NE(message_of([&] { shortened.pod(n); }).find("short.bin ends early"), std::string::npos);

  StateArchive longer(sample_payload(), "long.bin");
  longer.vec(v);
  EXPECT_NE(message_of([&] { longer.expect_end(); }).find("unread bytes"), std::string::npos);

  // An absurd array length (damaged count) is refused before any allocation.
  StateArchive bogus(std::vector<char>(8, '\x7f'), "bogus.bin");
  EXPECT_NE(message_of([&] { bogus.vec(v); }).find("does not fit"), std::string::npos);
}

TEST(Checkpoint, FileRoundTripAndDamageDetection) {
  const auto dir = test::make_temp_dir("ckpt_file");
  const fs::path f = dir / "rank-00000.bin";
  const auto payload = sample_payload();
  write_checkpoint_file(f, payload);
  EXPECT_FALSE(fs::exists(f.string() + ".tmp"));
  EXPECT_EQ(read_checkpoint_file(f), payload);

  // One flipped bit anywhere in the payload: checksum mismatch.
  std::string bytes = test::read_file(f);
  bytes[bytes.size() - 5] ^= 0x01;
  test::write_file(f, bytes);
  EXPECT_NE(message_of([&] { (void)read_checkpoint_file(f); }).find("checksum mismatch"),
            std::string::npos);
  // Truncated.
  test::write_file(f, bytes.substr(0, bytes.size() - 10));
  const std::string m = message_of([&] { (void)read_checkpoint_file(f); });
  EXPECT_NE(m.find("truncated"), std::string::npos) << m;
  EXPECT_NE(m.find(f.string()), std::string::npos) << m;
  // Not a checkpoint at all; missing.
  test::write_file(f, "hello");
  EXPECT_NE(message_of([&] { (void)read_checkpoint_file(f); }).find("not a parcae checkpoint"),
            std::string::npos);
  EXPECT_NE(message_of([&] { (void)read_checkpoint_file(dir / "nope.bin"); }).find("missing"),
            std::string::npos);
}

TEST(Checkpoint, IncompleteCheckpointsAreIgnoredAndOldOnesPruned) {
  const auto out = test::make_temp_dir("ckpt_dir");
  const par::Comm serial;
  CheckpointInfo info;
  info.deck = "deck.k";
  info.fingerprint = 0x1234;
  const auto payload = sample_payload();
  for (int cycle : {100, 200, 300}) {
    info.cycle = cycle;
    info.time = cycle * 1e-6;
    (void)write_checkpoint(serial, out, info, payload);
  }
  // Only the last two are kept.
  EXPECT_FALSE(fs::exists(out / "checkpoints" / "cycle-000000100"));
  EXPECT_TRUE(fs::exists(out / "checkpoints" / "cycle-000000200" / "manifest.json"));
  // A crash while writing cycle 400: rank file present, no manifest.
  fs::create_directories(out / "checkpoints" / "cycle-000000400");
  test::write_file(out / "checkpoints" / "cycle-000000400" / "rank-00000.bin.tmp", "partial");
  const CheckpointInfo found = find_checkpoint(out);
  EXPECT_EQ(found.cycle, 300);
  EXPECT_EQ(found.deck, "deck.k");
  EXPECT_EQ(found.fingerprint, 0x1234u);
  const std::string m =
      message_of([&] { (void)find_checkpoint(out / "checkpoints" / "cycle-000000400"); });
  EXPECT_NE(m.find("incomplete"), std::string::npos) << m;
  // Damage the newest complete one: refused, naming the previous usable checkpoint.
  test::write_file(out / "checkpoints" / "cycle-000000300" / "rank-00000.bin", "xx");
  const std::string m2 = message_of([&] { (void)find_checkpoint(out); });
  EXPECT_NE(m2.find("cycle-000000200"), std::string::npos) << m2;
  EXPECT_EQ(find_checkpoint(out / "checkpoints" / "cycle-000000200").cycle, 200);
}

TEST(Checkpoint, RewindTruncatesOutputsAndDropsLaterFamilyMembers) {
  const auto out = test::make_temp_dir("ckpt_rewind");
  test::write_file(out / "glstat", "0123456789");
  test::write_file(out / "d3plot", "abcdef");
  CheckpointInfo info;
  info.outputs = output_file_sizes(out);
  EXPECT_EQ(info.outputs.at("glstat"), 10u);
  test::write_file(out / "glstat", "0123456789later");
  test::write_file(out / "d3plot01", "written after the checkpoint");
  rewind_outputs(out, info);
  EXPECT_EQ(test::read_file(out / "glstat"), "0123456789");
  EXPECT_FALSE(fs::exists(out / "d3plot01"));
  EXPECT_EQ(test::read_file(out / "d3plot"), "abcdef");
  // A file that shrank since: refused (outputs were modified).
  test::write_file(out / "glstat", "01");
  EXPECT_NE(message_of([&] { rewind_outputs(out, info); }).find("shorter"), std::string::npos);
}
