"""Runs a numpy golden function for ascendopt (msopst calling convention).

usage: golden_runner.py JOB.json

The job names the golden module and function, the input tensors (raw files in their dtype),
the output tensors to produce and the attributes. The function is called with keyword
arguments: every input and output name maps to a dict {"value", "dtype", "shape", "format",
"name"} ("value" is None for outputs), a dynamic (list) parameter to a list of such dicts, and
every attribute name to its value. It returns the outputs, as one array or a list in OpDef
order, a list output as a list of arrays (an operator whose only output is a list may return
that list itself). Outputs are written as float64 files. None for an output says the operator
leaves it unwritten by contract (its documentation says it does not produce it): the output is
then neither compared nor required to be written, and its file is replaced by FILE.unwritten.
bfloat16 has no numpy dtype: such inputs arrive as float32 arrays. complex64 inputs arrive as
complex64 arrays; a complex64 output is written as float64 (real, imaginary) pairs. An output that
shares its name with an input (an in-place "ref" tensor, as Eye's y) is passed once, as the input.

Exit codes: 0 done, 1 the golden failed (message on stderr), 3 no numpy, 4 the golden module
imports a module this Python does not have (first stderr line names it).
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
    "complex64": np.complex64,
}


def fail(message, code=1):
    sys.stderr.write("golden: error: " + message + "\n")
    sys.exit(code)


def load_input(t):
    if t["dtype"] == "bfloat16":
        raw = np.fromfile(t["file"], dtype=np.uint16).astype(np.uint32) << 16
        return raw.view(np.float32).reshape(t["shape"])
    return np.fromfile(t["file"], dtype=NUMPY_TYPES[t["dtype"]]).reshape(t["shape"])


def describe(t, value):
    return {"value": value, "dtype": t["dtype"], "shape": list(t["shape"]), "format": t.get("format", "ND"), "name": t["name"]}


def load_module(path):
    spec = importlib.util.spec_from_file_location("ascendopt_golden_module", path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, path.rsplit("/", 1)[0])
    try:
        spec.loader.exec_module(module)
    except ModuleNotFoundError as e:
        fail("%s imports the module '%s', which %s does not have" % (path, e.name, sys.executable), 4)
    return module


def write_output(t, value):
    arr = np.asarray(value)
    expected = int(np.prod(t["shape"], dtype=np.int64))
    # An output whose shape the kernel computes: the golden gives as many elements as it has,
    # at most what the case allocates.
    if t.get("shape_from_kernel") and arr.size > expected:
        fail("output '%s': golden has %d elements, more than the %d the case allocates" % (t["name"], arr.size, expected))
    if arr.size != expected and not t.get("shape_from_kernel"):
        label = t["name"] + ("[%d]" % t["index"] if "index" in t else "")
        fail("output '%s': golden has %d elements %s, the case expects %d %s"
             % (label, arr.size, list(arr.shape), expected, list(t["shape"])))
    if t["dtype"] == "complex64":
        arr = np.ascontiguousarray(arr.astype(np.complex64)).reshape(-1).view(np.float32)
    elif t["dtype"] in NUMPY_TYPES and t["dtype"] != "bfloat16":
        arr = arr.astype(NUMPY_TYPES[t["dtype"]])
    np.ascontiguousarray(arr.astype(np.float64)).reshape(-1).tofile(t["file"])


def parameters(tensors):
    """The job's tensors grouped by parameter, in order: (name, [tensors], is_list)."""
    groups = []
    for t in tensors:
        if groups and groups[-1][0] == t["name"] and "index" in t:
            groups[-1][1].append(t)
        else:
            groups.append((t["name"], [t], "index" in t))
    return groups


def argument(tensors, is_list, load):
    values = [describe(t, load_input(t) if load else None) for t in tensors]
    return values if is_list else values[0]


def output_values(function, result, params):
    """The golden's result as one value per output parameter (a list for a list parameter)."""
    if len(params) == 1 and params[0][2]:
        count = len(params[0][1])
        nested = isinstance(result, (list, tuple)) and len(result) == 1 and isinstance(result[0], (list, tuple))
        return [result[0]] if nested and count != 1 else [result]
    if not isinstance(result, (list, tuple)):
        result = [result]
    if len(result) != len(params):
        fail("%s returned %d outputs, the operator has %d" % (function, len(result), len(params)))
    return result


def main():
    job = json.load(open(sys.argv[1]))
    module = load_module(job["module"])
    func = getattr(module, job["function"], None)
    if func is None:
        fail("%s defines no function %s" % (job["module"], job["function"]))
    kwargs = {name: argument(ts, is_list, True) for name, ts, is_list in parameters(job["inputs"])}
    outputs = parameters(job["outputs"])
    kwargs.update({name: argument(ts, is_list, False) for name, ts, is_list in outputs if name not in kwargs})
    kwargs.update(job.get("attrs", {}))
    result = func(**kwargs)
    for (name, tensors, is_list), value in zip(outputs, output_values(job["function"], result, outputs)):
        if value is None and not is_list:
            open(tensors[0]["file"] + ".unwritten", "w").close()
            continue
        if not is_list:
            write_output(tensors[0], value)
            continue
        if not isinstance(value, (list, tuple)) or len(value) != len(tensors):
            fail("output '%s' is a list of %d tensors; %s returned %s for it"
                 % (name, len(tensors), job["function"], "%d values" % len(value) if isinstance(value, (list, tuple)) else "one array"))
        for t, v in zip(tensors, value):
            write_output(t, v)


if __name__ == "__main__":
    try:
        main()
    except SystemExit:
        raise
    except Exception as e:
        # One line that says what and where, then the end of the traceback for the log.
        frames = traceback.extract_tb(e.__traceback__)
        where = "%s:%d in %s" % (frames[-1].filename.rsplit("/", 1)[-1], frames[-1].lineno, frames[-1].name) if frames else "?"
        sys.stderr.write("golden: error: the golden raised %s: %s (at %s)\n" % (type(e).__name__, e, where))
        sys.stderr.write("\n".join(traceback.format_exc().strip().splitlines()[-8:]) + "\n")
        sys.exit(1)
