"""The command line: ``iaa-teach report FILE.csv [--format wide|long] [--level L] [--weights W]``.

The printed numbers are checked two ways: against the answer key (ERRATA.md)
at three decimals, and against the library's own result for the same file,
so the report cannot drift from the metrics.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rounding import d3

from iaa_teach import (
    AgreementError,
    Ratings,
    bootstrap_ci,
    cohen_kappa,
    datasets,
    family_intervals,
    fleiss_kappa,
    krippendorff_alpha,
)
from iaa_teach.cli import main

ROOT = Path(__file__).resolve().parents[1]


def write_wide(path: Path, ratings: Ratings, item_column: bool = True) -> Path:
    head = (["item"] if item_column else []) + list(ratings.raters)
    lines = [",".join(head)]
    for item, row in zip(ratings.items, ratings.rows()):
        cells = ["" if v is None else str(v) for v in row]
        lines.append(",".join(([str(item)] if item_column else []) + cells))
    path.write_text("\n".join(lines) + "\n")
    return path


def write_long(path: Path, ratings: Ratings) -> Path:
    lines = ["item,rater,label"]
    for item, row in zip(ratings.items, ratings.rows()):
        lines += [f"{item},{rater},{v}" for rater, v in zip(ratings.raters, row) if v is not None]
    path.write_text("\n".join(lines) + "\n")
    return path


def run(capsys, *argv):
    code = main(list(map(str, argv)))
    out, err = capsys.readouterr()
    return code, out, err


def line_with(out: str, start: str) -> str:
    matches = [line for line in out.splitlines() if line.strip().startswith(start)]
    assert len(matches) == 1, (start, out)
    return matches[0]


def test_report_on_the_sentiment_data(tmp_path, capsys):
    path = write_wide(tmp_path / "sentiment.csv", datasets.sentiment())
    code, out, err = run(capsys, "report", path)
    assert code == 0 and err == ""
    assert out.splitlines()[0] == (
        'Read sentiment.csv as wide: 10 items (IDs from column "item") x 3 raters (A, B, C); '
        "categories G, N, P; 30 ratings, 0 missing"
    )
    ab = line_with(out, "A vs B")
    assert "0.492" in ab and "(moderate)" in ab and "P_o = 0.700" in ab and "P_e = 0.410" in ab
    assert "0.844" in line_with(out, "A vs C") and "0.355" in line_with(out, "B vs C")
    for chance in ("pooled", "mean item"):
        assert "0.564" in line_with(out, f"chance = {chance}")
    alpha = line_with(out, "alpha")
    assert "0.578" in alpha and "D_o = 0.267" in alpha and "D_e = 0.632" in alpha and "n = 30" in alpha
    assert "Krippendorff's alpha (nominal)" in out


def test_report_missing_data_names_both_chance_rules(tmp_path, capsys):
    r = datasets.sentiment_missing()
    code, out, _ = run(capsys, "report", write_wide(tmp_path / "m.csv", r))
    assert code == 0
    assert "28 ratings, 2 missing" in out.splitlines()[0]
    assert "0.555" in line_with(out, "chance = pooled") and "ratings = 28" in line_with(
        out, "chance = pooled"
    )
    assert "0.564" in line_with(out, "chance = mean item")
    assert "0.540" in line_with(out, "alpha") and "n = 28" in line_with(out, "alpha")
    assert "items = 9" in line_with(out, "A vs B")


def test_long_format_gives_the_same_report(tmp_path, capsys):
    r = datasets.sentiment_missing()
    _, wide, _ = run(capsys, "report", write_wide(tmp_path / "w.csv", r))
    code, long, _ = run(capsys, "report", write_long(tmp_path / "l.csv", r), "--format", "long")
    assert code == 0
    assert long.splitlines()[0].startswith("Read l.csv as long (one rating per row): 10 items")
    assert long.split("\n\n", 1)[1] == wide.split("\n\n", 1)[1]  # all but how each file was read


@pytest.mark.parametrize("weights", ["linear", "quadratic"])
def test_weights_option(tmp_path, capsys, weights):
    r = datasets.sentiment()
    path = write_wide(tmp_path / "s.csv", r)
    code, _, err = run(
        capsys, "report", path, "--weights", weights
    )  # text labels: the order must be declared
    assert code == 2 and "--categories" in err
    code, out, _ = run(capsys, "report", path, "--weights", weights, "--categories", "G,N,P")
    assert code == 0
    assert f"({weights} weights)" in out
    family = family_section(out)
    assert f"{weights} weights" in family[0]
    ordered = Ratings.from_csv(path, categories=["G", "N", "P"])
    for row in family_intervals(ordered, weights=weights):
        assert d3(row.result.exact_value) in family_line(out, row.name)
    assert "AC2" in family_line(out, "Gwet's AC2")
    for a, b in [("A", "B"), ("A", "C"), ("B", "C")]:
        res = cohen_kappa(r, a, b, weights=weights)
        assert d3(res.exact.kappa) in line_with(out, f"{a} vs {b}")
        assert f"P_o = {d3(res.exact.p_o)}" in line_with(out, f"{a} vs {b}")


@pytest.mark.parametrize("level", ["ordinal", "interval", "ratio"])
def test_level_option_on_numeric_data(tmp_path, capsys, level):
    path = tmp_path / "scores.csv"
    path.write_text("r1,r2,r3\n1,2,1\n3,3,\n4,4,5\n2,1,2\n5,5,5\n")
    code, out, _ = run(capsys, "report", path, "--level", level)
    assert code == 0
    res = krippendorff_alpha(Ratings.from_csv(path), level)
    assert f"Krippendorff's alpha ({level})" in out
    assert d3(res.exact.alpha) in line_with(out, "alpha") and f"D_e = {d3(res.exact.d_e)}" in line_with(
        out, "alpha"
    )


def test_categories_option_sets_the_order(tmp_path, capsys):
    path = write_wide(tmp_path / "s.csv", datasets.sentiment(), item_column=False)
    code, out, _ = run(capsys, "report", path, "--categories", "P,G,N", "--level", "ordinal")
    assert code == 0
    assert "categories P, G, N" in out.splitlines()[0]
    reordered = Ratings.from_csv(path, categories=["P", "G", "N"])
    assert d3(krippendorff_alpha(reordered, "ordinal").exact.alpha) in line_with(out, "alpha")


def test_undefined_values_say_why(tmp_path, capsys):
    path = tmp_path / "same.csv"
    path.write_text("A,B\nx,x\nx,x\nx,\n")
    code, out, _ = run(capsys, "report", path)
    assert code == 0
    for start in ("A vs B", "chance = pooled", "chance = mean item", "alpha"):
        line = line_with(out, start)
        assert re.search(r"\s+undefined\s+\(undefined\)", line), line  # value and band; never a silent 0.000
    family = family_intervals(Ratings.from_csv(path))
    undefined = [row.name for row in family if not row.result.defined]
    assert (
        undefined and "percent agreement" not in undefined
    )  # P_a = 1 is defined; every chance model gives 0/0
    for name in undefined:
        assert re.search(r"\s+undefined\s+\(undefined\)", family_line(out, name))
    # Cohen, the mean over pairs, both Fleiss rules, alpha, and each undefined member of the family
    assert out.count("why undefined:") == 5 + len(undefined)
    assert "kappa is undefined for A vs B" in out
    assert fleiss_kappa(Ratings.from_csv(path)).reason in out


def test_raters_who_never_met_still_get_fleiss_and_alpha(tmp_path, capsys):
    path = tmp_path / "apart.csv"
    path.write_text("A,B,C\nP,,P\nN,,N\n,P,P\n,N,G\n")
    code, out, _ = run(capsys, "report", path)
    assert code == 0
    assert "why undefined: raters 'A' and 'B' never rated the same item" in out
    assert "chance = pooled" in out and "alpha" in out


@pytest.mark.parametrize(
    "content, args, message",
    [
        ("A,B\nP,N\nP\n", [], r"line 3: 1 cells but the header has 2 columns"),
        ("A,B\nP,N\nN,N\n", ["--level", "interval"], r"level 'interval' needs numeric categories"),
        ("A,B\nP,N\nz,N\n", ["--categories", "P,N"], r"label 'z' at row 2, rater A"),
        ("A\nP\nN\n", [], r"at least 2 raters"),
        ("", [], r"the file is empty"),
        ("A,B\nP,\n,N\n", [], r"no item has 2 or more ratings"),
    ],
)
def test_bad_files_exit_2_with_a_message(tmp_path, capsys, content, args, message):
    path = tmp_path / "bad.csv"
    path.write_text(content)
    code, out, err = run(capsys, "report", path, *args)
    assert code == 2
    assert out == ""
    assert err.startswith("iaa-teach: error: ")
    assert re.search(message, err), err


def test_missing_file(tmp_path, capsys):
    code, _, err = run(capsys, "report", tmp_path / "nope.csv")
    assert code == 2 and "iaa-teach: error:" in err and "nope.csv" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["report"],
        ["report", "x.csv", "--level", "cardinal"],
        ["report", "x.csv", "--weights", "cubic"],
        ["report", "x.csv", "--format", "tall"],
        ["summarise", "x.csv"],
        ["report", "x.csv", "--ci", "exact"],
        ["report", "x.csv", "--seed", "-1"],
        ["report", "x.csv", "--seed", "one"],
        ["report", "x.csv", "--n-boot", "0"],
    ],
)
def test_bad_arguments_are_usage_errors(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("iaa-teach: error: ") and err.count("\n") == 1  # one line, no traceback
    assert "--help" in err


def test_runs_as_a_module(tmp_path):
    """``python -m iaa_teach.cli`` (what the ``iaa-teach`` console script calls)."""
    path = write_wide(tmp_path / "s.csv", datasets.sentiment())
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    proc = subprocess.run(
        [sys.executable, "-m", "iaa_teach.cli", "report", str(path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "0.578" in proc.stdout


def _console_script() -> list[str]:
    """The ``iaa-teach`` console script: the installed one beside this Python if there is one, else what
    pip's wrapper runs, the entry point pyproject.toml's [project.scripts] declares."""
    import tomllib

    entry = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]["iaa-teach"]
    installed = Path(sys.executable).with_name("iaa-teach")
    if installed.is_file() and os.access(installed, os.X_OK):
        return [str(installed)]
    module, function = entry.split(":")
    return [sys.executable, "-c", f"import sys; from {module} import {function}; sys.exit({function}())"]


@pytest.mark.parametrize(
    "argv",
    [["--help"], ["report", "DATA"], ["report", "no-such-file.csv"], ["lessons"]],
    ids=["help", "report", "missing-file", "usage-error"],
)
def test_python_m_iaa_teach_is_the_console_script(tmp_path, argv):
    """``python -m iaa_teach ARGS`` prints what ``iaa-teach ARGS`` prints, to the same streams, with the
    same exit code: help, a report, a file that is not there (2), a missing argument (2)."""
    data = write_wide(tmp_path / "s.csv", datasets.sentiment())
    argv = [str(data) if a == "DATA" else a for a in argv]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    runs = [
        subprocess.run(command + argv, capture_output=True, text=True, env=env, timeout=60, cwd=tmp_path)
        for command in ([sys.executable, "-m", "iaa_teach"], _console_script())
    ]
    module, script = ((r.returncode, r.stdout, r.stderr) for r in runs)
    assert module == script
    code, out, err = module
    assert code == (0 if argv[0] == "--help" or argv[-1] == str(data) else 2)
    assert (out if code == 0 else err).strip()  # it said something: not two empty, equal failures
    assert "Traceback" not in err


# ================================================================ the family
FAMILY_HEADER = "The chance-corrected family"


def family_section(out: str) -> list[str]:
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(FAMILY_HEADER))
    return lines[start:]


def family_line(out: str, name: str) -> str:
    return line_with("\n".join(family_section(out)[1:]), name)


def test_report_prints_the_family_with_analytic_intervals(tmp_path, capsys):
    r = datasets.sentiment_missing()
    code, out, _ = run(capsys, "report", write_wide(tmp_path / "m.csv", r))
    assert code == 0
    section = family_section(out)
    assert "analytic" in section[0] and "95% interval" in section[0]
    rows = family_intervals(r)
    assert [row.name for row in rows] == [
        "percent agreement",
        "Brennan-Prediger S",
        "Fleiss' kappa",
        "Conger's kappa",
        "Gwet's AC1",
        "Krippendorff's alpha",
    ]
    for row in rows:
        line = family_line(out, row.name)
        low, high = row.result.ci()
        assert f"{d3(row.result.exact_value)}" in line
        assert f"SE = {d3(row.result.se)}, 95% CI [{d3(low)}, {d3(high)}]" in line
    assert f"P_e = {d3(rows[4].result.exact.p_e)}" in family_line(out, "Gwet's AC1")
    # the lines the report printed before the family are all still there
    assert "0.555" in line_with(out, "chance = pooled") and "0.540" in line_with(out, "alpha")


def test_two_raters_get_scott_and_cohen(tmp_path, capsys):
    r = datasets.sentiment().subset(raters=["A", "B"])
    code, out, _ = run(capsys, "report", write_wide(tmp_path / "ab.csv", r))
    assert code == 0
    cohen = cohen_kappa(r, "A", "B")
    line = family_line(out, "Cohen's kappa")
    assert d3(cohen.exact.kappa) in line and f"SE = {d3(cohen.se)}" in line
    family = "\n".join(family_section(out))
    # one name for S across the course (the report said "Bennett's S" for two raters)
    assert "Scott's pi" in family and "Brennan-Prediger S" in family and "Bennett" not in out


def test_bootstrap_intervals_are_seeded_and_match_bootstrap_ci(tmp_path, capsys):
    r = datasets.sentiment()
    path = write_wide(tmp_path / "s.csv", r)
    code, out, _ = run(capsys, "report", path, "--ci", "bootstrap", "--n-boot", "300")
    assert code == 0
    assert "bootstrap: 300 resamples of the items, seed 0" in family_section(out)[0]
    boot = bootstrap_ci("gwet_ac", r, n_boot=300, seed=0)
    assert f"95% CI [{d3(boot.low)}, {d3(boot.high)}]" in family_line(out, "Gwet's AC1")
    again = run(capsys, "report", path, "--ci", "bootstrap", "--n-boot", "300")[1]
    assert again == out
    other = run(capsys, "report", path, "--ci", "bootstrap", "--n-boot", "300", "--seed", "7")[1]
    assert other != out and "seed 7" in other
    boot7 = bootstrap_ci("fleiss_kappa", r, n_boot=300, seed=7)
    assert f"95% CI [{d3(boot7.low)}, {d3(boot7.high)}]" in family_line(other, "Fleiss' kappa")


def test_json_gains_the_family(tmp_path, capsys):
    import json

    from iaa_teach._report import family_data

    r = datasets.sentiment_missing()
    out_json = tmp_path / "m.json"
    code, _, _ = run(capsys, "report", write_wide(tmp_path / "m.csv", r), "--json", out_json)
    assert code == 0
    data = json.loads(out_json.read_text())
    assert data["family"] == json.loads(json.dumps(family_data(family_intervals(r))))
    conger = next(rec for rec in data["family"] if rec["name"] == "Conger's kappa")
    assert conger["exact"] == str(
        next(row.result for row in family_intervals(r) if row.metric == "conger_kappa").exact.kappa
    )
    assert conger["interval"] == "analytic" and conger["reason"] is None


# ------------------------------------------------ an instructor's own files (files-follow)
_DECIMAL_COMMAS = "item;A;B;C\n1;1,5;2,0;1,5\n2;2,0;2,0;3,5\n3;3,5;3,5;3,5\n4;1,5;2,0;2,0\n"


def test_weights_help_speaks_of_lesson_03s_agreement_weights(capsys):
    """``--weights``'s help names the agreement weights w_jk that lesson 03 teaches, not "disagreement
    weights", which no lesson defines; nor does any public docstring."""
    import iaa_teach

    with pytest.raises(SystemExit):
        main(["report", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "disagreement weight" not in shown.lower()
    assert "agreement weights w_jk (lesson 03)" in shown
    for name in iaa_teach.__all__:
        doc = getattr(getattr(iaa_teach, name), "__doc__", None) or ""
        assert "disagreement weight" not in doc.lower(), name


def test_categories_with_decimal_commas_are_listed_so_they_can_be_read(tmp_path, capsys):
    """A semicolon-separated file with decimal commas: the first line listed "categories 1,5, 2,0, 3,5";
    a label holding a comma is now quoted, in the text, HTML and JSON summaries alike."""
    import html
    import json

    path = tmp_path / "semi.csv"
    path.write_text(_DECIMAL_COMMAS)
    out_json = tmp_path / "semi.json"
    code, out, _ = run(capsys, "report", path, "--json", out_json, "--html", tmp_path / "semi.html")
    assert code == 0
    listed = 'categories "1,5", "2,0", "3,5"; 12 ratings'
    assert listed in out.splitlines()[0]
    assert listed in json.loads(out_json.read_text())["reading"]["summary"][0]
    assert listed in html.unescape((tmp_path / "semi.html").read_text())
    plain = Ratings.from_rows([["a", "b"], ["a", "a"]])  # labels without commas: as before
    from iaa_teach.report import summary_lines

    assert "categories a, b;" in summary_lines(plain)[0]


def test_an_interval_error_names_the_file(tmp_path, capsys, monkeypatch):
    """``--level interval`` on labels with decimal commas: the metric's error (which knows no file) is
    prefixed with the file's name as given; the library's own error for in-memory data is unchanged."""
    (tmp_path / "semi.csv").write_text(_DECIMAL_COMMAS)
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "report", "semi.csv", "--level", "interval")
    assert code == 2 and out == ""
    assert err.startswith("iaa-teach: error: semi.csv: level 'interval' needs numeric categories"), err
    r = Ratings.from_csv(tmp_path / "semi.csv")
    with pytest.raises(AgreementError) as raised:
        krippendorff_alpha(r, level="interval")
    assert str(raised.value).startswith("level 'interval' needs numeric categories")
