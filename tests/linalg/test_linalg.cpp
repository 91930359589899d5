// The linear-algebra layer (src/linalg) under mpirun, np 1 and 2: the libraries initialise on
// parcae's communicator and finalise without ending MPI, repeatedly. GoogleTest with its own
// main (as tests/par): every rank runs every test in the same order.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "linalg/libraries.hpp"
#include "par/comm.hpp"

namespace {

const parcae::par::Comm* g_world = nullptr;

TEST(Linalg, VersionsNameEveryLibrary) {
  const std::string v = parcae::linalg::library_versions();
  for (const char* lib : {"PETSc 3.", "SLEPc 3.", "MUMPS 5.", "hypre 2."}) {
    EXPECT_NE(v.find(lib), std::string::npos) << v;
  }
}

TEST(Linalg, InitialisesAgainAfterTheLastUserEnds) {
  for (int round = 0; round < 3; ++round) {
    parcae::linalg::Libraries outer(*g_world);
    parcae::linalg::Libraries inner(*g_world); // nested users share one initialisation
  }
  // MPI is still up: a collective still works.
  EXPECT_EQ(g_world->sum(std::int64_t{1}), g_world->size());
}

} // namespace

int main(int argc, char** argv) {
  parcae::par::Environment env(argc, argv);
  const parcae::par::Comm comm = parcae::par::Comm::from_handle(parcae::par::world_handle());
  g_world = &comm;
  GTEST_FLAG_SET(color, "no");
  if (comm.rank() != 0) GTEST_FLAG_SET(brief, true);
  ::testing::InitGoogleTest(&argc, argv);
  const int rc = RUN_ALL_TESTS();
  return comm.any(rc != 0) ? 1 : 0;
}
