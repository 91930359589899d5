#pragma once
// d3plot: LS-DYNA's binary plot database (the d3plot family: d3plot, d3plot01, ...), written
// after the LS-DYNA Database Manual so LS-PrePost, lasso-python and VTK's vtkLSDynaReader
// open it. The writer sees whole-model arrays (in MPP, rank 0 writes what every rank sent).
#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace parcae {

/// What goes into each state (*DATABASE_EXTENT_BINARY and command-line choices).
struct D3plotOptions {
  int word_bytes = 4;                 ///< 4 (single precision, LS-DYNA's default) or 8
  std::int64_t family_file_words = 0; ///< split into d3plotNN members after about this many
                                      ///< words (0 = LS-DYNA's default, 7 * 512 * 512 words)
  bool velocities = true;             ///< IU/IV/IA flags of the control words
  bool accelerations = true;
  int shell_layers = 3;               ///< MAXINT: through-thickness points written per shell
  bool shell_stress = true;           ///< IOSHL(1)
  bool shell_plastic_strain = true;   ///< IOSHL(2)
  bool shell_resultants = true;       ///< IOSHL(3): 8 force/moment resultants
  bool shell_thickness_energy = true; ///< IOSHL(4): thickness, 2 element-dependent variables,
                                      ///< internal energy
  bool deletion_flags = true;         ///< MDLOPT = 2: element deletion flags per state
  /// Continue an existing family (a restarted run, after the outputs were rewound to the
  /// checkpoint) instead of starting a new one: the first member must hold this geometry and
  /// these options' layout; states are appended to the last member (or a new one).
  bool append = false;
};

struct D3plotPart {
  GlobalId id = 0;   ///< deck part id
  std::string title; ///< part title (written in the part titles section)
};

/// The model, written once at the start of the file.
struct D3plotGeometry {
  std::string title;
  std::vector<Real> x0;                                 ///< 3 per node: initial coordinates
  std::vector<GlobalId> node_id;                        ///< deck node ids
  std::vector<std::array<std::int32_t, 8>> solid_nodes; ///< 0-based node indices
  std::vector<std::int32_t> solid_part;                 ///< 0-based index into parts
  std::vector<GlobalId> solid_id;
  std::vector<std::array<std::int32_t, 4>> shell_nodes; ///< 0-based; triangles repeat node 3
  std::vector<std::int32_t> shell_part;                 ///< 0-based index into parts
  std::vector<GlobalId> shell_id;
  /// Beams (NEL2): N1, N2 and the orientation node N3 (0-based), written as LS-DYNA's six
  /// words N1 N2 N3 0 0 part.
  std::vector<std::array<std::int32_t, 3>> beam_nodes;
  std::vector<std::int32_t> beam_part; ///< 0-based index into parts
  std::vector<GlobalId> beam_id;
  std::vector<D3plotPart> parts; ///< every part, in deck order
};

/// One state. Arrays are whole-model, in the geometry's node / element order.
struct D3plotState {
  Real time = 0;
  // Global variables.
  Real kinetic = 0, internal = 0, total = 0;
  std::array<Real, 3> velocity{}; ///< mass-weighted global velocity
  // Per part (same order as D3plotGeometry::parts; empty = zeros).
  std::vector<Real> part_internal, part_kinetic, part_mass, part_hourglass;
  std::vector<Real> part_velocity; ///< 3 per part
  // Nodes.
  std::vector<Real> x; ///< 3 per node: current coordinates
  std::vector<Real> v; ///< 3 per node (written when options.velocities)
  std::vector<Real> a; ///< 3 per node (written when options.accelerations)
  // Solids: stress in the global frame [xx yy zz xy yz zx] and effective plastic strain.
  std::vector<Real> solid_sig;  ///< 6 per solid
  std::vector<Real> solid_epsp; ///< 1 per solid
  // Shells: per element, `shell_layers` points (bottom, middle, top for 3), each with the
  // stress in the global frame [xx yy zz xy yz zx] and effective plastic strain.
  std::vector<Real> shell_sig;        ///< 6 * shell_layers per shell
  std::vector<Real> shell_epsp;       ///< shell_layers per shell
  std::vector<Real> shell_resultants; ///< 8 per shell: Mxx Myy Mxy Qyz Qxz Nxx Nyy Nxy
  std::vector<Real> shell_thickness;  ///< 1 per shell
  std::vector<Real> shell_energy;     ///< 1 per shell: internal energy density (may be empty)
  // Beams (NV1D = 6: axial force, s and t shear, s and t moment, torsion): trusses have the
  // axial force only, the other five are written as 0; integrated beams all six.
  std::vector<Real> beam_force; ///< 1 per beam (empty = zeros)
  /// 5 per beam: s and t shear, s and t moment, torsion (empty = zeros; trusses: zeros)
  std::vector<Real> beam_resultants;
  // Deletion flags (1 = active, 0 = deleted); empty = all active.
  std::vector<std::uint8_t> solid_active, shell_active;
};

/// Writes a d3plot family: geometry on construction, one state per write_state(), the end
/// marker on close(). Files go to `base` (e.g. "out/d3plot"), then base01, base02, ... as each
/// member reaches options.family_file_words. Throws RuntimeError on I/O failure or
/// inconsistent array sizes (naming what is wrong).
class D3plotWriter {
public:
  D3plotWriter(std::string base, D3plotGeometry geometry, D3plotOptions options = {});
  ~D3plotWriter();
  D3plotWriter(const D3plotWriter&) = delete;
  D3plotWriter& operator=(const D3plotWriter&) = delete;

  void write_state(const D3plotState& state);
  void close();
  [[nodiscard]] const std::vector<std::string>& files() const { return files_; }
  [[nodiscard]] int states_written() const { return states_; }
  /// Words of one state (time word included) and of the geometry file (control words through
  /// the part titles and their end marker), for the layout written with these options.
  [[nodiscard]] std::int64_t state_words() const { return state_words_; }
  [[nodiscard]] std::int64_t geometry_words() const { return geometry_words_; }

private:
  std::string base_;
  D3plotGeometry geom_; ///< emptied once the geometry section is assembled (counts_ stay)
  struct Counts {
    std::size_t nodes = 0, solids = 0, shells = 0, parts = 0, beams = 0;
  } counts_;
  D3plotOptions opt_;
  std::vector<std::string> files_;
  std::FILE* fp_ = nullptr;
  std::int64_t words_in_file_ = 0;
  int states_ = 0;
  std::int64_t state_words_ = 0;    ///< words per state
  std::int64_t geometry_words_ = 0; ///< words of the first member (base)
  std::int64_t family_limit_ = 0;   ///< words per member before a new one is started
  int nv2d_ = 0;                    ///< words per shell per state
  int nglbv_ = 0;                   ///< global variables per state
  bool closed_ = false;
  std::vector<unsigned char> buf_; ///< words of the section being assembled
  /// write_state: buf_ goes to the file whenever it holds kSpillBytes (spill()).
  static constexpr std::size_t kSpillBytes = std::size_t{1} << 20;
  bool streaming_ = false;
  void spill();

  void put_int(std::int64_t v);
  void put_real(Real v);
  void put_chars(const std::string& s, std::size_t bytes);
  void flush_buffer(const char* what);
  void open_member(const std::string& path);
  void close_member();
  void resume();
  [[noreturn]] void fail(const std::string& what) const;
};

} // namespace parcae
