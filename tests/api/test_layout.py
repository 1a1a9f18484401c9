"""The package's layers: what each one imports, and what importing it costs."""

from __future__ import annotations

import re
import subprocess
import sys

SERVER_PACKAGES = ("fastapi", "starlette", "uvicorn", "prometheus_client", "pydantic_settings")


def loaded_after(statement: str) -> set[str]:
    """The top-level modules loaded by a fresh interpreter after running ``statement``."""
    code = f"{statement}\nimport sys\nprint(' '.join(sorted({{m.split('.')[0] for m in sys.modules}})))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(result.stdout.split())


def test_the_game_needs_only_the_standard_library() -> None:
    loaded = loaded_after("import service.game")
    assert not loaded & {"pydantic", "httpx", *SERVER_PACKAGES}, loaded


def test_the_client_needs_only_httpx_and_pydantic() -> None:
    """The client is a package of its own: nothing of the service, which a user's module could shadow."""
    loaded = loaded_after("import tictactoe_client")
    assert {"httpx", "pydantic"} <= loaded
    assert not loaded & {"service", *SERVER_PACKAGES}, loaded & {"service", *SERVER_PACKAGES}


def test_importing_the_app_module_builds_nothing() -> None:
    """uvicorn builds the app with the factory, once per worker; importing must not build another."""
    code = (
        "import service.web.app as module\n"
        "assert not hasattr(module, 'app'), 'a module-level app is built on import'\n"
        "assert module.solved_game.cache_info().currsize == 0, 'the game was solved on import'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_plain_install_pulls_only_the_clients_dependencies() -> None:
    """``pip install tictactoe-service`` is the CLI and the client; the service is the ``server`` extra."""
    from importlib.metadata import requires

    declared = requires("tictactoe-service") or []
    plain = sorted(re.split(r"[<>=!~ ]", r, maxsplit=1)[0] for r in declared if "extra ==" not in r)
    assert plain == ["httpx", "pydantic", "tictactoe-client"]
    server = {r.split(">")[0].split("[")[0].strip() for r in declared if 'extra == "server"' in r}
    assert {"fastapi", "uvicorn", "prometheus-client", "pydantic-settings"} <= server
