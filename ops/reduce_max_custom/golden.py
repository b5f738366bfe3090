import numpy as np


def reduce_max_golden(x, y):
    return [x["value"].max(axis=-1, keepdims=True)]
