"""The UIG chapter's experiments, one module per figure group: :mod:`~.reduction` (Figs 4–5),
:mod:`~.regret` (Figs 6, 7, 9, 10), :mod:`~.jester` (Fig. 8), :mod:`~.timing` (Tables I–II),
:mod:`~.theory` and :mod:`~.theorem5` (Theorem 5 and Corollary 1 inside their hypotheses);
:mod:`~.common` holds what they share."""
