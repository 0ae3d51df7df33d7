"""Benchmarks and their drivers: run from a checkout's root, e.g. ``python -m
tests.bench.engine``; not tests (pytest collects only ``test_*.py``) and not in the
installed package (#28). README.md's *Benchmarks* lists them."""
