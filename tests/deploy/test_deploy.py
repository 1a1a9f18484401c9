"""Deployment: the Dockerfile, docker-compose.yml and the Kubernetes manifests.

The manifests are checked offline against the Kubernetes schemas, the health
checks of all three against the app's real routes, and the compose file by the
compose tools themselves. The image itself is built and run by
``scripts/container-test.sh`` (``make container-test``).
"""

from __future__ import annotations

import ipaddress
import json
import os
import re
import shutil
import signal
import sys
import time
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from service import __version__
from service.settings import Settings
from tests.support import ROOT
from tests.support.commands import run
from tests.support.proxy import proxied
from tests.support.server import free_port, running
from tests.support.tools import require_module, require_tool

DOCKERFILE = ROOT / "Dockerfile"
COMPOSE_FILE = ROOT / "docker-compose.yml"
KUBERNETES = ROOT / "deploy" / "kubernetes"
MANIFESTS = sorted(path.name for path in KUBERNETES.glob("*.yaml") if path.name != "kustomization.yaml")
IMAGE_NAME = "tictactoe-service"
CONTAINER_PORT = 8000
PROXY_IMAGE_NAME = "tictactoe-proxy"
PROXY_ENTRYPOINT = ROOT / "deploy" / "proxy" / "entrypoint.sh"
OLDEST_KUBERNETES = "1.29"


# --- helpers ---------------------------------------------------------------------------------------


def load_documents(path: Path) -> list[dict[str, Any]]:
    documents = [doc for doc in yaml.safe_load_all(path.read_text()) if doc is not None]
    assert documents, f"{path.name} holds no document"
    return documents


def kinds(kind_name: str) -> list[dict[str, Any]]:
    """Every manifest of ``kind_name`` in deploy/kubernetes."""
    return [
        doc for name in MANIFESTS for doc in load_documents(KUBERNETES / name) if doc["kind"] == kind_name
    ]


def kind(kind_name: str) -> dict[str, Any]:
    """The one manifest of ``kind_name`` in deploy/kubernetes."""
    found = kinds(kind_name)
    assert len(found) == 1, f"expected one {kind_name}, found {len(found)}"
    return found[0]


def container(deployment: dict[str, Any], name: str = IMAGE_NAME) -> dict[str, Any]:
    """The pod's container ``name``: the service's, or the proxy's (``PROXY_IMAGE_NAME``)."""
    (found,) = [c for c in deployment["spec"]["template"]["spec"]["containers"] if c["name"] == name]
    return dict(found)


def proxy_container(deployment: dict[str, Any]) -> dict[str, Any]:
    return container(deployment, PROXY_IMAGE_NAME)


def environment(spec: dict[str, Any]) -> dict[str, str]:
    return {entry["name"]: entry["value"] for entry in spec["env"]}


def quantity(value: str | int) -> float:
    """A Kubernetes quantity of CPU or memory as a number (cores, bytes)."""
    text = str(value)
    units = {"m": 1e-3, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "k": 1e3, "M": 1e6, "G": 1e9}
    for unit, factor in sorted(units.items(), key=lambda item: -len(item[0])):
        if text.endswith(unit):
            return float(text[: -len(unit)]) * factor
    return float(text)


def port_number(spec: dict[str, Any], port: int | str) -> int:
    """A probe's or Service's port, named or numbered, as the container port number."""
    if isinstance(port, int):
        return port
    (number,) = [entry["containerPort"] for entry in spec["ports"] if entry.get("name") == port]
    return int(number)


@cache
def dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions, continuation lines joined, comments left out."""
    instructions: list[tuple[str, str]] = []
    pending = ""
    for raw in DOCKERFILE.read_text().splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        keyword, _, arguments = (pending + line).strip().partition(" ")
        instructions.append((keyword.upper(), arguments.strip()))
        pending = ""
    assert not pending, "the Dockerfile ends inside a continued line"
    return instructions


def instructions(keyword: str) -> list[str]:
    return [arguments for name, arguments in dockerfile() if name == keyword]


def runtime_stage() -> list[tuple[str, str]]:
    """The instructions of the last stage, the image that runs."""
    starts = [index for index, (name, _) in enumerate(dockerfile()) if name == "FROM"]
    return dockerfile()[starts[-1] :]


def dockerfile_uid() -> int:
    users = [arguments for name, arguments in runtime_stage() if name == "USER"]
    assert users, "the runtime stage sets no USER"
    uid = users[-1].split(":")[0]
    assert uid.isdigit(), f"USER {users[-1]!r} is not numeric: Kubernetes cannot check runAsNonRoot"
    return int(uid)


def health_url_path(command: list[str]) -> str:
    """The path of the URL a ``python3 -c`` health-check command requests."""
    match = re.search(r"http://127\.0\.0\.1:[^/'\"]+(/[\w/-]*)", " ".join(command))
    assert match, f"no http://127.0.0.1 URL in the health check {command}"
    return match.group(1)


def compose() -> dict[str, Any]:
    (document,) = load_documents(COMPOSE_FILE)
    return document


def compose_service() -> dict[str, Any]:
    services = compose()["services"]
    assert list(services) == ["proxy", "tictactoe"]
    service: dict[str, Any] = services["tictactoe"]
    return service


def clean_environment() -> dict[str, str]:
    """This environment without the variables the compose file reads, so its defaults show."""
    return {
        name: value
        for name, value in os.environ.items()
        if not name.startswith("TICTACTOE_") and name not in {"BASE_IMAGE", "HOST_PORT", "COMPOSE_FILE"}
    }


# --- Kubernetes ------------------------------------------------------------------------------------


def test_kustomization_lists_every_manifest() -> None:
    kustomization = load_documents(KUBERNETES / "kustomization.yaml")[0]
    assert kustomization["kind"] == "Kustomization"
    assert sorted(kustomization["resources"]) == MANIFESTS
    assert len(kustomization["resources"]) == len(set(kustomization["resources"]))
    assert {"deployment.yaml", "service.yaml", "hpa.yaml", "pdb.yaml"} <= set(MANIFESTS)
    images = {image["name"]: image["newTag"] for image in kustomization["images"]}
    # The proxy's tag is the service's: the proxy image is built for that version.
    assert images == {IMAGE_NAME: __version__, PROXY_IMAGE_NAME: __version__}
    # Only transformers that the kustomize of any kubectl knows: each manifest carries its labels.
    assert set(kustomization) == {"apiVersion", "kind", "resources", "images"}
    for name in MANIFESTS:
        for document in load_documents(KUBERNETES / name):
            assert document["metadata"]["labels"]["app.kubernetes.io/part-of"] == "tictactoe", name


def kubernetes_versions() -> list[str]:
    """The oldest supported Kubernetes release with schemas, and the newest."""
    utils = require_module("kubernetes_validate.utils")

    def minor(version: str) -> tuple[int, ...]:
        return tuple(int(part) for part in version.split(".")[:2])

    versions = [v for v in utils.all_versions() if minor(v) >= minor(OLDEST_KUBERNETES)]
    assert versions, f"kubernetes-validate has no schemas for {OLDEST_KUBERNETES} or later"
    return sorted({versions[0], versions[-1]}, key=minor)


def validate(document: dict[str, Any], where: str) -> None:
    kubernetes_validate = require_module("kubernetes_validate")
    for version in kubernetes_versions():
        try:
            kubernetes_validate.validate(document, version, strict=True)
        except kubernetes_validate.ValidationError as error:
            location = ".".join(str(part) for part in error.path)
            pytest.fail(
                f"{where} is not a valid {document['kind']} for Kubernetes {version}: {location}: "
                f"{error.message}"
            )


@pytest.mark.parametrize("name", MANIFESTS)
def test_manifest_is_valid_for_kubernetes(name: str) -> None:
    for document in load_documents(KUBERNETES / name):
        validate(document, name)


def test_kustomize_output_is_valid_and_labelled() -> None:
    kubectl = require_tool("kubectl")
    built = run([kubectl, "kustomize", KUBERNETES], timeout=60)
    documents = [doc for doc in yaml.safe_load_all(built.stdout) if doc]
    assert sorted(doc["kind"] for doc in documents) == sorted(
        doc["kind"] for name in MANIFESTS for doc in load_documents(KUBERNETES / name)
    )
    for document in documents:
        validate(document, f"kustomize output {document['kind']}")
        assert document["metadata"]["labels"]["app.kubernetes.io/part-of"] == "tictactoe"
        if document["kind"] == "Deployment":
            template = document["spec"]["template"]
            assert template["metadata"]["labels"]["app.kubernetes.io/part-of"] == "tictactoe"
            assert container(document)["image"] == f"{IMAGE_NAME}:1.0.0"
            proxy = proxy_container(document)
            assert proxy["image"] == f"{PROXY_IMAGE_NAME}:1.0.0"
            tag = container(document)["image"].rsplit(":", 1)[1]
            assert environment(proxy)["PROXY_SERVICE_VERSION"] == tag == __version__
        if document["kind"] == "Service":
            (port,) = document["spec"]["ports"]
            assert port["targetPort"] == "edge"


def test_deployment_runs_three_locked_down_replicas() -> None:
    deployment = kind("Deployment")
    assert deployment["apiVersion"] == "apps/v1"
    assert deployment["spec"]["replicas"] == 3
    pod = deployment["spec"]["template"]["spec"]
    app = container(deployment)
    assert app["image"].split(":")[0] == IMAGE_NAME
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] == dockerfile_uid()
    assert pod["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
    security = app["securityContext"]
    assert security["runAsNonRoot"] is True
    assert security["runAsUser"] == dockerfile_uid()
    assert security["readOnlyRootFilesystem"] is True
    assert security["allowPrivilegeEscalation"] is False
    assert security["capabilities"]["drop"] == ["ALL"]
    assert "add" not in security["capabilities"]
    assert security["seccompProfile"] == {"type": "RuntimeDefault"}
    for section in ("requests", "limits"):
        assert {"cpu", "memory"} <= set(app["resources"][section]), section
    assert pod.get("enableServiceLinks") is False


def test_deployment_settings_match_the_container_port() -> None:
    deployment = kind("Deployment")
    app = container(deployment)
    env = {entry["name"]: entry["value"] for entry in app["env"]}
    assert env["TICTACTOE_HOST"] == "0.0.0.0"
    assert int(env["TICTACTOE_PORT"]) == CONTAINER_PORT
    ports = {entry["name"]: entry["containerPort"] for entry in app["ports"]}
    assert ports == {"http": CONTAINER_PORT, "metrics": int(env["TICTACTOE_METRICS_PORT"])}
    assert int(env.get("TICTACTOE_WORKERS", "1")) >= 1
    assert set(env) <= {f"TICTACTOE_{name.upper()}" for name in Settings.model_fields}


def test_probes_check_health_on_the_container_port() -> None:
    app = container(kind("Deployment"))
    for probe in ("readinessProbe", "livenessProbe"):
        assert probe in app, f"no {probe}"
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        if probe in app:
            check = app[probe]["httpGet"]
            assert check["path"] == "/health", probe
            assert port_number(app, check["port"]) == CONTAINER_PORT, probe


def test_service_hpa_and_pdb_select_the_deployment() -> None:
    deployment, service = kind("Deployment"), kind("Service")
    hpa, pdb = kind("HorizontalPodAutoscaler"), kind("PodDisruptionBudget")
    pod_labels = deployment["spec"]["template"]["metadata"]["labels"]
    selector = deployment["spec"]["selector"]["matchLabels"]
    assert selector.items() <= pod_labels.items()
    assert service["spec"]["selector"].items() <= pod_labels.items()
    (port,) = service["spec"]["ports"]
    proxy = proxy_container(deployment)
    assert port_number(proxy, port["targetPort"]) == int(environment(proxy)["PROXY_PORT"])
    assert hpa["apiVersion"] == "autoscaling/v2"
    assert hpa["spec"]["scaleTargetRef"] == {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "name": deployment["metadata"]["name"],
    }
    assert hpa["spec"]["minReplicas"] <= deployment["spec"]["replicas"] <= hpa["spec"]["maxReplicas"]
    (metric,) = hpa["spec"]["metrics"]
    assert metric["type"] == "Resource"
    assert metric["resource"]["name"] == "cpu"
    assert pdb["apiVersion"] == "policy/v1"
    assert len({"minAvailable", "maxUnavailable"} & set(pdb["spec"])) == 1
    assert pdb["spec"]["selector"]["matchLabels"].items() <= pod_labels.items()
    # The budget must let a node drain while leaving pods to serve.
    assert pdb["spec"].get("maxUnavailable", 1) < hpa["spec"]["minReplicas"]


# --- health checks against the app -------------------------------------------------------------------


def health_check_paths() -> dict[str, str]:
    """Every health-check path of the three deployments, by where it is declared."""
    app = container(kind("Deployment"))
    paths = {
        f"Kubernetes {probe}": app[probe]["httpGet"]["path"] for probe in ("readinessProbe", "livenessProbe")
    }
    (healthcheck,) = instructions("HEALTHCHECK")
    command = json.loads(healthcheck[healthcheck.index("CMD") + 3 :])
    paths["Dockerfile HEALTHCHECK"] = health_url_path(command)
    paths["docker-compose.yml healthcheck"] = health_url_path(compose_service()["healthcheck"]["test"])
    return paths


@pytest.mark.anyio
@pytest.mark.parametrize(
    "where",
    [
        "Kubernetes readinessProbe",
        "Kubernetes livenessProbe",
        "Dockerfile HEALTHCHECK",
        "docker-compose.yml healthcheck",
    ],
)
async def test_health_checks_call_a_real_route(client: httpx.AsyncClient, where: str) -> None:
    path = health_check_paths()[where]
    response = await client.get(path)
    assert response.status_code == 200, f"{where} checks {path}: {response.status_code}"
    assert response.json()["status"] == "ok"
    assert response.headers["cache-control"] == "no-store"


# --- Dockerfile --------------------------------------------------------------------------------------


def test_dockerfile_builds_from_a_fully_qualified_base_in_two_stages() -> None:
    (argument,) = [arg for arg in instructions("ARG") if arg.startswith("BASE_IMAGE")]
    name, _, default = argument.partition("=")
    assert name == "BASE_IMAGE"
    registry, _, rest = default.partition("/")
    assert "." in registry, f"{default} names no registry: short names resolve differently per engine"
    assert ":" in rest or "@" in rest, f"{default} names no tag or digest"
    assert dockerfile()[0] == ("ARG", argument), "ARG BASE_IMAGE must come before the first FROM"
    stages = instructions("FROM")
    assert len(stages) >= 2, "not a multi-stage build"
    assert all(stage.split()[0] == "${BASE_IMAGE}" for stage in stages)
    builder = stages[0].split()[-1]
    copies = [arguments for name, arguments in runtime_stage() if name == "COPY"]
    assert any(f"--from={builder}" in copy for copy in copies), "the runtime stage copies nothing built"


def test_dockerfile_runtime_is_non_root_and_read_only_friendly() -> None:
    assert dockerfile_uid() >= 1000
    stage = runtime_stage()
    env = " ".join(arguments for name, arguments in stage if name == "ENV")
    assert "TICTACTOE_HOST=0.0.0.0" in env
    assert "PYTHONDONTWRITEBYTECODE=1" in env
    assert instructions("EXPOSE") == [str(CONTAINER_PORT)]
    # Exec form: python3 is PID 1 and gets SIGTERM itself.
    (command,) = instructions("CMD")
    assert json.loads(command) == ["python3", "-m", "service"]
    assert [name for name, _ in stage].count("USER") == 1
    assert not any(name == "RUN" for name, _ in stage[[n for n, _ in stage].index("USER") :])


def test_dockerfile_healthcheck_needs_only_python() -> None:
    (healthcheck,) = instructions("HEALTHCHECK")
    options, _, command = healthcheck.partition("CMD")
    assert "--interval" in options
    assert "--timeout" in options
    arguments = json.loads(command)
    assert arguments[:2] == ["python3", "-c"]
    assert "urllib.request" in arguments[2]
    assert "TICTACTOE_PORT" in arguments[2], "the check must follow the port the service listens on"


def test_dockerfile_uses_python3_and_no_pip_cache() -> None:
    for name, arguments in dockerfile():
        if name in {"RUN", "CMD", "HEALTHCHECK"}:
            # A base from Debian's packages has python3 but no python command.
            assert not re.search(r"(^|[\s;&|(\[\"])python(\s|\"|$)", arguments), (
                f"{name} {arguments}: use python3"
            )
        if name == "RUN" and re.search(r"pip (install|wheel)", arguments):
            assert "--no-cache-dir" in arguments, arguments


def test_dockerignore_keeps_the_context_small() -> None:
    ignored = {line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()}
    assert {".git", ".venv", "tests", "**/__pycache__"} <= ignored
    for needed in ("pyproject.toml", "README.md", "service"):
        assert needed not in ignored


# --- docker-compose.yml -------------------------------------------------------------------------------


def test_compose_service_is_locked_down_and_limited() -> None:
    service = compose_service()
    assert service["image"].split(":")[0] == IMAGE_NAME
    assert service["read_only"] is True
    assert service["cap_drop"] == ["ALL"]
    assert service["security_opt"] == ["no-new-privileges:true"]
    assert service["restart"] in {"unless-stopped", "always", "on-failure"}
    assert int(service["user"].split(":")[0]) == dockerfile_uid()
    limits = service["deploy"]["resources"]["limits"]
    assert {"cpus", "memory"} <= set(limits)
    assert service["environment"]["TICTACTOE_HOST"] == "0.0.0.0"
    assert int(service["environment"]["TICTACTOE_PORT"]) == CONTAINER_PORT
    assert "ports" not in service, "the service is reached only through the proxy"
    assert service["networks"] == ["backend"]
    networks = yaml.safe_load(COMPOSE_FILE.read_text())["networks"]
    assert networks["backend"]["internal"] is True
    (subnet,) = [entry["subnet"] for entry in networks["backend"]["ipam"]["config"]]
    assert subnet in service["environment"]["TICTACTOE_FORWARDED_ALLOW_IPS"]
    assert service["expose"] == [str(CONTAINER_PORT)]
    assert service["healthcheck"]["test"][0] == "CMD"
    assert f":{CONTAINER_PORT}/" in " ".join(service["healthcheck"]["test"])


def test_compose_proxy_fronts_the_service_and_is_locked_down() -> None:
    proxy = yaml.safe_load(COMPOSE_FILE.read_text())["services"]["proxy"]
    # The service's name, which resolves to every replica.
    assert proxy["environment"]["PROXY_UPSTREAM"] == f"tictactoe:{CONTAINER_PORT}"
    assert set(proxy["networks"]) == {"edge", "backend"}
    assert [str(port).rsplit(":", 1)[1] for port in proxy["ports"]] == [proxy["environment"]["PROXY_PORT"]]
    assert proxy["depends_on"]["tictactoe"]["condition"] == "service_healthy"
    assert proxy["read_only"] is True and proxy["tmpfs"] == ["/tmp"]
    assert proxy["cap_drop"] == ["ALL"]
    assert proxy["stop_signal"] == "SIGQUIT"  # nginx's graceful stop
    assert int(proxy["user"].split(":")[0]) >= 1000
    build = proxy["build"]
    assert (ROOT / build["context"] / build["dockerfile"]).is_file()


def test_proxy_config_sets_the_limits_and_answers_problems() -> None:
    """The configuration as the image's entrypoint renders it with its defaults."""
    proxy_dir = ROOT / "deploy" / "proxy"
    with proxied([f"127.0.0.1:{free_port()}"], {"PROXY_HEADER_TIMEOUT": "10"}) as proxy:
        config = (proxy.run / "nginx.conf").read_text()
    for directive in [
        "client_header_timeout 10s",
        "client_body_timeout 30s",
        "send_timeout 30s",
        "large_client_header_buffers 4 8k",
        "proxy_buffer_size 16k",
        "max_fails=3 fail_timeout=1s;",
        "max_fails=0;",
        f"client_max_body_size {Settings().max_body_bytes // 2**20}m",
        "proxy_request_buffering on",
        "proxy_buffering on",
        "lingering_close on",
        "limit_req_status 429",
        "limit_conn_status 429",
        "gzip on",
        "add_header Retry-After 1 always",
        "proxy_set_header X-Forwarded-For $remote_addr",
        "proxy_set_header X-Request-ID $tictactoe_request_id",
        "proxy_next_upstream error timeout http_502 http_503 non_idempotent",
        "keepalive_timeout 4s",
        "proxy_cache tictactoe",
        "keys_zone=tictactoe:8m max_size=64m",
        f'"{__version__} $tictactoe_coding $tictactoe_cache_origin '
        '$tictactoe_cache_language $tictactoe_cache_uri"',
        "proxy_cache_key $tictactoe_cache_key",
        "proxy_cache_bypass $tictactoe_uncached",
        "proxy_no_cache $tictactoe_uncached $tictactoe_not_kept",
        "proxy_set_header Accept-Encoding $tictactoe_coding",
        "add_header X-Cache-Status $upstream_cache_status always",
    ]:
        assert directive in config, directive
    assert f"proxy_cache_path {proxy.run}/cache/{__version__} " in config
    # Only the service's Cache-Control gives an answer a lifetime.
    assert not re.search(r"^\s*proxy_cache_valid", config, re.M)
    assert "$proxy_add_x_forwarded_for" not in config  # never what the client sent
    # By default no forwarder is trusted: the peer is the client, whatever X-Forwarded-For says.
    assert directives(config, "set_real_ip_from") == directives(config, "real_ip_header") == []
    assert directives(config, "worker_processes") == ["auto"]
    assert "${" not in config
    pages = re.findall(r"error_page ([\d ]+?) (?:=(\d+) )?/_problems/((\d+)[\w-]*)\.json", config)
    assert {"400", "404", "408", "413", "414", "429", "431", "500", "501", "503", "504", "505"} <= {
        page for _, _, page, _ in pages
    }
    for _, answered, page, code in pages:
        problem = json.loads((proxy_dir / "problems" / f"{page}.json").read_text())
        assert problem["status"] == int(answered or code) and problem["type"].startswith("/problems/")
    assert str(Settings().max_body_bytes) in (proxy_dir / "problems" / "413.json").read_text()
    # The service keeps idle connections open longer than the proxy does.
    assert Settings().keep_alive_timeout > 4


def test_the_proxy_image_keys_its_cache_by_the_service_version() -> None:
    """The proxy image is built for the service's version, and will not cache without one."""
    dockerfile = (ROOT / "deploy" / "proxy" / "Dockerfile").read_text()
    assert f"ENV PROXY_SERVICE_VERSION={__version__}\n" in dockerfile
    images = {name: spec["image"] for name, spec in compose()["services"].items()}
    assert images["proxy"] == f"tictactoe-proxy:{__version__}"
    assert images["tictactoe"] == f"tictactoe-service:{__version__}"
    entrypoint = ROOT / "deploy" / "proxy" / "entrypoint.sh"
    environment = {key: value for key, value in os.environ.items() if not key.startswith("PROXY_")}
    refused = run(["sh", str(entrypoint)], env=environment, timeout=30, check=False)
    assert refused.returncode == 2 and "PROXY_SERVICE_VERSION" in refused.stderr


def directives(config: str, name: str) -> list[str]:
    """The arguments of every ``name`` directive of a rendered nginx.conf, comments left out."""
    code = "\n".join(line.split("#", 1)[0] for line in config.splitlines())
    return [match.strip() for match in re.findall(rf"(?:^|[;{{}}\s]){name}\s+([^;]*);", code)]


def test_the_proxy_trusts_the_forwarded_client_only_from_the_forwarders_named() -> None:
    """PROXY_TRUSTED_FORWARDERS renders nginx's realip directives (tests/e2e/test_trusted_forwarder.py
    runs them)."""
    trusted = {"PROXY_TRUSTED_FORWARDERS": "10.0.0.0/8,fd00::/8,192.0.2.1", "PROXY_WORKERS": "2"}
    with proxied([f"127.0.0.1:{free_port()}"], trusted) as proxy:
        config = (proxy.run / "nginx.conf").read_text()
    assert directives(config, "set_real_ip_from") == ["10.0.0.0/8", "fd00::/8", "192.0.2.1"]
    assert directives(config, "real_ip_header") == ["X-Forwarded-For"]
    assert directives(config, "real_ip_recursive") == ["on"]
    assert directives(config, "worker_processes") == ["2"]
    # What is passed on and limited is then the client's address as realip made it.
    assert directives(config, "limit_req_zone")[0].startswith("$binary_remote_addr ")
    assert "X-Forwarded-For $remote_addr" in directives(config, "proxy_set_header")


@pytest.mark.parametrize(
    "setting",
    [
        {"PROXY_TRUSTED_FORWARDERS": "10.0.0.0/8; real_ip_header X-Real-IP"},
        {"PROXY_TRUSTED_FORWARDERS": "10.0.0.0/8,/8"},
        {"PROXY_TRUSTED_FORWARDERS": "10.0.0.0/"},
        {"PROXY_TRUSTED_FORWARDERS": "10.0.0.0/8/8"},
        {"PROXY_TRUSTED_FORWARDERS": "unix:"},
        {"PROXY_WORKERS": "0"},
        {"PROXY_WORKERS": "two"},
    ],
)
def test_the_proxy_refuses_a_forwarder_or_worker_count_it_cannot_render(setting: dict[str, str]) -> None:
    environment = {key: value for key, value in os.environ.items() if not key.startswith("PROXY_")}
    environment |= {"PROXY_SERVICE_VERSION": __version__, "PROXY_RUN": "/nonexistent", **setting}
    refused = run(["sh", str(PROXY_ENTRYPOINT)], env=environment, timeout=30, check=False)
    assert refused.returncode == 2, refused.stderr
    assert refused.stderr.strip()


# --- Kubernetes: the proxy beside each replica ----------------------------------------------------------


def test_each_pod_has_the_proxy_in_front_of_its_own_replica() -> None:
    deployment = kind("Deployment")
    app, proxy = container(deployment), proxy_container(deployment)
    app_env, proxy_env = environment(app), environment(proxy)
    assert [c["name"] for c in deployment["spec"]["template"]["spec"]["containers"]] == [
        IMAGE_NAME,
        PROXY_IMAGE_NAME,
    ]
    assert proxy["image"] == f"{PROXY_IMAGE_NAME}:{__version__}"
    # Its upstream is the replica beside it, and nothing else.
    assert proxy_env["PROXY_UPSTREAM"] == f"127.0.0.1:{app_env['TICTACTOE_PORT']}"
    # It keys its cache by the version of that replica's image.
    assert proxy_env["PROXY_SERVICE_VERSION"] == app["image"].rsplit(":", 1)[1] == __version__
    assert proxy_env.get("PROXY_CACHE", "on") == "on"
    ports = {entry["name"]: entry["containerPort"] for entry in proxy["ports"]}
    assert ports == {"edge": int(proxy_env["PROXY_PORT"])}
    assert not set(ports.values()) & {entry["containerPort"] for entry in app["ports"]}
    # Only the proxy's forwarded headers are believed by the service; the proxy believes the
    # controller's, from the cluster's pod network.
    assert app_env["TICTACTOE_FORWARDED_ALLOW_IPS"] == "127.0.0.1"
    forwarders = proxy_env["PROXY_TRUSTED_FORWARDERS"].split(",")
    assert forwarders and all(ipaddress.ip_network(net).is_private for net in forwarders)
    assert int(proxy_env["PROXY_WORKERS"]) == int(app_env["TICTACTOE_WORKERS"])
    documented = set(re.findall(r"^#\s+(PROXY_[A-Z_]+)\s", PROXY_ENTRYPOINT.read_text(), re.M))
    assert set(proxy_env) <= documented
    # Its writable directory (cache, buffers, configuration) is the pod's own, bounded.
    volumes = {volume["name"]: volume for volume in deployment["spec"]["template"]["spec"]["volumes"]}
    (mount,) = proxy["volumeMounts"]
    assert mount["mountPath"] == "/tmp"
    assert "sizeLimit" in volumes[mount["name"]]["emptyDir"]
    assert quantity(volumes[mount["name"]]["emptyDir"]["sizeLimit"]) > quantity(
        proxy_env["PROXY_CACHE_SIZE"].upper() + "i"
    )


def test_the_service_and_the_ingress_reach_the_pods_through_their_proxy() -> None:
    deployment, service = kind("Deployment"), kind("Service")
    proxy = proxy_container(deployment)
    (port,) = service["spec"]["ports"]
    assert port_number(proxy, port["targetPort"]) == int(environment(proxy)["PROXY_PORT"])
    for ingress in kinds("Ingress"):
        for rule in ingress["spec"]["rules"]:
            for path in rule["http"]["paths"]:
                backend = path["backend"]["service"]
                assert backend["name"] == service["metadata"]["name"]
                assert backend["port"]["name"] == port["name"]


def test_the_service_container_keeps_its_probes_and_metrics() -> None:
    """Readiness and liveness are still the service's own; the proxy's say only that nginx listens."""
    deployment = kind("Deployment")
    app, proxy = container(deployment), proxy_container(deployment)
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert port_number(app, app[probe]["httpGet"]["port"]) == CONTAINER_PORT, probe
    for probe in ("readinessProbe", "livenessProbe"):
        assert port_number(proxy, proxy[probe]["tcpSocket"]["port"]) == int(environment(proxy)["PROXY_PORT"])
    assert {entry["name"] for entry in app["ports"]} == {"http", "metrics"}
    assert "metrics" not in {entry["name"] for entry in proxy["ports"]}
    command = proxy["lifecycle"]["preStop"]["exec"]["command"]
    assert command[0] == "sleep" and float(command[1]) <= 5
    proxy_dockerfile = (ROOT / "deploy" / "proxy" / "Dockerfile").read_text()
    assert "STOPSIGNAL SIGQUIT" in proxy_dockerfile  # nginx's graceful stop


def test_the_proxy_container_is_as_locked_down_and_limited_as_the_service() -> None:
    deployment = kind("Deployment")
    app, proxy = container(deployment), proxy_container(deployment)
    assert proxy["securityContext"] == app["securityContext"]
    assert proxy["securityContext"]["readOnlyRootFilesystem"] is True
    assert proxy["securityContext"]["capabilities"] == {"drop": ["ALL"]}
    for section in ("requests", "limits"):
        assert set(proxy["resources"][section]) == set(app["resources"][section]) == {"cpu", "memory"}
        for resource in ("cpu", "memory"):
            assert quantity(proxy["resources"][section][resource]) <= quantity(
                app["resources"][section][resource]
            ), f"{section}.{resource}"
    for resource in ("cpu", "memory"):
        assert quantity(proxy["resources"]["requests"][resource]) <= quantity(
            proxy["resources"]["limits"][resource]
        )


def docker_compose() -> list[str]:
    """``docker compose`` when the plugin is there, else the standalone ``docker-compose``."""
    docker = shutil.which("docker")
    if docker is not None:
        probe = run([docker, "compose", "version"], timeout=30, check=False)
        if probe.returncode == 0:
            return [docker, "compose"]
    return [require_tool("docker-compose")]


@pytest.mark.parametrize("tool", ["docker compose", "podman-compose"])
def test_compose_tools_accept_the_file(tool: str) -> None:
    command = docker_compose() if tool == "docker compose" else [require_tool("podman-compose")]
    result = run([*command, "-f", COMPOSE_FILE, "config"], cwd=ROOT, env=clean_environment(), timeout=120)
    services = yaml.safe_load(result.stdout)["services"]
    assert set(services) == {"tictactoe", "proxy"}
    resolved = services["tictactoe"]
    assert resolved["read_only"] is True
    assert resolved["cap_drop"] == ["ALL"]
    assert resolved["environment"]["TICTACTOE_WORKERS"] == "1"  # one per replica
    assert int(resolved["deploy"]["replicas"]) == 3
    assert str(resolved["deploy"]["resources"]["limits"]["memory"]).upper() in {"160M", str(160 * 2**20)}
    build_args = resolved["build"]["args"]
    if isinstance(build_args, list):
        build_args = dict(arg.split("=", 1) for arg in build_args)
    default_base = instructions("ARG")[0].partition("=")[2]
    assert build_args["BASE_IMAGE"] == default_base


# --- workers --------------------------------------------------------------------------------------------


def workers_of(pid: int) -> set[int]:
    """The uvicorn worker processes of ``pid``: its children started by multiprocessing spawn."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[1]) == pid and fields[0] != "Z" and b"spawn_main" in cmdline:
            found.add(int(entry.name))
    return found


def wait_for(condition: Any, timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    pytest.fail(f"timed out after {timeout} s waiting for {what}")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc to find the workers")
def test_a_killed_worker_is_replaced_while_the_service_answers() -> None:
    with running(env={"TICTACTOE_WORKERS": "2"}) as server:
        supervisor = server.process.pid

        def started() -> set[int] | None:
            workers = workers_of(supervisor)
            return workers if len(workers) == 2 else None

        first = wait_for(started, 30, "2 workers")
        victim = min(first)
        os.kill(victim, signal.SIGKILL)
        answers: list[int] = []

        def replaced() -> set[int] | None:
            try:
                answers.append(httpx.get(f"{server.url}/health", timeout=5).status_code)
            except httpx.TransportError:
                answers.append(0)
            now = workers_of(supervisor)
            return now if len(now) == 2 and victim not in now else None

        now = wait_for(replaced, 30, "a replacement worker")
        assert answers and set(answers) == {200}, f"the service stopped answering: {answers}"
        assert len(now - first) == 1
        for _ in range(10):
            response = httpx.post(f"{server.url}/v1/best-move", json={"board": "X........"}, timeout=5)
            assert response.json()["position"] == 4
        code = server.stop()
    assert code == 0, "".join(server.output)


def test_image_and_ci_install_pinned_versions() -> None:
    """Every declared dependency has an exact pin in constraints.txt, which the image and CI use."""

    root = ROOT
    project = tomllib.loads((root / "pyproject.toml").read_text())["project"]
    pins = {
        re.sub(r"[-_.]+", "-", line.split("==")[0]).lower()
        for line in (root / "constraints.txt").read_text().splitlines()
        if "==" in line and not line.startswith("#")
    }
    extras = project["optional-dependencies"]
    declared = [requirement for group in (project["dependencies"], *extras.values()) for requirement in group]
    for requirement in declared:
        name = re.sub(r"[-_.]+", "-", re.split(r"[\[<>=!~ ]", requirement, maxsplit=1)[0]).lower()
        if name == project["name"]:
            continue  # an extra of the project that names another extra of it
        assert name in pins, f"{name} is not pinned in constraints.txt"
    assert "-c constraints.txt" in (root / "Dockerfile").read_text()
    assert "-c constraints.txt" in (root / "Makefile").read_text()


def test_pods_drain_before_sigterm_and_exit_before_the_grace_period() -> None:
    deployment = kind("Deployment")
    app = container(deployment)
    env = {item["name"]: item["value"] for item in app["env"]}
    command = app["lifecycle"]["preStop"]["exec"]["command"]
    assert command[0] == "python3"  # in the image, unlike a shell's sleep
    drain = float(command[-1].rsplit("sleep(", 1)[1].rstrip(")"))
    shutdown = float(env["TICTACTOE_SHUTDOWN_TIMEOUT"])
    assert drain >= 3
    assert deployment["spec"]["template"]["spec"]["terminationGracePeriodSeconds"] >= drain + shutdown + 5


def test_ingress_carries_the_proxy_limits() -> None:
    config = (ROOT / "deploy" / "proxy" / "nginx.conf").read_text()
    prefix = "nginx.ingress.kubernetes.io/"
    ingresses = {ingress["metadata"]["name"]: ingress for ingress in kinds("Ingress")}
    general, costly = ingresses["tictactoe-service"], ingresses["tictactoe-service-costly"]
    for ingress in (general, costly):
        annotations = ingress["metadata"]["annotations"]
        assert annotations[prefix + "limit-connections"] == "64"
        assert annotations[prefix + "proxy-body-size"] == "1m" and "client_max_body_size 1m" in config
        assert annotations[prefix + "proxy-request-buffering"] == "on"
        assert annotations[prefix + "proxy-buffer-size"] == "16k" and "proxy_buffer_size 16k" in config
        assert annotations[prefix + "proxy-next-upstream"] == "error timeout http_502 http_503 non_idempotent"
        assert "proxy_next_upstream error timeout http_502 http_503 non_idempotent" in config
        assert not any("snippet" in name for name in annotations)  # often disabled, and a risk
        for rule in ingress["spec"]["rules"]:
            for path in rule["http"]["paths"]:
                assert path["backend"]["service"]["name"] == kind("Service")["metadata"]["name"]
                assert path["backend"]["service"]["port"]["name"] == "http"
    assert general["metadata"]["annotations"][prefix + "limit-rps"] == "50"
    assert costly["metadata"]["annotations"][prefix + "limit-rps"] == "5"
    paths = {(path["path"], path["pathType"]) for path in costly["spec"]["rules"][0]["http"]["paths"]}
    # The proxy's costly requests, by the map that keys its stricter rate: exact paths, and prefixes.
    costly_map = config.split("map $uri $tictactoe_costly {", 1)[1].split("}", 1)[0]
    entries = [line.split()[0] for line in costly_map.strip().splitlines() if line.split()[0] != "default"]
    proxy_paths = {(path[2:], "Prefix") if path.startswith("~^") else (path, "Exact") for path in entries}
    assert (
        paths
        == proxy_paths
        == {
            ("/v1/best-move/batch", "Exact"),
            ("/v1/analysis", "Exact"),
            ("/v1/review", "Exact"),
            ("/v1/positions/", "Prefix"),
            ("/mcp", "Exact"),
        }
    )
    assert 'limit-req-status-code: "429"' in (KUBERNETES / "ingress.yaml").read_text()


def test_only_the_ingress_controller_reaches_the_api_port() -> None:
    policy = kind("NetworkPolicy")
    deployment = kind("Deployment")
    assert policy["spec"]["podSelector"]["matchLabels"] == deployment["spec"]["selector"]["matchLabels"]
    assert set(policy["spec"]["policyTypes"]) == {"Ingress", "Egress"}
    assert policy["spec"]["egress"] == []  # the pods reach nothing
    by_port = {rule["ports"][0]["port"]: rule["from"] for rule in policy["spec"]["ingress"]}
    # The controller reaches the pods' proxy, never the service's own port; metrics as before.
    assert set(by_port) == {"edge", "metrics"}
    assert all(len(rule["ports"]) == 1 for rule in policy["spec"]["ingress"])
    (controller,) = by_port["edge"]
    assert "edge" in {port["name"] for port in proxy_container(deployment)["ports"]}
    assert controller["podSelector"]["matchLabels"] == {"app.kubernetes.io/name": "ingress-nginx"}
    names = {port["name"] for port in container(deployment)["ports"]}
    assert names == {"http", "metrics"}
    env = {item["name"]: item["value"] for item in container(deployment)["env"]}
    assert env["TICTACTOE_METRICS_PORT"] == str(
        next(port["containerPort"] for port in container(deployment)["ports"] if port["name"] == "metrics")
    )
    assert env["TICTACTOE_WORKERS"] == "1"
