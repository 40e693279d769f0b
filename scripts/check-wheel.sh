#!/usr/bin/env bash
# The wheel as users get it: built from a clean copy of the tree, installed in a fresh virtual
# environment (not editable, no system site packages), it must run its migrations, add a
# document and serve the reader with every static file its pages reference. The tests use an
# editable install, which would not notice package data lost in a move.
#
# Usage: scripts/check-wheel.sh [PYTHON]    PYTHON builds the wheel (default .venv/bin/python)
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
BUILD_PY=${1:-.venv/bin/python}
WORK=$(mktemp -d)
VENV=$WORK/venv
SERVER_PID=
PASSED=0
FAILED=0
START=$SECONDS

cleanup() {
    if [[ -n $SERVER_PID ]]; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT
trap "exit 130" INT TERM  # a signal becomes an exit, so the EXIT trap still runs

# check NAME COMMAND...: run COMMAND, print one line, count it; the status is COMMAND's.
check() {
    local name=$1
    shift
    if "$@"; then
        echo "ok    $name"
        PASSED=$((PASSED + 1))
    else
        echo "FAIL  $name"
        FAILED=$((FAILED + 1))
        return 1
    fi
}

# The files git would commit (outside git: all but build products), copied: a stale build/
# in the tree would put files the tree no longer has into the wheel.
copy_tree() {
    mkdir -p "$1"
    if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        tar --exclude=./.venv --exclude=./build --exclude=./dist --exclude='*.egg-info' -cf - . |
            tar -xf - -C "$1"
        return
    fi
    git ls-files -z --cached --others --exclude-standard |
        while IFS= read -r -d '' path; do [[ -e $path ]] && printf '%s\0' "$path"; done |
        tar --null -T - -cf - | tar -xf - -C "$1"
}

# pip's output goes to a log, shown only when something fails.
build_and_install() {
    {
        copy_tree "$WORK/tree" &&
            "$BUILD_PY" -m pip wheel -q --no-deps "$WORK/tree" -w "$WORK/dist" &&
            "$BUILD_PY" -m venv "$VENV" &&
            "$VENV/bin/python" -m pip install -q "$WORK"/dist/askalong-*.whl
    } >"$WORK/pip.log" 2>&1 || { cat "$WORK/pip.log" >&2; return 1; }
}

# The checks run outside the tree with no PYTHONPATH, so only the installed wheel can answer.
VENV_ENV=(env -u PYTHONPATH PATH="$VENV/bin:$PATH")
in_venv() { (cd "$WORK" && exec "${VENV_ENV[@]}" "$@"); }

py_check() { in_venv python -c "$@"; }

installed_not_editable() {
    py_check 'import askalong, sys; sys.exit(not askalong.__file__.startswith(sys.prefix))'
}

docs_json_is_empty() {
    in_venv askalong docs --json >"$WORK/docs.json" &&
        py_check 'import json, sys; sys.exit(json.load(open(sys.argv[1])) != {"documents": []})' \
            "$WORK/docs.json"
}

# sql_files BACKEND: how many numbered migrations the tree has for the store BACKEND.
sql_files() {
    find "$REPO/src/askalong/store/$1/migrations" -name '[0-9][0-9][0-9][0-9]_*.sql' | wc -l
}

# Every SQLite migration in the tree is recorded as applied in the new store.
migrations_applied() {
    local expected
    expected=$(sql_files sqlite)
    py_check 'import sqlite3, sys
rows = sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM schema_migrations").fetchone()
sys.exit(not int(sys.argv[2]) > 0 or rows[0] != int(sys.argv[2]))' \
        "$ASKALONG_HOME/askalong.sqlite3" "$expected"
}

# The server store's migrations are package data too (applied where PostgreSQL runs).
postgres_migrations_ship() {
    py_check 'import sys
from askalong.store.sql.schema_versions import read_migrations
sys.exit(not int(sys.argv[1]) > 0 or len(read_migrations("askalong.store.postgres")) != int(sys.argv[1]))' \
        "$(sql_files postgres)"
}

# The learned sentence scorer's weights are package data (answer/scorer/weights.json).
scorer_weights_ship() {
    py_check 'from askalong.answer.scorer.model import shipped_scorer; shipped_scorer()'
}

add_markdown() {
    printf '# Wheel note\n\nThe wheel check adds this note to a fresh library.\n' >"$WORK/note.md"
    in_venv askalong add --json "$WORK/note.md" >"$WORK/add.json" 2>"$WORK/add.log" &&
        py_check 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["added"] != 1)' \
            "$WORK/add.json"
}

# The server answers only with the install's token (HTTP API section of the README).
read_token() {
    TOKEN=$(in_venv askalong token 2>/dev/null) && [[ ${#TOKEN} -ge 20 ]]
}

authed_curl() { curl -H "Authorization: Bearer $TOKEN" "$@"; }

free_port() {
    py_check 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start_server() {
    PORT=$(free_port)
    BASE=http://127.0.0.1:$PORT
    # A subshell that execs, started directly: $! is then the server itself, for the trap.
    (cd "$WORK" && exec "${VENV_ENV[@]}" askalong serve --port "$PORT") >"$WORK/serve.log" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 240); do  # two minutes: CI machines are slow
        authed_curl -fs -o /dev/null "$BASE/" && return 0
        kill -0 "$SERVER_PID" 2>/dev/null || break
        sleep 0.5
    done
    cat "$WORK/serve.log" >&2
    return 1
}

api_lists_the_note() {
    authed_curl -fs "$BASE/api/documents" >"$WORK/api.json" &&
        py_check 'import json, sys
titles = [d["title"] for d in json.load(open(sys.argv[1]))["documents"]]
sys.exit(titles != ["Wheel note"])' "$WORK/api.json"
}

# The media type a browser needs for each kind of file (module scripts refuse any other).
expected_type() {
    case $1 in
    */ | *.html) echo "text/html" ;;
    *.js | *.mjs) echo "text/javascript|application/javascript" ;;
    *.css) echo "text/css" ;;
    *.svg) echo "image/svg+xml" ;;
    *.png) echo "image/png" ;;
    *.json) echo "application/json" ;;
    *.woff2) echo "font/woff2" ;;
    *) echo "" ;;
    esac
}

# fetch PATH: 200 with the right media type; the body is kept for the crawl.
fetch() {
    local got code ctype want
    got=$(authed_curl -s -o "$WORK/body" -w '%{http_code} %{content_type}' "$BASE$1") || return 1
    code=${got%% *}
    ctype=${got#* }
    ctype=${ctype%%;*}
    want=$(expected_type "$1")
    [[ $code == 200 ]] || { echo "      $1: HTTP $code" >&2; return 1; }
    [[ -z $want || "|$want|" == *"|$ctype|"* ]] || { echo "      $1: $ctype, want $want" >&2; return 1; }
}

# references PATH FILE: the same-site paths an HTML page, script or style sheet references
# (src/href attributes, relative ES module imports, pages a script links to, CSS url()).
REFERENCES_PY=$(
    cat <<'EOF'
import re, sys
from urllib.parse import urljoin, urlsplit

path, text = sys.argv[1], open(sys.argv[2], encoding="utf-8").read()
kind = "js" if path.endswith(".js") else "css" if path.endswith(".css") else "html"
if kind == "js":  # drop comment lines: an import in a comment is no reference
    text = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith(("//", "*", "/*")))
PATTERNS = {
    "html": [r"""\b(?:src|href)\s*=\s*["']([^"']+)["']"""],
    "js": [
        r"""\b(?:import|export)\s[^;]*?\bfrom\s*["']([^"']+)["']""",
        # a dynamic import() and a side-effect import statement: never the word in a string
        r"""\bimport\s*\(\s*["']([^"']+)["']""",
        r"""(?m)^\s*import\s*["']([^"']+)["']""",
        r"""["'`](/[\w./-]*\.html)\b""",
    ],
    "css": [r"""url\(\s*["']?([^"')]+)["']?\s*\)""", r"""@import\s+["']([^"']+)["']"""],
}
for ref in sorted({m for p in PATTERNS[kind] for m in re.findall(p, text)}):
    url = urlsplit(urljoin(path, ref))
    if not url.scheme and not url.netloc and "$" not in ref and not ref.startswith("#"):
        print(url.path)
EOF
)

references() { py_check "$REFERENCES_PY" "$1" "$2"; }

# Breadth-first from the library page: every page and file reached must be served.
declare -A SEEN=(["/"]=1)
crawl() {
    local queue=("/") path ref
    while ((${#queue[@]})); do
        path=${queue[0]}
        queue=("${queue[@]:1}")
        check "GET $path" fetch "$path" || continue
        case $path in */ | *.html | *.js | *.css) ;; *) continue ;; esac
        while IFS= read -r ref; do
            [[ -n $ref && -z ${SEEN[$ref]:-} ]] || continue
            SEEN[$ref]=1
            queue+=("$ref")
        done < <(references "$path" "$WORK/body")
    done
}

# Guards the crawl itself: a reference pattern that matched nothing would pass vacuously.
crawl_reached_every_kind() {
    local paths
    paths=$(printf '%s\n' "${!SEEN[@]}")
    [[ $(grep -c '\.html$' <<<"$paths") -ge 1 ]] &&
        [[ $(grep -c '\.js$' <<<"$paths") -ge 2 ]] &&
        grep -q '\.css$' <<<"$paths"
}

main() {
    check "built the wheel and installed it in a fresh venv" build_and_install || return 0
    export ASKALONG_HOME=$WORK/home ASKALONG_EMBEDDER=none
    check "askalong is imported from the installed wheel" installed_not_editable || true
    check "askalong docs --json on a new home: no documents" docs_json_is_empty || true
    check "every migration applied to the new store" migrations_applied || true
    check "the PostgreSQL store's migrations ship" postgres_migrations_ship || true
    check "the learned scorer's weights load" scorer_weights_ship || true
    check "askalong add a Markdown file" add_markdown || true
    check "askalong token prints the install token" read_token || return 0
    check "askalong serve answers on a free loopback port" start_server || return 0
    check "GET /api/documents lists the added file" api_lists_the_note || true
    crawl
    check "the crawl reached a second page, module scripts and a style sheet" \
        crawl_reached_every_kind || true
}

main
echo "wheel check: $PASSED passed, $FAILED failed ($((SECONDS - START)) s)"
((FAILED == 0))
