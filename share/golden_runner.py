"""Runs a numpy golden function for ascendopt (msopst calling convention).

usage: golden_runner.py JOB.json

The job names the golden module and function, the input tensors (raw files in their dtype),
the output tensors to produce and the attributes. The function is called with keyword
arguments: every input and output name maps to a dict {"value", "dtype", "shape", "format",
"name"} ("value" is None for outputs) and every attribute name to its value. It returns the
outputs, as one array or a list in OpDef order. Outputs are written as float64 files.
bfloat16 has no numpy dtype: such inputs arrive as float32 arrays.
"""
import importlib.util
import json
import sys
import traceback

try:
    import numpy as np
except ImportError:
    sys.stderr.write("golden: error: this Python has no numpy\n")
    sys.exit(3)

NUMPY_TYPES = {
    "float16": np.float16, "float32": np.float32, "double": np.float64, "bfloat16": np.float32,
    "int8": np.int8, "uint8": np.uint8, "int16": np.int16, "uint16": np.uint16,
    "int32": np.int32, "uint32": np.uint32, "int64": np.int64, "uint64": np.uint64, "bool": np.bool_,
}


def fail(message):
    sys.stderr.write("golden: error: " + message + "\n")
    sys.exit(1)


def load_input(t):
    if t["dtype"] == "bfloat16":
        raw = np.fromfile(t["file"], dtype=np.uint16).astype(np.uint32) << 16
        return raw.view(np.float32).reshape(t["shape"])
    return np.fromfile(t["file"], dtype=NUMPY_TYPES[t["dtype"]]).reshape(t["shape"])


def describe(t, value):
    return {"value": value, "dtype": t["dtype"], "shape": list(t["shape"]), "format": "ND", "name": t["name"]}


def main():
    job = json.load(open(sys.argv[1]))
    spec = importlib.util.spec_from_file_location("ascendopt_golden_module", job["module"])
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, job["module"].rsplit("/", 1)[0])
    spec.loader.exec_module(module)
    func = getattr(module, job["function"], None)
    if func is None:
        fail("%s defines no function %s" % (job["module"], job["function"]))
    kwargs = {t["name"]: describe(t, load_input(t)) for t in job["inputs"]}
    kwargs.update({t["name"]: describe(t, None) for t in job["outputs"]})
    kwargs.update(job.get("attrs", {}))
    result = func(**kwargs)
    if not isinstance(result, (list, tuple)):
        result = [result]
    if len(result) != len(job["outputs"]):
        fail("%s returned %d outputs, the operator has %d" % (job["function"], len(result), len(job["outputs"])))
    for t, value in zip(job["outputs"], result):
        arr = np.asarray(value)
        expected = int(np.prod(t["shape"], dtype=np.int64))
        if arr.size != expected:
            fail("output '%s': golden has %d elements %s, the case expects %d %s"
                 % (t["name"], arr.size, list(arr.shape), expected, list(t["shape"])))
        if t["dtype"] in NUMPY_TYPES and t["dtype"] != "bfloat16":
            arr = arr.astype(NUMPY_TYPES[t["dtype"]])
        np.ascontiguousarray(arr.astype(np.float64)).reshape(-1).tofile(t["file"])


if __name__ == "__main__":
    try:
        main()
    except SystemExit:
        raise
    except Exception:
        lines = traceback.format_exc().strip().splitlines()
        fail("the golden raised an exception:\n" + "\n".join(lines[-8:]))
