"""Loaders of the real data formats of the papers (no data is shipped; each loader documents
the checks a user can run on a local copy)."""
