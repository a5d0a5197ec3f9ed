"""The UIG chapter's experiments, one module per figure group: :mod:`~.reduction` (Figs 4–5),
:mod:`~.regret` (Figs 6, 7, 9, 10), :mod:`~.jester` (Fig. 8), :mod:`~.timing` (Tables I–II) and
:mod:`~.theory`; :mod:`~.common` holds what they share."""
