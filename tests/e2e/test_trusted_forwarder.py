"""The proxy behind a trusted forwarder, as each pod's proxy is behind the ingress controller.

The proxy is the system's nginx running the repository's configuration, rendered by the image's
own entrypoint, on 127.0.0.1, with ``PROXY_TRUSTED_FORWARDERS`` naming one address. The trusted
forwarder and an untrusted client each send from an address of their own in 127.0.0.0/8 (all of
it is loopback). The addresses in ``X-Forwarded-For`` are only text in a header: no traffic goes
to them. Who the proxy took for the client is read from its access log, from the service's, and
from its per-client rate limit (a request rate of 1 a second, with a burst of 2).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest

from tests.support.proxy import Proxy, proxied, proxy_access_log, service_access_log
from tests.support.server import Server, running

SERVICE = {"TICTACTOE_LOG_LEVEL": "info", "TICTACTOE_FORWARDED_ALLOW_IPS": "127.0.0.1"}
#: The forwarder the proxy trusts (an ingress controller), and a client it does not.
TRUSTED = "127.0.0.2"
UNTRUSTED = "127.0.0.3"
#: Another untrusted client, whose requests reach the rate limit (each test has clients of its own).
FORGER = "127.0.0.4"
PROXY = {"PROXY_TRUSTED_FORWARDERS": TRUSTED, "PROXY_RATE": "1", "PROXY_BURST": "2"}
#: Requests enough to pass a burst of 2 at 1 a second, however slowly they go out.
ENOUGH = 200


@dataclass
class Edge:
    service: Server
    proxy: Proxy

    def get(self, source: str, forwarded_for: str | None, path: str = "/health") -> httpx.Response:
        """``path`` through the proxy from ``source``, with ``forwarded_for`` as X-Forwarded-For."""
        headers = {"X-Request-ID": f"fwd-{uuid.uuid4().hex}"}
        if forwarded_for is not None:
            headers["X-Forwarded-For"] = forwarded_for
        transport = httpx.HTTPTransport(local_address=source)
        with httpx.Client(transport=transport, timeout=10) as client:
            return client.get(f"{self.proxy.url}{path}", headers=headers)

    def proxy_client(self, answer: httpx.Response) -> str:
        """The client the proxy's access log names for the request of ``answer``."""
        request_id = answer.request.headers["X-Request-ID"]
        lines = proxy_access_log(self.proxy, request_id)
        (line,) = [line for line in lines if line["request_id"] == request_id]
        return str(line["client"])

    def service_client(self, answer: httpx.Response) -> str:
        """The client the service's access log names for the request of ``answer``."""
        request_id = answer.request.headers["X-Request-ID"]
        (line,) = [line for line in service_access_log(self.service) if line["request_id"] == request_id]
        return str(line["client"])

    def until_refused(self, source: str, forwarded_for: list[str]) -> httpx.Response:
        """Requests from ``source``, with each of ``forwarded_for`` in turn, until one is refused."""
        for number in range(ENOUGH):
            answer = self.get(source, forwarded_for[number % len(forwarded_for)])
            if answer.status_code == 429:
                return answer
            assert answer.status_code == 200, answer.text
        pytest.fail(f"{ENOUGH} requests from {source} at 1 a second with a burst of 2: none refused")


@pytest.fixture(scope="module")
def edge() -> Iterator[Edge]:
    with running(env=SERVICE) as service, proxied([f"127.0.0.1:{service.port}"], PROXY) as proxy:
        yield Edge(service, proxy)


def test_the_client_a_trusted_forwarder_names_is_logged_by_the_proxy_and_the_service(edge: Edge) -> None:
    answer = edge.get(TRUSTED, "203.0.113.7", "/v1/best-move?board=X...O....")
    assert answer.status_code == 200
    assert edge.proxy_client(answer) == edge.service_client(answer) == "203.0.113.7"


def test_the_client_is_the_last_address_the_forwarder_does_not_vouch_for(edge: Edge) -> None:
    """Addresses the client wrote itself, before the one the forwarder saw, are not taken."""
    appended = edge.get(TRUSTED, "203.0.113.66, 198.51.100.10")
    assert appended.status_code == 200
    assert edge.proxy_client(appended) == edge.service_client(appended) == "198.51.100.10"
    # The trusted forwarder itself, at the end of the chain, is passed over.
    chained = edge.get(TRUSTED, f"198.51.100.11, {TRUSTED}")
    assert edge.proxy_client(chained) == edge.service_client(chained) == "198.51.100.11"


def test_the_rate_limit_is_the_forwarded_clients_own(edge: Edge) -> None:
    """One forwarded client reaches the limit; another behind the same forwarder is still answered."""
    refused = edge.until_refused(TRUSTED, ["203.0.113.20"])
    assert refused.headers["Content-Type"] == "application/problem+json"
    assert refused.headers["Retry-After"] == "1"
    assert edge.proxy_client(refused) == "203.0.113.20"
    other = edge.get(TRUSTED, "203.0.113.21")
    assert other.status_code == 200
    assert edge.proxy_client(other) == edge.service_client(other) == "203.0.113.21"


def test_forwarded_for_from_an_untrusted_address_is_ignored(edge: Edge) -> None:
    answer = edge.get(UNTRUSTED, "203.0.113.30", "/v1/positions/X.......O")
    assert answer.status_code == 200
    # The proxy overwrites the header with the address it saw, which the service believes.
    assert edge.proxy_client(answer) == edge.service_client(answer) == UNTRUSTED


def test_an_untrusted_client_cannot_dodge_the_rate_limit_with_forwarded_for(edge: Edge) -> None:
    """A new X-Forwarded-For on every request, from an untrusted address, is still one client."""
    forged = [f"198.51.100.{number}" for number in range(100, 200)]
    refused = edge.until_refused(FORGER, forged)
    assert edge.proxy_client(refused) == FORGER
