// Outputs of the CFD solver: VTK image data (.vti pieces per rank, .pvti per state), gathered
// fields, cavity centreline profiles and the primary vortex.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>

#include "core/error.hpp"
#include "output/vtk_writer.hpp"
#include "solvers/cfd/cfd_solver.hpp"

namespace parcae::cfd {

namespace {

std::string base64(const std::vector<unsigned char>& in) {
  static const char* t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const unsigned v = (in[i] << 16) | (in[i + 1] << 8) | in[i + 2];
    out += t[(v >> 18) & 63];
    out += t[(v >> 12) & 63];
    out += t[(v >> 6) & 63];
    out += t[v & 63];
  }
  if (i < in.size()) {
    const unsigned v = (in[i] << 16) | (i + 1 < in.size() ? in[i + 1] << 8 : 0);
    out += t[(v >> 18) & 63];
    out += t[(v >> 12) & 63];
    out += i + 1 < in.size() ? t[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

/// VTK inline binary: base64 of a UInt64 byte count followed by the Float32 values.
std::string encode(const std::vector<float>& v) {
  std::vector<unsigned char> bytes(8 + v.size() * 4);
  const std::uint64_t n = v.size() * 4;
  std::memcpy(bytes.data(), &n, 8);
  if (!v.empty()) std::memcpy(bytes.data() + 8, v.data(), n);
  return base64(bytes);
}

std::string extent(const Grid& g) {
  return fmt::format("{} {} {} {} {} {}", g.offset[0], g.offset[0] + g.n[0], g.offset[1],
                     g.offset[1] + g.n[1], g.offset[2], g.offset[2] + g.n[2]);
}

void write_atomically(const std::filesystem::path& path, const std::string& text) {
  const auto tmp = path.string() + ".tmp";
  {
    std::ofstream o(tmp, std::ios::binary);
    o << text;
    if (!o) throw RuntimeError("cannot write " + tmp);
  }
  std::filesystem::rename(tmp, path);
}

std::size_t owned_index(const Grid& g, int i, int j, int k) {
  return static_cast<std::size_t>(i) + g.n[0] * (j + static_cast<std::size_t>(g.n[1]) * k);
}

} // namespace

std::string write_vtk_state(const par::Comm& comm, const Grid& g, const std::string& outdir,
                            int index, double time, ConstVelocityPtrs u, const double* p,
                            const double* f, const double* vf, const std::string& stem_prefix) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(outdir) / "states";
  const std::string stem = fmt::format("{}_{:04d}", stem_prefix, index);
  const std::size_t n = g.owned();
  std::vector<float> vel(3 * n, 0.0f), pr(n), fr(n), op(vf ? n : 0);
  for_box(owned_box(g), [&](int i, int j, int k) {
    const std::ptrdiff_t I = g.at(i, j, k);
    const std::size_t c = owned_index(g, i, j, k);
    for (int d = 0; d < g.dim; ++d)
      vel[3 * c + d] = static_cast<float>(0.5 * (u[d][I] + u[d][I + g.stride[d]]));
    pr[c] = static_cast<float>(p[I]);
    fr[c] = static_cast<float>(f[I]);
    if (vf) op[c] = static_cast<float>(vf[I]);
  });
  const std::string whole = fmt::format("0 {} 0 {} 0 {}", g.global[0], g.global[1], g.global[2]);
  const std::string geom =
      fmt::format("Origin=\"0 0 0\" Spacing=\"{} {} {}\"", g.h[0], g.h[1], g.h[2]);
  std::string s = "<?xml version=\"1.0\"?>\n<VTKFile type=\"ImageData\" version=\"1.0\" "
                  "byte_order=\"LittleEndian\" header_type=\"UInt64\">\n";
  s += fmt::format("<ImageData WholeExtent=\"{}\" {}>\n<FieldData><DataArray type=\"Float64\" "
                   "Name=\"TimeValue\" NumberOfTuples=\"1\" format=\"ascii\">{}</DataArray>"
                   "</FieldData>\n<Piece Extent=\"{}\">\n<CellData Scalars=\"pressure\" "
                   "Vectors=\"velocity\">\n",
                   whole, geom, time, extent(g));
  s += "<DataArray type=\"Float32\" Name=\"velocity\" NumberOfComponents=\"3\" format=\"binary\">" +
       encode(vel) + "</DataArray>\n";
  s += "<DataArray type=\"Float32\" Name=\"pressure\" format=\"binary\">" + encode(pr) +
       "</DataArray>\n";
  s += "<DataArray type=\"Float32\" Name=\"fluid_fraction\" format=\"binary\">" + encode(fr) +
       "</DataArray>\n";
  if (vf)
    s += "<DataArray type=\"Float32\" Name=\"open_fraction\" format=\"binary\">" + encode(op) +
         "</DataArray>\n";
  s += "</CellData>\n</Piece>\n</ImageData>\n</VTKFile>\n";
  write_atomically(dir / fmt::format("{}_r{:05d}.vti", stem, comm.rank()), s);
  if (comm.rank() == 0) {
    std::string m = "<?xml version=\"1.0\"?>\n<VTKFile type=\"PImageData\" version=\"1.0\" "
                    "byte_order=\"LittleEndian\" header_type=\"UInt64\">\n";
    m += fmt::format("<PImageData WholeExtent=\"{}\" GhostLevel=\"0\" {}>\n<PCellData "
                     "Scalars=\"pressure\" Vectors=\"velocity\">\n<PDataArray type=\"Float32\" "
                     "Name=\"velocity\" NumberOfComponents=\"3\"/>\n<PDataArray type=\"Float32\" "
                     "Name=\"pressure\"/>\n<PDataArray type=\"Float32\" Name=\"fluid_fraction\"/>\n"
                     "{}</PCellData>\n",
                     whole, geom,
                     vf ? "<PDataArray type=\"Float32\" Name=\"open_fraction\"/>\n" : "");
    for (int r = 0; r < comm.size(); ++r) {
      const Grid gr = make_grid(g.dim, g.global, g.h, r, comm.size());
      m += fmt::format("<Piece Extent=\"{}\" Source=\"{}_r{:05d}.vti\"/>\n", extent(gr), stem, r);
    }
    m += "</PImageData>\n</VTKFile>\n";
    write_atomically(dir / (stem + ".pvti"), m);
  }
  return "states/" + stem + ".pvti";
}

std::vector<double> CfdSolver::gather_cell_field(const std::string& what) const {
  const Grid& g = grid_;
  const int comp = what == "u" ? 0 : what == "v" ? 1 : what == "w" ? 2 : -1;
  if (comp < 0 && what != "p" && what != "f") throw RuntimeError("gather_cell_field: " + what);
  // Pairs (global cell index, value): the root places them.
  std::vector<double> local;
  local.reserve(2 * g.owned());
  const Box b = owned_box(g);
  for (int k = b.lo[2]; k < b.hi[2]; ++k)
    for (int j = b.lo[1]; j < b.hi[1]; ++j)
      for (int i = b.lo[0]; i < b.hi[0]; ++i) {
        const std::ptrdiff_t I = g.at(i, j, k);
        double v = 0;
        if (comp >= 0)
          v = comp < g.dim ? 0.5 * (u_[comp][I] + u_[comp][I + g.stride[comp]]) : 0.0;
        else
          v = what == "p" ? p_[I] : f_[I];
        const double gi =
            (g.offset[0] + i) +
            double(g.global[0]) * ((g.offset[1] + j) + double(g.global[1]) * (g.offset[2] + k));
        local.push_back(gi);
        local.push_back(v);
      }
  const auto all = comm_.gatherv(local, 0);
  std::vector<double> out;
  if (comm_.rank() != 0) return out;
  out.assign(static_cast<std::size_t>(g.global[0]) * g.global[1] * g.global[2], 0.0);
  for (std::size_t q = 0; q + 1 < all.size(); q += 2)
    out[static_cast<std::size_t>(all[q])] = all[q + 1];
  return out;
}

CavityResults CfdSolver::cavity_results() const {
  // The face velocities u (x-faces) and v (y-faces) on rank 0, in the mid-plane for 3D.
  const Grid& g = grid_;
  const int nx = g.global[0], ny = g.global[1], nz = g.global[2];
  std::vector<int> planes{0};
  if (g.dim == 3)
    planes = nz % 2 == 0 ? std::vector<int>{nz / 2 - 1, nz / 2} : std::vector<int>{nz / 2};
  std::vector<double> local;
  for (int k = 0; k < g.n[2]; ++k) {
    const int gk = g.offset[2] + k;
    if (std::find(planes.begin(), planes.end(), gk) == planes.end()) continue;
    for (int j = 0; j < g.n[1]; ++j)
      for (int i = 0; i < g.n[0]; ++i) {
        const std::ptrdiff_t I = g.at(i, j, k);
        local.insert(local.end(),
                     {double(g.offset[0] + i), double(g.offset[1] + j), u_[0][I], u_[1][I]});
      }
  }
  const auto all = comm_.gatherv(local, 0);
  CavityResults r;
  if (comm_.rank() != 0) return r;
  const double w = 1.0 / planes.size();
  // Faces i = 0..nx (u) and j = 0..ny (v); boundary faces nx and ny are walls (0).
  std::vector<double> uf(static_cast<std::size_t>(nx + 1) * ny, 0.0),
      vf(static_cast<std::size_t>(nx) * (ny + 1), 0.0);
  for (std::size_t q = 0; q + 3 < all.size(); q += 4) {
    const int i = static_cast<int>(all[q]), j = static_cast<int>(all[q + 1]);
    uf[static_cast<std::size_t>(j) * (nx + 1) + i] += w * all[q + 2];
    vf[static_cast<std::size_t>(j) * nx + i] += w * all[q + 3];
  }
  const double lx = nx * g.h[0], ly = ny * g.h[1];
  const double uref = case_.reference_velocity;
  const auto& bc = case_.boundaries;
  // u along x = lx/2 at the cell-centre heights, between the two faces around it.
  const double xi = 0.5 * nx; // face coordinate of x = lx/2
  const int i0 = std::min(nx - 1, static_cast<int>(std::floor(xi)));
  const double ax = xi - i0;
  r.u_vertical.push_back({0.0, bc[2].velocity[0] / uref});
  for (int j = 0; j < ny; ++j) {
    const double v = (1 - ax) * uf[j * (nx + 1) + i0] + ax * uf[j * (nx + 1) + i0 + 1];
    r.u_vertical.push_back({(j + 0.5) * g.h[1] / ly, v / uref});
  }
  r.u_vertical.push_back({1.0, bc[3].velocity[0] / uref});
  const double yj = 0.5 * ny;
  const int j0 = std::min(ny - 1, static_cast<int>(std::floor(yj)));
  const double ay = yj - j0;
  r.v_horizontal.push_back({0.0, bc[0].velocity[1] / uref});
  for (int i = 0; i < nx; ++i) {
    const double v = (1 - ay) * vf[j0 * nx + i] + ay * vf[(j0 + 1) * nx + i];
    r.v_horizontal.push_back({(i + 0.5) * g.h[0] / lx, v / uref});
  }
  r.v_horizontal.push_back({1.0, bc[1].velocity[1] / uref});
  // Stream function at the nodes: psi(i, j+1) = psi(i, j) + u(i, j) h_y (u = dpsi/dy).
  std::vector<double> psi(static_cast<std::size_t>(nx + 1) * (ny + 1), 0.0);
  for (int i = 0; i <= nx; ++i)
    for (int j = 0; j < ny; ++j)
      psi[(j + 1) * (nx + 1) + i] = psi[j * (nx + 1) + i] + uf[j * (nx + 1) + i] * g.h[1];
  int bi = 1, bj = 1;
  for (int j = 1; j < ny; ++j)
    for (int i = 1; i < nx; ++i)
      if (psi[j * (nx + 1) + i] < psi[bj * (nx + 1) + bi]) bi = i, bj = j;
  // Parabolic vertex through the minimum node and its neighbours, in x and y separately.
  auto vertex = [](double fm, double f0, double fp) {
    const double den = fm - 2 * f0 + fp;
    return den > 0 ? std::clamp(0.5 * (fm - fp) / den, -0.5, 0.5) : 0.0;
  };
  const double P = psi[bj * (nx + 1) + bi];
  const double sx = vertex(psi[bj * (nx + 1) + bi - 1], P, psi[bj * (nx + 1) + bi + 1]);
  const double sy = vertex(psi[(bj - 1) * (nx + 1) + bi], P, psi[(bj + 1) * (nx + 1) + bi]);
  r.vortex_x = (bi + sx) * g.h[0] / lx;
  r.vortex_y = (bj + sy) * g.h[1] / ly;
  const double cx = 0.5 * (psi[bj * (nx + 1) + bi - 1] - 2 * P + psi[bj * (nx + 1) + bi + 1]);
  const double cy = 0.5 * (psi[(bj - 1) * (nx + 1) + bi] - 2 * P + psi[(bj + 1) * (nx + 1) + bi]);
  r.psi_min = (P - cx * sx * sx - cy * sy * sy) / (uref * lx);
  return r;
}

void write_cavity_files(const std::string& outdir, const CavityResults& r) {
  namespace fs = std::filesystem;
  std::string a = "y,u\n", b = "x,v\n";
  for (const auto& q : r.u_vertical) a += fmt::format("{:.6f},{:.8f}\n", q.s, q.v);
  for (const auto& q : r.v_horizontal) b += fmt::format("{:.6f},{:.8f}\n", q.s, q.v);
  write_atomically(fs::path(outdir) / "centerline_u.csv", a);
  write_atomically(fs::path(outdir) / "centerline_v.csv", b);
  write_atomically(fs::path(outdir) / "vortex.csv", fmt::format("x,y,psi\n{:.6f},{:.6f},{:.8f}\n",
                                                                r.vortex_x, r.vortex_y, r.psi_min));
}

} // namespace parcae::cfd
