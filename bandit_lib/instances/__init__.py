"""Instance generators: synthetic test cases and seeded stand-ins for the papers' real data.

* :mod:`bandit_lib.instances.planted` — k-sigma test cases with planted high outliers (ZHUANG17
  Fig. 1 and 3; spec ``rr_wrr.md`` 4.2), and the ``natural`` / ``uniform_gap`` alternatives.
* :mod:`bandit_lib.instances.twitter_like` — the Twitter-like stand-in (47 regions, 20 keywords;
  spec ``rr_wrr.md`` 4.3), shared by the ZHUANG17 and GOLD20 chapters.
* :mod:`bandit_lib.instances.gold_synthetic` — GOLD20: a tight block of (ε, ρ)-outliers injected
  among random normal arms, upper-side or intermediate (spec ``gold.md`` 4.2).
* :mod:`bandit_lib.instances.gold_twitter` — GOLD20: the Twitter-like stand-in labelled with the
  generic definitions (spec ``gold.md`` 4.3).
* :mod:`bandit_lib.instances.yahoo_like` — GOLD20: the Yahoo!-like stand-in (five days of CTRs,
  low outliers on two of them; spec ``gold.md`` 4.4).
* :mod:`bandit_lib.instances.uig_instances` — UIG: random arms with their similarity graph and
  revealed side information, and the designed instances of the theory checks.
* :mod:`bandit_lib.instances.jester_like` — UIG: the Jester-like stand-in for Jester dataset 1.

Every generator takes a seed (an int or a SeedSequence, see :mod:`bandit_lib.seeding`) or a numpy
Generator, and draws from named sub-streams, so a case does not depend on which other cases exist.
"""
