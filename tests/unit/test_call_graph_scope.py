"""The call graph with scope (issue 27): a parameter or a local is never a call target,
a call on an object binds only where the code gives the object's class, and ``super()``
reaches the bases; small repositories parsed with the real parser."""

from __future__ import annotations

from askalong.context.code_graph import Repository
from askalong.context.code_places import Place, SourceFile
from askalong.parse.code.parser import parse

HELPERS = """
def request(url):
    return url


def join(parts):
    return parts


class Parser:
    def feed(self, data):
        return data

    def info(self):
        return 1
"""

APP = """
from helpers import Parser


class Base:
    def close(self):
        return 0


class Client(Base):
    def __init__(self):
        self.parser = Parser()

    def send(self, request, headers):
        request()
        headers.info()
        ", ".join(headers)
        self.parser.feed(headers)
        local = Parser()
        local.info()
        return super().close()
"""


def repository(**sources: str) -> Repository:
    files = [
        SourceFile(f"{name}.py", f"{name}.py", parse(text.encode(), source=f"{name}.py").blocks)
        for name, text in sources.items()
    ]
    return Repository(files)


def callees_of(repo: Repository, qualname: tuple[str, ...]) -> list[str]:
    place = next(Place(f, b) for f in repo.files for b in f.blocks if b.section_path == qualname)
    return sorted(".".join(target.qualname) for _, target in repo.callees(place))


def test_parameters_and_unknown_receivers_are_unresolved_known_types_bind() -> None:
    repo = repository(helpers=HELPERS, app=APP)
    assert callees_of(repo, ("Client", "send")) == [
        "Base.close",
        "Parser",
        "Parser.feed",
        "Parser.info",
    ]


def test_a_parameter_named_like_a_function_is_not_its_caller() -> None:
    repo = repository(helpers=HELPERS, app=APP)
    request = next(
        Place(f, b) for f in repo.files for b in f.blocks if b.section_path == ("request",)
    )
    assert list(repo.callers(request)) == []


def test_a_bare_name_neither_defined_nor_imported_in_the_file_is_unresolved() -> None:
    repo = repository(helpers=HELPERS, other="def run(x):\n    return join(x)\n")
    assert callees_of(repo, ("run",)) == []


def js_repository(**sources: str) -> Repository:
    files = [
        SourceFile(name, name, parse(text.encode(), source=name).blocks)
        for name, text in sources.items()
    ]
    return Repository(files)


def test_commonjs_arrow_functions_are_symbols_bound_through_require() -> None:
    repo = js_repository(**{
        "lib/compare.js": "const compare = (a, b) => a - b\nmodule.exports = compare\n",
        "lib/gt.js": "const compare = require('./compare')\n"
        "const gt = (a, b) => compare(a, b) > 0\nmodule.exports = gt\n",
        "lib/other.js": "const compare = (x) => x\nconst run = (v) => v.compare(1)\n",
    })  # fmt: skip
    assert callees_of(repo, ("gt",)) == ["compare"]
    gt = next(Place(f, b) for f in repo.files for b in f.blocks if b.section_path == ("gt",))
    target = next(t for _, t in repo.callees(gt))
    assert target.file.source == "lib/compare.js"
    assert callees_of(repo, ("run",)) == []  # v's type is not known


def test_an_es_module_import_binds_names_from_a_hyphenated_file() -> None:
    repo = js_repository(**{
        "lib/string-utils.js": "export function camelCase(s) {\n  return s\n}\n",
        "lib/parser.js": "import { camelCase } from './string-utils.js';\n"
        "export function parse(s) {\n  return camelCase(s)\n}\n",
    })  # fmt: skip
    assert callees_of(repo, ("parse",)) == ["camelCase"]


def test_a_function_of_a_required_module_binds_through_the_module_name() -> None:
    repo = js_repository(**{
        "lib/resolve-map.js": "function resolveMap(t) {\n  return t\n}\n"
        "exports.resolveMap = resolveMap;\n",
        "lib/compose.js": "var resolveMap = require('./resolve-map.js');\n"
        "function compose(t) {\n  return resolveMap.resolveMap(t)\n}\n",
        "lib/other.js": "function resolveMap(t) {\n  return t\n}\n",
    })  # fmt: skip
    compose = next(
        Place(f, b) for f in repo.files for b in f.blocks if b.section_path == ("compose",)
    )
    assert [t.file.source for _, t in repo.callees(compose)] == ["lib/resolve-map.js"]


def test_new_on_a_required_module_s_class_binds_to_the_class() -> None:
    repo = js_repository(**{
        "lib/Scalar.js": "class Scalar {\n  constructor(v) {\n    this.v = v\n  }\n}\n"
        "exports.Scalar = Scalar;\n",
        "lib/compose.js": "var Scalar = require('./Scalar.js');\n"
        "function compose(t) {\n  return new Scalar.Scalar(t)\n}\n",
    })  # fmt: skip
    assert callees_of(repo, ("compose",)) == ["Scalar"]


def test_this_in_an_arrow_function_of_a_method_is_the_method_s_object() -> None:
    repo = js_repository(**{
        "lib/command.js": "class Command {\n"
        "  error(m) {\n    return m\n  }\n"
        "  addOption(o) {\n"
        "    const handle = (v) => {\n      return this.error(v)\n    }\n"
        "    function plain(v) {\n      return this.error(v)\n    }\n"
        "    return handle(o) + plain(o)\n"
        "  }\n}\n",
    })  # fmt: skip
    assert callees_of(repo, ("Command", "addOption", "handle")) == ["Command.error"]
    assert callees_of(repo, ("Command", "addOption", "plain")) == []  # its own `this`


def test_answers_name_a_file_inside_its_repository_never_by_its_server_path() -> None:
    from askalong.context.code_graph import Repository
    from askalong.context.code_places import SourceFile

    files = [
        SourceFile("a", "/srv/home/alice/backoff/retry.go", ()),
        SourceFile("b", "/srv/home/alice/backoff/internal/timer.go", ()),
    ]
    assert [f.where for f in Repository(files).files] == ["retry.go", "internal/timer.go"]
    alone = Repository([SourceFile("c", "/srv/home/alice/json/decoder.py", ())])
    assert alone.files[0].where == "decoder.py"
    mixed = Repository([files[0], SourceFile("d", "repo.zip/src/a.py", ())])
    assert [f.where for f in mixed.files] == ["retry.go", "a.py"]
