"""Studies split into shards merge into the report of the whole study: run here, run by the command line, and run as Ray tasks on a local Ray instance."""

import json
import os
import subprocess

import pytest

import varia
from conftest import ROOT
from varia.studies import Study, merge, report_text

SELFPLAY = dict(kind="selfplay", games=4, first="depth=1", max_plies=40, seed=7)
MATCH = dict(kind="match", games=4, first="depth=2", second="depth=1", max_plies=40, seed=3)


def varia_binary():
    """The command line built by cargo (VARIA_BIN, or target/debug/varia), if there is one."""
    path = os.environ.get("VARIA_BIN") or str(ROOT / "target" / "debug" / "varia")
    return path if os.access(path, os.X_OK) else None


@pytest.mark.parametrize("settings", [SELFPLAY, MATCH], ids=["selfplay", "match"])
def test_shards_merge_into_the_whole_study(settings):
    study = Study("chess", **settings)
    whole = study.run(jobs=2)
    assert whole["games"] == 4 and whole["shard"] is None
    assert study.run_local(shards=3) == whole
    part = study.shard(2, 3)
    assert part["shard"] == "2/3" and [r["index"] for r in part["records"]] == [1]
    assert "4 games" in report_text(json.dumps(whole))


def test_merge_refuses_another_study_and_a_game_twice():
    a = Study("chess", **SELFPLAY).shard(1, 2)
    b = Study("chess", **dict(SELFPLAY, seed=8)).shard(2, 2)
    with pytest.raises(varia.VariaError, match="a different study"):
        merge([a, b])
    with pytest.raises(varia.VariaError, match="also in an earlier file"):
        merge([a, a])
    with pytest.raises(ValueError):
        Study("chess", **SELFPLAY).shard(3, 2)


@pytest.mark.skipif(varia_binary() is None, reason="no varia binary (cargo build, or VARIA_BIN)")
def test_the_shards_equal_those_of_the_command_line(tmp_path):
    binary = varia_binary()
    files = []
    for k in (1, 2):
        out = subprocess.run(
            [binary, "selfplay", "chess", "--games", "4", "--depth", "1", "--max-plies", "40", "--seed", "7",
             "--shard", "%d/2" % k, "--jobs", "1", "--json"],
            capture_output=True, text=True, check=True,
        ).stdout
        files.append(tmp_path / ("shard-%d.json" % k))
        files[-1].write_text(out)
    merged = subprocess.run([binary, "report", "merge", "--json", *map(str, files)],
                            capture_output=True, text=True, check=True).stdout
    assert json.loads(merged) == Study("chess", **SELFPLAY).run_local(shards=2)


def test_ray_tasks_give_the_local_report():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    try:
        for settings in (SELFPLAY, MATCH):
            study = Study("chess", **settings)
            assert study.run_ray(shards=4) == study.run_local(shards=4)
    finally:
        ray.shutdown()
