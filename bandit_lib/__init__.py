"""bandit_lib: the shared engine of the outlier and thresholding bandits book.

Modules are imported explicitly (``from bandit_lib.tapes import bernoulli_tape``); this package
file stays empty on purpose, because each cached result is fingerprinted by the import closure
of the code that produced it (:mod:`bandit_lib.fingerprint`), and re-exports here would tie every
result to every module.
"""

__version__ = "0.1.0"
