// Small-message loops for the profiler overhead benchmark (bench/mpiprof/run_overhead.py).
// Run on 2 ranks, unmodified or under LD_PRELOAD=libparcae-mpiprof.so; rank 0 prints one JSON
// object with the time per MPI call of each loop in nanoseconds:
//   iprobe     MPI_Iprobe with nothing to receive (a purely local call: the wrapper's cost
//              stands out most clearly)
//   pingpong   8-byte MPI_Send / MPI_Recv round trips (per call: per round trip / 2)
//   allreduce  MPI_Allreduce of one double
//
//   mpiprof_pingpong [scale]   (scale multiplies the iteration counts, default 1)
#include <mpi.h>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0) std::fprintf(stderr, "mpiprof_pingpong: run on 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const double scale = argc > 1 ? std::atof(argv[1]) : 1.0;
  const int n_iprobe = static_cast<int>(400000 * scale);
  const int n_pingpong = static_cast<int>(20000 * scale);
  const int n_allreduce = static_cast<int>(20000 * scale);
  const int peer = 1 - rank;

  int flag = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int i = 0; i < n_iprobe; ++i)
    MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  const double t_iprobe = (MPI_Wtime() - t0) / n_iprobe;

  double msg = 1.0;
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  for (int i = 0; i < n_pingpong; ++i) {
    if (rank == 0) {
      MPI_Send(&msg, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
      MPI_Recv(&msg, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&msg, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&msg, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
    }
  }
  const double t_pingpong = (MPI_Wtime() - t0) / (2.0 * n_pingpong);

  double in = rank, out = 0.0;
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  for (int i = 0; i < n_allreduce; ++i)
    MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  const double t_allreduce = (MPI_Wtime() - t0) / n_allreduce;

  if (rank == 0)
    std::printf("{\"iprobe\": %.3f, \"pingpong\": %.3f, \"allreduce\": %.3f}\n", t_iprobe * 1e9,
                t_pingpong * 1e9, t_allreduce * 1e9);
  MPI_Finalize();
  return 0;
}
