"""The papers' policies, one module per policy (its math in the module docstring)."""
