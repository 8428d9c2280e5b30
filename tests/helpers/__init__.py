"""What the tests share: tree invariants, scikit-learn's checks with expected failures,
printed rules read back as numbers, memory references, widget helpers and the benchmark
scripts as modules.

``tests/`` and each subject folder are packages (test modules of the same name in two
folders do not collide, and no folder's name hides a benchmark script's), so the tests import
these as ``tests.helpers.<module>``.
"""
