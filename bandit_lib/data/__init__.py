"""Loaders for the real data formats of the papers (none of the data is shipped)."""
