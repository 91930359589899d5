// Long-running MPI program for the part-way dump tests (SIGUSR1, PARCAE_PROFILE_INTERVAL):
// rank 0 sleeps between barriers, so the other ranks spend their time inside MPI_Barrier.
//
//   prof_sleeper <dir> <seconds>
// Writes <dir>/pids/rank-N.pid once running (after an API dump, parcae_prof_dump, whose return
// code goes into the pid file's second line) and stops after <seconds> or when <dir>/stop
// exists (rank 0 decides).
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: prof_sleeper <dir> <seconds>\n");
    return 2;
  }
  const std::string dir = argv[1];
  const double seconds = std::atof(argv[2]);
  using DumpFn = int (*)();
  auto dump = reinterpret_cast<DumpFn>(dlsym(RTLD_DEFAULT, "parcae_prof_dump"));
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int dumped = dump ? dump() : -2;
  std::filesystem::create_directories(dir + "/pids");
  {
    const std::string tmp = dir + "/pids/.rank-" + std::to_string(rank);
    std::ofstream(tmp) << ::getpid() << "\n" << dumped << "\n";
    std::filesystem::rename(tmp, dir + "/pids/rank-" + std::to_string(rank) + ".pid");
  }
  const auto t0 = std::chrono::steady_clock::now();
  int stop = 0;
  while (!stop) {
    if (rank == 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      stop = (t > seconds || std::filesystem::exists(dir + "/stop")) ? 1 : 0;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Bcast(&stop, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
