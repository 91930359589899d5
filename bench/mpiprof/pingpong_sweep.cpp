// Ping-pong and allreduce over message sizes, for `parcae whatif calibrate` (fits the latency
// alpha and the inverse bandwidth beta of the alpha-beta model, python/parcae_tools/whatif.py).
// Run on 2 ranks; rank 0 prints one JSON object:
//   {"pingpong": [[bytes, seconds per one-way message], ...],
//    "allreduce": [[bytes, seconds per call], ...]}
// Each size is timed over 5 loops and the median loop is kept: the typical cost on this
// machine as it is (on a loaded machine a rank that waits for a descheduled partner pays for
// it in every message, and so does a real run).
//
//   parcae_pingpong_<flavour> [max_bytes] [scale]   (default 4 MiB, scale 1)
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0) std::fprintf(stderr, "parcae_pingpong: run on 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const long max_bytes = argc > 1 ? std::atol(argv[1]) : (4L << 20);
  const double scale = argc > 2 ? std::atof(argv[2]) : 1.0;
  const int peer = 1 - rank;
  std::vector<char> buf(static_cast<std::size_t>(std::max(max_bytes, 8L)));
  std::vector<char> out(buf.size());
  std::vector<long> sizes = {0};
  for (long b = 8; b <= max_bytes; b *= 4) sizes.push_back(b);
  constexpr int reps = 5;
  auto median = [](std::array<double, reps> v) {
    std::sort(v.begin(), v.end());
    return v[reps / 2];
  };
  std::vector<std::pair<long, double>> pp, ar;
  for (const long b : sizes) {
    // About 20 ms per loop: many iterations for small messages, few for large ones.
    const int iters =
        std::max(4, static_cast<int>(scale * 2000.0 / (1.0 + static_cast<double>(b) / 16384.0)));
    std::array<double, reps> loops{};
    for (int r = 0; r < reps; ++r) {
      MPI_Barrier(MPI_COMM_WORLD);
      const double t0 = MPI_Wtime();
      for (int i = 0; i < iters; ++i) {
        if (rank == 0) {
          MPI_Send(buf.data(), static_cast<int>(b), MPI_BYTE, peer, 0, MPI_COMM_WORLD);
          MPI_Recv(buf.data(), static_cast<int>(b), MPI_BYTE, peer, 0, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
        } else {
          MPI_Recv(buf.data(), static_cast<int>(b), MPI_BYTE, peer, 0, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
          MPI_Send(buf.data(), static_cast<int>(b), MPI_BYTE, peer, 0, MPI_COMM_WORLD);
        }
      }
      loops[r] = (MPI_Wtime() - t0) / (2.0 * iters);
    }
    double best = median(loops);
    MPI_Bcast(&best, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    pp.emplace_back(b, best);
    // Allreduce of doubles (sum); 0 bytes is skipped.
    if (b >= 8) {
      const int n = static_cast<int>(b / 8);
      for (int r = 0; r < reps; ++r) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        for (int i = 0; i < iters; ++i)
          MPI_Allreduce(buf.data(), out.data(), n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        loops[r] = (MPI_Wtime() - t0) / iters;
      }
      best = median(loops);
      MPI_Bcast(&best, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
      ar.emplace_back(b, best);
    }
  }
  if (rank == 0) {
    std::printf("{\"pingpong\": [");
    for (std::size_t i = 0; i < pp.size(); ++i)
      std::printf("%s[%ld, %.6e]", i ? ", " : "", pp[i].first, pp[i].second);
    std::printf("], \"allreduce\": [");
    for (std::size_t i = 0; i < ar.size(); ++i)
      std::printf("%s[%ld, %.6e]", i ? ", " : "", ar[i].first, ar[i].second);
    std::printf("]}\n");
  }
  MPI_Finalize();
  return 0;
}
