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


def test_leaderboard_inspect_writes_the_clis_pages(tmp_path, fairscore_cli):
    data = shared_data("test_leaderboard_inspect_writes_the_clis_pages") / "hipe2022"
    runs = tmp_path / "runs"
    runs.mkdir()
    # Bundle 4: nerc_coarse only (a page); bundle 5: NEL only (none).
    for name in ["team2_bundle4_ajmc_de_1.tsv", "team5_bundle5_ajmc_de_1.tsv"]:
        shutil.copy(data / "submissions" / name, runs / name)
    dirs = [data / "gold", runs, data / "resources"]
    fairscore_cli(
        "leaderboard", "--gold-dir", dirs[0], "--runs-dir", dirs[1], "--resources", dirs[2],
        "--outdir", tmp_path / "cli", "--preset", "hipe-2022", "--inspect", "--quiet",
        check=False,
    )
    summary = fairscore.leaderboard(*dirs, tmp_path / "py", preset="hipe-2022", inspect=True)
    assert summary["inspect"] == ["inspect/team2_bundle4_ajmc_de_1_nerc_coarse.html"]
    for page in summary["inspect"]:
        ours = (tmp_path / "py" / page).read_bytes()
        assert ours == (tmp_path / "cli" / page).read_bytes(), page
    # The run's row links it (the page escapes the `/` of the link).
    index = (tmp_path / "py" / "index.html").read_text(encoding="utf-8")
    assert 'href="inspect&#x2F;team2_bundle4_ajmc_de_1_nerc_coarse.html"' in index
    # Without it, no page; a value that is no switch is refused.
    plain = fairscore.leaderboard(*dirs, tmp_path / "plain", preset="hipe-2022")
    assert plain["inspect"] == [] and not (tmp_path / "plain" / "inspect").exists()
    try:
        fairscore.leaderboard(*dirs, tmp_path / "bad", preset="hipe-2022", inspect="maybe")
    except fairscore.UsageError as e:
        assert "inspect" in str(e)
    else:
        raise AssertionError("inspect='maybe' was accepted")
