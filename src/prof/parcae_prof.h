/* parcae MPI profiler: phase and output API (C, usable from any C or C++ program).
 *
 * The functions are defined in libparcae-mpiprof.so (the PMPI interposition library). A program
 * that calls them must link that library (or be started with it in LD_PRELOAD and resolve the
 * symbols weakly). See docs/profile.md. */
#ifndef PARCAE_PROF_H
#define PARCAE_PROF_H

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* Maximum number of user phases and maximum nesting depth of parcae_prof_phase_push. */
#define PARCAE_PROF_MAX_PHASES 32
#define PARCAE_PROF_MAX_DEPTH 64

/* Registers a phase name and returns its id (1..PARCAE_PROF_MAX_PHASES); the same name gives
 * the same id. Returns -1 when the table is full or name is empty. Not for the hot path. */
int parcae_prof_phase_register(const char* name);
/* Enters phase id (exclusive timing: the enclosing phase stops accumulating). Unknown ids and
 * pushes beyond PARCAE_PROF_MAX_DEPTH are ignored (and balanced by the matching pop). */
void parcae_prof_phase_push(int id);
/* Leaves the innermost phase. */
void parcae_prof_phase_pop(void);
/* Enables output into dir (as PARCAE_PROFILE_DIR does); call before MPI_Finalize. */
void parcae_prof_set_output(const char* dir);
/* Adds a free-form key/value pair to metadata.extra. */
void parcae_prof_set_metadata(const char* key, const char* value);
/* Writes this rank's partial profile (DIR/partial/rank-NNNNN.json) now, without any MPI call.
 * Returns 0 on success, -1 when output is not enabled, MPI is not initialised or the write
 * failed. */
int parcae_prof_dump(void);
/* Restricts the POSIX I/O accounting (read/write/pread/pwrite/..., open/close/fsync) to files
 * under these directories (colon-separated), e.g. an out-of-core solver's scratch directory;
 * NULL or "": every file (the default unless PARCAE_PROFILE_IO_PREFIX is set). Applies to files
 * opened afterwards. */
void parcae_prof_set_io_prefix(const char* dirs);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif /* PARCAE_PROF_H */
