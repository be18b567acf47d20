"""One subpackage per game. Each depends on :mod:`boardlab.core` only and registers itself."""
