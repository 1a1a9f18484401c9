"""The package's layers: what each one imports, and what importing it costs."""

from __future__ import annotations

import ast
import re
import sys

from radon.complexity import cc_visit  # type: ignore[import-untyped]

from service.game.variants import VARIANTS
from tests.support import ROOT
from tests.support.commands import run

SERVER_PACKAGES = ("fastapi", "starlette", "uvicorn", "prometheus_client", "pydantic_settings")


def loaded_after(statement: str) -> set[str]:
    """The top-level modules loaded by a fresh interpreter after running ``statement``."""
    code = f"{statement}\nimport sys\nprint(' '.join(sorted({{m.split('.')[0] for m in sys.modules}})))"
    return set(run([sys.executable, "-c", code]).stdout.split())


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
        "from service.game.tables import table\n"
        "assert not hasattr(module, 'app'), 'a module-level app is built on import'\n"
        "assert table.cache_info().currsize == 0, 'a table was opened on import'\n"
    )
    run([sys.executable, "-c", code])


def test_a_plain_install_pulls_nothing_and_the_server_extra_the_service() -> None:
    """``pip install tictactoe-service`` is the game (standard library only) and its command; the
    service is the ``server`` extra. No package of this repository is required."""
    from importlib.metadata import requires

    declared = requires("tictactoe-service") or []
    plain = sorted(re.split(r"[<>=!~ ]", r, maxsplit=1)[0] for r in declared if "extra ==" not in r)
    assert plain == []
    server = {r.split(">")[0].split("[")[0].strip() for r in declared if 'extra == "server"' in r}
    assert {"fastapi", "uvicorn", "prometheus-client", "pydantic", "pydantic-settings"} <= server
    assert not any("tictactoe-client" in requirement for requirement in declared)


FRAMEWORKS = ("fastapi", "starlette", "uvicorn", "pydantic", "pydantic_core")


def private_names(source: str) -> list[str]:
    """Every ``_``-prefixed name of :data:`FRAMEWORKS` that ``source`` imports or reads."""
    tree = ast.parse(source)
    modules: set[str] = set()  # local names bound to a framework module or one of its names
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in FRAMEWORKS:
            assert node.module is not None
            found += [f"{node.module}.{alias.name}" for alias in node.names if alias.name.startswith("_")]
            found += [node.module for part in node.module.split(".") if part.startswith("_")]
            modules |= {alias.asname or alias.name for alias in node.names}
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in FRAMEWORKS:
                    found += [alias.name for part in alias.name.split(".") if part.startswith("_")]
                    modules.add((alias.asname or alias.name).split(".")[0])
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            base = node.value
            if isinstance(base, ast.Name) and base.id in modules:
                found.append(f"{base.id}.{node.attr}")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
        ):
            name = node.args[1] if len(node.args) > 1 else None
            target = node.args[0] if node.args else None
            if (
                isinstance(name, ast.Constant)
                and isinstance(name.value, str)
                and name.value.startswith("_")
                and isinstance(target, ast.Name)
                and target.id in modules
            ):
                found.append(f"{target.id}.{name.value}")
    return found


def test_no_private_name_of_the_frameworks_is_imported_or_read() -> None:
    """Only documented names of FastAPI, Starlette, uvicorn and Pydantic: private ones move unannounced."""
    folders = ("service", "clients/python/src", "tests", "bench", "scripts")
    sources = [
        path
        for folder in folders
        for path in (ROOT / folder).rglob("*.py")
        if "node_modules" not in path.parts
    ]
    assert len(sources) > 50
    found = {
        str(path.relative_to(ROOT)): names for path in sources if (names := private_names(path.read_text()))
    }
    assert found == {}


def test_the_check_for_private_names_finds_them() -> None:
    source = (
        "from fastapi import routing as fastapi_routing\n"
        "from fastapi.routing import _IncludedRouter\n"
        "import starlette._utils\n"
        "from starlette.requests import Request\n"
        "getattr(fastapi_routing, '_effective_route_context_var', None)\n"
        "Request._receive\n"
        "Request.__init__\n"
    )
    assert sorted(private_names(source)) == [
        "Request._receive",
        "fastapi.routing._IncludedRouter",
        "fastapi_routing._effective_route_context_var",
        "starlette._utils",
    ]


def web_imports() -> dict[str, set[str]]:
    """Each module of ``service/web``, dotted, and the modules of ``service/web`` it imports."""
    web = ROOT / "service" / "web"
    modules = {
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): path
        for path in web.rglob("*.py")
    }
    imports: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = package.split(".")
                base = base[: len(base) - node.level + 1] if node.level else []
                target = ".".join([*base, *([node.module] if node.module else [])])
                for alias in node.names:
                    candidate = f"{target}.{alias.name}"
                    found.add(candidate if candidate in modules else target)
            elif isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
        imports[name] = {module for module in found if module in modules and module != name}
    return imports


def layers(imports: dict[str, set[str]]) -> dict[str, int]:
    """Each module's layer: one above the highest module it imports (1 when it imports none)."""
    found: dict[str, int] = {}

    def layer(name: str) -> int:
        if name not in found:
            found[name] = 1 + max((layer(other) for other in imports[name]), default=0)
        return found[name]

    for name in imports:
        layer(name)
    return found


def test_the_web_layer_has_at_most_five_import_layers() -> None:
    """A module sits one layer above the highest module of ``service/web`` it imports."""
    found = layers(web_imports())
    assert found["service.web.app"] == max(found.values())
    assert max(found.values()) <= 5, sorted(found.items(), key=lambda item: -item[1])


def test_only_the_layers_that_do_those_jobs_import_admission_control() -> None:
    importers = {name for name, imported in web_imports().items() if "service.web.admission" in imported}
    assert importers == {"service.web.app"}


def test_the_answers_import_nothing_of_the_web() -> None:
    for path in (ROOT / "service" / "answers").rglob("*.py"):
        assert "web" not in {
            part
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.ImportFrom)
            for part in (node.module or "").split(".")
        }, path


#: The most decisions one function of the service may take, as radon counts them (each branch, loop,
#: boolean operator and comprehension's condition).
MOST_COMPLEX = 12


def test_no_function_of_the_service_takes_more_than_twelve_decisions() -> None:
    found = {
        f"{path.relative_to(ROOT)}:{block.lineno} {block.fullname}": block.complexity
        for path in sorted((ROOT / "service").rglob("*.py"))
        for block in cc_visit(path.read_text())
        if block.complexity > MOST_COMPLEX
    }
    assert found == {}


def test_no_code_outside_the_registry_compares_a_variant_with_a_name() -> None:
    """Behaviour comes from a variant's data: nowhere but the registry is a variant's id compared with
    a name of the registry's (``variant.id == "standard"``, ``variant != "misere"``, ``in ("wild",)``)."""
    registry = ROOT / "service" / "game" / "variants.py"
    found = []
    for path in sorted((ROOT / "service").rglob("*.py")):
        if path == registry:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Compare):
                named = [
                    constant.value
                    for side in (node.left, *node.comparators)
                    for constant in ast.walk(side)
                    if isinstance(constant, ast.Constant) and constant.value in VARIANTS
                ]
                if named:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} {named}")
    assert found == []
