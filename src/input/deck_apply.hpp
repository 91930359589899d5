#pragma once
// The per-keyword apply functions referenced by the card tables: each moves the named fields
// of a parsed Block into the Model (through DeckBuilder).
#include "input/card_parser.hpp"
#include "input/deck_builder.hpp"

namespace parcae::io {

// deck_apply_control.cpp: file structure, parameters, controls, output, curves
void apply_keyword(const Block& b, DeckBuilder& d);
void apply_title(const Block& b, DeckBuilder& d);
void apply_end(const Block& b, DeckBuilder& d);
void apply_include(const Block& b, DeckBuilder& d);
void apply_include_path(const Block& b, DeckBuilder& d);
void apply_parameter(const Block& b, DeckBuilder& d);
void apply_parameter_expression(const Block& b, DeckBuilder& d);
void apply_parameter_duplication(const Block& b, DeckBuilder& d);
void apply_control_termination(const Block& b, DeckBuilder& d);
void apply_control_timestep(const Block& b, DeckBuilder& d);
void apply_control_hourglass(const Block& b, DeckBuilder& d);
void apply_control_bulk_viscosity(const Block& b, DeckBuilder& d);
void apply_control_energy(const Block& b, DeckBuilder& d);
void apply_control_dynamic_relaxation(const Block& b, DeckBuilder& d);
void apply_control_shell(const Block& b, DeckBuilder& d);
void apply_control_mpp_decomposition_method(const Block& b, DeckBuilder& d);
void apply_control_mpp_decomposition_transformation(const Block& b, DeckBuilder& d);
void apply_nothing(const Block& b, DeckBuilder& d);
void apply_database_glstat(const Block& b, DeckBuilder& d);
void apply_database_d3plot(const Block& b, DeckBuilder& d);
void apply_database_matsum(const Block& b, DeckBuilder& d);
void apply_database_nodout(const Block& b, DeckBuilder& d);
void apply_database_rwforc(const Block& b, DeckBuilder& d);
void apply_database_history_node(const Block& b, DeckBuilder& d);
void apply_database_history_node_set(const Block& b, DeckBuilder& d);
void apply_database_extent_binary(const Block& b, DeckBuilder& d);
/// Checks that every node and node set named by *DATABASE_HISTORY_NODE / _SET exists (after the
/// whole deck is read: ids may be used before they are defined). Throws InputError at the
/// field that names the missing one (file, line, card).
void check_history_references(const Model& m);
void apply_define_curve(const Block& b, DeckBuilder& d);
/// A curve keyword's LCID (positive, claimed), title (_TITLE) and SIDR (0-2), checked at their
/// fields (*DEFINE_CURVE, *DEFINE_CURVE_SMOOTH).
Curve read_curve_header(const Block& b, DeckBuilder& d);

// deck_apply_define.cpp: boxes and local coordinate systems
void apply_define_box(const Block& b, DeckBuilder& d);
void apply_define_coordinate_system(const Block& b, DeckBuilder& d);
void apply_define_coordinate_nodes(const Block& b, DeckBuilder& d);
void apply_define_coordinate_vector(const Block& b, DeckBuilder& d);
/// Axes of every *DEFINE_COORDINATE_* (nodes are known by then); InputError at the keyword of a
/// degenerate frame or a missing node.
void resolve_coordinate_systems(Model& m);
/// The unit axes (rows: x, y, z) of a frame whose x axis is along x_dir and whose x-y plane holds
/// `plane`; false when they do not span a plane.
bool frame_axes(const std::array<Real, 3>& x_dir, const std::array<Real, 3>& plane,
                std::array<std::array<Real, 3>, 3>& axes);
void apply_define_vector(const Block& b, DeckBuilder& d);
/// The unit direction (global) of *DEFINE_VECTOR vid, after resolve_coordinate_systems;
/// InputError at loc when it is not defined or has zero length (`what` names the user).
std::array<Real, 3> vector_direction(const Model& m, GlobalId vid, const SourceLoc& loc,
                                     std::string_view what);

// deck_apply_mesh.cpp: nodes, elements, parts, sections, materials, hourglass
/// Every material law's card (the law's own table, materials/catalogue.hpp): MID, TITLE and
/// RO with their checks, the id claimed, then the law's read function.
void apply_material(const Block& b, DeckBuilder& d);
void apply_node(const Block& b, DeckBuilder& d);
void apply_element_solid(const Block& b, DeckBuilder& d);
void apply_element_shell(const Block& b, DeckBuilder& d);
/// An *ELEMENT_SHELL card (EID, PID, N1-N4; N5-N8 refused), its id claimed.
PendingShell read_shell_card(const Fields& row, DeckBuilder& d);
void apply_element_shell_thickness(const Block& b, DeckBuilder& d);
void apply_part(const Block& b, DeckBuilder& d);
/// The _CONTACT card of *PART / *PART_COMPOSITE: OPTT (checked) into p; the other fields, when
/// set and `note`, noted as ignored (the *CONTACT cards' values are used). Errors name `who`.
void read_part_contact(const Block& b, const Fields& row, std::string_view who, bool note, Part& p,
                       DeckBuilder& d);
/// The _INERTIA cards of *PART_INERTIA / *CONSTRAINED_NODAL_RIGID_BODY_INERTIA (node_field:
/// the field naming the centre's node); errors name `who`.
PartInertia read_inertia_cards(const Fields& row, std::string_view who,
                               std::string_view node_field);
void apply_section_solid(const Block& b, DeckBuilder& d);
void apply_section_shell(const Block& b, DeckBuilder& d);
/// *ELEMENT_TSHELL: eight-node thick shells (N1-N4 bottom, N5-N8 top), held with the solids.
void apply_element_tshell(const Block& b, DeckBuilder& d);
/// *SECTION_TSHELL: ELFORM, SHRF, NIP, QR (checked; ICOMP 1 and user rules refused).
void apply_section_tshell(const Block& b, DeckBuilder& d);
/// The airbag of an *AIRBAG_... keyword: its id (ABID of _ID, a numeric option of older decks,
/// else its order), title and part set (SIDTYP 0 refused at the field).
Airbag new_airbag(const Block& b, const DeckBuilder& d);
void apply_mat_add_erosion(const Block& b, DeckBuilder& d);
void apply_eos_linear_polynomial(const Block& b, DeckBuilder& d);
void apply_eos_gruneisen(const Block& b, DeckBuilder& d);
void apply_eos_tabulated(const Block& b, DeckBuilder& d);
void apply_eos_tabulated_compaction(const Block& b, DeckBuilder& d);
void apply_hourglass(const Block& b, DeckBuilder& d);

// deck_apply_sets.cpp: sets
void apply_set_node_list(const Block& b, DeckBuilder& d);
void apply_set_node_generate(const Block& b, DeckBuilder& d);
void apply_set_node_general(const Block& b, DeckBuilder& d);
void apply_set_part_list(const Block& b, DeckBuilder& d);
void apply_set_part_generate(const Block& b, DeckBuilder& d);
void apply_set_part_general(const Block& b, DeckBuilder& d);
void apply_set_shell(const Block& b, DeckBuilder& d);
void apply_set_solid(const Block& b, DeckBuilder& d);
/// The ways a set keyword gives its members (deck_apply_sets.cpp): a list, GENERATE ranges
/// (B1BEG-B1END pairs, or _GENERATE_INCREMENT's BBEG BEND INCR), GENERAL options (for element
/// sets: ALL, ELEM, PART, DELEM, DPART), _ADD, _INTERSECT, _COLUMN (first field of each card).
enum class SetForm : std::uint8_t { List, Generate, General, Add, Intersect, Column };
void apply_set_kind(const Block& b, SetKind kind, SetForm form, DeckBuilder& d);
void apply_set_node_add(const Block& b, DeckBuilder& d);
void apply_set_part_add(const Block& b, DeckBuilder& d);
void apply_set_shell_add(const Block& b, DeckBuilder& d);
void apply_set_solid_add(const Block& b, DeckBuilder& d);

// deck_apply_loads.cpp: constraints, prescribed motion, initial velocity, loads, rigid walls
void apply_spc_node(const Block& b, DeckBuilder& d);
void apply_spc_set(const Block& b, DeckBuilder& d);
void apply_motion_node(const Block& b, DeckBuilder& d);
void apply_motion_set(const Block& b, DeckBuilder& d);
void apply_motion_rigid(const Block& b, DeckBuilder& d);
void apply_initial_velocity(const Block& b, DeckBuilder& d);
void apply_initial_velocity_node(const Block& b, DeckBuilder& d);
void apply_initial_velocity_generation(const Block& b, DeckBuilder& d);
void apply_load_node_point(const Block& b, DeckBuilder& d);
void apply_load_node_set(const Block& b, DeckBuilder& d);
void apply_load_body_x(const Block& b, DeckBuilder& d);
void apply_load_body_y(const Block& b, DeckBuilder& d);
void apply_load_body_z(const Block& b, DeckBuilder& d);
void apply_airbag_simple_pressure_volume(const Block& b, DeckBuilder& d);
void apply_rigidwall_planar(const Block& b, DeckBuilder& d);
void apply_rigidwall_cylinder(const Block& b, DeckBuilder& d);
void apply_rigidwall_flat(const Block& b, DeckBuilder& d);
void apply_rigidwall_prism(const Block& b, DeckBuilder& d);
/// A *DEFINE_COORDINATE_ system a card references (an error at the card when undefined).
const CoordinateSystem& referenced_system(const Model& m, const SourceLoc& loc,
                                          std::string_view what, GlobalId cid);
/// Once the systems are resolved: nodal and body loads given in a local system (CID) become
/// loads along the global axes with the local axis' components (the same vector).
void resolve_local_loads(DeckBuilder& d);

// deck_apply_constraints.cpp: nodal rigid bodies, extra nodes, merged rigid bodies, spotwelds
void apply_constrained_nodal_rigid_body(const Block& b, DeckBuilder& d);
void apply_constrained_extra_nodes_node(const Block& b, DeckBuilder& d);
void apply_constrained_extra_nodes_set(const Block& b, DeckBuilder& d);
void apply_constrained_rigid_bodies(const Block& b, DeckBuilder& d);
void apply_constrained_spotweld(const Block& b, DeckBuilder& d);
void apply_constrained_joint_spherical(const Block& b, DeckBuilder& d);
void apply_constrained_joint_revolute(const Block& b, DeckBuilder& d);
void apply_constrained_joint_cylindrical(const Block& b, DeckBuilder& d);
void apply_constrained_joint_translational(const Block& b, DeckBuilder& d);
void apply_constrained_joint_universal(const Block& b, DeckBuilder& d);
void apply_constrained_joint_planar(const Block& b, DeckBuilder& d);
void apply_constrained_generalized_weld_spot(const Block& b, DeckBuilder& d);
/// Checks the constraints' references once the whole deck is read: nodes, node sets and
/// rigid parts exist, no node is in two rigid constraints (or in one and a *MAT_RIGID part),
/// no rigid part is merged into itself. Throws InputError at the card (file, line).
void check_constraint_references(const Model& m);

// card_tables_beam.cpp / deck_apply_beam.cpp: *SECTION_BEAM, *ELEMENT_BEAM, *SET_BEAM
std::vector<KeywordSpec> beam_keywords();
void apply_section_beam(const Block& b, DeckBuilder& d);
void apply_element_beam(const Block& b, DeckBuilder& d);
void apply_set_beam(const Block& b, DeckBuilder& d);
void apply_initial_axial_force_beam(const Block& b, DeckBuilder& d);
void apply_set_beam_generate(const Block& b, DeckBuilder& d);
void apply_set_beam_general(const Block& b, DeckBuilder& d);
void apply_set_beam_add(const Block& b, DeckBuilder& d);
void apply_set_shell_general(const Block& b, DeckBuilder& d);
void apply_set_solid_general(const Block& b, DeckBuilder& d);
/// The error for a beam section of a formulation parcae does not compute (all but ELFORM 3),
/// used by part pid.
std::string beam_formulation_message(const Section& s, GlobalId pid);

// card_tables_contact.cpp: the card tables of the contact keywords (joined in build_table())
std::vector<KeywordSpec> contact_keywords();
/// The cards shared by every *CONTACT keyword (manual names and defaults); with_id: the
/// _ID / _TITLE card (CID, HEADING) first; eroding: the eroding card after card 3.
/// Cards of the *CONTACT keywords, with the option cards first (ID|TITLE, MPP).
std::vector<CardSpec> contact_cards(bool eroding = false, bool tiebreak = false);
/// What the option cards of contact_cards() do (docs).
std::string_view contact_options_summary();

// card_tables_forming.cpp: sheet-metal forming keywords (joined in build_table()): *MAT_037,
// *CONTACT_FORMING_..., adaptivity and springback cards (accepted with a warning)
std::vector<KeywordSpec> forming_keywords();

// deck_apply_forming.cpp: their apply functions (apply_contact_forming_one_way in
// deck_apply_contact.cpp, with the other contacts)
void apply_contact_forming_one_way(const Block& b, DeckBuilder& d);
void apply_control_adaptive(const Block& b, DeckBuilder& d);
void apply_control_adapstep(const Block& b, DeckBuilder& d);
void apply_control_accuracy(const Block& b, DeckBuilder& d);
void apply_interface_springback(const Block& b, DeckBuilder& d);

// card_tables_implicit.cpp / deck_apply_implicit.cpp: the implicit controls
std::vector<KeywordSpec> implicit_keywords();
void apply_control_implicit_general(const Block& b, DeckBuilder& d);
void apply_control_implicit_solver(const Block& b, DeckBuilder& d);
void apply_control_implicit_auto(const Block& b, DeckBuilder& d);
void apply_control_implicit_dynamics(const Block& b, DeckBuilder& d);
void apply_control_implicit_eigenvalue(const Block& b, DeckBuilder& d);
void apply_control_implicit_solution(const Block& b, DeckBuilder& d);
void apply_control_implicit_stabilization(const Block& b, DeckBuilder& d);
/// An explicit deck: one note per *CONTROL_IMPLICIT_ card read (they are not used).
void note_unused_implicit_controls(DeckBuilder& d);

/// A keyword file (src/input/keywords_<name>.cpp, listed in keyword_files.def): its card
/// tables, and the function that checks and finishes its keywords once the whole deck is read
/// (after parts, elements, sets, materials and coordinate systems; nullptr: none).
struct KeywordFile {
  std::vector<KeywordSpec> keywords;
  void (*resolve)(DeckBuilder& d) = nullptr;
};
#define PARCAE_KEYWORD_FILE(name) KeywordFile keywords_##name();
#include "input/keyword_files.def"
#undef PARCAE_KEYWORD_FILE
/// Every keyword file, in keyword_files.def order.
std::vector<KeywordFile> keyword_files();

// deck_apply_contact.cpp: *CONTACT_..., *CONTROL_CONTACT, *SET_SEGMENT
void apply_contact_automatic_single(const Block& b, DeckBuilder& d);
void apply_contact_automatic_general(const Block& b, DeckBuilder& d);
void apply_contact_automatic_surface_to_surface(const Block& b, DeckBuilder& d);
void apply_contact_automatic_surface_to_surface_tiebreak(const Block& b, DeckBuilder& d);
void apply_contact_automatic_nodes_to_surface(const Block& b, DeckBuilder& d);
void apply_contact_single(const Block& b, DeckBuilder& d);
void apply_contact_surface_to_surface(const Block& b, DeckBuilder& d);
void apply_contact_nodes_to_surface(const Block& b, DeckBuilder& d);
/// *CONTACT_TIED_NODES_TO_SURFACE / _SURFACE_TO_SURFACE (_OFFSET, _CONSTRAINED_OFFSET): one-way
/// penalty ties (ContactDef::tied 1); *CONTACT_SPOTWELD (_WITH_TORSION): the same, solid welds
/// only (tied 2).
void apply_contact_tied(const Block& b, DeckBuilder& d);
void apply_contact_spotweld(const Block& b, DeckBuilder& d);
void apply_contact_tied_shell_edge(const Block& b, DeckBuilder& d);
void apply_contact_smooth(const Block& b, DeckBuilder& d);
void apply_contact_mortar(const Block& b, DeckBuilder& d);
/// *NODE_TRANSFORM (keywords_transform.cpp): moves the node sets; true when there were any.
bool resolve_node_transforms(DeckBuilder& d);
void apply_contact_eroding_single(const Block& b, DeckBuilder& d);
void apply_contact_eroding_surface_to_surface(const Block& b, DeckBuilder& d);
void apply_contact_eroding_nodes_to_surface(const Block& b, DeckBuilder& d);
void apply_contact_force_transducer(const Block& b, DeckBuilder& d);
void apply_deformable_to_rigid(const Block& b, DeckBuilder& d);
void apply_control_contact(const Block& b, DeckBuilder& d);
void apply_set_segment(const Block& b, DeckBuilder& d);
/// Once the whole deck is read: segment-set nodes exist; every contact's sets / parts exist
/// and are not empty; shell parts in contact surfaces have a positive section thickness;
/// contact ids are unique; FS/FD/DC defaults from *CONTROL_CONTACT. Throws InputError at the
/// field that names the offending set or part (file, line, card).
void check_contacts(Model& m);

} // namespace parcae::io
