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

    def text(self) -> str:
        body = " ".join(self.words)
        return f"# {self.key}\n\nThe {self.key} note. {body}. Also {self.key} again.\n"


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


def make_world(seed: int, users: int = 8, pdfs: int = 2) -> World:
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
    return World(parents, members, admins, tuple(docs))
