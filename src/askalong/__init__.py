"""AskAlong (随问): grounded answers about what you are reading, from what you are reading.

The public API: the settings, the values that flow through the pipeline (``askalong.types``)
and the error tree (``askalong.errors``). Importing ``askalong`` stays cheap (standard
library only), because every ``askalong.*`` import runs this module first. The working
objects open a store or load the tokenisers and search engines, so they are imported from
their modules when needed::

    from askalong.library import Library, opened_library   # store, indexes, searcher
    from askalong.asking.question import Question          # what is asked (read once on use)
    from askalong.asking.choose import make_asker          # the Asker for a library
"""

from askalong.config import load_settings
from askalong.errors import (
    AskAlongError,
    Busy,
    ChecksumMismatch,
    ConfigError,
    Conflict,
    CorruptDocument,
    DiskFull,
    EmptyDocument,
    EncryptedDocument,
    Expired,
    FetchError,
    IndexUnreadable,
    InputError,
    NotFound,
    ParseTimeout,
    ProviderError,
    StoreError,
    TooLarge,
    TooMany,
    Unauthorized,
    Unavailable,
    Unreadable,
    UnsupportedFormat,
)
from askalong.settings import Settings
from askalong.types import (
    Access,
    Anchor,
    Answer,
    AnswerPassage,
    AnswerSpan,
    Block,
    BlockSpan,
    Chunk,
    Claim,
    ConflictNotice,
    Document,
    Hit,
    LineBox,
    ParsedDocument,
    Quote,
    SearchResult,
    StoredDocument,
    Timings,
)
from askalong.values.accounts import ApiToken, Membership, Org, User
from askalong.values.collections import Collection
from askalong.values.threads import Thread, Turn
from askalong.values.uploads import ResumableUpload
from askalong.version import __version__ as __version__

__all__ = [
    "Access",
    "Anchor",
    "Answer",
    "AnswerPassage",
    "AnswerSpan",
    "ApiToken",
    "AskAlongError",
    "Block",
    "BlockSpan",
    "Busy",
    "ChecksumMismatch",
    "Chunk",
    "Claim",
    "Collection",
    "ConfigError",
    "Conflict",
    "ConflictNotice",
    "CorruptDocument",
    "DiskFull",
    "Document",
    "EmptyDocument",
    "EncryptedDocument",
    "Expired",
    "FetchError",
    "Hit",
    "IndexUnreadable",
    "InputError",
    "LineBox",
    "Membership",
    "NotFound",
    "Org",
    "ParseTimeout",
    "ParsedDocument",
    "ProviderError",
    "Quote",
    "ResumableUpload",
    "SearchResult",
    "Settings",
    "StoreError",
    "StoredDocument",
    "Thread",
    "Timings",
    "TooLarge",
    "TooMany",
    "Turn",
    "Unauthorized",
    "Unavailable",
    "Unreadable",
    "UnsupportedFormat",
    "User",
    "load_settings",
]
