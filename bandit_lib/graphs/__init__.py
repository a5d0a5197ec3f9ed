"""Graphs over the arms (UIG chapter: unit interval graphs, side information, candidate sets)."""
