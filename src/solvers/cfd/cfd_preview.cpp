// `parcae cfd preview CASE.yaml -o OUT`: what the solver sees of a case's geometry before it
// runs: the open-fraction field and the initial liquid as VTK, and a summary.
#include <fmt/format.h>
#include <ostream>

#include "core/exact_sum.hpp"
#include "solvers/cfd/cfd_solver.hpp"

namespace parcae::cfd {

void write_cfd_preview(const CfdCase& c, const par::Comm& comm, const std::string& outdir,
                       std::ostream* log) {
  const std::array<double, 3> h{c.h(0), c.h(1), c.dim == 3 ? c.h(2) : c.size[2]};
  const Grid g = make_grid(c.dim, c.cells, h, comm.rank(), comm.size());
  std::vector<double> liquid;
  const Openings open = compute_openings(c, g, c.free_surface ? &liquid : nullptr);
  const std::vector<double> vf = open.any() ? open.vf : std::vector<double>(g.total, 1.0);
  if (!c.free_surface) liquid.assign(g.total, 1.0);
  std::vector<double> zero(g.total, 0.0);
  std::filesystem::create_directories(std::filesystem::path(outdir) / "states");
  comm.barrier();
  const std::string name =
      write_vtk_state(comm, g, outdir, 0, 0.0, {zero.data(), zero.data(), zero.data()}, zero.data(),
                      liquid.data(), vf.data(), "preview");
  // Summary: open, closed and cut cells, open volume, liquid volume.
  std::int64_t closed = 0, cut = 0;
  ExactSum vopen, vliq;
  const Box b = owned_box(g);
  for (int k = b.lo[2]; k < b.hi[2]; ++k)
    for (int j = b.lo[1]; j < b.hi[1]; ++j)
      for (int i = b.lo[0]; i < b.hi[0]; ++i) {
        const std::ptrdiff_t I = g.at(i, j, k);
        closed += vf[I] == 0;
        cut += vf[I] > 0 && vf[I] < 1;
        vopen.add(vf[I]);
        vliq.add(vf[I] * liquid[I]);
      }
  closed = comm.sum(closed);
  cut = comm.sum(cut);
  const double cell = g.h[0] * g.h[1] * g.h[2];
  const double open_volume = comm.sum(vopen).result() * cell;
  const double liquid_volume = comm.sum(vliq).result() * cell;
  if (log && comm.rank() == 0) {
    const double cells = double(c.cells[0]) * c.cells[1] * c.cells[2];
    *log << fmt::format("{} obstacle(s); {:.0f} cells: {} closed, {} cut by a wall, {:.0f} open\n",
                        c.obstacles.size(), cells, closed, cut, cells - closed - cut);
    *log << fmt::format("open volume {:.6g} of {:.6g} ({:.2f} %); initial liquid volume {:.6g}\n",
                        open_volume, cells * cell, 100 * open_volume / (cells * cell),
                        liquid_volume);
    *log << fmt::format("wrote {}/{} (cell data open_fraction, fluid_fraction; ParaView)\n", outdir,
                        name);
  }
}

} // namespace parcae::cfd
