-- Feedback on answers: a rating and a reason on one stored turn, with a frozen copy of what
-- was judged (the answer and its citation record, JSON: askalong.wire.feedback) and, for a
-- thumbs-down, its triage. No foreign key to the turn: the record outlives its thread.
-- One record per asker and turn: a second rating replaces the first (newest wins).
CREATE TABLE feedback (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    turn_id TEXT NOT NULL,
    rating TEXT NOT NULL CHECK (rating IN ('up', 'down')),
    reason TEXT NOT NULL,
    judged TEXT NOT NULL,  -- JSON
    source TEXT NOT NULL,
    triage_label TEXT
        CHECK (triage_label IN ('retrieval_miss', 'retrieval_fault', 'generation_fault')),
    triage TEXT,  -- JSON: label, reason, evidence, judge
    created TEXT NOT NULL,
    UNIQUE (owner, turn_id)
) STRICT;

CREATE INDEX feedback_by_owner ON feedback (owner, created DESC);
CREATE INDEX feedback_by_label ON feedback (triage_label, created DESC);
