"""What operators see: request ids, one JSON log line per request, Prometheus metrics, log levels."""

from __future__ import annotations

import json
import re

import anyio
import httpx
import pytest

from tests.support.server import running
from tests.support.stats import counts
from tests.support.variant_oracle import VARIANTS as RULES

pytestmark = pytest.mark.anyio


async def test_request_id_is_echoed_or_made(client: httpx.AsyncClient) -> None:
    given = await client.get("/health", headers={"x-request-id": "front-end-42"})
    assert given.headers["x-request-id"] == "front-end-42"
    made = await client.get("/health")
    assert re.fullmatch(r"[0-9a-f]{24}", made.headers["x-request-id"])
    unsafe = await client.get("/health", headers={"x-request-id": "bad id\twith spaces" + "x" * 200})
    assert re.fullmatch(r"[0-9a-f]{24}", unsafe.headers["x-request-id"])
    other = await client.get("/health")
    assert other.headers["x-request-id"] != made.headers["x-request-id"]
    error = await client.post("/v1/best-move", json={"board": "?"}, headers={"x-request-id": "e-1"})
    assert error.headers["x-request-id"] == "e-1"


def sample(text: str, name: str, **labels: str) -> float:
    for line in text.splitlines():
        if line.startswith(name + "{") or line.startswith(name + " "):
            found = dict(re.findall(r'(\w+)="([^"]*)"', line.split(" ")[0]))
            if all(found.get(key) == value for key, value in labels.items()):
                return float(line.rsplit(" ", 1)[1])
    raise AssertionError(f"no sample {name} {labels}")


async def test_metrics_count_requests_by_route_method_and_status(client: httpx.AsyncClient) -> None:
    before = (await client.get("/metrics")).text
    for _ in range(3):
        await client.get("/v1/positions/X........")
    await client.get("/v1/positions/XX.......")
    await client.post("/v1/best-move", json={"board": "X........"})
    response = await client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8"
    text = response.text
    route = "/v1/positions/{board}"

    def grew(name: str, **labels: str) -> float:
        try:
            old = sample(before, name, **labels)
        except AssertionError:
            old = 0.0
        return sample(text, name, **labels) - old

    assert grew("tictactoe_http_requests_total", route=route, method="GET", status="200") == 3
    assert grew("tictactoe_http_requests_total", route=route, method="GET", status="422") == 1
    assert grew("tictactoe_http_requests_total", route="/v1/best-move", method="POST", status="200") == 1
    assert grew("tictactoe_http_request_duration_seconds_count", route=route, method="GET") == 4
    assert (
        sample(text, "tictactoe_http_request_duration_seconds_bucket", route=route, method="GET", le="+Inf")
        >= 4
    )
    # the standard game's 9,040 unfinished (board, player) pairs, and one figure for every variant
    assert sample(text, "tictactoe_solved_positions", variant="standard") == 9040
    solved = re.findall(r'^tictactoe_solved_positions\{variant="([^"]+)"\} ', text, re.MULTILINE)
    assert sorted(solved) == sorted(RULES)
    assert sample(text, "tictactoe_build_info", version=(await client.get("/health")).json()["version"]) == 1
    assert "/v1/positions/X........" not in text  # labels use the route template, not the path


def test_one_json_log_line_per_request() -> None:
    with running(env={"TICTACTOE_LOG_LEVEL": "info"}) as server:
        with httpx.Client(base_url=server.url) as client:
            client.post("/v1/best-move", json={"board": "X........"}, headers={"x-request-id": "log-1"})
            client.get("/v1/positions/nope", headers={"x-request-id": "log-2"})
            client.get("/missing", headers={"x-request-id": "log-3"})
        server.stop()
    lines = [json.loads(line) for line in "".join(server.output).splitlines() if line.strip()]
    assert all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    access = [
        line for line in lines if line["logger"] == "service.access" and line["request_id"].startswith("log-")
    ]
    assert [(a["request_id"], a["method"], a["route"], a["status"]) for a in access] == [
        ("log-1", "POST", "/v1/best-move", 200),
        ("log-2", "GET", "/v1/positions/{board}", 422),
        ("log-3", "GET", "<unmatched>", 404),
    ]
    assert all(isinstance(a["duration_ms"], float) and a["duration_ms"] >= 0 for a in access)
    assert any("engine ready" in line["message"] for line in lines)
    assert not any("Traceback" in json.dumps(line) for line in lines)


def test_log_level_from_settings() -> None:
    with running(env={"TICTACTOE_LOG_LEVEL": "warning"}) as server:
        httpx.get(f"{server.url}/health")
        server.stop()
    assert "".join(server.output).strip() == ""


#: The addresses of the attackers and of the client whose lines are counted (all of 127.0.0.0/8 is
#: loopback), and that client's requests.
ATTACKERS = [f"127.0.1.{number}" for number in range(1, 5)]
VICTIM = "127.0.0.2"
VICTIM_REQUESTS = 100
#: Each attacker's calls, at most, and the seconds the attack lasts, at most.
ATTACK_CALLS = 400
ATTACK_SECONDS = 30.0


def unknown_prompt(number: int) -> dict[str, object]:
    """A ``prompts/get`` of an unknown name as long as ``/mcp``'s body limit allows: a failing call."""
    name = f"{number}-" + "n" * 15_000
    return {"jsonrpc": "2.0", "id": number, "method": "prompts/get", "params": {"name": name}}


async def failing_mcp_calls(url: str, source: str, done: anyio.Event, outcomes: list[str]) -> None:
    """Failing ``/mcp`` calls from ``source`` one after another until ``done`` (bounded): how each
    ended, in ``outcomes``.

    A call ends in the JSON-RPC error of an unknown prompt (``-32602``), or in a status that says
    otherwise.
    """
    transport = httpx.AsyncHTTPTransport(local_address=source)
    headers = {"Accept": "application/json, text/event-stream"}
    async with httpx.AsyncClient(base_url=url, transport=transport, headers=headers, timeout=30) as client:
        with anyio.move_on_after(ATTACK_SECONDS):
            while not done.is_set() and len(outcomes) < ATTACK_CALLS:
                answer = await client.post("/mcp", json=unknown_prompt(len(outcomes)))
                error = answer.json().get("error") if answer.status_code == 200 else None
                outcomes.append(str(error["code"]) if error else str(answer.status_code))


async def victims_requests(url: str) -> list[str]:
    """:data:`VICTIM_REQUESTS` requests from :data:`VICTIM`, one after another: their request ids."""
    transport = httpx.AsyncHTTPTransport(local_address=VICTIM)
    sent = []
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=30) as client:
        for number in range(VICTIM_REQUESTS):
            rid = f"victim-{number}"
            answer = await client.get(
                "/v1/best-move", params={"board": "X........"}, headers={"X-Request-ID": rid}
            )
            assert answer.status_code == 200
            sent.append(rid)
            await anyio.sleep(0.01)  # about as many requests as the attackers' calls meanwhile
    return sent


def test_another_clients_access_lines_are_all_kept_under_failing_mcp_calls() -> None:
    """4 addresses send failing ``/mcp`` calls (unknown prompts with names of 15,000 characters) to
    the real service, 2 workers writing to one standard error, while another client sends its
    requests: every one of that client's requests has its access line, no line is dropped, and the
    attackers' lines are short."""

    async def attack(url: str) -> tuple[list[str], list[list[str]]]:
        done = anyio.Event()
        attacks: list[list[str]] = [[] for _ in ATTACKERS]
        async with anyio.create_task_group() as group:
            for source, outcomes in zip(ATTACKERS, attacks, strict=True):
                group.start_soon(failing_mcp_calls, url, source, done, outcomes)
            with anyio.fail_after(ATTACK_SECONDS):  # the attack under way (the tools loaded) first
                while not all(attacks):
                    await anyio.sleep(0.05)
            try:
                sent = await victims_requests(url)
            finally:
                done.set()
        return sent, attacks

    # Each worker admits every attacker's call at once (a worker admits one large body at a time by
    # default, and answers the others 503): every call reaches the MCP SDK and fails there.
    env = {"TICTACTOE_LOG_LEVEL": "info", "TICTACTOE_WORKERS": "2", "TICTACTOE_MAX_COSTLY_REQUESTS": "4"}
    with running(env=env) as server:
        sent, attacks = anyio.run(attack, server.url)
        metrics = httpx.get(f"{server.url}/metrics").text
        server.stop()  # what is still queued is written at exit
    assert all(attack and set(attack) == {"-32602"} for attack in attacks), [
        set(attack) for attack in attacks
    ]
    output = "".join(server.output).splitlines()
    lines = [json.loads(line) for line in output]
    kept = {
        line["request_id"]
        for line in lines
        if line["logger"] == "service.access" and line["client"] == VICTIM and line["status"] == 200
    }
    assert sorted(kept) == sorted(sent) and len(sent) == VICTIM_REQUESTS
    attackers = [line for line in lines if line.get("client") in ATTACKERS]
    assert len(attackers) >= sum(map(len, attacks))  # the attackers' calls were logged too
    assert sample(metrics, "tictactoe_log_lines_dropped_total") == 0
    assert max(map(len, output)) < 4096
    counts["failing /mcp calls from 4 addresses meanwhile"] = sum(map(len, attacks))
