// The YAML case file of the CFD solver (schema in docs/cfd.md) and the built-in templates.
#include "solvers/cfd/cfd_case.hpp"

#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <set>
#include <sstream>
#include <yaml-cpp/yaml.h>

#include "core/error.hpp"

namespace parcae::cfd {

namespace {

const char* const kFaceNames[6] = {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"};

/// Errors name the file, the line and the key path ("boundaries.ymax.velocity").
class Reader {
public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const YAML::Node& n, const std::string& key,
                         const std::string& msg) const {
    const int line = n.IsDefined() ? n.Mark().line + 1 : 0;
    throw InputError({file_, line, key}, fmt::format("{}: {}", key, msg));
  }
  void only_keys(const YAML::Node& map, const std::string& where,
                 std::initializer_list<const char*> allowed) const {
    if (!map.IsMap()) fail(map, where, "expected a mapping");
    std::set<std::string> ok(allowed.begin(), allowed.end());
    for (const auto& kv : map) {
      const auto k = kv.first.as<std::string>();
      if (!ok.count(k)) {
        std::string list;
        for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
        fail(kv.first, join(where, k), "unknown key (expected one of: " + list + ")");
      }
    }
  }
  static std::string join(const std::string& a, const std::string& b) {
    return a.empty() ? b : a + "." + b;
  }
  double number(const YAML::Node& n, const std::string& key) const {
    try {
      const double v = n.as<double>();
      if (!std::isfinite(v)) fail(n, key, "not a finite number");
      return v;
    } catch (const YAML::Exception&) {
      fail(n, key, "expected a number");
    }
  }
  double positive(const YAML::Node& n, const std::string& key) const {
    const double v = number(n, key);
    if (!(v > 0)) fail(n, key, fmt::format("must be > 0 (got {})", v));
    return v;
  }
  long integer(const YAML::Node& n, const std::string& key, long lo) const {
    long v = 0;
    try {
      v = n.as<long>();
    } catch (const YAML::Exception&) {
      fail(n, key, "expected a whole number");
    }
    if (v < lo) fail(n, key, fmt::format("must be >= {} (got {})", lo, v));
    return v;
  }
  std::string text(const YAML::Node& n, const std::string& key) const {
    if (!n.IsScalar()) fail(n, key, "expected a string");
    return n.as<std::string>();
  }
  bool flag(const YAML::Node& n, const std::string& key) const {
    try {
      return n.as<bool>();
    } catch (const YAML::Exception&) {
      fail(n, key, "expected true or false");
    }
  }
  /// The index of the node's text among `names`; otherwise an error listing them.
  int choice(const YAML::Node& n, const std::string& key,
             std::initializer_list<const char*> names) const {
    const std::string t = text(n, key);
    std::string list;
    int i = 0, found = -1;
    for (const char* a : names) {
      if (t == a) found = i;
      list += (i == 0 ? "" : (i + 1 == static_cast<int>(names.size()) ? " or " : ", ")) +
              std::string(a);
      ++i;
    }
    if (found < 0) fail(n, key, "\"" + t + "\" is not " + list);
    return found;
  }
  std::array<double, 3> vec(const YAML::Node& n, const std::string& key, int dim) const {
    if (!n.IsSequence() || static_cast<int>(n.size()) != dim)
      fail(n, key, fmt::format("expected a list of {} numbers", dim));
    std::array<double, 3> v{0, 0, 0};
    for (int d = 0; d < dim; ++d) v[d] = number(n[d], fmt::format("{}[{}]", key, d));
    return v;
  }

private:
  std::string file_;
};

void read_fluid(const Reader& r, const YAML::Node& n, const std::string& key, Fluid& f) {
  r.only_keys(n, key, {"density", "viscosity"});
  if (!n["density"]) r.fail(n, key + ".density", "missing");
  if (!n["viscosity"]) r.fail(n, key + ".viscosity", "missing");
  f.density = r.positive(n["density"], key + ".density");
  f.viscosity = r.number(n["viscosity"], key + ".viscosity");
  if (f.viscosity < 0) r.fail(n["viscosity"], key + ".viscosity", "must be >= 0");
}

void read_obstacles(const Reader& r, const YAML::Node& list, const std::string& path, CfdCase& c) {
  if (!list.IsSequence()) r.fail(list, "obstacles", "expected a list of obstacles");
  const int dim = c.dim;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const auto n = list[i];
    const std::string key = fmt::format("obstacles[{}]", i);
    r.only_keys(n, key, {"name", "box", "cylinder", "stl", "scale", "translate"});
    Obstacle o;
    if (n["name"]) o.name = r.text(n["name"], key + ".name");
    if (o.name.find('"') != std::string::npos) r.fail(n["name"], key + ".name", "no quotes");
    o.label = o.name.empty() ? key : fmt::format("{} ({})", key, o.name);
    const int kinds = (n["box"] ? 1 : 0) + (n["cylinder"] ? 1 : 0) + (n["stl"] ? 1 : 0);
    if (kinds != 1) r.fail(n, key, "give one of box, cylinder or stl");
    if (!n["stl"] && (n["scale"] || n["translate"]))
      r.fail(n, key, "scale and translate go with stl");
    if (n["box"]) {
      o.kind = ObstacleKind::Box;
      const auto b = n["box"];
      r.only_keys(b, key + ".box", {"min", "max"});
      if (!b["min"] || !b["max"]) r.fail(b, key + ".box", "needs min and max");
      o.lo = r.vec(b["min"], key + ".box.min", dim);
      o.hi = r.vec(b["max"], key + ".box.max", dim);
      for (int d = 0; d < dim; ++d)
        if (!(o.hi[d] > o.lo[d])) r.fail(b["max"], key + ".box.max", "must exceed min");
    } else if (n["cylinder"]) {
      o.kind = ObstacleKind::Cylinder;
      const auto y = n["cylinder"];
      if (dim == 2) {
        r.only_keys(y, key + ".cylinder", {"center", "radius"});
      } else {
        r.only_keys(y, key + ".cylinder", {"center", "radius", "axis", "length"});
        if (!y["axis"] || !y["length"])
          r.fail(y, key + ".cylinder", "needs axis (x, y or z) and length in 3-D");
        o.axis = r.choice(y["axis"], key + ".cylinder.axis", {"x", "y", "z"});
        o.length = r.positive(y["length"], key + ".cylinder.length");
      }
      if (!y["center"] || !y["radius"]) r.fail(y, key + ".cylinder", "needs center and radius");
      o.center = r.vec(y["center"], key + ".cylinder.center", dim);
      o.radius = r.positive(y["radius"], key + ".cylinder.radius");
    } else {
      o.kind = ObstacleKind::Stl;
      o.stl = r.text(n["stl"], key + ".stl");
      if (n["scale"]) o.scale = r.positive(n["scale"], key + ".scale");
      if (n["translate"]) o.translate = r.vec(n["translate"], key + ".translate", 3);
      std::filesystem::path file(o.stl);
      if (file.is_relative()) file = std::filesystem::path(path).parent_path() / file;
      try {
        o.mesh = std::make_shared<const StlMesh>(read_stl(file.string(), o.scale, o.translate));
      } catch (const RuntimeError& e) {
        r.fail(n["stl"], key + ".stl", e.what());
      }
    }
    c.obstacles.push_back(std::move(o));
  }
  if (const std::string problem = check_obstacles(c); !problem.empty())
    r.fail(list, "obstacles", problem);
}

void read_probes(const Reader& r, const YAML::Node& list, CfdCase& c) {
  if (!list.IsSequence()) r.fail(list, "probes", "expected a list of probes");
  std::set<std::string> names;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const auto n = list[i];
    const std::string key = fmt::format("probes[{}]", i);
    r.only_keys(n, key, {"name", "kind", "at"});
    if (!n["kind"] || !n["at"]) r.fail(n, key, "needs kind (height, pressure or velocity) and at");
    Probe p;
    p.name = n["name"] ? r.text(n["name"], key + ".name") : fmt::format("probe{}", i + 1);
    if (p.name.empty() || p.name.find_first_of(", \t\"") != std::string::npos)
      r.fail(n["name"], key + ".name", "a probe name is a CSV column: no commas, blanks or quotes");
    if (!names.insert(p.name).second) r.fail(n, key + ".name", "\"" + p.name + "\" is used twice");
    // In ProbeKind's order.
    p.kind = static_cast<ProbeKind>(
        r.choice(n["kind"], key + ".kind", {"height", "pressure", "velocity"}));
    // A height gauge is a vertical line: its position across (x in 2-D, x and y in 3-D), or a
    // point on it.
    const auto at = n["at"];
    const int given = at.IsSequence() ? static_cast<int>(at.size()) : 0;
    if (p.kind == ProbeKind::Height && given == c.dim - 1) {
      for (int d = 0; d < c.dim - 1; ++d)
        p.at[d] = r.number(at[d], fmt::format("{}.at[{}]", key, d));
    } else {
      p.at = r.vec(at, key + ".at", c.dim);
    }
    for (int d = 0; d < c.dim; ++d)
      if (p.at[d] < 0 || p.at[d] > c.size[d])
        r.fail(at, key + ".at", fmt::format("outside the domain along {}", "xyz"[d]));
    c.probes.push_back(p);
  }
}

} // namespace

CfdCase read_cfd_case(const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw InputError({path, 0, ""}, "cannot open the case file");
  } catch (const YAML::ParserException& e) {
    throw InputError({path, e.mark.line + 1, ""}, std::string("YAML syntax: ") + e.msg);
  }
  const Reader r(path);
  CfdCase c;
  r.only_keys(root, "",
              {"case", "dimension", "domain", "fluid", "fluids", "gravity", "boundaries", "initial",
               "time", "pressure", "output", "vof", "obstacles", "probes"});
  if (root["case"]) c.name = r.text(root["case"], "case");
  if (!root["dimension"]) r.fail(root, "dimension", "missing (2 or 3)");
  c.dim = static_cast<int>(r.integer(root["dimension"], "dimension", 2));
  if (c.dim > 3) r.fail(root["dimension"], "dimension", "must be 2 or 3");
  if (!root["domain"]) r.fail(root, "domain", "missing");
  const auto dom = root["domain"];
  r.only_keys(dom, "domain", {"size", "cells", "obstacle_samples"});
  if (dom["obstacle_samples"])
    c.obstacle_samples =
        static_cast<int>(r.integer(dom["obstacle_samples"], "domain.obstacle_samples", 1));
  if (c.obstacle_samples > 64)
    r.fail(dom["obstacle_samples"], "domain.obstacle_samples", "at most 64");
  if (!dom["size"]) r.fail(dom, "domain.size", "missing");
  if (!dom["cells"]) r.fail(dom, "domain.cells", "missing");
  c.size = r.vec(dom["size"], "domain.size", c.dim);
  c.cells = {1, 1, 1};
  for (int d = 0; d < c.dim; ++d) {
    if (!(c.size[d] > 0)) r.fail(dom["size"], fmt::format("domain.size[{}]", d), "must be > 0");
    if (!dom["cells"].IsSequence() || static_cast<int>(dom["cells"].size()) != c.dim)
      r.fail(dom["cells"], "domain.cells", fmt::format("expected a list of {} integers", c.dim));
    c.cells[d] =
        static_cast<int>(r.integer(dom["cells"][d], fmt::format("domain.cells[{}]", d), 4));
  }
  if (c.dim == 2) c.size[2] = c.size[0] / c.cells[0];
  if (root["fluid"] && root["fluids"])
    r.fail(root["fluids"], "fluids", "give fluid or fluids, not both");
  if (root["fluid"]) {
    read_fluid(r, root["fluid"], "fluid", c.liquid);
    c.gas = c.liquid;
    c.free_surface = false;
  } else if (root["fluids"]) {
    r.only_keys(root["fluids"], "fluids", {"liquid", "gas"});
    if (!root["fluids"]["liquid"]) r.fail(root["fluids"], "fluids.liquid", "missing");
    if (!root["fluids"]["gas"]) r.fail(root["fluids"], "fluids.gas", "missing");
    read_fluid(r, root["fluids"]["liquid"], "fluids.liquid", c.liquid);
    read_fluid(r, root["fluids"]["gas"], "fluids.gas", c.gas);
    c.free_surface = true;
  } else {
    r.fail(root, "fluid", "missing (fluid: one fluid, or fluids: liquid and gas)");
  }
  if (root["gravity"]) c.gravity = r.vec(root["gravity"], "gravity", c.dim);
  if (root["boundaries"]) {
    const auto b = root["boundaries"];
    r.only_keys(b, "boundaries", {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"});
    for (int f = 0; f < 2 * c.dim; ++f) {
      const auto n = b[kFaceNames[f]];
      if (!n) continue;
      const std::string key = std::string("boundaries.") + kFaceNames[f];
      r.only_keys(n, key, {"type", "velocity", "fraction", "flow_rate", "height", "pressure"});
      if (!n["type"])
        r.fail(n, key + ".type", "missing (wall, symmetry, inflow, outflow or pressure)");
      BoundaryCondition& bc = c.boundaries[f];
      // In BcKind's order.
      bc.kind = static_cast<BcKind>(r.choice(
          n["type"], key + ".type", {"wall", "symmetry", "inflow", "outflow", "pressure"}));
      if (n["velocity"]) {
        if (bc.kind != BcKind::Wall && bc.kind != BcKind::Inflow)
          r.fail(n["velocity"], key + ".velocity", "only walls and inflows have a velocity");
        bc.velocity = r.vec(n["velocity"], key + ".velocity", c.dim);
        if (bc.kind == BcKind::Wall && bc.velocity[f / 2] != 0)
          r.fail(n["velocity"], key + ".velocity", "a wall moves only tangentially");
      }
      if (n["flow_rate"]) {
        if (bc.kind != BcKind::Inflow) r.fail(n["flow_rate"], key + ".flow_rate", "only inflows");
        if (n["velocity"])
          r.fail(n["flow_rate"], key + ".flow_rate", "give velocity or flow_rate, not both");
        bc.flow_rate = r.positive(n["flow_rate"], key + ".flow_rate");
      }
      if (n["height"]) {
        if (bc.kind != BcKind::Inflow && bc.kind != BcKind::Pressure)
          r.fail(n["height"], key + ".height", "only inflows and pressure boundaries");
        if (f / 2 == c.dim - 1)
          r.fail(n["height"], key + ".height",
                 "a liquid level on a side face (not the floor or "
                 "roof)");
        bc.height = r.number(n["height"], key + ".height");
        if (bc.height < 0 || bc.height > c.size[c.dim - 1])
          r.fail(n["height"], key + ".height",
                 fmt::format("must be in [0, {:g}] (the domain's height)", c.size[c.dim - 1]));
        if (n["fraction"])
          r.fail(n["fraction"], key + ".fraction", "give fraction or height, not both");
        if (bc.kind == BcKind::Pressure && !c.free_surface)
          r.fail(n["height"], key + ".height", "a hydrostatic level needs fluids (liquid and gas)");
      }
      if (n["pressure"]) {
        if (bc.kind != BcKind::Pressure)
          r.fail(n["pressure"], key + ".pressure", "only type: pressure");
        bc.pressure = r.number(n["pressure"], key + ".pressure");
      }
      if (n["fraction"]) {
        if (bc.kind != BcKind::Inflow) r.fail(n["fraction"], key + ".fraction", "only inflows");
        bc.fraction = r.number(n["fraction"], key + ".fraction");
        if (bc.fraction < 0 || bc.fraction > 1)
          r.fail(n["fraction"], key + ".fraction", "must be in [0, 1]");
      }
    }
  }
  if (root["initial"]) {
    const auto in = root["initial"];
    r.only_keys(in, "initial", {"liquid"});
    if (in["liquid"]) {
      if (!c.free_surface) r.fail(in["liquid"], "initial.liquid", "needs fluids: (liquid and gas)");
      if (!in["liquid"].IsSequence())
        r.fail(in["liquid"], "initial.liquid", "expected a list of boxes");
      for (std::size_t i = 0; i < in["liquid"].size(); ++i) {
        const auto bx = in["liquid"][i];
        const std::string key = fmt::format("initial.liquid[{}]", i);
        r.only_keys(bx, key, {"min", "max"});
        if (!bx["min"] || !bx["max"]) r.fail(bx, key, "needs min and max");
        Region reg;
        reg.lo = r.vec(bx["min"], key + ".min", c.dim);
        reg.hi = r.vec(bx["max"], key + ".max", c.dim);
        if (c.dim == 2) reg.hi[2] = c.size[2];
        c.initial_liquid.push_back(reg);
      }
    }
  }
  if (root["time"]) {
    const auto t = root["time"];
    r.only_keys(t, "time", {"end", "cfl", "steady_tolerance", "max_steps"});
    if (t["end"]) c.end_time = r.positive(t["end"], "time.end");
    if (t["cfl"]) {
      c.cfl = r.positive(t["cfl"], "time.cfl");
      if (c.cfl > 1) r.fail(t["cfl"], "time.cfl", "must be <= 1");
    }
    if (t["steady_tolerance"])
      c.steady_tolerance = r.number(t["steady_tolerance"], "time.steady_tolerance");
    if (t["max_steps"]) c.max_steps = r.integer(t["max_steps"], "time.max_steps", 1);
  }
  if (root["pressure"]) {
    const auto p = root["pressure"];
    r.only_keys(p, "pressure", {"tolerance", "max_iterations", "preconditioner"});
    if (p["tolerance"]) c.pressure_tolerance = r.positive(p["tolerance"], "pressure.tolerance");
    if (p["max_iterations"])
      c.pressure_max_iterations =
          static_cast<int>(r.integer(p["max_iterations"], "pressure.max_iterations", 1));
    if (p["preconditioner"]) {
      (void)r.choice(p["preconditioner"], "pressure.preconditioner", {"pfmg", "smg", "none"});
      c.preconditioner = r.text(p["preconditioner"], "pressure.preconditioner");
    }
  }
  if (root["output"]) {
    const auto o = root["output"];
    r.only_keys(o, "output", {"interval", "centerlines", "reference_velocity", "probe_interval"});
    if (o["interval"]) c.output_interval = r.number(o["interval"], "output.interval");
    if (o["probe_interval"]) {
      c.probe_interval = r.number(o["probe_interval"], "output.probe_interval");
      if (c.probe_interval < 0)
        r.fail(o["probe_interval"], "output.probe_interval", "must be >= 0");
    }
    if (o["centerlines"]) c.centerlines = r.flag(o["centerlines"], "output.centerlines");
    if (o["reference_velocity"])
      c.reference_velocity = r.positive(o["reference_velocity"], "output.reference_velocity");
  }
  if (root["vof"]) {
    r.only_keys(root["vof"], "vof", {"thinc_beta"});
    if (root["vof"]["thinc_beta"])
      c.thinc_beta = r.positive(root["vof"]["thinc_beta"], "vof.thinc_beta");
  }
  if (root["obstacles"]) read_obstacles(r, root["obstacles"], path, c);
  if (root["probes"]) read_probes(r, root["probes"], c);
  return c;
}

std::string cfd_case_yaml(const CfdCase& c) {
  std::ostringstream s;
  auto vec = [&](const std::array<double, 3>& v) {
    std::string t = "[";
    for (int d = 0; d < c.dim; ++d) t += fmt::format("{}{}", d ? ", " : "", v[d]);
    return t + "]";
  };
  s << fmt::format("# parcae CFD case (schema: docs/cfd.md)\ncase: {}\ndimension: {}\n", c.name,
                   c.dim);
  std::string cells = "[";
  for (int d = 0; d < c.dim; ++d) cells += fmt::format("{}{}", d ? ", " : "", c.cells[d]);
  s << fmt::format("domain:\n  size: {}\n  cells: {}]\n", vec(c.size), cells);
  if (!c.obstacles.empty()) s << fmt::format("  obstacle_samples: {}\n", c.obstacle_samples);
  if (c.free_surface) {
    s << fmt::format("fluids:\n  liquid: {{density: {}, viscosity: {}}}\n  gas: {{density: {}, "
                     "viscosity: {}}}\n",
                     c.liquid.density, c.liquid.viscosity, c.gas.density, c.gas.viscosity);
  } else {
    s << fmt::format("fluid: {{density: {}, viscosity: {}}}\n", c.liquid.density,
                     c.liquid.viscosity);
  }
  s << fmt::format("gravity: {}\nboundaries:\n", vec(c.gravity));
  for (int f = 0; f < 2 * c.dim; ++f) {
    const auto& b = c.boundaries[f];
    const char* t = b.kind == BcKind::Wall       ? "wall"
                    : b.kind == BcKind::Symmetry ? "symmetry"
                    : b.kind == BcKind::Inflow   ? "inflow"
                    : b.kind == BcKind::Outflow  ? "outflow"
                                                 : "pressure";
    s << fmt::format("  {}: {{type: {}", kFaceNames[f], t);
    if (b.kind == BcKind::Wall || (b.kind == BcKind::Inflow && b.flow_rate == 0))
      s << ", velocity: " << vec(b.velocity);
    if (b.kind == BcKind::Inflow && b.flow_rate > 0)
      s << fmt::format(", flow_rate: {}", b.flow_rate);
    if (b.kind == BcKind::Inflow && b.height < 0) s << fmt::format(", fraction: {}", b.fraction);
    if (b.kind == BcKind::Pressure) s << fmt::format(", pressure: {}", b.pressure);
    if (b.height >= 0) s << fmt::format(", height: {}", b.height);
    s << "}\n";
  }
  if (!c.initial_liquid.empty()) {
    s << "initial:\n  liquid:\n";
    for (const auto& r : c.initial_liquid)
      s << fmt::format("    - {{min: {}, max: {}}}\n", vec(r.lo), vec(r.hi));
  }
  s << fmt::format("time: {{end: {}, cfl: {}, steady_tolerance: {}, max_steps: {}}}\n", c.end_time,
                   c.cfl, c.steady_tolerance, c.max_steps);
  s << fmt::format("pressure: {{tolerance: {}, max_iterations: {}, preconditioner: {}}}\n",
                   c.pressure_tolerance, c.pressure_max_iterations, c.preconditioner);
  s << fmt::format("output: {{interval: {}, centerlines: {}, reference_velocity: {}, "
                   "probe_interval: {}}}\n",
                   c.output_interval, c.centerlines ? "true" : "false", c.reference_velocity,
                   c.probe_interval);
  if (c.free_surface) s << fmt::format("vof: {{thinc_beta: {}}}\n", c.thinc_beta);
  if (!c.obstacles.empty()) {
    s << "obstacles:\n";
    for (const Obstacle& o : c.obstacles) {
      s << "  - {";
      if (!o.name.empty()) s << fmt::format("name: \"{}\", ", o.name);
      switch (o.kind) {
      case ObstacleKind::Box:
        s << fmt::format("box: {{min: {}, max: {}}}", vec(o.lo), vec(o.hi));
        break;
      case ObstacleKind::Cylinder:
        s << fmt::format("cylinder: {{center: {}, radius: {}", vec(o.center), o.radius);
        if (c.dim == 3) s << fmt::format(", axis: {}, length: {}", "xyz"[o.axis], o.length);
        s << "}";
        break;
      case ObstacleKind::Stl:
        // The file as read (absolute: the written case may live in another directory).
        s << fmt::format("stl: \"{}\", scale: {}, translate: [{}, {}, {}]",
                         o.mesh ? std::filesystem::absolute(o.mesh->path).string() : o.stl, o.scale,
                         o.translate[0], o.translate[1], o.translate[2]);
        break;
      }
      s << "}\n";
    }
  }
  if (!c.probes.empty()) {
    s << "probes:\n";
    for (const Probe& p : c.probes)
      s << fmt::format("  - {{name: {}, kind: {}, at: {}}}\n", p.name,
                       p.kind == ProbeKind::Height     ? "height"
                       : p.kind == ProbeKind::Pressure ? "pressure"
                                                       : "velocity",
                       vec(p.at));
  }
  return s.str();
}

CfdCase cavity_case(double re, int cells, int dim) {
  if (!(re > 0)) throw InputError({"--re", 0, ""}, "the Reynolds number must be > 0");
  if (cells < 4) throw InputError({"--cells", 0, ""}, "at least 4 cells per side");
  CfdCase c;
  c.name = fmt::format("cavity_re{}", re);
  c.dim = dim;
  c.size = {1, 1, dim == 3 ? 1.0 : 1.0 / cells};
  c.cells = {cells, cells, dim == 3 ? cells : 1};
  c.liquid = {1.0, 1.0 / re};
  c.gas = c.liquid;
  c.boundaries[3].velocity = {1, 0, 0}; // the lid, y = 1
  // Steady state: the flow has settled when the largest velocity change rate falls below 1e-5
  // (lid units); end_time bounds the run.
  c.end_time = 200;
  c.steady_tolerance = 1e-5;
  c.centerlines = true;
  return c;
}

CfdCase dambreak_case(int cells_per_a, double end_time) {
  if (cells_per_a < 4) throw InputError({"--cells", 0, ""}, "at least 4 cells per column width");
  const double a = 0.05715; // Martin & Moyce (1952), n^2 = 2
  CfdCase c;
  c.name = "dambreak";
  c.dim = 2;
  c.size = {5 * a, 2.5 * a, a / cells_per_a};
  c.cells = {5 * cells_per_a, (5 * cells_per_a) / 2, 1};
  c.size[1] = c.cells[1] * (a / cells_per_a);
  c.liquid = {1000.0, 1.0e-3};
  c.gas = {1.2, 1.8e-5};
  c.free_surface = true;
  c.gravity = {0, -9.81, 0};
  c.initial_liquid.push_back({{0, 0, 0}, {a, 2 * a, c.size[2]}});
  c.end_time = end_time;
  c.cfl = 0.25;
  c.output_interval = end_time / 10;
  c.reference_velocity = std::sqrt(2 * 9.81 * a);
  return c;
}

} // namespace parcae::cfd
