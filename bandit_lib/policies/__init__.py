"""Bandit policies: one module per algorithm."""
