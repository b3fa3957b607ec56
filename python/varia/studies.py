"""Studies of engine games split into shards, run here or as Ray tasks, merged into one report.

A study is what `varia selfplay` or `varia match` plays; shard K of N plays the games whose
number is K-1 modulo N (`--shard K/N`), so the shards of a study can run anywhere and their
reports merge into the report of the whole study, the same wherever each shard ran. Reports are
the JSON objects the command line prints with `--json` (as dicts here).
"""

import json

from varia._varia import merge_reports, report_text, run_study

__all__ = ["Study", "merge", "report_text"]


class Study:
    """The settings of a study: `kind` is "selfplay" (`first` plays both sides) or "match"
    (`first` against `second`, colours swapped in each pair of games); SPECs as the command
    line's (`depth=2`, `time=0.5`, `nodes=20000`, `weights=FILE`, `hash=MB`)."""

    def __init__(self, source, kind="selfplay", games=10, first="depth=2", second=None, seed=1,
                 random_plies=None, max_plies=300, position=None, variant=None):
        if kind not in ("selfplay", "match"):
            raise ValueError("kind must be 'selfplay' or 'match', not %r" % kind)
        self.settings = dict(source=str(source), kind=kind, games=games, first=first, second=second,
                             seed=seed, random_plies=random_plies, max_plies=max_plies,
                             position=position, variant=variant)

    def shard(self, k, n, jobs=1):
        """Plays shard k of n (from 1) on `jobs` threads and returns its report (a dict)."""
        if not 1 <= k <= n:
            raise ValueError("a shard is K/N with 1 <= K <= N, not %d/%d" % (k, n))
        return json.loads(run_study(shard="%d/%d" % (k, n), jobs=jobs, **self.settings))

    def run(self, jobs=1):
        """Plays the whole study here and returns its report."""
        return json.loads(run_study(jobs=jobs, **self.settings))

    def run_local(self, shards, jobs=1):
        """Plays the study as `shards` shards one after another here and merges their reports."""
        return merge([self.shard(k, shards, jobs) for k in range(1, shards + 1)])

    def run_ray(self, shards, jobs=1, address=None, num_cpus=None):
        """Plays the study as `shards` Ray tasks, each shard on `jobs` threads, and merges their
        reports. Ray is started with `ray.init(address)` unless it runs already: `address=None`
        starts a local instance (or joins the cluster in RAY_ADDRESS), "auto" joins the cluster
        this machine belongs to, "ray://HOST:10001" a remote one through Ray Client. Every node
        needs the `varia` module, and the rule file at the same path unless it is bundled."""
        import ray

        if not ray.is_initialized():
            ray.init(address=address)
        task = ray.remote(num_cpus=num_cpus or jobs)(_ray_shard)
        refs = [task.remote(self.settings, k, shards, jobs) for k in range(1, shards + 1)]
        return merge(ray.get(refs))


def _ray_shard(settings, k, n, jobs):
    return json.loads(run_study(shard="%d/%d" % (k, n), jobs=jobs, **settings))


def merge(reports):
    """Merges the reports (dicts or JSON texts) of a study's shards into the whole study's
    report, as `varia report merge` does."""
    texts = [r if isinstance(r, str) else json.dumps(r) for r in reports]
    return json.loads(merge_reports(texts))
