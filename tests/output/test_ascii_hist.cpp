// ASCII time-history writers (matsum, nodout, rwforc, history.csv): the files are parsed back and
// compared with the values written, and the column layout is checked against LS-DYNA's.
//
// The layouts are LS-DYNA's ASCII files as LSTC's binout-to-ASCII translator (l2a.c) writes
// them (and LS-DYNA itself with BINARY = 1):
//   matsum  " mat.#=%5d   " + "          inten=%13.4E     kinen=%13.4E", then
//           " x-mom=%13.4E     y-mom=%13.4E     z-mom=%13.4E", the same with x-rbv, and
//           25 blanks + "hgeng=%13.4E     " [+mass=%13.4E]; each state starts "\n\n time =%13.4E"
//   nodout  "%9d%13.4E" + eleven "%12.4E" per node under the header
//           " n o d a l   p r i n t   o u t   f o r   t i m e  s t e p%8d ... ( at time%12.5E )"
//   rwforc  "%12.5E%8d%15.6E%15.6E%15.6E%15.6E" per wall under
//           "    time       wall#   normal-force    x-force        y-force        z-force"
// The keyword cards (*DATABASE_MATSUM, ..., *DATABASE_EXTENT_BINARY) are checked here too.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "../input/keyword_test_util.hpp"
#include "output/ascii_hist.hpp"

namespace parcae::test {
namespace {

std::vector<std::string> lines_of(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

/// The value written by %W.PE, read back: equal to v within the printed precision.
void expect_printed(double read, double v, int digits) {
  const double tol = std::abs(v) * std::pow(10.0, -digits) + 1e-300;
  EXPECT_NEAR(read, v, tol);
}

double field(const std::string& line, std::size_t start, std::size_t width) {
  EXPECT_GE(line.size(), start + width) << line;
  return std::stod(line.substr(start, width));
}

/// "name= value" pairs of a matsum line.
std::map<std::string, double> pairs(const std::string& line) {
  std::map<std::string, double> out;
  static const std::regex re(R"(([a-z+#._-]+)=\s*([-+0-9.E]+))");
  for (auto it = std::sregex_iterator(line.begin(), line.end(), re); it != std::sregex_iterator();
       ++it)
    out[(*it)[1]] = std::stod((*it)[2]);
  return out;
}

TEST(Matsum, LayoutAndValuesReadBack) {
  const auto dir = make_temp_dir("matsum");
  const auto path = dir / "matsum";
  MatsumState s0{0.0, {}}, s1{1.25e-3, {}};
  PartSummary a{.id = 1,
                .internal = 12.5,
                .kinetic = -0.0,
                .hourglass = 3.25e-4,
                .momentum = {1.0, -2.0, 3.5e6},
                .rb_velocity = {0, 0, 0},
                .mass = 2.0};
  PartSummary b{.id = 123456,
                .internal = 0,
                .kinetic = 987.654321,
                .hourglass = 0,
                .momentum = {-1e-9, 0, 4},
                .rb_velocity = {10, -20, 30},
                .mass = 1.0};
  s0.parts = {a, b};
  a.internal = 99.0;
  b.kinetic = 1.5e-20;
  s1.parts = {a, b};
  {
    MatsumWriter w(path.string(), "my title", {{1, "plate"}, {123456, "rigid cap"}});
    w.write(s0);
    w.write(s1);
  }
  const auto l = lines_of(path);
  ASSERT_GE(l.size(), 10u);
  EXPECT_EQ(l[0], " my title");
  EXPECT_EQ(l[1].substr(0, 42), "                         ls-dyna (version ");
  EXPECT_EQ(l[2], "");
  EXPECT_EQ(l[3], "{BEGIN LEGEND}");
  EXPECT_EQ(l[4], " Entity #        Title");
  EXPECT_EQ(l[5], "        1     plate");
  EXPECT_EQ(l[6], "   123456     rigid cap");
  EXPECT_EQ(l[7], "{END LEGEND}");
  // Each state: two blank lines, "time =", then 4 lines per part.
  std::vector<std::size_t> time_lines;
  for (std::size_t k = 0; k < l.size(); ++k)
    if (l[k].starts_with(" time =")) time_lines.push_back(k);
  ASSERT_EQ(time_lines.size(), 2u);
  for (std::size_t st = 0; st < 2; ++st) {
    const std::size_t t = time_lines[st];
    const MatsumState& s = st == 0 ? s0 : s1;
    EXPECT_EQ(l[t - 1], "");
    EXPECT_EQ(l[t - 2], "");
    EXPECT_EQ(l[t].size(), 20u);
    expect_printed(field(l[t], 7, 13), s.time, 4);
    for (std::size_t p = 0; p < 2; ++p) {
      const PartSummary& q = s.parts[p];
      const std::string& l1 = l[t + 1 + 4 * p];
      const std::string& l2 = l[t + 2 + 4 * p];
      const std::string& l3 = l[t + 3 + 4 * p];
      const std::string& l4 = l[t + 4 + 4 * p];
      // Columns: " mat.#=" + id in 5 (then 3 blanks) or 8; "inten=" at 25, its value in 31-43.
      EXPECT_EQ(l1.substr(0, 7), " mat.#=");
      EXPECT_EQ(std::stoll(l1.substr(7, 8)), q.id);
      EXPECT_EQ(l1.substr(15, 16), "          inten=");
      expect_printed(field(l1, 31, 13), q.internal, 4);
      EXPECT_EQ(l1.substr(44, 11), "     kinen=");
      expect_printed(field(l1, 55, 13), q.kinetic, 4);
      EXPECT_EQ(l1.size(), 68u);
      const auto m = pairs(l2);
      expect_printed(m.at("x-mom"), q.momentum[0], 4);
      expect_printed(m.at("y-mom"), q.momentum[1], 4);
      expect_printed(m.at("z-mom"), q.momentum[2], 4);
      EXPECT_EQ(l2.size(), 7u + 13u + 2u * (11u + 13u));
      EXPECT_EQ(l2.substr(0, 7), " x-mom=");
      EXPECT_EQ(l2.substr(20, 11), "     y-mom=");
      const auto r = pairs(l3);
      expect_printed(r.at("x-rbv"), q.rb_velocity[0], 4);
      expect_printed(r.at("y-rbv"), q.rb_velocity[1], 4);
      expect_printed(r.at("z-rbv"), q.rb_velocity[2], 4);
      EXPECT_EQ(l4.substr(0, 31), "                         hgeng=");
      expect_printed(field(l4, 31, 13), q.hourglass, 4);
      EXPECT_EQ(l4.find("+mass"), std::string::npos); // no mass scaling in this run
    }
  }
  // -0 is written as 0.
  EXPECT_EQ(l[time_lines[0] + 1].substr(55, 13), "   0.0000E+00");
}

TEST(Matsum, AddedMassColumnOnceMassIsAdded) {
  const auto path = make_temp_dir("matsum_mass") / "matsum";
  {
    MatsumWriter w(path.string(), "t", {{7, ""}});
    PartSummary p{.id = 7};
    w.write({0.0, {p}});
    p.added_mass = 0.125;
    w.write({1.0, {p}});
    w.write({2.0, {p}});
  }
  const auto l = lines_of(path);
  // No legend (no titles).
  for (const auto& s : l) EXPECT_EQ(s.find("LEGEND"), std::string::npos);
  int with_mass = 0;
  for (const auto& s : l)
    if (s.starts_with("                         hgeng=")) {
      if (s.find("+mass=") != std::string::npos) {
        ++with_mass;
        EXPECT_EQ(s.substr(44, 11), "     +mass=");
        expect_printed(field(s, 55, 13), 0.125, 4);
      }
    }
  EXPECT_EQ(with_mass, 2);
}

NodeHistory node(GlobalId id, double base, bool rot) {
  NodeHistory n;
  n.id = id;
  for (int i = 0; i < 3; ++i) {
    n.disp[i] = base * (i + 1);
    n.vel[i] = -base * 1e3 * (i + 2);
    n.acc[i] = base * 1e7 / (i + 3);
    n.coord[i] = 100.0 + base * i;
    n.rot[i] = rot ? 0.01 * (i + 1) : 0;
    n.rot_vel[i] = rot ? -5.0 * (i + 1) : 0;
    n.rot_acc[i] = rot ? 1e4 * (i + 1) : 0;
  }
  n.has_rot = rot;
  return n;
}

TEST(Nodout, LayoutAndValuesReadBack) {
  const auto path = make_temp_dir("nodout") / "nodout";
  NodoutState s0{0, 0.0, {node(5, 0.0, false), node(123456789, 0.0, false)}};
  NodoutState s1{42, 2.5e-4, {node(5, 1.5e-3, false), node(123456789, -7.25e-2, false)}};
  {
    NodoutWriter w(path.string(), "nodes");
    w.write(s0);
    w.write(s1);
  }
  const auto l = lines_of(path);
  const std::string header = " nodal point  x-disp     y-disp      z-disp      x-vel       y-vel"
                             "       z-vel      x-accl      y-accl      z-accl      x-coor      "
                             "y-coor      z-coor";
  std::vector<std::size_t> starts;
  for (std::size_t k = 0; k < l.size(); ++k)
    if (l[k].starts_with(" n o d a l   p r i n t   o u t   f o r   t i m e  s t e p"))
      starts.push_back(k);
  ASSERT_EQ(starts.size(), 2u);
  for (std::size_t st = 0; st < 2; ++st) {
    const NodoutState& s = st == 0 ? s0 : s1;
    const std::string& h = l[starts[st]];
    // "s t e p" + cycle in 8, 30 blanks, "( at time" + %12.5E + " )".
    EXPECT_EQ(std::stoi(h.substr(57, 8)), s.cycle);
    EXPECT_EQ(h.substr(65, 39), std::string(30, ' ') + "( at time");
    expect_printed(field(h, 104, 12), s.time, 5);
    EXPECT_EQ(h.substr(116), " )");
    EXPECT_EQ(l[starts[st] + 1], "");
    EXPECT_EQ(l[starts[st] + 2], header);
    for (std::size_t k = 0; k < s.nodes.size(); ++k) {
      const std::string& row = l[starts[st] + 3 + k];
      const NodeHistory& n = s.nodes[k];
      ASSERT_EQ(row.size(), 9u + 13u + 11u * 12u) << row;
      EXPECT_EQ(std::stoll(row.substr(0, 9)), n.id);
      std::vector<double> want;
      for (const auto* a : {&n.disp, &n.vel, &n.acc, &n.coord})
        for (double v : *a) want.push_back(v);
      for (std::size_t c = 0; c < 12; ++c)
        expect_printed(field(row, c == 0 ? 9 : 22 + 12 * (c - 1), c == 0 ? 13 : 12), want[c], 4);
    }
  }
  // No rotations without rotational dofs.
  for (const auto& s : l) EXPECT_EQ(s.find("x-rot"), std::string::npos);
}

TEST(Nodout, RotationBlockForShellNodes) {
  const auto path = make_temp_dir("nodout_rot") / "nodout";
  NodoutState s{7, 1e-3, {node(1, 2e-3, true), node(2, 3e-3, false)}};
  {
    NodoutWriter w(path.string(), "rot");
    w.write(s);
  }
  const auto l = lines_of(path);
  std::size_t hdr = 0;
  for (std::size_t k = 0; k < l.size(); ++k)
    if (l[k].starts_with(" nodal point  x-rot")) hdr = k;
  ASSERT_GT(hdr, 0u);
  EXPECT_EQ(l[hdr], " nodal point  x-rot      y-rot       z-rot       x-rot vel   y-rot vel   "
                    "z-rot vel   x-rot acc   y-rot acc   z-rot acc");
  EXPECT_TRUE(l[hdr - 2].starts_with(" n o d a l   p r i n t   o u t"));
  for (std::size_t k = 0; k < 2; ++k) {
    const std::string& row = l[hdr + 1 + k];
    ASSERT_EQ(row.size(), 9u + 13u + 8u * 12u);
    const NodeHistory& n = s.nodes[k];
    std::vector<double> want;
    for (const auto* a : {&n.rot, &n.rot_vel, &n.rot_acc})
      for (double v : *a) want.push_back(v);
    for (std::size_t c = 0; c < 9; ++c)
      expect_printed(field(row, c == 0 ? 9 : 22 + 12 * (c - 1), c == 0 ? 13 : 12), want[c], 4);
  }
}

TEST(Rwforc, LayoutAndValuesReadBack) {
  const auto path = make_temp_dir("rwforc") / "rwforc";
  RwforcState s0{0.0, {{1, 0, {0, 0, 0}}, {12, 0, {0, 0, 0}}}};
  RwforcState s1{3.75e-5, {{1, 1234.5678, {0, 0, 1234.5678}}, {12, 5e-3, {3e-3, -4e-3, 0}}}};
  {
    RwforcWriter w(path.string(), "walls", {{1, "floor"}, {12, ""}});
    w.write(s0);
    w.write(s1);
  }
  const auto l = lines_of(path);
  std::size_t hdr = 0;
  for (std::size_t k = 0; k < l.size(); ++k)
    if (l[k].starts_with("    time       wall#")) hdr = k;
  ASSERT_GT(hdr, 0u);
  EXPECT_EQ(l[hdr], "    time       wall#   normal-force    x-force        y-force        z-force");
  EXPECT_EQ(l[hdr - 1], "");
  EXPECT_EQ(l[hdr - 2], "");
  EXPECT_EQ(l[3], "{BEGIN LEGEND}");
  EXPECT_EQ(l[5], "        1     floor");
  ASSERT_EQ(l.size(), hdr + 5);
  for (std::size_t k = 0; k < 4; ++k) {
    const RwforcState& s = k < 2 ? s0 : s1;
    const WallForce& w = s.walls[k % 2];
    const std::string& row = l[hdr + 1 + k];
    ASSERT_EQ(row.size(), 12u + 8u + 4u * 15u) << row;
    expect_printed(field(row, 0, 12), s.time, 5);
    EXPECT_EQ(std::stoll(row.substr(12, 8)), w.id);
    expect_printed(field(row, 20, 15), w.normal, 6);
    for (int i = 0; i < 3; ++i) expect_printed(field(row, 35 + 15 * i, 15), w.force[i], 6);
  }
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  for (std::string f; std::getline(ss, f, ',');) out.push_back(f);
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

TEST(HistoryCsv, HeaderAndRowsRoundTripExactly) {
  const auto path = make_temp_dir("csv") / "history.csv";
  GlobalStats g;
  g.cycle = 17;
  g.time = 1.0 / 3.0;
  g.dt = 2.0 / 7.0 * 1e-7;
  g.dt_element_kind = "shell";
  g.dt_element = 99;
  g.dt_part = 4;
  g.kinetic = 0.1;
  g.internal = 1e-300;
  g.hourglass = 123456789.123456789;
  g.total = g.kinetic + g.internal + g.hourglass;
  g.initial_total = 3.0;
  g.vz = -5000;
  g.mass = 7.85e-6;
  g.nodes = 27;
  g.elements = 8;
  PartSummary p{.id = 3,
                .internal = 1.0 / 9.0,
                .kinetic = 2,
                .hourglass = 3,
                .momentum = {4, 5, 6},
                .rb_velocity = {7, 8, 9},
                .mass = 10,
                .added_mass = 11};
  WallForce w{2, 12.5, {0, 0, 12.5}};
  {
    HistoryCsvWriter csv(path.string(), {3}, {2});
    csv.write(g, {p}, {w});
    EXPECT_THROW(csv.write(g, {}, {w}), std::runtime_error);
  }
  const auto l = lines_of(path);
  ASSERT_EQ(l.size(), 2u);
  const auto cols = split(l[0]);
  EXPECT_EQ(cols, HistoryCsvWriter::columns({3}, {2}));
  EXPECT_EQ(cols.size(), 29u + 11u + 4u);
  const auto v = split(l[1]);
  ASSERT_EQ(v.size(), cols.size());
  std::map<std::string, std::string> row;
  for (std::size_t k = 0; k < cols.size(); ++k) row[cols[k]] = v[k];
  EXPECT_EQ(row["cycle"], "17");
  EXPECT_EQ(std::stod(row["time"]), g.time);
  EXPECT_EQ(std::stod(row["dt"]), g.dt);
  EXPECT_EQ(row["dt_element_kind"], "shell");
  EXPECT_EQ(row["dt_element"], "99");
  EXPECT_EQ(row["dt_part"], "4");
  EXPECT_EQ(std::stod(row["internal"]), 1e-300);
  EXPECT_EQ(std::stod(row["hourglass"]), g.hourglass);
  EXPECT_EQ(std::stod(row["total"]), g.total);
  EXPECT_EQ(std::stod(row["energy_ratio"]), g.energy_ratio());
  EXPECT_EQ(std::stod(row["vz"]), -5000.0);
  EXPECT_EQ(std::stod(row["mass"]), 7.85e-6);
  EXPECT_EQ(row["nodes"], "27");
  EXPECT_EQ(row["elements"], "8");
  EXPECT_EQ(std::stod(row["part3_internal"]), 1.0 / 9.0);
  EXPECT_EQ(std::stod(row["part3_zmom"]), 6.0);
  EXPECT_EQ(std::stod(row["part3_yrbv"]), 8.0);
  EXPECT_EQ(std::stod(row["part3_added_mass"]), 11.0);
  EXPECT_EQ(std::stod(row["wall2_normal"]), 12.5);
  EXPECT_EQ(std::stod(row["wall2_fz"]), 12.5);
}

TEST(AsciiHistory, AppendContinuesWithoutANewHeader) {
  const auto dir = make_temp_dir("append");
  {
    RwforcWriter w((dir / "rwforc").string(), "t", {});
    w.write({1.0, {{1, 2, {0, 0, 2}}}});
  }
  {
    RwforcWriter w((dir / "rwforc").string(), "t", {}, true);
    w.write({2.0, {{1, 3, {0, 0, 3}}}});
  }
  {
    HistoryCsvWriter a((dir / "h.csv").string(), {}, {});
    a.write(GlobalStats{}, {}, {});
  }
  {
    HistoryCsvWriter a((dir / "h.csv").string(), {}, {}, true);
    a.write(GlobalStats{}, {}, {});
  }
  const auto l = lines_of(dir / "rwforc");
  int headers = 0, rows = 0;
  for (const auto& s : l) {
    headers += s.find("ls-dyna (version") != std::string::npos;
    rows += s.starts_with(" 1.00000E+00") || s.starts_with(" 2.00000E+00");
  }
  EXPECT_EQ(headers, 1);
  EXPECT_EQ(rows, 2);
  EXPECT_EQ(lines_of(dir / "h.csv").size(), 3u);
}

// --- keyword cards ---

TEST(DatabaseCards, AsciiOutputsStoreTheirInterval) {
  const Model m = read_text(cube_deck("*DATABASE_MATSUM\n1.0e-5\n"
                                      "*DATABASE_NODOUT\n2.0e-5,1\n"
                                      "*DATABASE_RWFORC\n3.0e-5,0,0,2\n"
                                      "*DATABASE_HISTORY_NODE\n1,2,3,4,5,6,7,8\n7,0,1\n"
                                      "*SET_NODE_LIST\n9\n8,6\n"
                                      "*DATABASE_HISTORY_NODE_SET\n9\n"));
  const Controls& c = m.control;
  EXPECT_TRUE(c.matsum.given);
  EXPECT_DOUBLE_EQ(c.matsum.dt, 1.0e-5);
  EXPECT_DOUBLE_EQ(c.nodout.dt, 2.0e-5);
  EXPECT_EQ(c.nodout.binary, 1);
  EXPECT_DOUBLE_EQ(c.rwforc.dt, 3.0e-5);
  EXPECT_EQ(c.rwforc.ioopt, 2);
  EXPECT_EQ(c.matsum.ioopt, 1); // default
  ASSERT_EQ(c.history_nodes.size(), 11u);
  EXPECT_EQ(c.history_nodes[8].id, 7);
  EXPECT_EQ(c.history_nodes[9].id, 1);
  EXPECT_FALSE(c.history_nodes[9].is_set);
  EXPECT_EQ(c.history_nodes[10].id, 9);
  EXPECT_TRUE(c.history_nodes[10].is_set);
  EXPECT_EQ(c.history_nodes[10].loc.card, "*DATABASE_HISTORY_NODE_SET");
  EXPECT_GT(c.history_nodes[10].loc.line, 0);
  EXPECT_TRUE(m.notes.empty());
}

TEST(DatabaseCards, BinoutAndCurveRequestsWarnOnce) {
  const Model m =
      read_text(cube_deck("*DATABASE_MATSUM\n1.0e-5,2\n*DATABASE_RWFORC\n1.0e-5,3,5\n"));
  ASSERT_EQ(m.notes.size(), 3u);
  EXPECT_EQ(m.notes[0].keyword, "*DATABASE_MATSUM");
  EXPECT_NE(m.notes[0].message.find("BINARY = 2"), std::string::npos);
  EXPECT_NE(m.notes[0].message.find("ASCII file is written"), std::string::npos);
  EXPECT_FALSE(m.notes[0].error);
  EXPECT_NE(m.notes[1].message.find("BINARY = 3"), std::string::npos);
  EXPECT_NE(m.notes[2].message.find("LCUR = 5"), std::string::npos);
  EXPECT_EQ(m.control.matsum.binary, 2);
}

TEST(DatabaseCards, ExtentBinaryFieldsAreStored) {
  Model m = read_text(cube_deck());
  EXPECT_FALSE(m.control.extent.given);
  EXPECT_EQ(m.control.extent.maxint, 3);
  EXPECT_EQ(m.control.extent.sigflg, 1);
  m = read_text(cube_deck("*DATABASE_EXTENT_BINARY\n"
                          "0,0,5,1,2,2,1,2\n"
                          "0,1,0,1,2,3,1,0\n"
                          "0,0,2.5,0,1,0,STRESS\n"));
  const auto& e = m.control.extent;
  EXPECT_TRUE(e.given);
  EXPECT_EQ(e.maxint, 5);
  EXPECT_EQ(e.strflg, 1);
  EXPECT_EQ(e.sigflg, 2);
  EXPECT_EQ(e.epsflg, 2);
  EXPECT_EQ(e.rltflg, 1);
  EXPECT_EQ(e.engflg, 2);
  EXPECT_EQ(e.ieverp, 1);
  EXPECT_EQ(e.shge, 2);
  EXPECT_EQ(e.stssz, 3);
  EXPECT_EQ(e.n3thdt, 1);
  EXPECT_EQ(e.ialemat, 0);
  EXPECT_DOUBLE_EQ(e.sclp, 2.5);
  EXPECT_EQ(e.msscl, 1);
  EXPECT_EQ(e.intout, "STRESS");
  EXPECT_EQ(e.dtdt, 0);
}

TEST(DatabaseCards, D3plotCardIsStoredCompletely) {
  const Model m = read_text(deck(cube_mesh() + "*CONTROL_TERMINATION\n2.0e-3\n" +
                                 "*DATABASE_BINARY_D3PLOT\n1.0e-4,0,1,10,3\n1\n"));
  const Controls& c = m.control;
  EXPECT_DOUBLE_EQ(c.d3plot_dt, 2.0e-4); // NPLTC = 10 -> ENDTIM / 10
  EXPECT_EQ(c.d3plot_beam, 1);
  EXPECT_EQ(c.d3plot_npltc, 10);
  EXPECT_EQ(c.d3plot_psetid, 3);
  EXPECT_EQ(c.d3plot_ioopt, 1);
}

} // namespace
} // namespace parcae::test
