"""Permission (issue 15): the chat agent run as a user never cites, counts or searches a
document that user may not see. The seeded world of the isolation tests
(``isolation_world``: orgs three levels deep, each user's documents of every visibility)
is ingested through the library with each owner's access; every user then asks about
every document's marker word, and about the words all documents share, two parts at a
time. Every source of every answer is held against the world's oracle, and
``knowledge_stats`` counts exactly the visible documents."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from chat_server import Reply, ScriptedChatServer
from isolation_world import SHARED_WORDS, World, make_world

from askalong.agent.chat_agent import ChatRequest
from askalong.agent.wiring import make_chat_agent
from askalong.config import Settings
from askalong.errors import NotFound
from askalong.library import Library
from askalong.types import Access

SEED = 15


def build(library: Library, world: World, folder: Path) -> dict[str, str]:
    """The world's orgs, users and documents; document id -> the document's key."""
    store = library.store
    for org, parent in world.parents.items():
        store.add_org(org, parent)
    for user in world.users:
        store.add_user(user, "isolation password 1")
        for org in world.members[user]:
            store.set_member(org, user, "admin" if org in world.admins[user] else "member")
    keys = {}
    for doc in world.docs:
        path = folder / f"{doc.key}.md"
        path.write_text(doc.text(), encoding="utf-8")
        access = store.access_of(doc.owner)
        outcome = library.ingestor.add(str(path), access, visibility=doc.visibility)
        assert outcome.document is not None, outcome.error
        keys[outcome.document.id] = doc.key
    return keys


def test_the_agent_cites_only_what_its_asker_may_see(settings: Settings, tmp_path: Path) -> None:
    world = make_world(SEED, users=5, pdfs=0)
    leaks = []
    with Library(settings) as library:
        keys = build(library, world, tmp_path)
        agent = make_chat_agent(library)
        for user in world.users:
            access = library.store.access_of(user)
            visible = world.visible(user)
            pairs = [d.key for d in world.docs]
            questions = [
                f"What is the {a} note? And also what is the {b} note?"
                for a, b in zip(pairs[::2], pairs[1::2], strict=False)
            ]
            questions.append(f"Where is the {SHARED_WORDS[0]}? And also the {SHARED_WORDS[1]}?")
            cited_any = False
            for question in questions:
                answer = agent.ask(ChatRequest(question, access))
                cited = {keys[s.document_id] for s in answer.sources}
                cited_any = cited_any or bool(cited)
                if not cited <= visible:
                    leaks.append(f"{user}: {question} cited {sorted(cited - visible)}")
            assert cited_any, f"{user} was answered from nothing at all"
            stats = agent.ask(ChatRequest("How many documents are there?", access))
            assert f"{len(visible)} document" in stats.answer, (user, stats.answer)
    assert leaks == []


def test_an_answer_never_names_a_document_the_asker_may_not_see(
    settings: Settings, tmp_path: Path
) -> None:
    """The marker word of another user's private document finds nothing: the part is
    not covered, never answered from the hidden document."""
    world = make_world(SEED, users=5, pdfs=0)
    with Library(settings) as library:
        build(library, world, tmp_path)
        agent = make_chat_agent(library)
        user = world.users[0]
        hidden = next(d for d in world.docs if d.owner != user and d.visibility == "private")
        own = next(d for d in world.docs if d.owner == user)
        access: Access = library.store.access_of(user)
        question = f"What is the {own.key} note? And also what is the {hidden.key} note?"
        answer = agent.ask(ChatRequest(question, access))
        assert answer.parts[0].status == "answered"
        assert answer.parts[1].status == "not_covered"
        assert hidden.key not in answer.parts[1].answer  # the question names it; nothing else
        assert all(s.document_id != hidden.key for s in answer.sources)


def test_another_users_conversation_is_not_found(settings: Settings, tmp_path: Path) -> None:
    world = make_world(SEED, users=5, pdfs=0)
    with Library(settings) as library:
        build(library, world, tmp_path)
        agent = make_chat_agent(library)
        owner, intruder = world.users[:2]
        mine = agent.ask(ChatRequest("Where is the harbour?", library.store.access_of(owner)))
        follow = ChatRequest(
            "And the meadow?", library.store.access_of(intruder), (), mine.conversation_id
        )
        with pytest.raises(NotFound):
            agent.ask(follow)
        assert len(library.store.turns(mine.conversation_id or "")) == 1


def test_the_model_driven_agent_never_sees_or_cites_a_hidden_chunk(
    settings: Settings, tmp_path: Path
) -> None:
    """With a model: it searches for every document's marker word (the hidden ones too)
    and cites every number it could have; the passages it is shown and the sources cited
    are only what the asker may see."""
    world = make_world(SEED, users=5, pdfs=0)
    with ScriptedChatServer() as server:
        model = replace(
            settings,
            answerer="openai",
            llm_base_url=server.url,
            llm_model="scripted-model",
            llm_judge=False,
        )
        with Library(model) as library:
            keys = build(library, world, tmp_path)
            user = world.users[0]
            visible = world.visible(user)
            hidden = [d.key for d in world.docs if d.key not in visible]
            assert hidden, "the world hides something from the first user"
            searches = [
                ("search_knowledge", {"query": f"{a} {b}", "top_k": 10})
                for a, b in zip(hidden[::2], hidden[1::2] or hidden, strict=False)
            ][:4]
            searches.append(("search_knowledge", {"query": " ".join(SHARED_WORDS), "top_k": 10}))
            cites = " ".join(f"The note says so [{n}]." for n in range(1, 41))
            server.script(Reply.tool_calls(*searches), Reply.text(cites))
            agent = make_chat_agent(library)
            answer = agent.ask(ChatRequest("What do the notes say?", library.store.access_of(user)))
    shown = [m["content"] for m in server.chat_bodies[1]["messages"] if m["role"] == "tool"]
    assert len(shown) == len(searches) and answer.mode == "model"
    assert not [k for k in hidden for text in shown if re.search(rf"\b{k}\b", text)]
    cited = {keys[s.document_id] for s in answer.sources}
    assert cited and cited <= visible
