#pragma once
// Shared by the CFD test files: the world communicator and helpers.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "par/comm.hpp"
#include "solvers/cfd/cfd_solver.hpp"

namespace cfdtest {

extern const parcae::par::Comm* g_world;

/// A directory shared by all ranks (same name on every rank; rank 0 creates it).
std::filesystem::path shared_dir(const std::string& tag);
/// Runs a case on `comm` (threads per rank), silent; fills info and the cavity results.
parcae::RunSummary run_case(const parcae::cfd::CfdCase& c, const parcae::par::Comm& comm,
                            const std::string& outdir, int threads = 1,
                            parcae::cfd::CfdRunInfo* info = nullptr,
                            parcae::cfd::CavityResults* cavity = nullptr);
/// Water under air in a closed 2-D tank of 1 x 1 m (20 x 20 cells), the water `depth` deep
/// (none: 0), gravity -y, pressure tolerance 1e-12, to t = 0.3.
parcae::cfd::CfdCase water_tank(double depth);
/// Runs `c` on the world into shared_dir(tag) (one thread), expects a normal termination and
/// returns the directory; `info` receives the run's figures.
std::filesystem::path run_ok(const parcae::cfd::CfdCase& c, const std::string& tag,
                             parcae::cfd::CfdRunInfo* info = nullptr);
/// Each (case file text, expected text) must be refused by read_cfd_case with an InputError
/// naming the expected text and the file (written into dir as bad<i>.yaml).
void expect_case_errors(const std::filesystem::path& dir,
                        const std::vector<std::pair<std::string, std::string>>& cases);
/// Columns of a CSV file with a header (empty when absent).
std::vector<std::vector<double>> read_csv(const std::filesystem::path& p,
                                          std::vector<std::string>* header = nullptr);
/// `env -i ...`: a clean environment for `parcae cfd ...` run as a child of a test rank (the
/// command, and its own mpirun, must not see this job's MPI environment).
std::string clean_env();
/// Linear interpolation of the profile (s, v) at s.
double interpolate(const std::vector<parcae::cfd::ProfilePoint>& prof, double s);

} // namespace cfdtest
