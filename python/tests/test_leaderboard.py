"""leaderboard() writes what `fairscore leaderboard` writes (two HIPE-2022 runs of ../shared)."""

import shutil

import fairscore
from conftest import shared_data


def test_leaderboard_writes_the_clis_rankings(tmp_path, fairscore_cli):
    data = shared_data("test_leaderboard_writes_the_clis_rankings") / "hipe2022"
    runs = tmp_path / "runs"
    runs.mkdir()
    for name in ["team2_bundle4_ajmc_de_1.tsv", "team2_bundle4_ajmc_de_2.tsv"]:
        shutil.copy(data / "submissions" / name, runs / name)
    (runs / "notes.txt").write_text("not a run\n", encoding="utf-8")
    dirs = [data / "gold", runs, data / "resources"]
    cli = fairscore_cli(
        "leaderboard", "--gold-dir", dirs[0], "--runs-dir", dirs[1], "--resources", dirs[2],
        "--outdir", tmp_path / "cli", "--preset", "hipe-2022", "--quiet", check=False,
    )
    summary = fairscore.leaderboard(*dirs, tmp_path / "py", preset="hipe-2022", threads=1)
    assert summary["scored"] == ["team2_bundle4_ajmc_de_1.tsv", "team2_bundle4_ajmc_de_2.tsv"]
    # A file of another extension is no run and no problem: ignored, as by the CLI.
    assert list(summary["rejected"]) == []
    assert summary["ignored"] == ["notes.txt"]
    assert summary["ok"] == (cli.returncode == 0)
    assert summary["rankings"]
    for name in summary["rankings"]:
        ours = (tmp_path / "py" / "rankings" / name).read_bytes()
        assert ours == (tmp_path / "cli" / "rankings" / name).read_bytes(), name
