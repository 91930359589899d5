// Synthetic MPI program for the profiler tests: an exactly known set of MPI calls with known
// sizes (tests/prof/check_profile.py derives the expected profile from the same parameters).
// The phase API is looked up with dlsym so that the same source works linked against
// libparcae-mpiprof.so and unmodified under LD_PRELOAD.
//
//   prof_synthetic <iodir>
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <string>
#include <vector>

namespace {

// Parameters (mirrored in check_profile.py).
constexpr int kRingDoubles = 1000;    // ring Send/Recv of 1000 doubles ...
constexpr int kRingRounds = 3;        // ... 3 times, each round inside phase "exchange"
constexpr int kHaloInts = 100;        // Isend/Irecv of 100 ints to both neighbours + Waitall ...
constexpr int kHaloRounds = 2;        // ... 2 times, inside phase "exchange"
constexpr int kAllreduceInts = 4;     // Allreduce of 4 ints ...
constexpr int kAllreduceCalls = 5;    // ... 5 times inside phase "reduce"
constexpr int kBcastDoubles = 131072; // Bcast of 1 MiB
constexpr int kSendrecvDoubles = 10;
constexpr int kIoInts = 256; // write_at_all + read_at of 256 ints per rank

using RegisterFn = int (*)(const char*);
using PushFn = void (*)(int);
using PopFn = void (*)();
using MetaFn = void (*)(const char*, const char*);

RegisterFn reg = nullptr;
PushFn push = nullptr;
PopFn pop = nullptr;

int phase(const char* name) {
  return reg ? reg(name) : 0;
}
void enter(int id) {
  if (push) push(id);
}
void leave() {
  if (pop) pop();
}

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "prof_synthetic: %s\n", what);
    std::abort();
  }
}

} // namespace

int main(int argc, char** argv) {
  reg = reinterpret_cast<RegisterFn>(dlsym(RTLD_DEFAULT, "parcae_prof_phase_register"));
  push = reinterpret_cast<PushFn>(dlsym(RTLD_DEFAULT, "parcae_prof_phase_push"));
  pop = reinterpret_cast<PopFn>(dlsym(RTLD_DEFAULT, "parcae_prof_phase_pop"));
  auto meta = reinterpret_cast<MetaFn>(dlsym(RTLD_DEFAULT, "parcae_prof_set_metadata"));
  check(reg && push && pop && meta, "parcae_prof_* not found (profiler not loaded)");
  check(argc >= 2, "usage: prof_synthetic <iodir>");

  // Phases registered before MPI_Init; the same name gives the same id.
  const int exchange = phase("exchange");
  const int reduce = phase("reduce");
  const int inner = phase("inner");
  check(exchange == phase("exchange") && exchange != reduce && reduce != inner, "phase ids");
  meta("deck", "synthetic");

  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;

  // Ring Send/Recv (even ranks send first).
  std::vector<double> ring(kRingDoubles, rank), ring_in(kRingDoubles);
  for (int k = 0; k < kRingRounds; ++k) {
    enter(exchange);
    if (rank % 2 == 0) {
      MPI_Send(ring.data(), kRingDoubles, MPI_DOUBLE, right, 1, MPI_COMM_WORLD);
      MPI_Recv(ring_in.data(), kRingDoubles, MPI_DOUBLE, left, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(ring_in.data(), kRingDoubles, MPI_DOUBLE, left, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      MPI_Send(ring.data(), kRingDoubles, MPI_DOUBLE, right, 1, MPI_COMM_WORLD);
    }
    leave();
    check(ring_in[0] == left, "ring data");
  }

  // Halo exchange: Isend/Irecv to both neighbours + Waitall.
  std::vector<int> out(2 * kHaloInts, rank), in(2 * kHaloInts, -1);
  enter(exchange);
  for (int k = 0; k < kHaloRounds; ++k) {
    MPI_Request req[4];
    MPI_Irecv(in.data(), kHaloInts, MPI_INT, left, 2, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(in.data() + kHaloInts, kHaloInts, MPI_INT, right, 3, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(out.data(), kHaloInts, MPI_INT, right, 2, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(out.data() + kHaloInts, kHaloInts, MPI_INT, left, 3, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
  }
  leave();
  check(in[0] == left && in[kHaloInts] == right, "halo data");

  // Reductions in phase "reduce", one Barrier in the nested phase "inner".
  enter(reduce);
  int v[kAllreduceInts] = {1, 2, 3, rank}, sum[kAllreduceInts];
  for (int k = 0; k < kAllreduceCalls; ++k)
    MPI_Allreduce(v, sum, kAllreduceInts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  check(sum[0] == size && sum[3] == size * (size - 1) / 2, "allreduce");
  enter(inner);
  MPI_Barrier(MPI_COMM_WORLD);
  leave();
  leave();

  // Outside every phase: Bcast 1 MiB, Gatherv (rank r sends r + 1 ints), Barrier, Sendrecv.
  std::vector<double> big(kBcastDoubles, rank == 0 ? 1.5 : 0.0);
  MPI_Bcast(big.data(), kBcastDoubles, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  check(big[kBcastDoubles - 1] == 1.5, "bcast");
  std::vector<int> mine(rank + 1, rank), counts(size), displs(size), all;
  for (int r = 0; r < size; ++r) {
    counts[r] = r + 1;
    displs[r] = r == 0 ? 0 : displs[r - 1] + counts[r - 1];
  }
  all.resize(displs[size - 1] + counts[size - 1]);
  MPI_Gatherv(mine.data(), rank + 1, MPI_INT, all.data(), counts.data(), displs.data(), MPI_INT, 0,
              MPI_COMM_WORLD);
  if (rank == 0) check(all.back() == size - 1, "gatherv");
  MPI_Barrier(MPI_COMM_WORLD);
  double sr[kSendrecvDoubles] = {}, sr_in[kSendrecvDoubles] = {};
  sr[0] = rank;
  MPI_Sendrecv(sr, kSendrecvDoubles, MPI_DOUBLE, right, 4, sr_in, kSendrecvDoubles, MPI_DOUBLE,
               left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  check(sr_in[0] == left, "sendrecv");

  // MPI-IO: every rank writes its block collectively, then reads it back independently.
  const std::string path = std::string(argv[1]) + "/synthetic.dat";
  MPI_File fh;
  std::vector<int> block(kIoInts, rank * 7), back(kIoInts, -1);
  const MPI_Offset offset = static_cast<MPI_Offset>(rank) * kIoInts * sizeof(int);
  check(MPI_File_open(MPI_COMM_WORLD, path.c_str(), MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                      &fh) == MPI_SUCCESS,
        "file open");
  MPI_File_write_at_all(fh, offset, block.data(), kIoInts, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_sync(fh);
  MPI_File_close(&fh);
  MPI_File_open(MPI_COMM_WORLD, path.c_str(), MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
  MPI_File_read_at(fh, offset, back.data(), kIoInts, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_close(&fh);
  check(back[kIoInts - 1] == rank * 7, "file read");

  MPI_Finalize();
  return 0;
}
