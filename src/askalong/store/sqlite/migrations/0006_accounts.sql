-- Accounts: users (argon2id password hashes), their API tokens (sha256 digests: a token is
-- 256 random bits, so a fast hash is enough and a lookup is one index probe), organisations
-- as a tree, and memberships with a role. The zero-config install has no rows here.

CREATE TABLE users (
    id TEXT PRIMARY KEY,
    password_hash TEXT NOT NULL,
    disabled INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
    created TEXT NOT NULL
) STRICT;

CREATE TABLE api_tokens (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    digest TEXT NOT NULL UNIQUE,
    label TEXT NOT NULL,
    created TEXT NOT NULL,
    revoked INTEGER NOT NULL DEFAULT 0 CHECK (revoked IN (0, 1))
) STRICT;

CREATE INDEX api_tokens_by_user ON api_tokens (user_id);

CREATE TABLE orgs (
    id TEXT PRIMARY KEY,
    parent TEXT REFERENCES orgs (id),
    created TEXT NOT NULL
) STRICT;

CREATE TABLE memberships (
    org_id TEXT NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('member', 'admin')),
    PRIMARY KEY (org_id, user_id)
) STRICT, WITHOUT ROWID;

CREATE INDEX memberships_by_user ON memberships (user_id, org_id);

-- Each document's access tokens (types.document_tokens): u:<owner>, public, o:<org>. The
-- permission filter is one EXISTS over (token, document_id); a visibility change rewrites
-- a document's rows in the transaction that changes the document.
CREATE TABLE document_access (
    document_id TEXT NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    token TEXT NOT NULL,
    PRIMARY KEY (document_id, token)
) STRICT, WITHOUT ROWID;

CREATE INDEX document_access_by_token ON document_access (token, document_id);

-- Existing documents keep exactly who saw them: the owner's token for every one (the
-- local owner, on an install that had no accounts), public and org tokens as before.
INSERT INTO document_access (document_id, token) SELECT id, 'u:' || owner FROM documents;
INSERT INTO document_access (document_id, token)
    SELECT id, 'public' FROM documents WHERE visibility = 'public';
INSERT OR IGNORE INTO document_access (document_id, token)
    SELECT t.document_id, 'o:' || t.tag FROM document_org_tags t
    JOIN documents d ON d.id = t.document_id WHERE d.visibility = 'org';
