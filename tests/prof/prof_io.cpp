// POSIX I/O accounting test program (tests/prof/check_io.py derives the expected profile from
// the same parameters): per process (or MPI rank) one file DIR/rank<r>.bin under the scratch
// directory, written and read in the study's 256 KiB pattern inside two phases, plus a file
// outside the scratch directory that a prefix filter must leave out.
//
//   prof_io --mpi|--serial SCRATCH OTHER
// The phase API is looked up with dlsym (linked or LD_PRELOAD, as prof_synthetic).
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <string>
#include <sys/uio.h>
#include <unistd.h>
#include <vector>

namespace {

// Parameters (mirrored in check_io.py).
constexpr std::size_t kBlock = 256 * 1024; // 10 x pwrite + 10 x pread of 256 KiB ...
constexpr int kBlocks = 10;                // ... half through the 64-bit entry points
constexpr std::size_t kSmall = 4096;       // 3 x write + 3 x read of 4 KiB
constexpr int kSmalls = 3;
constexpr std::size_t kIov[2] = {1000, 24}; // one writev of 1024 bytes
constexpr std::size_t kOther = 100;         // written outside the scratch directory

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "prof_io: %s: %s\n", what, std::strerror(errno));
    std::abort();
  }
}

int phase(const char* name) {
  auto reg =
      reinterpret_cast<int (*)(const char*)>(dlsym(RTLD_DEFAULT, "parcae_prof_phase_register"));
  return reg ? reg(name) : 0;
}
void enter(int id) {
  auto push = reinterpret_cast<void (*)(int)>(dlsym(RTLD_DEFAULT, "parcae_prof_phase_push"));
  if (push) push(id);
}
void leave() {
  auto pop = reinterpret_cast<void (*)()>(dlsym(RTLD_DEFAULT, "parcae_prof_phase_pop"));
  if (pop) pop();
}

void work(const std::string& scratch, const std::string& other, int rank) {
  std::vector<char> buf(kBlock, static_cast<char>('a' + rank));
  const std::string path = scratch + "/rank" + std::to_string(rank) + ".bin";
  enter(phase("factor_write"));
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  check(fd >= 0, "open for writing");
  for (int k = 0; k < kBlocks; ++k) {
    const off_t off = static_cast<off_t>(k) * static_cast<off_t>(kBlock);
    const ssize_t n = k % 2 == 0 ? ::pwrite(fd, buf.data(), kBlock, off)
                                 : ::pwrite64(fd, buf.data(), kBlock, off);
    check(n == static_cast<ssize_t>(kBlock), "pwrite");
  }
  for (int k = 0; k < kSmalls; ++k)
    check(::write(fd, buf.data(), kSmall) == static_cast<ssize_t>(kSmall), "write");
  iovec iov[2] = {{buf.data(), kIov[0]}, {buf.data(), kIov[1]}};
  check(::writev(fd, iov, 2) == static_cast<ssize_t>(kIov[0] + kIov[1]), "writev");
  check(::fsync(fd) == 0, "fsync");
  check(::close(fd) == 0, "close");
  leave();
  enter(phase("factor_read"));
  fd = ::open(path.c_str(), O_RDONLY);
  check(fd >= 0, "open for reading");
  for (int k = 0; k < kBlocks; ++k) {
    const off_t off = static_cast<off_t>(k) * static_cast<off_t>(kBlock);
    const ssize_t n =
        k % 2 == 0 ? ::pread(fd, buf.data(), kBlock, off) : ::pread64(fd, buf.data(), kBlock, off);
    check(n == static_cast<ssize_t>(kBlock), "pread");
  }
  for (int k = 0; k < kSmalls; ++k)
    check(::read(fd, buf.data(), kSmall) == static_cast<ssize_t>(kSmall), "read");
  // At the end of the file: 0 bytes (histogram bin 0).
  check(::pread(fd, buf.data(), kBlock, static_cast<off_t>(kBlocks * kBlock)) == 0, "pread EOF");
  check(::close(fd) == 0, "close");
  leave();
  // Outside the scratch directory (left out by a prefix filter), outside every phase.
  const std::string opath = other + "/rank" + std::to_string(rank) + ".txt";
  fd = ::open(opath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  check(fd >= 0, "open other");
  check(::write(fd, buf.data(), kOther) == static_cast<ssize_t>(kOther), "write other");
  check(::close(fd) == 0, "close other");
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: prof_io --mpi|--serial SCRATCH OTHER\n");
    return 2;
  }
  const bool mpi = std::strcmp(argv[1], "--mpi") == 0;
  int rank = 0;
  if (mpi) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  }
  work(argv[2], argv[3], rank);
  if (mpi) MPI_Finalize();
  return 0;
}
