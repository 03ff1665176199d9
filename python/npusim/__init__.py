"""npusim from Python: ctypes over libnpusim.so, no compiled extension.

    import npusim
    outs = npusim.interp("model.mlir", random_inputs=1)             # numpy arrays
    outs, report = npusim.run("model.mlir", chip="tpu-v5e", random_inputs=1, check=True)
    table = npusim.estimate("llama3-8b", chips="tpu-v6e:256,trn2:64", workload="decode")

A model is a path, StableHLO text (str) or a portable artifact's bytecode
(bytes, as jax.export serializes it).  The library is found through
$NPUSIM_LIB, then next to this package in a build tree (build/*/), then the
installed copy (lib/ beside the python/ directory, or the loader's path).
docs/frameworks.md has the whole story.
"""
import ctypes
import ctypes.util
import glob
import json
import os
import tempfile

__all__ = ["NpusimError", "version", "parse", "interp", "run", "estimate", "command"]

API_VERSION = 1


def _numpy():
    """numpy, for the calls that take or give arrays (parse, estimate and command need none)."""
    try:
        import numpy
    except ImportError as e:
        raise ImportError("npusim.interp and npusim.run need numpy (Debian: python3-numpy)") from e
    return numpy


class NpusimError(RuntimeError):
    """A command failed: its status and what it printed on stderr."""

    def __init__(self, message, status=1, stderr=""):
        super().__init__(message)
        self.status = status
        self.stderr = stderr


def _library_candidates():
    env = os.environ.get("NPUSIM_LIB")
    if env:
        yield env
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))  # python/npusim -> the tree (or PREFIX/lib/python3/dist-packages)
    # a build tree: the newest build/<dir>/libnpusim.so
    for path in sorted(glob.glob(os.path.join(root, "build", "*", "libnpusim.so")), key=os.path.getmtime, reverse=True):
        yield path
    # installed: PREFIX/lib/python3/dist-packages/npusim -> PREFIX/lib/libnpusim.so
    for up in (root, os.path.dirname(root)):
        yield os.path.join(up, "libnpusim.so")
        yield os.path.join(up, "lib", "libnpusim.so")
    found = ctypes.util.find_library("npusim")
    if found:
        yield found


def _load():
    tried = []
    for path in _library_candidates():
        if not os.path.isabs(path) and os.sep in path:
            path = os.path.abspath(path)
        if os.sep in path and not os.path.exists(path):
            tried.append(path)
            continue
        lib = ctypes.CDLL(path)
        lib.npusim_api_version.restype = ctypes.c_int
        if lib.npusim_api_version() != API_VERSION:
            raise ImportError("%s has npusim API version %d, this package needs %d"
                              % (path, lib.npusim_api_version(), API_VERSION))
        lib.npusim_version.restype = ctypes.c_char_p
        lib.npusim_command.restype = ctypes.c_int
        lib.npusim_command.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p), ctypes.c_char_p, ctypes.c_char_p]
        lib.npusim_check_module.restype = ctypes.c_int
        lib.npusim_check_module.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
                                            ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int),
                                            ctypes.c_char_p, ctypes.c_size_t]
        lib._npusim_path = path
        return lib
    raise ImportError("libnpusim.so not found (build it with `make`, or set NPUSIM_LIB); looked in: "
                      + ", ".join(tried))


_lib = _load()

# The chips directory of the tree or the installation, for commands that
# read chip files (unless the caller set NPUSIM_CHIPS).
if "NPUSIM_CHIPS" not in os.environ:
    _libdir = os.path.dirname(os.path.abspath(_lib._npusim_path))
    for _c in (os.path.join(_libdir, "..", "..", "chips"), os.path.join(_libdir, "..", "share", "npusim", "chips")):
        if os.path.isdir(_c):
            os.environ["NPUSIM_CHIPS"] = os.path.normpath(_c)
            break


def version():
    """npusim's version, as `npusim --version` prints it."""
    return _lib.npusim_version().decode()


def command(*args):
    """Runs one npusim command in this process: command("run", "m.mlir", "--chip", "trn2").
    Returns (status, stdout, stderr) as text."""
    argv = [str(a).encode() for a in args]
    arr = (ctypes.c_char_p * (len(argv) + 1))(*argv, None)
    with tempfile.TemporaryDirectory(prefix="npusim-") as tmp:
        out, err = os.path.join(tmp, "stdout"), os.path.join(tmp, "stderr")
        status = _lib.npusim_command(len(argv), arr, out.encode(), err.encode())
        if status < 0:
            raise NpusimError("npusim: cannot open the output files in " + tmp, status)
        with open(out, encoding="utf-8", errors="replace") as f:
            text = f.read()
        with open(err, encoding="utf-8", errors="replace") as f:
            errors = f.read()
    return status, text, errors


def _checked(*args):
    status, text, errors = command(*args)
    if status != 0:
        last = [l for l in errors.splitlines() if l.strip()]
        raise NpusimError("npusim %s failed (status %d): %s" % (args[0], status, last[-1] if last else "no message"),
                          status, errors)
    return text, errors


class _Model:
    """A model argument as a file path: a path as it is; text or bytecode in a temporary file."""

    def __init__(self, model, tmp):
        if isinstance(model, os.PathLike):
            model = os.fspath(model)
        if isinstance(model, (bytes, bytearray)):
            self.path = os.path.join(tmp, "model.mlir.bc")
            with open(self.path, "wb") as f:
                f.write(model)
        elif isinstance(model, str) and ("\n" in model or "func.func" in model or "module" in model.split("{")[0]) \
                and not os.path.exists(model):
            self.path = os.path.join(tmp, "model.mlir")
            with open(self.path, "w", encoding="utf-8") as f:
                f.write(model)
        elif isinstance(model, str):
            self.path = model
        else:
            raise TypeError("a model is a path, StableHLO text (str) or bytecode (bytes), not %s" % type(model).__name__)


def parse(model, name=None):
    """Parses and verifies a model (path, text or bytecode).  Returns {"funcs": n, "ops": n};
    raises NpusimError with the located diagnostic when it is not valid."""
    if isinstance(model, os.PathLike) or (isinstance(model, str) and os.path.exists(model)):
        name = name or os.fspath(model)
        with open(model, "rb") as f:
            data = f.read()
    else:
        data = model.encode() if isinstance(model, str) else bytes(model)
    n_funcs, n_ops = ctypes.c_int(0), ctypes.c_int(0)
    err = ctypes.create_string_buffer(4096)
    rc = _lib.npusim_check_module(data, len(data), (name or "<python>").encode(), ctypes.byref(n_funcs),
                                  ctypes.byref(n_ops), err, len(err))
    if rc != 0:
        raise NpusimError(err.value.decode(errors="replace"), rc)
    return {"funcs": n_funcs.value, "ops": n_ops.value}


def _bf16_to_f32(a):
    np = _numpy()
    return (a.view("<u2").astype(np.uint32) << 16).view(np.float32)


def _load_npy(path):
    a = _numpy().load(path)
    if a.dtype.kind == "V" and a.dtype.itemsize == 2:  # bf16 (numpy has no bf16): as f32, exactly
        a = _bf16_to_f32(a)
    return a


def _write_inputs(inputs, tmp):
    np = _numpy()
    paths = []
    for i, x in enumerate(inputs):
        p = os.path.join(tmp, "input_%d.npy" % i)
        np.save(p, np.ascontiguousarray(np.asarray(x)))
        paths.append(p)
    return ",".join(paths)


def _inputs_args(inputs, random_inputs, tmp):
    if inputs is not None and random_inputs is not None:
        raise ValueError("give inputs or random_inputs, not both")
    if inputs is not None:
        return ["--inputs", _write_inputs(inputs, tmp)] if len(inputs) else []
    if random_inputs is not None:
        return ["--random-inputs", str(int(random_inputs))]
    return []


def _outputs(out_dir):
    files = glob.glob(os.path.join(out_dir, "output_*.npy"))
    files.sort(key=lambda p: int(os.path.basename(p)[len("output_"):-len(".npy")]))
    return [_load_npy(p) for p in files]


def interp(model, inputs=None, random_inputs=None, entry=None, partitions=None, args=()):
    """Runs the model on the golden interpreter: a list of numpy arrays (bf16 as float32).
    inputs: arrays, one per argument of the entry function; or random_inputs=SEED.
    partitions: SPMD processes (default: the module's mesh); then outputs of process 0."""
    with tempfile.TemporaryDirectory(prefix="npusim-") as tmp:
        m = _Model(model, tmp)
        out = os.path.join(tmp, "out")
        argv = ["interp", m.path, "--out", out] + _inputs_args(inputs, random_inputs, tmp)
        if entry:
            argv += ["--entry", entry]
        if partitions:
            argv += ["--partitions", str(int(partitions))]
        _checked(*(argv + list(args)))
        outs = _outputs(out)
        if not outs:  # a multi-process run names its files per process
            files = glob.glob(os.path.join(out, "p0_output_*.npy"))
            files.sort(key=lambda p: int(os.path.basename(p)[len("p0_output_"):-len(".npy")]))
            outs = [_load_npy(p) for p in files]
        return outs


def _tol_args(opt, value):
    if value is None:
        return []
    if isinstance(value, dict):
        argv = []
        for k, v in value.items():
            argv += [opt, "%s=%r" % (k, float(v))] if k is not None else [opt, repr(float(v))]
        return argv
    return [opt, repr(float(value))]


def run(model, chip, inputs=None, random_inputs=None, check=False, expect=None, rtol=None, atol=None,
        precision=None, mode=None, chips=None, timing_only=False, trace=None, entry=None, args=()):
    """Compiles the model for a chip and runs it on the simulator.
    Returns (outputs, report): numpy arrays (none when timing_only) and the report as a dict
    (docs/report.md).  check=True compares every output with the golden interpreter computing as
    the chip does; expect=DIR (or a list of arrays) with your own reference outputs.  rtol / atol:
    a number, or {output_index: number} (None as a key: every output).  A failed check is in
    report["passed"], not an exception; other failures raise NpusimError."""
    with tempfile.TemporaryDirectory(prefix="npusim-") as tmp:
        m = _Model(model, tmp)
        argv = ["run", m.path, "--chip", chip, "--json"] + _inputs_args(inputs, random_inputs, tmp)
        out = os.path.join(tmp, "out")
        if not timing_only:
            argv += ["--out", out]
        else:
            argv += ["--timing-only"]
        if check:
            argv += ["--check"]
        if expect is not None:
            if not isinstance(expect, (str, os.PathLike)):
                exp = os.path.join(tmp, "expect")
                os.mkdir(exp)
                np = _numpy()
                for i, x in enumerate(expect):
                    np.save(os.path.join(exp, "output_%d.npy" % i), np.ascontiguousarray(np.asarray(x)))
                expect = exp
            argv += ["--expect", os.fspath(expect)]
        argv += _tol_args("--rtol", rtol) + _tol_args("--atol", atol)
        for opt, v in (("--precision", precision), ("--mode", mode), ("--chips", chips), ("--trace", trace),
                       ("--entry", entry)):
            if v is not None:
                argv += [opt, str(v)]
        status, text, errors = command(*(argv + list(args)))
        start = text.find("{")
        if start < 0:
            last = [l for l in errors.splitlines() if l.strip()]
            raise NpusimError("npusim run failed (status %d): %s" % (status, last[-1] if last else "no message"),
                              status, errors)
        report = json.loads(text[start:])
        outs = [] if timing_only else _outputs(out)
        return outs, report


def estimate(model, chips, workload=None, batch=None, seq=None, parallel=None, args=()):
    """Step time, tokens/s, MFU, memory and $ per 1M tokens per system (docs/estimate.md):
    the estimate's JSON as a dict.  model: a preset name (npusim model --list) or a model."""
    with tempfile.TemporaryDirectory(prefix="npusim-") as tmp:
        is_preset = isinstance(model, str) and "\n" not in model and not model.endswith((".mlir", ".bc")) \
            and not os.path.exists(model)
        target = model if is_preset else _Model(model, tmp).path
        argv = ["estimate", target, "--chips", chips, "--json"]
        for opt, v in (("--workload", workload), ("--batch", batch), ("--seq", seq), ("--parallel", parallel)):
            if v is not None:
                argv += [opt, str(v)]
        text, _ = _checked(*(argv + list(args)))
        return json.loads(text[text.find("{"):] if "{" in text else text)
