"""Bandit policies, one per module (regret minimisation and pure exploration)."""
