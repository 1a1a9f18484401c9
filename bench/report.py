"""The targets, checked against the figures, and the figures as Markdown tables.

``python -m bench.report [results.json]`` prints the tables of a results file again
(``bench/results.json`` by default).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results.json"


@dataclass(frozen=True)
class Target:
    text: str
    value: float
    limit: float
    comparison: str
    """``>=``, ``<=`` or ``<``."""
    shown: str
    spread: str = ""
    """The range over the rounds, for ratios."""

    @property
    def met(self) -> bool:
        if self.comparison == ">=":
            return self.value >= self.limit
        return self.value <= self.limit if self.comparison == "<=" else self.value < self.limit

    def as_dict(self) -> dict[str, Any]:
        return {
            "target": self.text,
            "value": self.value,
            "limit": self.limit,
            "comparison": self.comparison,
            "pass": self.met,
            "shown": self.shown,
            "spread": self.spread,
        }


def ratio(http: dict[str, Any], key: str, baseline: str) -> tuple[float, str]:
    """``key``'s median throughput over ``baseline``'s, and the range of the ratios round by round."""
    value: float = http[key]["rps"] / http[baseline]["rps"]
    runs = [a / b for a, b in zip(http[key]["rps_runs"], http[baseline]["rps_runs"], strict=True)]
    return value, f"{min(runs):.2f}–{max(runs):.2f}"


def ratio_target(
    http: dict[str, Any], key: str, baseline: str, limit: float, pairs: dict[str, Any] | None = None
) -> Target:
    """``key``'s throughput over ``baseline``'s: the median of the back-to-back pairs when they were
    measured (``pairs``, see ``bench.run.paired``), else the ratio of the rounds' medians."""
    text = f"{http[key]['label']} ≥ {limit:g} × {http[baseline]['label']}"
    pair = (pairs or {}).get(f"{key}/{baseline}")
    if pair is not None:
        rounds_value, _ = ratio(http, key, baseline)
        shown = f"{pair['ratio']:.2f} × ({len(pair['ratios'])} pairs; rounds {rounds_value:.2f} ×)"
        spread = f"{pair['q1']:.2f}–{pair['q3']:.2f} (quartiles)"
        return Target(text, pair["ratio"], limit, ">=", shown, spread)
    value, spread = ratio(http, key, baseline)
    return Target(text, value, limit, ">=", f"{value:.2f} ×", spread)


def cost_target(http: dict[str, Any], key: str, baseline: str, limit: float) -> Target | None:
    """The cost of a ``key`` request (the inverse of its throughput) over a ``baseline`` one."""
    if key not in http or baseline not in http:
        return None  # results of a run from before these mixes
    value = http[baseline]["rps"] / http[key]["rps"]
    runs = [b / a for a, b in zip(http[key]["rps_runs"], http[baseline]["rps_runs"], strict=True)]
    text = f"cost of a {http[key]['label']} ≤ {limit:g} × one {http[baseline]['label']}"
    return Target(text, value, limit, "<=", f"{value:.2f} ×", f"{min(runs):.2f}–{max(runs):.2f}")


def targets(results: dict[str, Any]) -> list[Target]:
    """The targets of the benchmark: throughput against the baselines, the cost of the engine's
    options and of the coach's reviews and puzzles, batches, start-up, and a worker's memory."""
    http, sr = results["http"], results["service"]
    batch = http["batch"]
    boards_vs_single = batch["rps"] * batch["batch_size"] / http["post"]["rps"]
    memory_mib = sr["rss_after_mib"]
    memory_mb = memory_mib * 1.048576
    soaked = sr["soak_requests"]
    costs = [cost_target(http, key, "random", 1.5) for key in ("level", "depth", "skill")]
    lines = results.get("web_lines", {}).get("now")
    size = [] if lines is None else [Target("`service/web` lines ≤ 3,300", lines, 3300, "<=", f"{lines:,}")]
    return [
        *edge_targets(results),
        ratio_target(http, "post", "bare", 1.2, results.get("pairs")),
        ratio_target(http, "get", "bare", 1.2, results.get("pairs")),
        ratio_target(http, "post", "raw", 0.35, results.get("pairs")),
        *([ratio_target(http, "variants", "post", 0.8, results.get("pairs"))] if "variants" in http else []),
        *access_log_target(results.get("pairs") or {}),
        *language_target(results.get("pairs") or {}),
        *(target for target in [cost_target(http, "analysis_4x4", "analysis", 2)] if target is not None),
        *(target for target in costs if target is not None),
        *size,
        Target(
            "`python -m service` start-up to its first `200` from `/health` (the puzzles made) ≤ 1.5 s",
            sr["startup_s"],
            1.5,
            "<=",
            f"{sr['startup_s']:.2f} s",
            f"{sr['startup_s_min']:.2f}–{sr['startup_s_max']:.2f}",
        ),
        Target(
            f"batch of {batch['batch_size']}: boards/s ≥ 20 × single `POST /v1/best-move`",
            boards_vs_single,
            20,
            ">=",
            f"{boards_vs_single:.1f} × ({batch['rps'] * batch['batch_size']:,.0f} boards/s "
            f"vs {http['post']['rps']:,.0f})",
        ),
        Target(
            f"worker RSS after every answer once and {soaked:,} more requests ≤ 80 MB",
            memory_mb,
            80,
            "<=",
            f"{memory_mb:.1f} MB ({memory_mib:.1f} MiB)",
        ),
        *private_target(sr),
        Target(
            f"worker RSS growth over those {soaked:,} requests < 5 %",
            sr["rss_growth_pct"],
            5,
            "<",
            f"{sr['rss_growth_pct']:+.1f} %",
        ),
    ]


def access_log_target(pairs: dict[str, Any]) -> list[Target]:
    """Plain ``POST /v1/best-move`` with the service's access log (log level ``info``, the default) over
    the same without it (``warning``), from back-to-back pairs."""
    pair = pairs.get("post/post_quiet")
    if pair is None:
        return []
    return [
        Target(
            "`POST /v1/best-move` with the access log (log level `info`) ≥ 0.8 × at log level `warning`",
            pair["ratio"],
            0.8,
            ">=",
            f"{pair['ratio']:.2f} × ({len(pair['ratios'])} pairs; {pair['rps']:,.0f} vs "
            f"{pair['baseline_rps']:,.0f} requests/s)",
            f"{pair['q1']:.2f}–{pair['q3']:.2f} (quartiles)",
        )
    ]


def language_target(pairs: dict[str, Any]) -> list[Target]:
    """Plain ``POST /v1/best-move`` with ``Accept-Language: es`` over the same without the header, from
    back-to-back pairs: answers are rendered once per language, as per position."""
    pair = pairs.get("post_es/post")
    if pair is None:
        return []
    return [
        Target(
            "`POST /v1/best-move` with `Accept-Language: es` ≥ 0.95 × without it",
            pair["ratio"],
            0.95,
            ">=",
            f"{pair['ratio']:.2f} × ({len(pair['ratios'])} pairs; {pair['rps']:,.0f} vs "
            f"{pair['baseline_rps']:,.0f} requests/s)",
            f"{pair['q1']:.2f}–{pair['q3']:.2f} (quartiles)",
        )
    ]


def private_target(sr: dict[str, Any]) -> list[Target]:
    """The worker's own memory after the soak, every variant asked for, without the pages of the files
    it maps (the variants' tables, shared by the workers of a machine), which are reported apart."""
    if "private_after_mib" not in sr:
        return []
    private_mb, mapped_mb = sr["private_after_mib"] * 1.048576, sr["mapped_after_mib"] * 1.048576
    return [
        Target(
            "worker private memory after the soak, every variant and every language asked for, ≤ 120 MB",
            private_mb,
            120,
            "<=",
            f"{private_mb:.1f} MB",
            f"+ {mapped_mb:.1f} MB of mapped files, shared",
        )
    ]


def edge_targets(results: dict[str, Any]) -> list[Target]:
    """The edge cache's ratios (:mod:`.edge`), when nginx was there to measure them."""
    found = results.get("edge")
    if not found:
        return []
    limits = {"uncached": 3.0, "static": 0.5}
    return [
        Target(
            f"cached `GET /v1/positions/{{board}}` through the proxy "
            f"≥ {limit:g} × {found[baseline]['label']}",
            found[f"cached/{baseline}"]["ratio"],
            limit,
            ">=",
            f"{found[f'cached/{baseline}']['ratio']:.2f} ×",
            found[f"cached/{baseline}"]["spread"],
        )
        for baseline, limit in limits.items()
    ]


def earlier_targets(results: dict[str, Any]) -> list[Target]:
    """Targets of earlier issues that the benchmark's targets do not replace: shown for information."""
    http, fixed, sv = results["http"], results["fixed_rate"], results["solver"]
    # The coach's costs, withdrawn as targets: reported beside the limits they had.
    coach = [cost_target(http, "review", "positions", 2), cost_target(http, "puzzles", "get", 1.5)]
    return [
        *(target for target in coach if target is not None),
        ratio_target(http, "post", "constant", 0.95),
        ratio_target(http, "get", "constant", 0.95),
        Target(
            "p99 at half the maximum rate of `POST /v1/best-move` ≤ 10 ms",
            fixed["p99_ms"],
            10,
            "<=",
            f"{fixed['p99_ms']:.2f} ms at {fixed['rate']:,.0f}/s",
            f"{min(fixed['p99_ms_runs']):.2f}–{max(fixed['p99_ms_runs']):.2f}",
        ),
        Target("engine ready ≤ 100 ms", sv["solve_ms"], 100, "<=", f"{sv['solve_ms']:.1f} ms"),
        Target(
            "lookup ≤ 2 µs (board string to rendered answer)",
            sv["request_lookup_us"],
            2,
            "<=",
            f"{sv['request_lookup_us']:.2f} µs",
        ),
        Target(
            "≥ 100,000 × faster than textbook minimax, empty board",
            sv["speedup_empty_board"],
            100_000,
            ">=",
            f"{sv['speedup_empty_board']:,.0f} ×",
        ),
    ]


# --- Markdown ----------------------------------------------------------------------------------------


def table(header: list[str], rows: list[list[str]], align: str) -> list[str]:
    """A Markdown table; ``align`` has one letter per column, ``l`` or ``r``."""
    rule = ["---" if a == "l" else "---:" for a in align]
    return [f"| {' | '.join(cells)} |" for cells in [header, rule, *rows]]


def heading(results: dict[str, Any]) -> list[str]:
    m, s = results["machine"], results["settings"]
    steal = results["steal_pct"]
    pairs = ""
    if "pairs" in s:
        pairs = f", then {s['pairs']} pairs of {s['pair_seconds']} s runs per headline ratio"
    return [
        f"`{results['command']}` ({results['mode']} mode), {results['date']}, tree {results['tree']}: "
        f"{s['rounds']} round(s) of {s['seconds']} s per target after {s['warmup']} s of warm-up"
        f"{pairs}, wrk "
        f"{s['load_threads']} thread × {s['connections']} connections; {m['cpu']}, {m['cores']} cores, "
        f"Python {m['python']}, FastAPI {m['fastapi']}, Starlette {m['starlette']}, uvicorn {m['uvicorn']} "
        f"(uvloop {m['uvloop']}, httptools {m['httptools']}), {m['wrk']}; CPU time taken by the hypervisor "
        f"during the runs: {steal:.1f} % (median).",
    ]


def http_table(results: dict[str, Any]) -> list[str]:
    http = results["http"]
    ref = results.get("against")
    header = ["target", "requests/s", "rounds min–max", "µs/request", "p50 ms", "p99 ms"]
    header += ["vs raw ASGI", "vs bare FastAPI", "vs constant route"]
    if ref:
        header.append(f"vs {ref['ref']}")
    rows = []
    for key, f in http.items():
        row = [
            f["label"],
            f"{f['rps']:,.0f}",
            f"{f['rps_min']:,.0f}–{f['rps_max']:,.0f}",
            f"{1e6 / f['rps']:.0f}",
            f"{f['p50_ms']:.2f}",
            f"{f['p99_ms']:.2f}",
            f"{ratio(http, key, 'raw')[0]:.2f}",
            f"{ratio(http, key, 'bare')[0]:.2f}",
            f"{ratio(http, key, 'constant')[0]:.2f}",
        ]
        if ref:
            before = f"ref_{key}"
            row.append(f"{ratio(http, key, before)[0]:.2f}" if before in http else "")
        rows.append(row)
    return table(header, rows, "lrrrrrrrr" + ("r" if ref else ""))


def layers_table(results: dict[str, Any]) -> list[str]:
    """Where a request's time goes: the cost each layer adds, from 1 / throughput of one worker."""
    http = results["http"]
    us = {key: 1e6 / f["rps"] for key, f in http.items()}
    steps = [
        ("raw", None, "uvicorn (stock, httptools), raw ASGI app"),
        ("bare", "raw", "FastAPI: a bare app with one route"),
        ("constant", "bare", "the product app around a route (its middleware, its uvicorn settings)"),
        ("constant_post", "constant", "a request body (the constant route sent the `POST` bodies)"),
        ("post", "constant_post", "the endpoint: `POST /v1/best-move`"),
        ("get", "constant", "the endpoint: `GET /v1/best-move`"),
    ]
    steps = [step for step in steps if step[0] in us and (step[1] is None or step[1] in us)]
    if "constant_post" not in us:  # a run from before that target
        steps = [(key, "constant" if below == "constant_post" else below, what) for key, below, what in steps]
        steps = [step for step in steps if step[0] != "constant_post"]
    rows = [
        [what, f"{us[key]:.1f}", "" if below is None else f"{us[key] - us[below]:+.1f}"]
        for key, below, what in steps
    ]
    return table(["layer", "µs/request", "added"], rows, "lrr")


def before_after_table(results: dict[str, Any]) -> list[str]:
    ref, http = results["against"], results["http"]
    before, after = results["fixed_rate_against"], results["fixed_rate"]
    rows = []
    for key in [key for key in ("post", "get", "variants") if f"ref_{key}" in http]:
        old, new = http[f"ref_{key}"], http[key]
        change, spread = ratio(http, key, f"ref_{key}")
        rows.append(
            [
                f"{new['label']}, requests/s",
                f"{old['rps']:,.0f}",
                f"{new['rps']:,.0f}",
                f"{change:.2f} ({spread})",
            ]
        )
        for baseline in ("raw", "bare", "constant"):
            was, now = ratio(http, f"ref_{key}", baseline)[0], ratio(http, key, baseline)[0]
            rows.append([f"… vs {http[baseline]['label']}", f"{was:.2f}", f"{now:.2f}", ""])
    old, new = http["ref_batch"], http["batch"]
    change, spread = ratio(http, "batch", "ref_batch")
    rows.append(
        [
            f"{new['label']}, boards/s",
            f"{old['rps'] * new['batch_size']:,.0f}",
            f"{new['rps'] * new['batch_size']:,.0f}",
            f"{change:.2f} ({spread})",
        ]
    )
    rows.append(
        [
            f"p99 at {after['rate']:,.0f}/s (`POST`)",
            f"{before['p99_ms']:.2f} ms",
            f"{after['p99_ms']:.2f} ms",
            "",
        ]
    )
    startup, now_startup = results["startup_against"]["startup_s"], results["service"]["startup_s"]
    rows.append(["start-up to healthy", f"{startup:.2f} s", f"{now_startup:.2f} s", ""])
    web = results.get("web_lines")
    if web is not None:
        counted = "none" if web["before"] is None else f"{web['before']:,}"
        rows.append([f"lines of Python in `{web['folder']}` (non-empty)", counted, f"{web['now']:,}", ""])
    name = ref["ref"] if ref["commit"].startswith(ref["ref"]) else f"{ref['ref']} ({ref['commit'][:12]})"
    return table(["", name, "now", "now ÷ before (rounds)"], rows, "lrrr")


def targets_table(results: dict[str, Any], key: str = "targets", title: str = "target") -> list[str]:
    rows = [
        [t["target"], t["shown"], t["spread"], "pass" if t["pass"] else "**short**"] for t in results[key]
    ]
    return table([title, "measured", "spread (rounds min–max)", ""], rows, "lrrl")


def lines_line(results: dict[str, Any]) -> list[str]:
    """``service/web lines: before N, now M``: the size of the web layer, at ``--against`` and now."""
    lines = results["web_lines"]
    now = f"now {lines['now']:,}"
    if results.get("against"):
        was = "none" if lines["before"] is None else f"{lines['before']:,}"
        now = f"before {was} (at {results['against']['ref']}), {now}"
    return [f"{lines['folder']} lines: {now} ({lines['counted']})"]


def other_table(results: dict[str, Any]) -> list[str]:
    fixed, sv, sr = results["fixed_rate"], results["solver"], results["service"]
    batch = results["http"]["batch"]
    http = results["http"]
    rows = [
        ["`POST /v1/best-move/batch`, boards/s", f"{batch['rps'] * batch['batch_size']:,.0f}"],
        [f"fixed rate, open loop: achieved of {fixed['rate']:,.0f}/s asked", f"{fixed['achieved']:,.0f}/s"],
        [
            "fixed rate, from when each request was due: p50 / p99 / max",
            f"{fixed['p50_ms']:.2f} / {fixed['p99_ms']:.2f} / {fixed['max_ms']:.1f} ms",
        ],
        ["fixed rate, from when each request was sent: p99", f"{fixed['sent_p99_ms']:.2f} ms"],
        ["fixed rate: the generator's own send lag, p99", f"{fixed['send_lag_p99_ms']:.2f} ms"],
        [
            f"engine ready (tables opened, answers and puzzle book made), median of {sv['solves']} (min–max)",
            f"{sv['solve_ms']:.1f} ms ({sv['solve_ms_min']:.1f}–{sv['solve_ms_max']:.1f})",
        ],
        [
            f"position of a board string and player, per query over {sv['lookup_positions']:,} positions",
            f"{sv['lookup_us']:.3f} µs",
        ],
        [
            f"rendered answer of a position, per query over {sv['request_positions']:,}",
            f"{sv['answer_lookup_us']:.3f} µs",
        ],
        ["board string and player to rendered answer", f"{sv['request_lookup_us']:.3f} µs"],
        *(
            [
                f"in process, plain {name}: with the fast lane / through the routes",
                f"{figures['lane']:.1f} / {figures['routes']:.1f} µs",
            ]
            for name, figures in results.get("lane", {}).items()
        ),
        [
            "textbook minimax, empty board / one mark",
            f"{sv['textbook_empty_board_s']:.3f} s / {sv['textbook_one_mark_s'] * 1000:.1f} ms",
        ],
        [
            f"`python -m service` start-up to healthy, median of {sr['startups']} (min–max)",
            f"{sr['startup_s']:.2f} s ({sr['startup_s_min']:.2f}–{sr['startup_s_max']:.2f})",
        ],
        [
            f"`python -m service` RSS after start / after every request once / after {sr['soak_requests']:,} "
            "more",
            f"{sr['rss_start_mib']:.1f} / {sr['rss_warm_mib']:.1f} / {sr['rss_after_mib']:.1f} MiB",
        ],
    ]
    soaked = [step[2] for step in sr.get("rss_trace", [])[1:] if len(step) > 2]  # the mix of each chunk
    if soaked:
        rows.append([f"the soak's chunks of wrk, {len(soaked)}, each a mix in turn", ", ".join(soaked)])
    if "constant_post" in http:
        value, spread = ratio(http, "post", "constant_post")
        rows.insert(
            0, [f"`POST /v1/best-move` ÷ {http['constant_post']['label']}", f"{value:.2f} ({spread})"]
        )
    rows += [
        [f"benchmark worker `{name}`: RSS after its runs", f"{server['rss_mib']:.1f} MiB"]
        for name, server in results["servers"].items()
    ]
    return table(["other figures", ""], rows, "lr")


def fairness_table(results: dict[str, Any]) -> list[str]:
    """``GET /health`` at a fixed rate while clients loop costly requests (:mod:`.fairness`)."""
    fair = results["fairness"]
    rows = []
    for load, f in fair["loads"].items():
        proxied = load.startswith("through the proxy: ")
        count = load.removeprefix("through the proxy: ").split(" ", 1)[0]
        if count == "0":
            what = "idle"
        elif "looping" in f:
            what = f"{count} looping {f['looping']}"
        else:
            what = f"{count} looping the batch"
        target = ""
        if "target" in f:
            target = f"≤ {f['target']:g} ×: " + ("pass" if f["p99_ratio"] <= f["target"] else "**short**")
        answers = f.get("statuses")
        sent = f"{f['costly_sent']:,}"
        if answers:
            sent += " (" + ", ".join(f"{status}: {n:,}" for status, n in sorted(answers.items())) + ")"
        rows.append(
            [
                ("through the proxy: " if proxied else "") + what,
                f"{f['p50_ms']:.2f} / {f['p99_ms']:.2f} ms",
                "" if count == "0" else f"{f['p50_ratio']:.1f} / {f['p99_ratio']:.1f}",
                target,
                "" if count == "0" else sent,
                f"{f['errors']}",
            ]
        )
    header = [
        f"`GET /health` at {fair['rate']}/s, clients looping costly requests (the batch: 1,000 items with a "
        "level and a seed)",
        "p50 / p99",
        "÷ idle",
        "target: p99",
        "looped requests sent (answers by status)",
        "errors",
    ]
    return table(header, rows, "lrrlrr")


def cpu_table(results: dict[str, Any]) -> list[str]:
    """The CPU time of one request by operation and variant (:mod:`.cpu`), in milliseconds."""
    found = results["cpu"]
    variants, costly = found["variants"], found["costly_ms"]
    plain = found["rows"]["best"]["cells"]["standard"]["ms"]
    rows = []
    for row in found["rows"].values():
        cells = []
        for variant in variants:
            cell = row["cells"][variant]
            shown = f"{cell['ms']:.2f}" + (f" ({cell['option']})" if cell["option"] else "")
            cells.append(f"**{shown}**" if cell["costly"] else shown)
        worst = max(variants, key=lambda variant: row["cells"][variant]["ms"])
        ratio = row["cells"][worst]["ms"] / plain
        rows.append([row["label"], *cells, f"{ratio:,.0f} × ({worst})"])
    header = [
        f"CPU ms of one request, caches cold (median of {found['repeats']})",
        *[f"`{variant}`" for variant in variants],
        "costliest ÷ plain `standard` best move",
    ]
    described, options = found["described"], found["options"]
    notes = [
        "",
        f"**Bold**: more than {costly:g} ms of CPU, a costly request (to be run off the event loop, and "
        "in the proxy's stricter rate class). "
        f"`GET /health` measured the same way: {found['health_ms']:.2f} ms; a plain `standard` best move: "
        f"{plain:.2f} ms. Options: `random`, `depth` {options['depth']}, `level` {options['level']}, "
        f"`skill` {options['skill']:g}, each with a `seed` but `random` and `depth`, and `rating` where "
        "the variant is rated; the costliest named.",
        "Moves of the reviews: "
        + ", ".join(f"{variant} {described[variant]['review_moves']}" for variant in variants)
        + ". Different positions in the batches: "
        + ", ".join(f"{variant} {described[variant]['batch_distinct']:,}" for variant in variants)
        + ".",
    ]
    return table(header, rows, "l" + "r" * (len(variants) + 1)) + notes


def edge_table(results: dict[str, Any]) -> list[str]:
    """The edge cache through the shipped proxy (:mod:`.edge`)."""
    found = results["edge"]
    rows = [
        [
            found[name]["label"],
            f"{found[name]['rps']:,.0f}",
            f"{found[name]['p50_ms']:.2f} / {found[name]['p99_ms']:.2f} ms",
            f"{found[name]['errors']}",
        ]
        for name in ("cached", "uncached", "static")
    ]
    header = [
        f"the edge cache: {found['positions']:,} positions, answers of median {found['body_bytes']:,} bytes",
        "requests/s",
        "p50 / p99",
        "errors",
    ]
    return table(header, rows, "lrrr")


def render(results: dict[str, Any]) -> str:
    parts = [heading(results), http_table(results), targets_table(results)]
    if "earlier_targets" in results:
        parts.append(targets_table(results, "earlier_targets", "earlier targets, for information"))
    if "web_lines" in results:
        parts.append(lines_line(results))
    parts.append(layers_table(results))
    if results.get("against"):
        parts.append(before_after_table(results))
    parts.append(other_table(results))
    if "fairness" in results:
        parts.append(fairness_table(results))
    if results.get("edge"):
        parts.append(edge_table(results))
    if "cpu" in results:
        parts.append(cpu_table(results))
    errors = {key: f["errors"] for key, f in results["http"].items() if f["errors"]}
    if errors or results["fixed_rate"]["errors"]:
        parts.append(
            [f"**Errors or answers of 400 and more**: {errors}, fixed rate {results['fixed_rate']['errors']}"]
        )
    return "\n\n".join("\n".join(part) for part in parts)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0]) if args else RESULTS
    print(render(json.loads(path.read_text())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
