"""Data of many classes and the size of a tree's class counts, for the memory tests."""
import numpy as np
from scipy import sparse


def many_classes(n_classes=300, per_class=3, n_features=5, seed=0):
    """``per_class`` random rows of each of ``n_classes`` classes, shuffled."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(n_classes), per_class)
    rng.shuffle(y)
    return rng.normal(size=(y.size, n_features)), y


def counts_bytes(tree):
    """Bytes of a tree's class counts and distributions, dense or sparse."""
    def size(matrix):
        if sparse.issparse(matrix):
            return matrix.data.nbytes + matrix.indices.nbytes + matrix.indptr.nbytes
        return matrix.nbytes
    return size(tree.value) + size(tree.proba)
