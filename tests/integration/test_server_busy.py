"""A request that finds a shared resource taken is refused at once (issue 25, §1): 503 with
``Retry-After`` and the JSON error, instead of a thread parked until the holder is done."""

from __future__ import annotations

import threading
import time

import httpx
from api_client import api_client

from askalong.config import Settings
from askalong.server.deps import ServerState

WAIT = 10.0  # seconds a request may take before the test calls it parked: a hang, not a speed
NOTE = b"# Valves\n\nThe red valve opens the cooling loop.\n"


def refused(response: httpx.Response) -> None:
    assert response.status_code == 503, response.text
    assert response.headers["retry-after"] == "2"
    body = response.json()
    assert body["error"]["type"] == "Busy" and body["retry_after"] == 2


def test_a_delete_while_another_change_holds_the_write_lock_is_refused(
    settings: Settings,
) -> None:
    with api_client(settings) as client:
        added = client.post("/api/documents", files={"file": ("valves.md", NOTE)})
        path = f"/api/documents/{added.json()['document']['id']}"
        state: ServerState = client.app.state.askalong  # type: ignore[attr-defined]
        answers: list[httpx.Response] = []
        deleting = threading.Thread(target=lambda: answers.append(client.delete(path)))
        with state.writes:  # a long change, as the embedding under it was before the fix
            deleting.start()
            deleting.join(WAIT)
            parked = deleting.is_alive()
        deleting.join(WAIT)
        assert not parked, "the delete waited for the write lock"
        refused(answers[0])
        assert client.get(path).status_code == 200  # nothing was removed
        assert client.delete(path).status_code == 204  # and once the lock is free, it goes


def test_an_upload_with_every_slot_for_long_steps_taken_is_refused(settings: Settings) -> None:
    with api_client(settings) as client:
        state: ServerState = client.app.state.askalong  # type: ignore[attr-defined]
        release = threading.Event()
        for _ in range(state.long_work.slots):  # parses of large files, say
            state.long_work.start(lambda: release.wait(WAIT))
        try:
            refused(client.post("/api/documents", files={"file": ("valves.md", NOTE)}))
        finally:
            release.set()
        deadline = time.monotonic() + WAIT
        while state.long_work.running and time.monotonic() < deadline:
            time.sleep(0.05)  # the slots' threads end
        added = client.post("/api/documents", files={"file": ("valves.md", NOTE)})
        assert added.status_code == 201, added.text
