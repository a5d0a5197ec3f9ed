"""The Foundations chapter: the shared machinery every paper builds on, checked.

The machinery itself is paper-agnostic and lives at the top level (:mod:`bandit_lib.tapes`,
:mod:`bandit_lib.radii`, :mod:`bandit_lib.ksigma`, :mod:`bandit_lib.seeding`); this package holds
only the chapter's experiments:

* :mod:`~bandit_lib.foundations.experiments` — empirical coverage of the confidence radii;
* :mod:`~bandit_lib.foundations.report` — the coverage tables of the chapter.
"""
