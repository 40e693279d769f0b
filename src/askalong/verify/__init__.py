"""Checked, never trusted: quotes located verbatim, claims verified against their passages."""
