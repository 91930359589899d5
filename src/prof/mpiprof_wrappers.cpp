// PMPI wrappers: every MPI_X below times PMPI_X and records calls, time and bytes (see
// mpiprof_state.hpp). The prototypes are those of MPI-3 (const buffers), which Open MPI 4 and
// MPICH 4 both declare; a mismatch with the mpi.h in use is a compile error.
#include <mpi.h>

#include <cstdint>

#include "prof/mpiprof_state.hpp"

using namespace parcae::mpiprof;

namespace {

// Calls made from inside a wrapped call (e.g. a library's own MPI_ calls from MPI-IO) pass
// straight through so that nothing is counted twice.
thread_local int t_inside __attribute__((tls_model("initial-exec"))) = 0;

inline std::uint64_t tbytes(int count, MPI_Datatype type) {
  if (count <= 0) return 0;
  int size = 0;
  PMPI_Type_size(type, &size);
  return size > 0 ? static_cast<std::uint64_t>(count) * static_cast<std::uint64_t>(size) : 0;
}

inline std::uint64_t sum_bytes(const int counts[], int n, MPI_Datatype type) {
  if (!counts) return 0;
  std::uint64_t total = 0;
  for (int i = 0; i < n; ++i) total += counts[i] > 0 ? static_cast<std::uint64_t>(counts[i]) : 0;
  if (total == 0) return 0;
  int size = 0;
  PMPI_Type_size(type, &size);
  return size > 0 ? total * static_cast<std::uint64_t>(size) : 0;
}

inline int comm_size(MPI_Comm comm) {
  int n = 0;
  PMPI_Comm_size(comm, &n);
  return n;
}

inline int comm_rank(MPI_Comm comm) {
  int r = 0;
  PMPI_Comm_rank(comm, &r);
  return r;
}

} // namespace

// Times `call`, then records fn with the byte count `bytes` (evaluated after the call).
#define PROF(fn, bytes, call)                                                                      \
  do {                                                                                             \
    if (t_inside) return call;                                                                     \
    t_inside = 1;                                                                                  \
    const std::uint64_t t0_ = now_ns();                                                            \
    const int rc_ = call;                                                                          \
    const std::uint64_t dt_ = now_ns() - t0_;                                                      \
    record(k_##fn, (bytes), dt_);                                                                  \
    t_inside = 0;                                                                                  \
    return rc_;                                                                                    \
  } while (0)

#pragma GCC visibility push(default)
extern "C" {

// ---- lifecycle -----------------------------------------------------------------------------

int MPI_Init(int* argc, char*** argv) {
  before_init();
  const std::uint64_t t0 = now_ns();
  t_inside = 1;
  const int rc = PMPI_Init(argc, argv);
  t_inside = 0;
  const std::uint64_t t1 = now_ns();
  if (rc == MPI_SUCCESS) {
    on_init(t0);
    record(k_Init, 0, t1 - t0);
  }
  return rc;
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  before_init();
  const std::uint64_t t0 = now_ns();
  t_inside = 1;
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  t_inside = 0;
  const std::uint64_t t1 = now_ns();
  if (rc == MPI_SUCCESS) {
    on_init(t0);
    record(k_Init_thread, 0, t1 - t0);
  }
  return rc;
}

int MPI_Finalize(void) {
  t_inside = 1;
  on_finalize();
  const int rc = PMPI_Finalize();
  t_inside = 0;
  return rc;
}

// ---- point to point ------------------------------------------------------------------------

int MPI_Send(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  PROF(Send, tbytes(count, datatype), PMPI_Send(buf, count, datatype, dest, tag, comm));
}
int MPI_Ssend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  PROF(Ssend, tbytes(count, datatype), PMPI_Ssend(buf, count, datatype, dest, tag, comm));
}
int MPI_Bsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  PROF(Bsend, tbytes(count, datatype), PMPI_Bsend(buf, count, datatype, dest, tag, comm));
}
int MPI_Rsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  PROF(Rsend, tbytes(count, datatype), PMPI_Rsend(buf, count, datatype, dest, tag, comm));
}
int MPI_Recv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
             MPI_Status* status) {
  PROF(Recv, tbytes(count, datatype), PMPI_Recv(buf, count, datatype, source, tag, comm, status));
}
int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status* status) {
  PROF(Sendrecv, tbytes(sendcount, sendtype),
       PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                     source, recvtag, comm, status));
}
int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                         int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  PROF(Sendrecv_replace, tbytes(count, datatype),
       PMPI_Sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm, status));
}
int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  PROF(Probe, 0, PMPI_Probe(source, tag, comm, status));
}
int MPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  PROF(Iprobe, 0, PMPI_Iprobe(source, tag, comm, flag, status));
}

// ---- non-blocking and persistent point to point --------------------------------------------

int MPI_Isend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              MPI_Request* request) {
  PROF(Isend, tbytes(count, datatype), PMPI_Isend(buf, count, datatype, dest, tag, comm, request));
}
int MPI_Issend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  PROF(Issend, tbytes(count, datatype),
       PMPI_Issend(buf, count, datatype, dest, tag, comm, request));
}
int MPI_Irsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  PROF(Irsend, tbytes(count, datatype),
       PMPI_Irsend(buf, count, datatype, dest, tag, comm, request));
}
int MPI_Ibsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  PROF(Ibsend, tbytes(count, datatype),
       PMPI_Ibsend(buf, count, datatype, dest, tag, comm, request));
}
int MPI_Irecv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Request* request) {
  PROF(Irecv, tbytes(count, datatype),
       PMPI_Irecv(buf, count, datatype, source, tag, comm, request));
}
int MPI_Send_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, MPI_Request* request) {
  PROF(Send_init, tbytes(count, datatype),
       PMPI_Send_init(buf, count, datatype, dest, tag, comm, request));
}
int MPI_Recv_init(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                  MPI_Request* request) {
  PROF(Recv_init, tbytes(count, datatype),
       PMPI_Recv_init(buf, count, datatype, source, tag, comm, request));
}
int MPI_Start(MPI_Request* request) {
  PROF(Start, 0, PMPI_Start(request));
}
int MPI_Startall(int count, MPI_Request array_of_requests[]) {
  PROF(Startall, 0, PMPI_Startall(count, array_of_requests));
}

// ---- completion ----------------------------------------------------------------------------

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  PROF(Wait, 0, PMPI_Wait(request, status));
}
int MPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]) {
  PROF(Waitall, 0, PMPI_Waitall(count, array_of_requests, array_of_statuses));
}
int MPI_Waitany(int count, MPI_Request array_of_requests[], int* indx, MPI_Status* status) {
  PROF(Waitany, 0, PMPI_Waitany(count, array_of_requests, indx, status));
}
int MPI_Waitsome(int incount, MPI_Request array_of_requests[], int* outcount,
                 int array_of_indices[], MPI_Status array_of_statuses[]) {
  PROF(Waitsome, 0,
       PMPI_Waitsome(incount, array_of_requests, outcount, array_of_indices, array_of_statuses));
}
int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  PROF(Test, 0, PMPI_Test(request, flag, status));
}
int MPI_Testall(int count, MPI_Request array_of_requests[], int* flag,
                MPI_Status array_of_statuses[]) {
  PROF(Testall, 0, PMPI_Testall(count, array_of_requests, flag, array_of_statuses));
}
int MPI_Testany(int count, MPI_Request array_of_requests[], int* indx, int* flag,
                MPI_Status* status) {
  PROF(Testany, 0, PMPI_Testany(count, array_of_requests, indx, flag, status));
}
int MPI_Testsome(int incount, MPI_Request array_of_requests[], int* outcount,
                 int array_of_indices[], MPI_Status array_of_statuses[]) {
  PROF(Testsome, 0,
       PMPI_Testsome(incount, array_of_requests, outcount, array_of_indices, array_of_statuses));
}

// ---- collectives ---------------------------------------------------------------------------

int MPI_Barrier(MPI_Comm comm) {
  PROF(Barrier, 0, PMPI_Barrier(comm));
}
int MPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  PROF(Bcast, tbytes(count, datatype), PMPI_Bcast(buffer, count, datatype, root, comm));
}
int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               int root, MPI_Comm comm) {
  PROF(Reduce, tbytes(count, datatype),
       PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm));
}
int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm) {
  PROF(Allreduce, tbytes(count, datatype),
       PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm));
}
int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
             MPI_Comm comm) {
  PROF(Scan, tbytes(count, datatype), PMPI_Scan(sendbuf, recvbuf, count, datatype, op, comm));
}
int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm) {
  PROF(Exscan, tbytes(count, datatype), PMPI_Exscan(sendbuf, recvbuf, count, datatype, op, comm));
}
int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  PROF(Reduce_scatter, sum_bytes(recvcounts, comm_size(comm), datatype),
       PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm));
}
int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  PROF(Reduce_scatter_block, tbytes(recvcount, datatype) * comm_size(comm),
       PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm));
}

// Gather: what this rank contributes (at an MPI_IN_PLACE root: its own block of recvbuf).
int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  PROF(Gather, sendbuf == MPI_IN_PLACE ? tbytes(recvcount, recvtype) : tbytes(sendcount, sendtype),
       PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
}
int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                MPI_Comm comm) {
  PROF(Gatherv,
       sendbuf == MPI_IN_PLACE ? tbytes(recvcounts[comm_rank(comm)], recvtype)
                               : tbytes(sendcount, sendtype),
       PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                    comm));
}
// Scatter: the root sends its whole send buffer; the other ranks send nothing.
int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  PROF(Scatter, comm_rank(comm) == root ? tbytes(sendcount, sendtype) * comm_size(comm) : 0,
       PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
}
int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                 MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm) {
  PROF(Scatterv, comm_rank(comm) == root ? sum_bytes(sendcounts, comm_size(comm), sendtype) : 0,
       PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                     comm));
}
int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  PROF(Allgather,
       sendbuf == MPI_IN_PLACE ? tbytes(recvcount, recvtype) : tbytes(sendcount, sendtype),
       PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}
int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                   MPI_Comm comm) {
  PROF(Allgatherv,
       sendbuf == MPI_IN_PLACE ? tbytes(recvcounts[comm_rank(comm)], recvtype)
                               : tbytes(sendcount, sendtype),
       PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm));
}
int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  PROF(Alltoall,
       (sendbuf == MPI_IN_PLACE ? tbytes(recvcount, recvtype) : tbytes(sendcount, sendtype)) *
           comm_size(comm),
       PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}
int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                  MPI_Datatype recvtype, MPI_Comm comm) {
  PROF(Alltoallv,
       sendbuf == MPI_IN_PLACE ? sum_bytes(recvcounts, comm_size(comm), recvtype)
                               : sum_bytes(sendcounts, comm_size(comm), sendtype),
       PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                      recvtype, comm));
}
namespace {
inline std::uint64_t alltoallw_bytes(const void* sendbuf, const int sendcounts[],
                                     const MPI_Datatype sendtypes[], const int recvcounts[],
                                     const MPI_Datatype recvtypes[], MPI_Comm comm) {
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const int* counts = in_place ? recvcounts : sendcounts;
  const MPI_Datatype* types = in_place ? recvtypes : sendtypes;
  if (!counts || !types) return 0;
  std::uint64_t total = 0;
  const int n = comm_size(comm);
  for (int i = 0; i < n; ++i) total += tbytes(counts[i], types[i]);
  return total;
}
} // namespace
int MPI_Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                  const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                  const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  PROF(Alltoallw, alltoallw_bytes(sendbuf, sendcounts, sendtypes, recvcounts, recvtypes, comm),
       PMPI_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                      recvtypes, comm));
}

// ---- non-blocking collectives --------------------------------------------------------------

int MPI_Ibarrier(MPI_Comm comm, MPI_Request* request) {
  PROF(Ibarrier, 0, PMPI_Ibarrier(comm, request));
}
int MPI_Ibcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
               MPI_Request* request) {
  PROF(Ibcast, tbytes(count, datatype), PMPI_Ibcast(buffer, count, datatype, root, comm, request));
}
int MPI_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm, MPI_Request* request) {
  PROF(Ireduce, tbytes(count, datatype),
       PMPI_Ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, request));
}
int MPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm, MPI_Request* request) {
  PROF(Iallreduce, tbytes(count, datatype),
       PMPI_Iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request));
}
int MPI_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  PROF(Iallgather,
       sendbuf == MPI_IN_PLACE ? tbytes(recvcount, recvtype) : tbytes(sendcount, sendtype),
       PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request));
}
int MPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  PROF(Ialltoall,
       (sendbuf == MPI_IN_PLACE ? tbytes(recvcount, recvtype) : tbytes(sendcount, sendtype)) *
           comm_size(comm),
       PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request));
}

// ---- MPI-IO --------------------------------------------------------------------------------

int MPI_File_open(MPI_Comm comm, const char* filename, int amode, MPI_Info info, MPI_File* fh) {
  PROF(File_open, 0, PMPI_File_open(comm, filename, amode, info, fh));
}
int MPI_File_close(MPI_File* fh) {
  PROF(File_close, 0, PMPI_File_close(fh));
}
int MPI_File_sync(MPI_File fh) {
  PROF(File_sync, 0, PMPI_File_sync(fh));
}
int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                      const char* datarep, MPI_Info info) {
  PROF(File_set_view, 0, PMPI_File_set_view(fh, disp, etype, filetype, datarep, info));
}
int MPI_File_read(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  PROF(File_read, tbytes(count, datatype), PMPI_File_read(fh, buf, count, datatype, status));
}
int MPI_File_read_all(MPI_File fh, void* buf, int count, MPI_Datatype datatype,
                      MPI_Status* status) {
  PROF(File_read_all, tbytes(count, datatype),
       PMPI_File_read_all(fh, buf, count, datatype, status));
}
int MPI_File_read_at(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype,
                     MPI_Status* status) {
  PROF(File_read_at, tbytes(count, datatype),
       PMPI_File_read_at(fh, offset, buf, count, datatype, status));
}
int MPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void* buf, int count,
                         MPI_Datatype datatype, MPI_Status* status) {
  PROF(File_read_at_all, tbytes(count, datatype),
       PMPI_File_read_at_all(fh, offset, buf, count, datatype, status));
}
int MPI_File_write(MPI_File fh, const void* buf, int count, MPI_Datatype datatype,
                   MPI_Status* status) {
  PROF(File_write, tbytes(count, datatype), PMPI_File_write(fh, buf, count, datatype, status));
}
int MPI_File_write_all(MPI_File fh, const void* buf, int count, MPI_Datatype datatype,
                       MPI_Status* status) {
  PROF(File_write_all, tbytes(count, datatype),
       PMPI_File_write_all(fh, buf, count, datatype, status));
}
int MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void* buf, int count,
                      MPI_Datatype datatype, MPI_Status* status) {
  PROF(File_write_at, tbytes(count, datatype),
       PMPI_File_write_at(fh, offset, buf, count, datatype, status));
}
int MPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void* buf, int count,
                          MPI_Datatype datatype, MPI_Status* status) {
  PROF(File_write_at_all, tbytes(count, datatype),
       PMPI_File_write_at_all(fh, offset, buf, count, datatype, status));
}

} // extern "C"
#pragma GCC visibility pop
