"""python/npusim against the library it wraps (tests/python/test_python.sh runs it).

Every expected value comes from numpy or from the npusim command itself, never
from a hard-coded simulator figure."""
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

import npusim

B = os.environ.get("B", "build/debug")
NPUSIM = os.path.join(B, "npusim")

# f32 add and an f32 matmul, two outputs
MODEL = """func.func @main(%a: tensor<8x32xf32>, %b: tensor<32x16xf32>, %c: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  %1 = stablehlo.add %0, %c : tensor<8x16xf32>
  return %0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
}
"""


def inputs(seed=3):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal((8, 32)).astype(np.float32), rng.standard_normal((32, 16)).astype(np.float32),
            rng.standard_normal((8, 16)).astype(np.float32)]


def bf16_round(x):
    """x rounded to bf16 (nearest even), as f32: what one bf16 pass multiplies."""
    u = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000
    return u.astype(np.uint32).view(np.float32)


class TestNpusim(unittest.TestCase):
    def test_version_is_the_commands(self):
        out = subprocess.run([NPUSIM, "--version"], capture_output=True, text=True, check=True).stdout
        self.assertEqual(out.strip(), "npusim " + npusim.version())

    def test_parse_counts_funcs_and_ops(self):
        info = npusim.parse(MODEL)
        self.assertEqual(info["funcs"], 1)
        self.assertEqual(info["ops"], 4)  # func, dot_general, add, return

    def test_parse_error_is_located(self):
        bad = MODEL.replace("tensor<8x16xf32>\n  return", "tensor<8x17xf32>\n  return")
        with self.assertRaises(npusim.NpusimError) as e:
            npusim.parse(bad, name="bad.mlir")
        self.assertIn("bad.mlir:3:", str(e.exception))

    def test_parse_reads_bytecode(self):
        path = "tests/data/bytecode/jax_annotate_data_placement.mlir.bc"
        with open(path, "rb") as f:
            data = f.read()
        self.assertGreater(npusim.parse(data)["ops"], 1)
        self.assertEqual(npusim.parse(path), npusim.parse(data))

    def test_interp_matches_numpy(self):
        a, b, c = inputs()
        o0, o1 = npusim.interp(MODEL, inputs=[a, b, c])
        want = a.astype(np.float64) @ b.astype(np.float64)
        np.testing.assert_allclose(o0, want, rtol=1e-5, atol=1e-5)
        np.testing.assert_array_equal(o1, o0 + c)  # one f32 add, exactly

    def test_run_on_tpu_multiplies_in_one_bf16_pass(self):
        a, b, c = inputs()
        (o0, o1), rep = npusim.run(MODEL, chip="tpu-v5e", inputs=[a, b, c], check=True)
        self.assertTrue(rep["passed"])
        self.assertEqual(rep["chip"], "tpu-v5e")
        self.assertGreater(rep["total_ps"], 0)
        # DEFAULT precision: the products of bf16-rounded operands, summed in f32
        want = bf16_round(a).astype(np.float64) @ bf16_round(b).astype(np.float64)
        np.testing.assert_allclose(o0, want, rtol=1e-5, atol=1e-5)
        exact = a.astype(np.float64) @ b.astype(np.float64)
        self.assertGreater(np.abs(o0 - exact).max(), 1e-4)  # the precision effect is real ...
        effect = rep["check"][0]["precision_effect"]["max_abs"]  # ... and reported
        self.assertAlmostEqual(effect, np.abs(npusim.interp(MODEL, inputs=[a, b, c])[0] - o0).max(), delta=1e-5)

    def test_run_at_highest_matches_f32(self):
        a, b, c = inputs()
        (o0, _), rep = npusim.run(MODEL, chip="tpu-v5e", inputs=[a, b, c], check=True, precision="highest")
        self.assertTrue(rep["passed"])
        np.testing.assert_allclose(o0, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-5, atol=1e-5)

    def test_expect_passes_and_fails(self):
        a, b, c = inputs()
        outs, rep = npusim.run(MODEL, chip="trn2", inputs=[a, b, c])
        _, good = npusim.run(MODEL, chip="trn2", inputs=[a, b, c], expect=outs)
        self.assertTrue(good["passed"])
        wrong = [outs[0], outs[1] + 0.5]
        _, bad = npusim.run(MODEL, chip="trn2", inputs=[a, b, c], expect=wrong)
        self.assertFalse(bad["passed"])
        self.assertTrue(bad["check"][0]["passed"])
        self.assertFalse(bad["check"][1]["passed"])
        self.assertEqual(bad["check"][1]["bad"], outs[1].size)

    def test_tolerances_per_output(self):
        a, b, c = inputs()
        outs, _ = npusim.run(MODEL, chip="trn2", inputs=[a, b, c])
        off = [outs[0], outs[1] + 0.5]
        # atol 1 on output 1 lets the 0.5 through; output 0 keeps rtol 1e-3 and atol 1e-3 max|want|
        _, rep = npusim.run(MODEL, chip="trn2", inputs=[a, b, c], expect=off, rtol=1e-3, atol={1: 1.0})
        self.assertTrue(rep["passed"])
        self.assertEqual(rep["check"][0]["rtol"], 1e-3)
        self.assertAlmostEqual(rep["check"][0]["atol"], 1e-3 * np.abs(outs[0]).max(), delta=1e-7)  # JSON keeps 6 digits
        self.assertEqual(rep["check"][1]["atol"], 1.0)

    def test_run_failure_raises(self):
        with self.assertRaises(npusim.NpusimError) as e:
            npusim.run(MODEL, chip="no-such-chip", random_inputs=1)
        self.assertIn("no-such-chip", e.exception.stderr)

    def test_estimate_returns_systems(self):
        est = npusim.estimate(MODEL, chips="tpu-v5e:1,trn2:1", batch=8, seq=1)
        chips = sorted(s["chip"] for s in est["systems"])
        self.assertEqual(chips, ["tpu-v5e", "trn2"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
