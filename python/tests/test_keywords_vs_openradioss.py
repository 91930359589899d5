"""docs/keywords_vs_openradioss.md is what scripts/keywords_vs_openradioss.py generates from the
current card tables and the OpenRadioss list (regenerate it when a keyword is added), and the
matching it rests on (`parcae keywords --match`) answers as the reader does."""
import importlib.util
import os
import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]
PARCAE = os.environ.get("PARCAE_BIN", str(ROOT / "build" / "release" / "bin" / "parcae"))


def load_script():
    spec = importlib.util.spec_from_file_location(
        "keywords_vs_openradioss", ROOT / "scripts" / "keywords_vs_openradioss.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_match_answers_as_the_reader():
    names = "*MAT_024_TITLE\n*mat_power_law_plasticity\n*DATABASE_SWFORC\n*MAT_HONEYCOMB\n" \
            "*SET_NODE_LIST_TITLE\n"
    out = subprocess.run([PARCAE, "keywords", "--match"], input=names, capture_output=True,
                         text=True, check=True).stdout.splitlines()
    assert out == ["*MAT_024_TITLE\t*MAT_PIECEWISE_LINEAR_PLASTICITY\tread",
                   "*mat_power_law_plasticity\t*MAT_POWER_LAW_PLASTICITY\tread",
                   "*DATABASE_SWFORC\t-\twarn",
                   "*MAT_HONEYCOMB\t-\trefuse",
                   "*SET_NODE_LIST_TITLE\t*SET_NODE_LIST\tread"]


def test_comparison_table_is_up_to_date(tmp_path):
    out = tmp_path / "cmp.md"
    assert load_script().main(["--parcae", PARCAE, "-o", str(out)]) == 0
    committed = (ROOT / "docs" / "keywords_vs_openradioss.md").read_text()
    assert out.read_text() == committed, (
        "docs/keywords_vs_openradioss.md is stale: run python3 scripts/keywords_vs_openradioss.py")


def test_scope_rules():
    mod = load_script()
    assert mod.classify("*ALE_MULTI-MATERIAL_GROUP")[0] == "out"
    assert mod.classify("*MAT_THERMAL_ISOTROPIC")[0] == "out"
    assert mod.classify("*SECTION_SPH")[0] == "later"
    assert mod.classify("*CONTACT_TIED_NODES_TO_SURFACE")[0] == "in"
