#pragma once
// The model as read from a keyword deck: geometry, parts, materials, loads and controls.
// Ids here are the deck's (GlobalId); element connectivity is stored as local node indices
// (LocalId into Model::nodes) after the reader has resolved it. Struct-of-arrays where it is hot.
#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/material_kind.hpp"
#include "core/types.hpp"
#include "mesh/boundary.hpp"

namespace parcae {

/// Nodes, struct-of-arrays. Index = LocalId.
struct NodeTable {
  std::vector<GlobalId> id;
  std::vector<Real> x, y, z;
  std::vector<std::uint8_t> tc; ///< translational constraint code (LS-DYNA 0..7) from *NODE
  std::vector<std::uint8_t> rc; ///< rotational constraint code (0..7)
  [[nodiscard]] std::size_t size() const { return id.size(); }
};

/// Solid elements (8-node hexahedra; wedges/tets as collapsed hexes).
struct SolidTable {
  std::vector<GlobalId> id;
  std::vector<GlobalId> part;                ///< part id (deck id)
  std::vector<std::array<LocalId, 8>> nodes; ///< local node indices
  std::vector<int> line;                     ///< line in the deck where the element was defined
  [[nodiscard]] std::size_t size() const { return id.size(); }
};

/// Shell elements (4-node quads; triangles as n3 == n4).
struct ShellTable {
  std::vector<GlobalId> id;
  std::vector<GlobalId> part;
  std::vector<std::array<LocalId, 4>> nodes;
  /// Nodal thicknesses from *ELEMENT_SHELL_THICKNESS; all zero means "use the section's".
  std::vector<std::array<Real, 4>> thickness;
  std::vector<int> line;
  /// Index in Model::shell_layups of the element's layers, BETA or offset (-1: none); empty when
  /// no element has one.
  std::vector<std::int32_t> layup;
  [[nodiscard]] std::int32_t layup_of(std::size_t e) const { return layup.empty() ? -1 : layup[e]; }
  [[nodiscard]] std::size_t size() const { return id.size(); }
};

/// Beam elements (*ELEMENT_BEAM): two nodes; n3, the orientation node (the s axis lies in the
/// plane of N1 N2 N3; trusses do not use it). Trusses (*SECTION_BEAM ELFORM 3) and integrated
/// beams (ELFORM 1 and 9) are computed. Discrete springs and dampers (*ELEMENT_DISCRETE, parts
/// of *SECTION_DISCRETE) are in the same table, as LS-DYNA writes them to d3plot: area holds
/// their force scale factor S, offset their OFFSET.
struct BeamTable {
  std::vector<GlobalId> id;
  std::vector<GlobalId> part;
  std::vector<std::array<LocalId, 2>> nodes; ///< N1, N2 (local node indices)
  std::vector<LocalId> n3;                   ///< orientation node, kInvalidLocal when blank
  /// *ELEMENT_BEAM_ORIENTATION VX VY VZ: used as N3 would be (the s axis in the plane of the
  /// beam and this vector) when N3 is blank; zero when not given.
  std::vector<std::array<Real, 3>> orientation;
  /// Cross-section area from *ELEMENT_BEAM_THICKNESS PARM1 (trusses); 0: the section's A.
  std::vector<Real> area;
  std::vector<Real> offset; ///< *ELEMENT_DISCRETE OFFSET (initial elongation); 0 for beams
  std::vector<int> line;
  [[nodiscard]] std::size_t size() const { return id.size(); }
};

/// A material card as read from the deck. kind names the law (core/material_kind.hpp; its
/// catalogue row in materials/catalogue.hpp, whose read function fills the card's fields). A
/// law keeps its own constants in law_card (its file's parameters struct: card<T>()); the named
/// fields below are those of the laws that were written before law_card, which the element
/// kernels, the implicit solver and the tests still read by name.
struct Material {
  GlobalId id = 0;
  MaterialKind kind = MaterialKind::Elastic;
  std::string title;
  Real ro = 0; ///< density
  Real e = 0;  ///< Young's modulus
  Real pr = 0; ///< Poisson's ratio
  // --- plasticity (003, 024) ---
  Real sigy = 0; ///< initial yield stress
  Real etan = 0; ///< tangent modulus (003, 024 when no LCSS)
  Real beta = 0; ///< 003: hardening parameter 0 = kinematic, 1 = isotropic
  Real src = 0;  ///< Cowper-Symonds C (003 SRC, 024 C); 0 = no rate effect
  Real srp = 0;  ///< Cowper-Symonds p (003 SRP, 024 P)
  Real fs = 0;   ///< 003 failure strain / 024 FAIL (effective plastic strain); 0 = none
  Real vp = 0;   ///< 024 VP: 0 = scale yield stress (default), 1 = viscoplastic formulation
  Real tdel = 0; ///< 024 TDEL: elements whose time step falls below TDEL are deleted (0 = none)
  /// 123 NUMINT: shells are deleted when this many through-thickness points reached FAIL (< 0:
  /// that percentage of the points; 0: all of them, as for the other laws)
  Real fail_points = 0;
  /// Solids erode when their relative volume V / V0 exceeds terod or falls below cerod (0: off;
  /// *MAT_NULL TEROD / CEROD).
  Real terod = 0, cerod = 0;
  // For 024 given as an EPS1-8/ES1-8 table, the reader adds a curve with id -mid and sets lcss.
  GlobalId lcss = 0; ///< 024 load curve: effective plastic strain -> yield stress (0 = none)
  GlobalId lcsr = 0; ///< 024 load curve: strain rate -> yield scale factor (0 = none)
  // --- rigid (020) ---
  Real cmo = 0;  ///< center of mass constraint option: +1 global, -1 local (not supported), 0 none
  Real con1 = 0; ///< translational constraint (0..7) when cmo = +1
  Real con2 = 0; ///< rotational constraint (0..7) when cmo = +1
  // --- Mooney-Rivlin rubber (027): W = A(I1-3) + B(I2-3) + volumetric terms of PR ---
  Real mr_a = 0; ///< A
  Real mr_b = 0; ///< B
  // --- hydrodynamic materials (009, 010, 015): pressure from the part's *EOS ---
  Real pc = 0;      ///< pressure cutoff (<= 0; tension limit)
  Real null_mu = 0; ///< 009 MU: dynamic viscosity (deviatoric stress 2 MU dev(D))
  Real g = 0;       ///< 010 / 012 / 015 shear modulus G
  Real eh = 0;      ///< 010 EH: plastic hardening modulus (010 without a table)
  Real jc_a = 0, jc_b = 0, jc_n = 0, jc_c = 0, jc_m = 0; ///< 015 A B N C M
  Real jc_tm = 0, jc_tr = 0, jc_epso = 1, jc_cp = 0;     ///< 015 TM TR EPSO CP
  Real jc_spall = 0; ///< 015 SPALL (1: p >= PC; 0/2/3 handled as 1, see the card summary)
  // --- isotropic elastic-plastic (012): G (above), SIGY, ETAN (above) and the bulk modulus ---
  Real bulk = 0; ///< 012 BULK: bulk modulus K
  // --- transversely anisotropic elastic-plastic (037): SIGY, ETAN (the plastic hardening
  // modulus), lcss = HLCID (above) and the Lankford R (the card's value; R < 0: see the law) ---
  Real lankford_r = 0; ///< 037 R
  /// The law's own constants as its read function left them (the law file's struct).
  std::shared_ptr<const void> law_card;
  SourceLoc loc;

  /// law_card as the law's struct T (only the law's own file knows T).
  template <class T> [[nodiscard]] const T& card() const {
    return *static_cast<const T*>(law_card.get());
  }
};

enum class EosKind : std::uint8_t {
  LinearPolynomial,    ///< *EOS_LINEAR_POLYNOMIAL (001)
  Gruneisen,           ///< *EOS_GRUNEISEN (004)
  Tabulated,           ///< *EOS_TABULATED (009)
  TabulatedCompaction, ///< *EOS_TABULATED_COMPACTION (008)
};

/// An equation of state p(mu, E), mu = V0/V - 1, E = internal energy per unit initial volume.
struct Eos {
  GlobalId id = 0;
  EosKind kind = EosKind::LinearPolynomial;
  std::string title;
  std::array<Real, 7> c{};     ///< linear polynomial C0..C6
  Real gr_c = 0;               ///< Gruneisen C (bulk sound speed)
  Real s1 = 0, s2 = 0, s3 = 0; ///< Gruneisen S1 S2 S3
  Real gamma0 = 0, gr_a = 0;   ///< Gruneisen GAMA0, A
  /// Tabulated (008, 009): points (EV = ln V, C, T, K) sorted by ascending EV; gamma GAMA.
  std::vector<Real> tab_ev, tab_c, tab_t, tab_k;
  Real tab_gamma = 0;
  Real e0 = 0; ///< initial internal energy per unit initial volume
  Real v0 = 1; ///< initial relative volume (only 1 is supported)
  SourceLoc loc;
};

/// Discrete: *SECTION_DISCRETE (springs and dampers between two nodes, *ELEMENT_DISCRETE,
/// kept in Model::beams).
enum class SectionKind : std::uint8_t { Solid, Shell, Beam, Discrete, TShell };
/// "solid", "shell", "beam", "discrete", "thick shell" (messages, summaries).
inline const char* section_kind_name(SectionKind k) {
  constexpr const char* kNames[] = {"solid", "shell", "beam", "discrete", "thick shell"};
  return kNames[static_cast<int>(k)];
}

/// *SECTION_SOLID ELFORM 2, -1, -2 (fully integrated selective-reduced hexahedra) and 3 (the
/// fully integrated hexahedron with nodal rotations): the explicit solver runs them as the
/// one-point hexahedron (ELFORM 1) with the part's hourglass control (ELFORM 3's nodal
/// rotations are not modelled).
inline bool fully_integrated_hexahedron(int elform) {
  return elform == 2 || elform == -1 || elform == -2 || elform == 3;
}

struct Section {
  GlobalId id = 0;
  SectionKind kind = SectionKind::Solid;
  std::string title;
  int elform = 1; ///< solid: 1; shell: 2 (0 and 2 both Belytschko-Tsay)
  // --- shell ---
  Real shrf = 1.0; ///< transverse shear factor (LS-DYNA default 1.0; 5/6 recommended)
  int nip = 2;     ///< integration points through the thickness
  int qr_irid = 0; ///< quadrature rule QR/IRID: only 0 (Gauss/Lobatto per *CONTROL_SHELL INTGRD)
  int icomp = 0;
  /// ICOMP = 1: the material angle of each through-thickness point (degrees, B1..B<NIP>)
  std::vector<Real> angles;
  std::array<Real, 4> t{0, 0, 0, 0}; ///< nodal thicknesses
  Real nloc = 0;                     ///< reference surface location (0 = mid)
  // --- beam (*SECTION_BEAM) ---
  int cst = 0; ///< cross-section type (integrated beams): 0 rectangular, 1 tubular
  /// Integrated beams (ELFORM 1, 9): section dimensions at N1 and N2 (CST 0: thickness in s and
  /// t; CST 1: outer and inner diameter). qr_irid above is the beam's QR (0 / blank: 2).
  Real ts1 = 0, ts2 = 0, tt1 = 0, tt2 = 0;
  Real area = 0;        ///< A: cross-section area (trusses, resultant beams)
  Real nsm = 0;         ///< NSM: non-structural mass per unit length (beams)
  SourceLoc elform_loc; ///< where ELFORM was read (messages)
  SourceLoc loc;
};

/// A 2-D solid section: *SECTION_SHELL ELFORM 12-15 (plane stress, plane strain, axisymmetric
/// area and volume weighted), elements in the x-y plane.
inline bool is_2d_solid(const Section& s) {
  return s.kind == SectionKind::Shell && s.elform >= 12 && s.elform <= 15;
}

/// The translational or rotational dofs fixed by a rigid-body constraint code (*MAT_RIGID CON1 /
/// CON2, *CONSTRAINED_NODAL_RIGID_BODY_SPC): 0 none, 1 x, 2 y, 3 z, 4 xy, 5 yz, 6 zx, 7 all.
/// Codes outside 0..7 are the caller's to refuse.
inline std::array<bool, 3> rigid_constraint_dofs(int code) {
  static constexpr std::array<std::array<bool, 3>, 8> kCode = {
      {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}, {0, 1, 1}, {1, 0, 1}, {1, 1, 1}}};
  return kCode[static_cast<std::size_t>(code)];
}

struct Hourglass {
  GlobalId id = 0;
  std::string title;
  int ihq = 1;   ///< 1..3 viscous, 4..5 stiffness (Flanagan-Belytschko)
  Real qm = 0.1; ///< hourglass coefficient
  Real qb = 0;   ///< bulk viscosity quadratic (overrides control when nonzero)
  Real qw = 0;   ///< bulk viscosity linear
  // Added by the keyword reader (*HOURGLASS Q1, Q2, IBQ as in the LS-DYNA manual); the reader
  // stores the card's QB and QW fields in qb and qw as given.
  int ibq = 0;               ///< bulk viscosity type for this part (IBQ)
  Real bulk_quadratic = 1.5; ///< LS-DYNA Q1: quadratic bulk viscosity coefficient
  Real bulk_linear = 0.06;   ///< LS-DYNA Q2: linear bulk viscosity coefficient
  SourceLoc loc;
};

/// *PART_INERTIA: the mass properties of a rigid part, given instead of computed from its mesh.
struct PartInertia {
  std::array<Real, 3> xc{};      ///< centre of mass (XC, YC, ZC), unless NODEID gives it
  Real tm = 0;                   ///< translational mass
  GlobalId nodeid = 0;           ///< the centre of mass is at this node (0: XC, YC, ZC)
  std::array<Real, 6> inertia{}; ///< IXX IXY IXZ IYY IYZ IZZ about the centre, global frame
  std::array<Real, 6> vel{};     ///< VTX VTY VTZ VRX VRY VRZ (all 0: the nodes' velocities)
  SourceLoc loc;
};

struct Part {
  GlobalId id = 0;
  std::string title;
  GlobalId secid = 0;
  GlobalId mid = 0;
  GlobalId hgid = 0;  ///< 0: use *CONTROL_HOURGLASS defaults
  GlobalId eosid = 0; ///< *EOS of a hydrodynamic material (0: none)
  /// *PART_CONTACT OPTT: optional contact thickness (0: none); used by the beam edges of
  /// *CONTACT_AUTOMATIC_GENERAL.
  Real contact_optt = 0;
  std::optional<PartInertia> inertia; ///< *PART_INERTIA
  std::int32_t layup = -1;            ///< *PART_COMPOSITE: its layers in Model::shell_layups
  SourceLoc loc;
};

/// *DEFINE_CURVE, with SFA/SFO/OFFA/OFFO already applied to the points.
struct Curve {
  GlobalId id = 0;
  std::string title;
  int sidr = 0; ///< SIDR: 0 transient only, 1 dynamic relaxation only, 2 both
  std::vector<Real> x, y;
  SourceLoc loc;
  /// Piecewise-linear interpolation, constant extrapolation beyond the ends.
  [[nodiscard]] Real eval(Real t) const;
};

/// *DEFINE_TABLE: one curve at each value (strictly increasing), e.g. the yield curves of
/// *MAT_024 at strain rates. The curves are resolved to ids once the deck is read (a row without
/// LCID takes the next *DEFINE_CURVE that follows the table).
struct Table {
  GlobalId id = 0;
  std::string title;
  std::vector<Real> values;     ///< SFA * (VALUE + OFFA)
  std::vector<GlobalId> curves; ///< curve of each value
  SourceLoc loc;
};

/// A set resolved to deck ids (node ids for node sets, part ids for part sets, element ids
/// for shell/solid sets).
struct IdSet {
  GlobalId id = 0;
  std::string title;
  std::vector<GlobalId> members;
  SourceLoc loc;
};

/// *AIRBAG_SIMPLE_PRESSURE_VOLUME: a closed surface of shell parts whose pressure follows its
/// volume, p = BETA * CN / (V / V0) (or LCID(V / V0)), with mass-weighted damping of the bag's
/// nodes, F = -MWD m (v - v_cg).
struct Airbag {
  GlobalId id = 0;
  std::string title;
  GlobalId sid = 0;    ///< part set of the bag's shells (SIDTYP != 0)
  Real cn = 0;         ///< CN (< 0: -CN is a curve of CN over time)
  Real beta = 1;       ///< BETA
  GlobalId lcid = 0;   ///< LCID: pressure over relative volume (instead of CN and BETA)
  GlobalId lciddr = 0; ///< LCIDDR: CN over time during dynamic relaxation
  Real mwd = 0;        ///< MWD: mass-weighted damping factor D [1/time]
  /// *AIRBAG_SIMPLE_AIRBAG_MODEL (thermo): an ideal gas (CV, CP) filled at the mass rate
  /// curve lcmass at temperature t_in, vented through mu * area, in ambient pressure pe and
  /// density ro (the bag's initial gas); the volume scaled by vsca, the gauge pressure by psca.
  bool thermo = false;
  Real cv = 0, cp = 0, t_in = 0, mu = 0, area = 0, pe = 0, ro = 0, vsca = 1, psca = 1;
  GlobalId lcmass = 0;
  SourceLoc loc;
};

/// *SET_SEGMENT: segments given by 3 or 4 node ids (a triangle repeats its third node).
struct SegmentSet {
  GlobalId id = 0;
  std::vector<std::array<GlobalId, 4>> segments; ///< deck node ids
  SourceLoc loc;
  std::vector<int> lines; ///< deck line of each segment (same file as loc), for messages
};

/// *CONTACT_[AUTOMATIC_]{SINGLE_SURFACE, SURFACE_TO_SURFACE, NODES_TO_SURFACE}[_ID|_TITLE]
/// (penalty contact; contact/contact.hpp has the formulation). Set types (SSTYP/MSTYP) follow
/// the manual: 0 segment set, 2 part set, 3 part, 4 node set (secondary of NODES_TO_SURFACE),
/// 5 all parts (SSID = 0 of a single-surface contact also means all parts).
struct ContactDef {
  enum class Kind : std::uint8_t { NodesToSurface, SurfaceToSurface, SingleSurface };
  Kind kind = Kind::NodesToSurface;
  bool automatic = false;
  GlobalId id = 0; ///< CID (_ID/_TITLE) or the 1-based order of appearance
  std::string title;
  std::string keyword; ///< as written, for messages
  SourceLoc loc;       ///< the keyword line
  // Card 1
  GlobalId ssid = 0, msid = 0;
  int sstyp = 0, mstyp = 0;
  SourceLoc ssid_loc, msid_loc; ///< the fields, for errors about the sets they name
  // Card 2: friction and activity
  Real fs = 0, fd = 0, dc = 0, vc = 0, vdc = 0;
  int penchk = 0;
  Real bt = 0, dt = 1e20; ///< birth and death times
  // Card 3: penalty scale factors and contact thicknesses
  Real sfs = 1, sfm = 1, sst = 0, mst = 0, sfst = 1, sfmt = 1, fsf = 1, vsf = 1;
  // Optional card A
  int soft = 0;
  Real sofscl = 0.1;
  int depth = 2, bsort = 0; ///< BSORT: search interval in cycles (0 = default)
  Real penmax = 0;          ///< optional card B (PENMAX); 0 = LS-DYNA's default
  int ignore = 0;           ///< optional card C (IGNORE): 0 = *CONTROL_CONTACT's, 1/2 = offsets
  /// optional card C DTSTIF: > 0 the fixed step of the SOFT = 1 stiffness; 0 the solution's
  Real dtstif = 0;
  // *CONTACT_ERODING_...: the eroding card (ISYM, EROSOP, IADJ)
  bool eroding = false;
  int isym = 0, erosop = 0, iadj = 0;
  /// *CONTACT_FORMING_...: one-way (kind NodesToSurface, non-automatic) with the main (tool)
  /// surface oriented automatically: consistently over each connected patch, facing the
  /// secondary (blank) nodes.
  bool forming = false;
  /// *CONTACT_[AUTOMATIC_]SURFACE_TO_SURFACE_TIEBREAK: card 4 (OPTION, NFLS, SFLS, PARAM);
  /// tiebreak_option 0 = not a tiebreak contact.
  int tiebreak_option = 0;
  Real nfls = 0, sfls = 0, tb_param = 0;
  /// Tied contacts (*CONTACT_TIED_NODES_TO_SURFACE, _SURFACE_TO_SURFACE, their _OFFSET and
  /// _CONSTRAINED_OFFSET, *CONTACT_SPOTWELD; kind NodesToSurface): the secondary nodes within
  /// reach of the main surface at time 0 are tied where they are, the others take no part.
  /// 0 not tied; 1 penalty springs (_OFFSET); 2 constraints (the others: the tied node moves with
  /// its segment's point); 3 constraints for spot welds, whose secondary nodes must have no
  /// rotational dofs (solid welds: beam welds would need moments).
  int tied = 0;
  /// Constraint ties (tied 2 or 3) of *CONTACT_TIED_SHELL_EDGE_TO_SURFACE and *CONTACT_SPOTWELD:
  /// a tied node with rotational dofs (shell, beam) also turns with its segment's nodes.
  bool tie_rotations = false;
  /// SST < 0 of a tied contact: the largest normal distance at which a node is tied (0:
  /// max(0.6 (secondary + main thickness), 5 % of the segment's size)).
  Real tie_distance = 0;
  /// *CONTACT_AUTOMATIC_GENERAL (kind SingleSurface, automatic): the beams of the parts are in
  /// edge-to-edge contact (capsules of radius half the contact thickness).
  bool general = false;
  /// _MPP card 1 CPARM8 (AUTOMATIC_GENERAL): 1 or 2 = no beam-to-beam contact within a part.
  int cparm8 = 0;
};

/// *MAT_ADD_EROSION: failure criteria added to material MID (elements erode when NCS of the
/// criteria are met at NUMFIP points). A criterion is used when its field is nonzero and not
/// equal to EXCL (stored as has_* = true); unsupported criteria are refused by the reader.
struct MatAddErosion {
  GlobalId mid = 0;
  bool has_mxpres = false, has_mnpres = false, has_sigp1 = false, has_sigvm = false;
  bool has_mxeps = false, has_effeps = false, has_failtm = false;
  Real mxpres = 0; ///< fail when the pressure p = -tr(sigma)/3 >= MXPRES
  Real mnpres = 0; ///< fail when p <= MNPRES
  Real sigp1 = 0;  ///< fail when the largest principal stress >= SIGP1
  Real sigvm = 0;  ///< fail when the von Mises stress >= SIGVM
  Real mxeps = 0;  ///< fail when the largest principal (logarithmic) strain >= MXEPS (solids)
  Real effeps = 0; ///< fail when the effective (logarithmic) strain >= EFFEPS (solids)
  Real failtm = 0; ///< fail when the time >= FAILTM
  Real numfip = 1; ///< shells: failed points for deletion (< 0: percentage of the points)
  int ncs = 1;     ///< number of criteria that must be met at a point
  SourceLoc loc;
};

/// *DEFINE_ELEMENT_DEATH_SOLID / _SHELL (_SET): its elements are deleted at `time` (1e16 for
/// TIME = 0 with a box), or, with a box, when their current centroid is inside it (inout 0) or
/// outside it (inout 1).
struct ElementDeath {
  Real time = 0;
  GlobalId boxid = 0;
  int inout = 0;
  SourceLoc loc;
};

/// *RIGIDWALL_PLANAR [_FINITE] [_MOVING] and *RIGIDWALL_GEOMETRIC_CYLINDER [_DISPLAY].
struct RigidWall {
  enum class Shape : std::uint8_t { Plane, Cylinder, Prism } shape = Shape::Plane;
  GlobalId id = 0; ///< wall number (1-based, order of appearance) or _ID value
  std::string title;
  GlobalId nsid = 0;   ///< slave node set, 0 = all nodes
  GlobalId nsidex = 0; ///< excluded node set
  GlobalId boxid = 0;
  Real offset = 0;
  std::array<Real, 3> tail{0, 0, 0}; ///< XT, YT, ZT
  std::array<Real, 3> head{0, 0, 0}; ///< XH, YH, ZH (normal direction tail->head)
  Real fric = 0;
  Real wvel = 0; ///< critical velocity for friction (not used)
  /// _ORTHO: friction SFRICA SFRICB DFRICA DFRICB DECAYA DECAYB along the wall's a axis (the
  /// direction NODE1 -> NODE2 at time 0, or D, projected on the wall) and b = n x a
  bool ortho = false;
  std::array<Real, 6> ortho_fric{};
  GlobalId ortho_node1 = 0, ortho_node2 = 0;
  std::array<Real, 3> ortho_dir{};
  bool finite = false;
  std::array<Real, 3> edge_l{0, 0, 0}; ///< XHEV,YHEV,ZHEV: local l axis head for finite walls
  Real lenl = 0, lenm = 0;
  Real lenp = 0; ///< prism: its depth behind the wall's plane (against the normal)
  bool moving = false;
  Real mass = 0; ///< moving wall mass
  Real v0 = 0;   ///< moving wall initial velocity along the normal
  // cylinder
  Real radius = 0, length = 0;
  Real birth = 0;    ///< wall active from this time
  Real death = 1e20; ///< wall inactive after this time
  /// *RIGIDWALL_GEOMETRIC_..._MOTION: the wall translates along the unit vector motion_dir
  /// with the velocity (motion_opt 0) or displacement (1) of curve motion_lcid; 0: no motion.
  GlobalId motion_lcid = 0;
  int motion_opt = 0;
  std::array<Real, 3> motion_dir{0, 0, 0};
  SourceLoc loc;
};

/// *CONSTRAINED_NODAL_RIGID_BODY [_INERTIA]: the nodes of NSID move as one rigid body.
struct NodalRigidBody {
  GlobalId pid = 0;                     ///< PID: id of the body (output; need not be a *PART)
  GlobalId nsid = 0;                    ///< node set
  SourceLoc loc;                        ///< the card (NSID field)
  std::optional<PartInertia> inertia;   ///< _INERTIA: given mass properties (as *PART_INERTIA)
  std::array<bool, 3> fix_t{}, fix_r{}; ///< _SPC, CMO = 1: the body's fixed dofs (global)
};

/// *CONSTRAINED_EXTRA_NODES_NODE / _SET: nodes added to rigid part PID.
struct ExtraNodes {
  GlobalId pid = 0;
  GlobalId id = 0; ///< node id, or node set id when is_set
  bool is_set = false;
  SourceLoc loc;
};

/// *CONSTRAINED_RIGID_BODIES: rigid part PIDF merged into PIDL.
struct RigidMerge {
  GlobalId lead = 0, follower = 0;
  SourceLoc loc;
};

/// *CONSTRAINED_JOINT_{SPHERICAL,REVOLUTE,CYLINDRICAL,TRANSLATIONAL,UNIVERSAL,PLANAR}: a penalty
/// joint between two rigid bodies at node pairs (N1, N2), (N3, N4), (N5, N6): N1, N3, N5 on the
/// first body, N2, N4, N6 on the second, each pair coincident at time 0 (universal: N3, N4 not).
struct Joint {
  enum class Kind : std::uint8_t {
    Spherical,
    Revolute,
    Cylindrical,
    Translational,
    Universal,
    Planar
  };
  Kind kind = Kind::Spherical;
  GlobalId id = 0;                 ///< JID (_ID) or the 1-based order of appearance
  std::array<GlobalId, 6> nodes{}; ///< N1..N6 (0: not used by this kind)
  Real rps = 1;                    ///< relative penalty stiffness
  Real tfail = 0;                  ///< _FAILURE TFAIL: the joint is released then (0: never)
  SourceLoc loc;
  /// Node pairs used: 1 (spherical), 2 (revolute, cylindrical, universal, planar), 3
  /// (translational). A universal joint's second "pair" is N3 on the first body and N4 on the
  /// second, not coincident: their arms from N1 and N2 keep their angle (the cross).
  [[nodiscard]] int pairs() const {
    return kind == Kind::Spherical ? 1 : kind == Kind::Translational ? 3 : 2;
  }
};

/// *CONSTRAINED_SPOTWELD (two nodes) and *CONSTRAINED_GENERALIZED_WELD_SPOT (a node set): a
/// rigid, massless connection that fails when (|fn|/sn)^n + (|fs|/ss)^m >= 1 (sn, ss = 0: no
/// such term) or at time tf.
struct SpotWeld {
  GlobalId id = 0;             ///< weld id (_ID / WID, else the order of appearance)
  bool generalized = false;    ///< *CONSTRAINED_GENERALIZED_WELD_SPOT
  std::vector<GlobalId> nodes; ///< N1, N2 (spotweld); empty for a node set weld
  GlobalId nsid = 0;           ///< node set (generalized)
  Real sn = 0, ss = 0, n = 1, m = 1;
  Real tf = 1e20;
  SourceLoc loc;
};

/// The implicit controls (*CONTROL_IMPLICIT_...), as read; defaults are the LS-DYNA manual's.
/// Only read by the implicit solver (solvers/implicit); imflag = 1 makes the deck implicit.
struct ImplicitControls {
  // *CONTROL_IMPLICIT_GENERAL
  int imflag = 0; ///< 0 explicit, 1 implicit
  Real dt0 = 0;   ///< first step (0: one step to ENDTIM)
  bool general_given = false;
  SourceLoc general_loc;
  // *CONTROL_IMPLICIT_SOLVER
  int lsolvr = 2;  ///< 2, 4, 5, 6, 9: direct (MUMPS); 10-12: CG + GAMG; 13-15: CG + BoomerAMG
  int lprint = 0;  ///< 1/2: print linear-solver statistics
  Real absmem = 0; ///< ABSMEM: in-core factor limit in 8-byte words (0 none; -1 always OOC)
  SourceLoc solver_loc;
  // *CONTROL_IMPLICIT_AUTO
  int iauto = 0;   ///< 0 fixed step, 1 automatic step size
  int iteopt = 11; ///< optimum iterations per step
  int itewin = 5;  ///< window around ITEOPT
  Real dtmin = 0;  ///< 0: DT0 / 1000
  Real dtmax = 0;  ///< 0: DT0 * 10
  // *CONTROL_IMPLICIT_DYNAMICS
  int imass = 0;    ///< 0 static, 1 Newmark dynamics
  Real gamma = 0.5; ///< Newmark gamma
  Real beta = 0.25; ///< Newmark beta
  SourceLoc dynamics_loc;
  // *CONTROL_IMPLICIT_EIGENVALUE
  int neig = 0;    ///< number of eigenvalues (0: no eigen analysis)
  Real center = 0; ///< CENTER: frequency (cycles per unit time) the modes are sought near
  int eigmth = 2;  ///< 2: shift-invert Lanczos (SLEPc Krylov-Schur, shift-invert, MUMPS)
  SourceLoc eigen_loc;
  // *CONTROL_IMPLICIT_SOLUTION
  int nsolvr = 2;      ///< 1 linear; 2 / 7 / 12 full Newton (parcae re-forms every iteration)
  int maxref = 15;     ///< maximum Newton iterations per step
  Real dctol = 1e-3;   ///< displacement-norm tolerance (relative)
  Real ectol = 1e-2;   ///< energy-norm tolerance (relative)
  Real rctol = 1e10;   ///< residual-norm tolerance (relative; 1e10 = off)
  Real lstol = 0.9;    ///< line-search tolerance (0 or > 1e9: off)
  Real abstol = 1e-10; ///< absolute residual tolerance
  SourceLoc solution_loc;
};

/// *LOAD_SEGMENT / *LOAD_SEGMENT_SET: pressure SF * curve(t) on a segment (positive pressure
/// acts against the segment normal N1-N2-N3 by the right-hand rule, as in LS-DYNA).
struct SegmentLoad {
  std::array<GlobalId, 4> nodes{}; ///< deck node ids (a triangle repeats N3)
  GlobalId lcid = 0;
  Real sf = 1.0;
  Real at = 0;       ///< arrival time
  GlobalId ssid = 0; ///< *LOAD_SEGMENT_SET before expansion (0 once expanded)
  SourceLoc loc;
};

struct Controls {
  // *CONTROL_TERMINATION
  Real endtim = 0;
  int endcyc = 0;
  /// Stop (normally) when mass scaling during the run has added more than this percentage of
  /// the physical mass (*CONTROL_TERMINATION ENDMAS; <= 0 or >= 1e8: off).
  Real endmas = 1e8;
  // *CONTROL_CONTACT (defaults for every contact)
  Real contact_slsfac = 0.1; ///< SLSFAC: penalty scale
  int contact_nsbcs = 0;     ///< NSBCS: cycles between bucket sorts (0 = 10)
  Real contact_xpene = 4;    ///< XPENE: release depth of non-automatic contacts (x thickness)
  int contact_ignore = 0;    ///< IGNORE: 0 move initially penetrating nodes, 1 keep an offset
  Real contact_sfric = 0, contact_dfric = 0, contact_edc = 0; ///< default FS, FD, DC
  int contact_shlthk = 0; ///< SHLTHK (stored; parcae always uses the shell thickness offsets)
  /// SSTHK: 0 = single-surface contacts limit a shell's contact thickness to 0.4 x its shortest
  /// edge (unless SST/MST or OPTT give it); 1 = they use the shell thickness
  int contact_ssthk = 0;
  /// ORIEN: automatic reorientation of the surfaces of non-automatic contacts at set-up (1: part
  /// input, 2: part and segment input, 3: off for non-forming contacts, 4: off for forming)
  int contact_orien = 1;
  /// PENOPT: penalty stiffness of a node against a segment (1: the smaller of the segment's and
  /// the node's own segments', 2: the segment's)
  int contact_penopt = 1;
  bool contact_control_given = false;
  // *CONTROL_TIMESTEP
  Real dtinit = 0;
  Real tssfac = 0.9;
  /// Mass scaling: elements whose step is below |dt2ms| get mass so that it is |dt2ms| (the
  /// run's step at least tssfac |dt2ms|): at set-up and, when dt2ms < 0 and ms1st == 0, during
  /// the run too.
  Real dt2ms = 0;
  int ms1st = 0;  ///< 1: mass scaling at set-up only
  Real dtmin = 0; ///< fraction of initial dt below which the run stops (*CONTROL_TERMINATION)
  /// *CONTROL_TIMESTEP ERODE = 1: solids whose step (x TSSFAC) falls below DTMIN x the initial
  /// step are eroded instead of stopping the run.
  int erode = 0;
  /// *CONTROL_TIMESTEP ISDO: the shell step's length (ShellBlock::isdo).
  int isdo = 0;
  GlobalDamping damping; ///< *DAMPING_GLOBAL
  GlobalId lctm = 0;
  // *CONTROL_BULK_VISCOSITY
  Real q1 = 0.06; ///< linear coefficient
  Real q2 = 1.5;  ///< quadratic coefficient
  int bulk_type = 1;
  // *CONTROL_HOURGLASS
  int ihq = 1;
  Real qh = 0.1;
  SourceLoc hourglass_loc; ///< the card (errors about IHQ)
  // *CONTROL_ENERGY
  int hgen = 1; ///< LS-DYNA default 1 (not computed); parcae always computes and reports it
  int rwen = 2;
  int slnten = 1;
  int rylen = 1;
  // *CONTROL_DYNAMIC_RELAXATION: the relaxation phase runs when a curve has SIDR 1 or 2, or
  // IDRFLG = 1
  int dr_nrcyck = 250;    ///< NRCYCK: cycles between convergence checks
  Real dr_drtol = 1e-3;   ///< DRTOL: kinetic energy ratio of convergence
  Real dr_drfctr = 0.995; ///< DRFCTR: velocity scale per cycle
  Real dr_drterm = 0;     ///< DRTERM: end of the relaxation phase (0: none)
  Real dr_tssfdr = 0;     ///< TSSFDR: step scale during relaxation (0: TSSFAC)
  int dr_idrflg = 0;      ///< IDRFLG: 1 = relax even without flagged curves
  // *CONTROL_SHELL
  Real shell_wrpang = 20;
  int shell_theory = 2;
  int shell_istupd = 0; ///< thickness update
  int shell_intgrd = 0; ///< through-thickness rule: 0 Gauss, 1 Lobatto
  // *CONTROL_SOLID: accepted, nothing used yet
  // *DATABASE_GLSTAT, *DATABASE_BINARY_D3PLOT
  Real glstat_dt = 0;
  Real d3plot_dt = 0;         ///< DT (set to ENDTIM/NPLTC when NPLTC > 0)
  GlobalId d3plot_lcdt = 0;   ///< LCDT: curve of the plot interval over time (0 = none)
  int d3plot_beam = 0;        ///< BEAM: discrete springs/dampers as beams in d3plot (0/1/2)
  int d3plot_npltc = 0;       ///< NPLTC: number of plot states (DT = ENDTIM/NPLTC when > 0)
  GlobalId d3plot_psetid = 0; ///< PSETID: part set written to d3plot (0 = all parts)
  int d3plot_ioopt = 0;       ///< card 2 IOOPT: 1 = at most 1000 states per LCDT curve
  /// An ASCII time-history database card (*DATABASE_MATSUM, _NODOUT, _RWFORC).
  struct AsciiOutput {
    Real dt = 0;        ///< DT: output interval (0 = the glstat interval)
    int binary = 0;     ///< BINARY: 0/1 ASCII; 2 binout, 3 both (parcae writes ASCII only)
    GlobalId lcur = 0;  ///< LCUR: curve of the output interval (not used; DT is)
    int ioopt = 1;      ///< IOOPT: how LCUR is used (stored only)
    bool given = false; ///< the card was in the deck
    SourceLoc loc;      ///< where the card was read
  };
  AsciiOutput matsum, nodout, rwforc;
  /// One node or node set of *DATABASE_HISTORY_NODE / *DATABASE_HISTORY_NODE_SET (deck order;
  /// a node given twice is written once, at its first place).
  struct HistoryNode {
    GlobalId id = 0;     ///< node id, or node set id when is_set
    bool is_set = false; ///< from *DATABASE_HISTORY_NODE_SET
    SourceLoc loc;       ///< the field that named it (file, line, card)
  };
  std::vector<HistoryNode> history_nodes;
  /// *DATABASE_EXTENT_BINARY: what the d3plot states contain (read by the d3plot writer).
  /// Defaults are the LS-DYNA manual's; values are stored as given.
  struct ExtentBinary {
    // Card 1
    int neiph = 0;  ///< NEIPH: extra history variables written per solid integration point
    int neips = 0;  ///< NEIPS: extra history variables written per shell integration point
    int maxint = 3; ///< MAXINT: shell through-thickness points written (3 = bottom/mid/top;
                    ///< < 0: |MAXINT| points, in-plane points averaged)
    int strflg = 0; ///< STRFLG: 1 = write strain tensors (solids, shells, thick shells)
    int sigflg = 1; ///< SIGFLG: 1 = write shell stress tensors, 2 = leave them out
    int epsflg = 1; ///< EPSFLG: 1 = write shell effective plastic strain, 2 = leave it out
    int rltflg = 1; ///< RLTFLG: 1 = write shell force/moment resultants, 2 = leave them out
    int engflg = 1; ///< ENGFLG: 1 = write shell thickness and internal energy density, 2 = not
    // Card 2
    int cmpflg = 0;  ///< CMPFLG: 1 = orthotropic/anisotropic stresses/strains in local frame
    int ieverp = 0;  ///< IEVERP: 1 = one plot state per d3plot family member
    int beamip = 0;  ///< BEAMIP: beam integration points written
    int dcomp = 1;   ///< DCOMP: data compression (1 off, 2 rigid-body data off, ...)
    int shge = 1;    ///< SHGE: 1 off, 2 = write shell hourglass energy density
    int stssz = 1;   ///< STSSZ: 1 off, 2 = shell time step, 3 = mass, added mass or time step
    int n3thdt = 2;  ///< N3THDT: material energy in d3thdt (1 off, 2 on)
    int ialemat = 1; ///< IALEMAT: 1 = write the list of solid parts with ALE materials
    // Card 3
    int nintsld = 0;    ///< NINTSLD: solid integration points written (0/1 = 1, 8 = all)
    int pkp_sen = 0;    ///< PKP_SEN: 1 = contact peak pressure and surface energy (intfor)
    Real sclp = 1.0;    ///< SCLP: scale of the peak pressure
    int hydro = 0;      ///< HYDRO: extra hydrostatic variables
    int msscl = 0;      ///< MSSCL: 1/2 = write nodal added mass (mass scaling)
    int therm = 0;      ///< THERM: 0/1 temperature, 2 + flux, 3 + shell surface temperatures
    std::string intout; ///< INTOUT: STRESS / STRAIN / ALL at all integration points (eloutdet)
    std::string nodout; ///< NODOUT: STRESS / STRAIN / ALL extrapolated to nodes (eloutdet)
    // Card 4
    int dtdt = 0;       ///< DTDT: 1 = write the temperature rate
    int resplt = 0;     ///< RESPLT: 1 = write residual forces
    int neipb = 0;      ///< NEIPB: extra history variables per beam integration point
    int quadsld = 0;    ///< QUADSLD: output of quadratic solids as their sub-elements
    int cubsld = 0;     ///< CUBSLD: output of cubic solids as their sub-elements
    int deleres = 0;    ///< DELERES: 1 = write residual forces of deleted elements
    bool given = false; ///< the card was in the deck
  };
  ExtentBinary extent;
  std::string title; ///< *TITLE
  // *CONTROL_MPP_DECOMPOSITION_METHOD: "RCB" (default) or "METIS", upper case
  std::string mpp_decomposition_method = "RCB";
  // *CONTROL_MPP_DECOMPOSITION_TRANSFORMATION: one entry per card, applied in order
  struct DecompositionTransform {
    std::string type;        ///< SX, SY, SZ (scale by V1), RX, RY, RZ (rotate V1 degrees)
    std::array<Real, 9> v{}; ///< V1..V9 (V7-V9 are not read: no supported type uses them)
    SourceLoc loc;
  };
  std::vector<DecompositionTransform> mpp_decomposition_transforms;
  ImplicitControls implicit;
};

/// Something the reader saw and did not use (warning), or could not use (error unless
/// --ignore-unsupported).
/// *INITIAL_AXIAL_FORCE_BEAM: the axial force of the beams of set BSID follows SCALE * LCID(t)
/// while the curve runs (until its last abscissa, or until it returns to zero); then the beams
/// go on from the stress they have. KBEND 0: every point gets the same axial stress (no bending
/// stiffness while the force is imposed); 1: the force is imposed keeping the bending stresses.
struct InitialAxialForceBeam {
  GlobalId bsid = 0;
  GlobalId lcid = 0;
  Real scale = 1;
  int kbend = 0;
  SourceLoc loc;
};

struct KeywordNote {
  std::string keyword;
  SourceLoc loc;
  bool error = false;
  std::string message; ///< what was done with it ("ignored", "not supported", ...)
};

/// The whole deck.
struct Model {
  NodeTable nodes;
  SolidTable solids;
  ShellTable shells;
  std::vector<ShellLayup> shell_layups; ///< ShellTable::layup, Part::layup
  std::vector<IntegrationShell> integration_shells;
  BeamTable beams;
  std::vector<Part> parts;
  std::vector<Section> sections;
  std::vector<Material> materials;
  std::vector<Hourglass> hourglass;
  std::vector<Eos> eos;
  std::vector<Curve> curves;
  std::vector<Table> tables; ///< *DEFINE_TABLE (ids shared with the curves)
  std::map<GlobalId, IdSet> node_sets, part_sets, shell_sets, solid_sets, beam_sets;
  std::map<GlobalId, IdSet> discrete_sets; ///< *SET_DISCRETE: ids of discrete elements
  std::map<GlobalId, Box> boxes;
  std::map<GlobalId, DefinedVector> vectors; ///< *DEFINE_VECTOR
  std::map<GlobalId, CoordinateSystem> coordinate_systems;
  std::vector<Spc> spcs;
  std::vector<PrescribedMotion> motions;
  std::vector<InitialVelocity> initial_velocities;
  std::vector<NodalLoad> nodal_loads;
  std::vector<BodyLoad> body_loads;
  std::vector<RigidBodyLoad> rigid_body_loads; ///< *LOAD_RIGID_BODY
  GlobalId body_load_parts = 0; ///< *LOAD_BODY_PARTS: part set the body loads act on (0: all)
  std::vector<NodeMass> lumped_masses;             ///< *ELEMENT_MASS, *ELEMENT_INERTIA
  std::vector<PartMass> part_masses;               ///< *ELEMENT_MASS_PART, _PART_SET
  std::vector<RigidBodyVelocity> rigid_velocities; ///< *INITIAL_VELOCITY_RIGID_BODY
  std::vector<SegmentLoad> segment_loads;          ///< *LOAD_SEGMENT, and _SET expanded per segment
  std::vector<RigidWall> rigid_walls;
  std::vector<Airbag> airbags;
  std::map<GlobalId, SegmentSet> segment_sets;
  std::vector<ContactDef> contacts;
  std::vector<MatAddErosion> add_erosions;  ///< *MAT_ADD_EROSION, at most one per material
  std::vector<ElementDeath> element_deaths; ///< *DEFINE_ELEMENT_DEATH_*
  /// per model solid / shell: its list in death_lists (-1: none); empty without deaths
  std::vector<std::int32_t> solid_death, shell_death;
  /// the distinct lists of element_deaths entries that name one element (the element dies at
  /// the first that applies)
  std::vector<std::vector<std::int32_t>> death_lists;
  std::vector<NodalRigidBody> nodal_rigid_bodies;
  std::vector<ExtraNodes> extra_nodes;
  std::vector<RigidMerge> rigid_merges;
  std::vector<SpotWeld> spot_welds;
  std::vector<Joint> joints;
  std::vector<JointStiffness> joint_stiffnesses; ///< *CONSTRAINED_JOINT_STIFFNESS_GENERALIZED
  std::vector<Interpolation> interpolations;     ///< *CONSTRAINED_INTERPOLATION
  std::vector<InitialAxialForceBeam> axial_force_beams;   ///< *INITIAL_AXIAL_FORCE_BEAM
  std::vector<InitialStress> initial_stresses;            ///< *INITIAL_STRESS_SOLID
  std::vector<InitialShellStress> initial_shell_stresses; ///< *INITIAL_STRESS_SHELL
  Controls control;
  std::vector<std::string> keywords_used; ///< distinct keywords read and used, in order
  std::vector<KeywordNote> notes;         ///< unsupported / ignored keywords

  // Look-ups by deck id; nullptr / nullopt when missing.
  [[nodiscard]] const Part* find_part(GlobalId id) const;
  [[nodiscard]] const Section* find_section(GlobalId id) const;
  [[nodiscard]] const Material* find_material(GlobalId id) const;
  [[nodiscard]] const Hourglass* find_hourglass(GlobalId id) const;
  [[nodiscard]] const Eos* find_eos(GlobalId id) const;
  [[nodiscard]] const Curve* find_curve(GlobalId id) const;
  [[nodiscard]] const Table* find_table(GlobalId id) const;
  /// Local index of a node by deck id, or kInvalidLocal. Built lazily by index_nodes().
  [[nodiscard]] LocalId node_index(GlobalId id) const;
  void index_nodes();

private:
  /// node_index's look-up over the nodes that index_nodes() saw (the first node_indexed_): a
  /// binary search of nodes.id when those ids ascend (no copy), else of node_order_ (their
  /// indices sorted by id, 4 bytes a node; a repeated id finds its first node).
  std::vector<LocalId> node_order_;
  std::size_t node_indexed_ = 0;
};

} // namespace parcae
