"""A seeded world for the isolation tests: a three-level org tree, users in it (some
admins, some in no org), and each user's documents of every visibility, with the oracle
that says who may see what, computed here from the rule and never from the code under
test.

The rule (README, "Accounts and visibility"): a document is visible to its owner; to
everyone when public; when ``org``, to the members of its owner's orgs and of every org
below those (a member of an org sees the org documents of that org and its ancestors).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from askalong.types import Visibility

VISIBILITIES: tuple[Visibility, ...] = ("private", "org", "public")
SHARED_WORDS = ("harbour", "lantern", "granite", "meadow")  # every document says some


@dataclass(frozen=True)
class Doc:
    key: str  # unique per document: its marker word, and its title
    owner: str
    visibility: Visibility
    words: tuple[str, ...]
    pdf: bool
    calls: str | None = None  # a source file: the key of the function its own one calls

    @property
    def code(self) -> bool:
        return self.calls is not None

    @property
    def secret(self) -> str:
        """A sentence only this document says (a question names the key, never this)."""
        return f"The {self.key} note."

    def text(self) -> str:
        body = f"{self.secret} {' '.join(self.words)}. Also {self.key} again."
        if self.calls is not None:  # one function, its docstring the note, calling the next
            # imported, as a real module must: the call graph never guesses a bare name
            head = f"from {self.calls} import {self.calls}\n\n\n"
            return f'{head}def {self.key}():\n    """{body}"""\n    return {self.calls}()\n'
        return f"# {self.key}\n\n{body}\n"


@dataclass(frozen=True)
class World:
    parents: dict[str, str | None]  # org -> its parent
    members: dict[str, tuple[str, ...]]  # user -> orgs (direct)
    admins: dict[str, tuple[str, ...]]  # user -> orgs they administer (direct)
    docs: tuple[Doc, ...]

    @property
    def users(self) -> list[str]:
        return sorted(self.members)

    def ancestors(self, org: str) -> set[str]:
        found: set[str] = set()
        current: str | None = org
        while current is not None:
            found.add(current)
            current = self.parents[current]
        return found

    def may_see(self, user: str, doc: Doc) -> bool:
        if doc.owner == user or doc.visibility == "public":
            return True
        if doc.visibility != "org":
            return False
        reach = set().union(*(self.ancestors(o) for o in self.members[user]))
        return bool(reach & set(self.members[doc.owner]))

    def visible(self, user: str) -> frozenset[str]:
        return frozenset(d.key for d in self.docs if self.may_see(user, d))


def make_world(seed: int, users: int = 8, pdfs: int = 2, coders: int = 0) -> World:
    """``coders``: the first users also own one repository each, a source file of every
    visibility whose functions call each other in a ring (private -> org -> public ->
    private), so a call or a caller may cross into a file someone may not see."""
    rng = random.Random(seed)
    parents: dict[str, str | None] = {"co": None}
    departments = [f"dept{i}" for i in range(2)]
    for dept in departments:
        parents[dept] = "co"
    for i in range(4):
        parents[f"team{i}"] = departments[i % 2]
    orgs = sorted(parents)
    names = [f"user{i}" for i in range(users)]
    members = {n: tuple(sorted(rng.sample(orgs, rng.choice((0, 1, 1, 2))))) for n in names}
    admins = {n: tuple(o for o in members[n] if rng.random() < 0.3) for n in names}
    docs = []
    for n in names:
        for visibility in VISIBILITIES:
            key = f"mark{len(docs):03d}x"
            words = tuple(rng.sample(SHARED_WORDS, 2))
            docs.append(Doc(key, n, visibility, words, pdf=len(docs) < pdfs))
    for n in names[:coders]:
        first = len(docs)
        keys = [f"mark{first + i:03d}x" for i in range(len(VISIBILITIES))]
        for i, visibility in enumerate(VISIBILITIES):
            words = tuple(rng.sample(SHARED_WORDS, 2))
            callee = keys[(i + 1) % len(keys)]
            docs.append(Doc(keys[i], n, visibility, words, pdf=False, calls=callee))
    return World(parents, members, admins, tuple(docs))
