"""Which lines of code answer a question (issue 32, item 4), read through
``code_answers.lines_draft`` over a real parse: a definition's doc comment is its own
(never a note inside its body), a picked line comes with the condition it runs under, a
short definition quoted whole leaves room for its own lines that hold the question's
words (never its own best line), the lines fill the room in order past the tenth, a
longer one's doc comment takes the room its answering lines leave, a line reading a name
comes with the line right above setting it, a comment's last line ends its sentence, and
the best lines fill the room left."""

from __future__ import annotations

from askalong.asking.code_answers import MAX_LINES, lines_draft
from askalong.asking.code_company import assigned_above, doc_comment, opened
from askalong.asking.code_lines import abbreviations, code_lines, line_terms, ranked
from askalong.asking.code_sentences import cited_lines
from askalong.context.code import code_anchor_unit
from askalong.context.code_places import Place, SourceFile
from askalong.context.units import ContextUnit
from askalong.parse.code.parser import parse
from askalong.question.reading import read_question


def units_of(source: str, name: str) -> list[ContextUnit]:
    """Each block of the file ``name`` holding ``source``, whole, as a unit."""
    blocks = parse(source.encode(), source=name).blocks
    file = SourceFile(name, name, blocks)
    return [code_anchor_unit(Place(file, b), 0, len(b.text)) for b in blocks]


def answered(source: str, name: str, subject: str, question: str) -> list[str]:
    """The answer's lines (its intro aside), asked of ``subject``'s file, subject first."""
    units = units_of(source, name)
    units.sort(key=lambda u: ".".join(u.section_path) != subject)
    draft = lines_draft(read_question(question), units, name=subject, anchored=False)
    assert draft.status == "answered", draft
    return [row.strip().rsplit(" [", 1)[0] for row in draft.answer.split("\n")[1:]]


STORAGE_PY = """class JSONStorage:
    def write(self, data):
        # Move the cursor to the beginning of the file just in case
        self._handle.seek(0)
        # Serialize the database state using the user-provided arguments
        serialized = json.dumps(data, **self.kwargs)
        # Write the serialized data to the file
        try:
            self._handle.write(serialized)
        except io.UnsupportedOperation:
            raise IOError('Cannot write to the database. Access mode is "{0}"')
        # Ensure the file has been written
        self._handle.flush()
        os.fsync(self._handle.fileno())
        # Remove data that is behind the new cursor in case the file has gotten shorter
        self._handle.truncate()
"""


def test_a_comment_inside_a_body_is_no_doc_comment() -> None:
    rows = answered(STORAGE_PY, "storage.py", "JSONStorage.write", "Which database errors?")
    assert "# Move the cursor to the beginning of the file just in case" not in rows, rows


def test_a_picked_line_comes_with_the_condition_it_runs_under() -> None:
    rows = answered(STORAGE_PY, "storage.py", "JSONStorage.write", "Which database errors?")
    raised = next(i for i, r in enumerate(rows) if r.startswith("raise IOError"))
    assert rows[raised - 1] == "except io.UnsupportedOperation:", rows


NEW_GO = """package lru

// NewLRU constructs an LRU of the given size
func NewLRU(size int, onEvict EvictCallback) (*LRU, error) {
\tif size <= 0 {
\t\treturn nil, errors.New("must provide a positive size")
\t}
\tc := &LRU{
\t\tsize:      size,
\t\tevictList: list.New(),
\t\titems:     make(map[interface{}]*list.Element),
\t\tonEvict:   onEvict,
\t}
\treturn c, nil
}
"""


def test_a_returned_error_comes_with_its_if() -> None:
    rows = answered(NEW_GO, "lru.go", "NewLRU", "Which error does a negative size give?")
    error = next(i for i, r in enumerate(rows) if "errors.New" in r)
    assert rows[error - 1] == "if size <= 0 {", rows


PARSE_RS = """/// Parse duration object `1hour 12min 5s`
///
/// The duration object is a concatenation of time spans.
///
/// * `nsec`, `ns` -- nanoseconds
/// * `seconds`, `second`, `sec`, `s`
/// * `days`, `day`, `d`
/// * `months`, `month`, `M` -- defined as 30.44 days
pub fn parse_duration(s: &str) -> Result<Duration, Error> {
    Parser {
        iter: s.chars(),
        src: s,
        current: (0, 0),
    }.parse()
}
"""


def test_a_short_definition_quoted_whole_leaves_room_for_its_own_answering_line() -> None:
    rows = answered(PARSE_RS, "lib.rs", "parse_duration", "How many days in a month?")
    # the doc comment's list items picked next to each other are one quote
    assert any(r.endswith("`months`, `month`, `M` -- defined as 30.44 days") for r in rows)
    assert rows[0].startswith("pub fn parse_duration("), rows


ENCODING_JS = """function parseAcceptEncoding(accept) {
  var hasIdentity = false;
  /*
   * If identity doesn't explicitly appear in the accept-encoding header,
   * it's added to the list of acceptable encoding with the lowest q
   */
  if (!hasIdentity) {
    accepts[j++] = { encoding: 'identity', q: minQuality, i: i };
  }
}
"""


def test_a_comment_s_last_line_ends_its_sentence_without_a_full_stop() -> None:
    blocks = parse(ENCODING_JS.encode(), source="encoding.js").blocks
    place = Place(SourceFile("e.js", "e.js", blocks), blocks[0])
    lines = list(code_lines([code_anchor_unit(place, 0, len(blocks[0].text))]))
    first = next(ln for ln in lines if "If identity" in ln.text)
    cited = cited_lines([first], lines)
    assert cited[0].text.endswith("with the lowest q"), cited


FUNC_PY = '''def _cache(cache, typed):
    """Wrap a function in a cache."""
    maxsize = cache.maxsize
    key = keys.typedkey if typed else keys.hashkey
    lock = RLock()
    wrapper = cached(cache=cache, key=key, lock=lock, info=True)
    wrapper.cache_parameters = lambda: {"maxsize": maxsize, "typed": typed}
    wrapper.cache_clear = cache.clear
    return wrapper


def fifo_cache(maxsize=128, typed=False):
    """Decorator that saves up to `maxsize` results in first-in, first-out order."""
    return _cache(FIFOCache(maxsize), typed)
'''


def test_a_value_asked_quotes_the_signature_of_the_definition_whose_line_answers() -> None:
    rows = answered(FUNC_PY, "func.py", "_cache", "How many results are saved by default?")
    assert "def fifo_cache(maxsize=128, typed=False):" in rows, rows


TABLES_PY = '''class TinyDB:
    def drop_table(self, name: str) -> None:
        """
        Drop a specific table from the database. **CANNOT BE REVERSED!**

        :param name: The name of the table to drop.
        """
        if name in self._tables:
            del self._tables[name]
        data = self.storage.read()
        # The table does not exist, there's nothing to do
        if name not in data:
            return
        del data[name]
        self.storage.write(data)
'''


def test_a_docstring_opening_on_a_line_of_its_own_is_the_doc_comment() -> None:
    head = [ln for ln in code_lines(units_of(TABLES_PY, "db.py")) if ln.unit == 1]
    told = [ln.text.strip() for ln in doc_comment(head)]
    assert told[0].startswith("Drop a specific table from the database."), told
    assert told[-1] == ":param name: The name of the table to drop.", told


SINK_PY = '''class Sink:
    def flush(self):
        """Send what is held.

        Nothing is sent twice.
        """
        self.buffer.write(self.header)
        self.buffer.write(self.title)
        self.buffer.write(self.names)
        self.buffer.write(self.types)
        self.buffer.write(self.sizes)
        self.buffer.write(self.rows)
        self.buffer.write(self.totals)
        self.buffer.write(self.notes)
        self.buffer.write(self.footer)
        self.buffer.write(self.checksum)
        self.sent = True
'''


def test_a_longer_subjects_doc_comment_takes_the_room_its_answering_lines_leave() -> None:
    # quoted first, its two lines took room from the lines that answer
    rows = answered(SINK_PY, "sink.py", "Sink.flush", "What does flush write to the buffer?")
    assert len(rows) == MAX_LINES, rows
    assert sum(r.startswith("self.buffer.write(") for r in rows) == MAX_LINES - 1, rows
    rows = answered(SINK_PY, "sink.py", "Sink.flush", "Is anything sent twice?")
    assert rows[:3] == ["def flush(self):", '"""Send what is held.', "Nothing is sent twice."]


def test_a_word_of_the_subjects_name_written_apart_is_asked() -> None:
    rows = answered(TABLES_PY, "db.py", "TinyDB.drop_table", "drop_table with a missing table?")
    assert "# The table does not exist, there's nothing to do" in rows, rows


FOLDER_PY = '''def get_folder(csidl_name: str) -> str:
    """Return the folder named by its environment variable, such as APPDATA.

    :param csidl_name: the CSIDL name, such as CSIDL_APPDATA.
    """
    env_var_name = FOLDER_VARIABLES.get(csidl_name)
    if env_var_name is None:
        raise ValueError(f"Unknown CSIDL name: {csidl_name}")
    result = os.environ.get(env_var_name)
    if not result:
        msg = f"Unset environment variable: {env_var_name}"
        raise ValueError(msg)
    return result
'''


def test_a_raised_name_comes_with_the_line_right_above_setting_it() -> None:
    question = "what does it raise when the value is empty?"
    rows = answered(FOLDER_PY, "win.py", "get_folder", question)
    raised = rows.index("raise ValueError(msg)")
    assert rows[raised - 1] == 'msg = f"Unset environment variable: {env_var_name}"', rows


def test_a_line_setting_no_name_the_picked_line_reads_stays_out() -> None:
    lines = list(code_lines(units_of(FOLDER_PY, "win.py")))
    by_text = {ln.text.strip(): ln for ln in lines}
    assert assigned_above(lines, by_text["return result"]) == []  # ``raise`` sets nothing
    unknown = by_text['raise ValueError(f"Unknown CSIDL name: {csidl_name}")']
    assert assigned_above(lines, unknown) == []  # the ``if`` above sets no name


ACCEPT_JS = """function parseAccept(header) {
  var values = [];
  while (index < header.length) {
    var start = skipOptionalWhitespace(header, index);
    var parsed = contentType.parse(header, { comma: true, start: start });
    index = parsed.end;
    // `content-type` normalizes the type, but accept methods return original casing.
    parsed.type = header.slice(start, start + parsed.type.length);
    values.push(parsed);
  }
  return values;
}
"""


def test_a_picked_code_line_comes_with_the_comment_right_above_it() -> None:
    question = "Why is the type sliced back out of the raw header?"
    rows = answered(ACCEPT_JS, "mediaType.js", "parseAccept", question)
    sliced = next(i for i, r in enumerate(rows) if r.startswith("parsed.type = header.slice("))
    assert rows[sliced - 1].startswith("// `content-type` normalizes the type"), rows


ARGS_C = """#include <limits.h>

#ifndef ARG_MAX
#define ARG_MAX (96 * 1024)
#endif

/* Find the original arg buffer. */
static int find_argv(char *ptr) {
    char *limit = ptr - ARG_MAX;
    return limit != 0;
}
"""


def test_preprocessor_directives_and_attributes_are_code_not_comment() -> None:
    blocks = parse(ARGS_C.encode(), source="args.c").blocks
    file = SourceFile("args.c", "args.c", blocks)
    units = [code_anchor_unit(Place(file, b), 0, len(b.text)) for b in blocks]
    kinds = {ln.text.strip(): ln.comment for ln in code_lines(units)}
    assert kinds["#define ARG_MAX (96 * 1024)"] is False
    assert kinds["#ifndef ARG_MAX"] is False
    assert kinds["/* Find the original arg buffer. */"] is True


SAVE_PY = '''def save(entries, path, keep_backup=False):
    """Write the entries to disk."""
    text = json.dumps(entries)
    if keep_backup and os.path.exists(path):
        shutil.copy(path, path + ".bak")
    temporary = path + ".tmp"
    with open(temporary, "w") as out:
        out.write(text)
    try:
        os.replace(temporary, path)
    except OSError:
        os.remove(temporary)
        raise
    return len(entries)
'''


def test_the_best_lines_fill_the_room_left() -> None:
    # the answering line ranks fourth (four lines name ``temporary``): three best lines
    # alone left it out of a six-line answer
    question = "What happens to the temporary file if the replace fails?"
    rows = answered(SAVE_PY, "store.py", "save", question)
    assert "os.remove(temporary)" in rows, rows
    assert len(rows) <= MAX_LINES, rows


RENDER_PY = '''class Table:
    def render(self, rows):
        """Draw the rows as a table of columns.

        Each column is as wide as its widest cell.
        A cell narrower than its column is padded on the right.
        A cell wider than the limit is cut at the limit.
        A column of numbers is aligned on the right.
        An empty cell is drawn as a dash.
        The header row is drawn in bold.
        The rows are drawn in the order given.
        A row shorter than the header is padded with empty cells.
        """
        widths = [max(len(c) for c in col) for col in zip(*rows)]
        out = []
        for row in rows:
            line = " | ".join(c.ljust(w) for c, w in zip(row, widths))
            out.append(line)
        self.stream.write("\\n".join(out))
        self.flush()
        return len(out)
'''


def test_lines_past_the_tenth_fill_the_room_the_ten_leave() -> None:
    # the docstring's lines among the best ten are quoted as three: cut at the tenth, the
    # answer stopped at eight of its ten lines
    rows = answered(RENDER_PY, "table.py", "Table.render", "where is each row joined into a line?")
    assert "widths = [max(len(c) for c in col) for col in zip(*rows)]" in rows, rows
    assert len(rows) <= MAX_LINES, rows


MIDDLEWARE_PY = '''class CachingMiddleware(Middleware):
    """Add some caching to the database.

    Writes the last state every WRITE_CACHE_SIZE times and reads from the cache."""

    #: The number of write operations to cache before writing to disc
    WRITE_CACHE_SIZE = 1000

    def __init__(self, storage_cls):
        super().__init__(storage_cls)
        self.cache = None
        self._cache_modified_count = 0

    def write(self, data):
        # Store data in cache
        self.cache = data
        self._cache_modified_count += 1
        # Check if we need to flush the cache
        if self._cache_modified_count >= self.WRITE_CACHE_SIZE:
            self.flush()

    def flush(self):
        """Flush all unwritten data to disk."""
        if self._cache_modified_count > 0:
            self.storage.write(self.cache)
            self._cache_modified_count = 0
'''


def test_a_short_subjects_best_line_never_gives_way() -> None:
    # the class's members' lines take the room of its last lines, but not of the one
    # line of it that holds the question's words best
    question = "how often does CachingMiddleware actually write to disk?"
    rows = answered(MIDDLEWARE_PY, "middlewares.py", "CachingMiddleware", question)
    assert "WRITE_CACHE_SIZE = 1000" in rows, rows


WRAP_GO = """package wrap

// Fill wraps text into lines of the given width, breaking
// words only where a line cannot hold them.
func Fill(text string, width int) []string {
\tvar lines []string
\tline := ""
\tfor _, word := range strings.Fields(text) {
\t\tif len(line)+len(word) > width {
\t\t\tlines = append(lines, line)
\t\t\tline = ""
\t\t}
\t\tline += word
\t}
\treturn append(lines, line)
}

// breakApart chops a word too long for a line into smaller
// pieces of at most width bytes each.
func breakApart(word string, width int) []string {
\tvar pieces []string
\tfor len(word) > width {
\t\tpieces = append(pieces, word[:width])
\t\tword = word[width:]
\t}
\treturn append(pieces, word)
}
"""


def test_another_definitions_doc_comment_brings_its_definition_line() -> None:
    # the doc comment says what is done; its definition line says where: "where is a
    # word chopped?" is answered by ``func breakApart``, not by the comment alone
    question = "Where is a word that is too long chopped into smaller pieces?"
    rows = answered(WRAP_GO, "wrap.go", "Fill", question)
    said = next(i for i, r in enumerate(rows) if r.startswith("// breakApart chops"))
    assert rows[said - 1] == "func breakApart(word string, width int) []string {", rows


FETCH_PY = """try:
    import ssl
    RETRIES = 3
except ImportError:
    RETRIES = 3


def fetch(url):
    for attempt in range(RETRIES):
        response = get(url)
        if response.ok:
            return response
        sleep(attempt)
    raise TimeoutError(url)
"""


def test_a_line_whose_text_is_quoted_already_is_not_quoted_again() -> None:
    # the constant's two declarations (one per branch) read the same: the second says
    # nothing the first did not, and takes the room of a line that might
    rows = answered(FETCH_PY, "net.py", "fetch", "how many retries does fetch make?")
    assert rows.count("RETRIES = 3") == 1, rows


EQUALS_GO = """package color

// Equals returns a boolean value indicating whether two colors are equal.
func (c *Color) Equals(c2 *Color) bool {
\tif c == nil && c2 == nil {
\t\treturn true
\t}
\tif len(c.params) != len(c2.params) {
\t\treturn false
\t}
\tfor _, attr := range c.params {
\t\tif !c2.attrExists(attr) {
\t\t\treturn false
\t\t}
\t}
\treturn true
}
"""


def test_a_code_name_abbreviating_the_readers_word_is_found() -> None:
    # code writes ``attr`` and ``params``, a reader "attributes" and "parameters"
    lines = list(code_lines(units_of(EQUALS_GO, "color.go")))
    question = "Does it care about the order the attributes were added in?"
    best = ranked(lines, line_terms(question))
    assert "attr" in best[0][1].text, best
    asked = ranked(lines, line_terms("how many parameters must match?"))
    assert "params" in asked[0][1].text, asked


def test_an_abbreviation_drops_letters_of_the_word() -> None:
    # ``set`` is the word "settings" stems to, ``us`` too short, ``data`` a word of its
    # own that "database" compounds
    vocabulary = ["attr", "set", "us", "data"]
    assert abbreviations(["attribut", "set", "databas"], vocabulary) == {"attr"}


def test_at_a_selection_another_definitions_doc_comment_comes_under_its_line() -> None:
    blocks = parse(WRAP_GO.encode(), source="wrap.go").blocks
    file = SourceFile("wrap.go", "wrap.go", blocks)
    fill = next(b for b in blocks if b.section_path == ("Fill",))
    start = fill.text.index("// Fill wraps")
    anchor = code_anchor_unit(Place(file, fill), start, start + len("// Fill wraps text"))
    others = [code_anchor_unit(Place(file, b), 0, len(b.text)) for b in blocks if b != fill]
    question = read_question("how is a word too long chopped into smaller pieces?")
    draft = lines_draft(question, [anchor, *others], name="Fill", anchored=True)
    rows = [row.strip().rsplit(" [", 1)[0] for row in draft.answer.split("\n")[1:]]
    chops = next(i for i, r in enumerate(rows) if r.startswith("// breakApart chops"))
    assert rows[chops - 1] == "func breakApart(word string, width int) []string {", rows


HUNK_PY = (
    """def grow(self, ops):
    for op in ops:
        self.seen += 1
"""
    + "".join(f"        self.count_{n} = op.count({n})\n" for n in range(12))
    + """        # We keep twice the context so that if a difference comes
        # within it the hunk grows instead of being emitted,
        # which needs the length of both sequences
        # to print the line count in the header.
        if self.diffs and self.ctx > self.lines * 2:
            self.emit(ops)
"""
)


def test_explaining_a_comment_inside_a_body_quotes_the_code_under_it() -> None:
    blocks = parse(HUNK_PY.encode(), source="hunk.py").blocks
    file = SourceFile("hunk.py", "hunk.py", blocks)
    start = blocks[0].text.index("# We keep")
    selected = "# We keep twice the context so that if a difference comes"
    anchor = code_anchor_unit(Place(file, blocks[0]), start, start + len(selected))
    draft = lines_draft(read_question("Explain this."), [anchor], name="grow", anchored=True)
    rows = [row.strip().rsplit(" [", 1)[0] for row in draft.answer.split("\n")[1:]]
    assert "if self.diffs and self.ctx > self.lines * 2:" in rows, rows
    assert "self.seen += 1" not in rows, rows  # the function's top is not what it explains


NODE_JS = """/**
 * Build up the default `inspectOpts` object from the environment variables.
 *
 *   $ DEBUG_COLORS=no DEBUG_DEPTH=10 DEBUG_SHOW_HIDDEN=enabled node script.js
 */
exports.inspectOpts = Object.keys(process.env).filter(key => {
	return /^debug_/i.test(key);
});

class Init {
	__init__() {
		return 1;
	}
}
"""


def test_a_name_family_written_with_a_wildcard_is_found_by_its_members() -> None:
    # ``DEBUG_*`` names DEBUG_COLORS, DEBUG_DEPTH, …: no refusal for ``DEBUG_`` missing
    rows = answered(NODE_JS, "node.js", "", "where are the DEBUG_* env vars picked up in node")
    assert any("return /^debug_/i.test(key);" in row for row in rows)
    # a dunder is a name of its own, found as written
    assert answered(NODE_JS, "node.js", "Init.__init__", "what does __init__ return?")
    units = units_of(NODE_JS, "node.js")
    missing = lines_draft(read_question("what does LOG_* say?"), units, name="", anchored=False)
    assert missing.status == "not_covered"


RETRY_PY = """class Fetcher:
    def fetch(self, url):
        reply = self.session.get(url)
        if reply.status == 429:
            # The server asks for a pause: wait as long as it says
            # before the next try.
            delay = int(reply.headers.get("Retry-After", "1"))
            time.sleep(delay)
            reply = self.session.get(url)
        return reply
"""


def test_a_block_opener_brings_its_body_s_first_code_line_past_a_comment() -> None:
    lines = list(code_lines(units_of(RETRY_PY, "fetch.py")))
    opener = next(ln for ln in lines if ln.text.strip() == "if reply.status == 429:")
    brought = [ln.text.strip() for ln in opened(lines, opener)]
    assert brought == ['delay = int(reply.headers.get("Retry-After", "1"))'], brought


PAYLOAD_PY = """class Store:
    def save(self, data):
        payload = json.dumps(data)
        self.handle.seek(0)
        self.handle.write(payload)
        self.handle.truncate()
        self.handle.flush()
        os.fsync(self.handle.fileno())
        self.saved_at = time.time()
        self.count += 1
"""


def test_the_room_the_picked_lines_leave_reads_on_from_them() -> None:
    rows = answered(
        PAYLOAD_PY, "store.py", "Store.save", "What happens once the payload is written?"
    )
    written = rows.index("self.handle.write(payload)")
    assert rows[written + 1] == "self.handle.truncate()", rows
