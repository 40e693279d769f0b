"""The JSON form of ``askalong doctor --json`` (README "Doctor"): what the checks found,
what ``--repair`` did and what is left. The values themselves are ``values/findings``."""

from __future__ import annotations

from collections.abc import Sequence

from typing_extensions import TypedDict

from askalong.values.findings import Finding, Repair


class FindingJSON(TypedDict):
    """One disagreement ``askalong doctor --json`` found (kinds: README, "Doctor")."""

    kind: str
    subject: str
    detail: str
    repairable: bool


class RepairJSON(TypedDict):
    kind: str
    subject: str
    action: str


class DoctorJSON(TypedDict):
    """``askalong doctor --json``: what was found, what ``--repair`` did, what is left."""

    healthy: bool
    findings: list[FindingJSON]
    repaired: list[RepairJSON]
    remaining: list[FindingJSON]


def finding_json(finding: Finding) -> FindingJSON:
    return {
        "kind": finding.kind,
        "subject": finding.subject,
        "detail": finding.detail,
        "repairable": finding.repairable,
    }


def doctor_json(
    found: Sequence[Finding], repaired: Sequence[Repair], remaining: Sequence[Finding]
) -> DoctorJSON:
    return {
        "healthy": not remaining,
        "findings": [finding_json(f) for f in found],
        "repaired": [{"kind": r.kind, "subject": r.subject, "action": r.action} for r in repaired],
        "remaining": [finding_json(f) for f in remaining],
    }
