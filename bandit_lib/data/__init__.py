"""Loaders of real data sets (each documents the checks a user can run on a local copy)."""
