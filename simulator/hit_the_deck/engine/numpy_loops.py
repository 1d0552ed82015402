"""numpy's own log, cos and sin inside compiled code, for the passes that run without going back
to Python (compiled_run.py) and for rollout's play-outs (strategies/htd_playout.py).

FastRun leaves log, cos and sin to numpy: its vectorised loops differ from libm's (numba's) in the
last bit now and then, which would change a close slap race or a cut. Compiled code calls numpy's
own float64 loops through their addresses in the ufunc objects (the numpy C API's PyUFuncObject:
`functions` holds each type signature's loop), a whole array at a time; numpy's results do not
depend on an element's place in the array (loops() checks them against the ufuncs once).
"""
from __future__ import annotations

import ctypes
from collections import namedtuple

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from moonshot.simulator.hit_the_deck.engine import kernels
from moonshot.simulator.hit_the_deck.engine.cache_keys import depends_on

Loops = namedtuple("Loops", ("log", "cos", "sin"))
TWO_PI = 2 * np.pi               # numpy's `2 * np.pi * u`: the product first, as Python does


class _UFunc(ctypes.Structure):
    _fields_ = [("ob_refcnt", ctypes.c_ssize_t), ("ob_type", ctypes.c_void_p), ("nin", ctypes.c_int),
                ("nout", ctypes.c_int), ("nargs", ctypes.c_int), ("identity", ctypes.c_int),
                ("functions", ctypes.POINTER(ctypes.c_void_p)), ("data", ctypes.POINTER(ctypes.c_void_p)),
                ("ntypes", ctypes.c_int)]


def _loop_address(ufunc) -> int:
    """The address of `ufunc`'s float64 -> float64 loop (0 when the object is not laid out as expected)."""
    s = _UFunc.from_address(id(ufunc))
    if (s.nin, s.nout, s.ntypes) != (1, 1, len(ufunc.types)) or "d->d" not in ufunc.types:
        return 0
    i = ufunc.types.index("d->d")
    return int(s.functions[i] or 0) if not s.data[i] else 0


@intrinsic
def numpy_loop(typingctx, addr, src, dst, n):
    """dst[:n] = the ufunc at `addr` of src[:n] (both contiguous float64): its inner loop called as
    numpy calls it, (args, dimensions, steps, data)."""
    def codegen(context, builder, signature, args):
        addr_v, src_v, dst_v, n_v = args
        i8p, i64 = ir.IntType(8).as_pointer(), ir.IntType(64)
        sp = context.make_array(signature.args[1])(context, builder, src_v).data
        dp = context.make_array(signature.args[2])(context, builder, dst_v).data
        fnty = ir.FunctionType(ir.VoidType(), [i8p.as_pointer(), i64.as_pointer(), i64.as_pointer(), i8p])
        fn = builder.inttoptr(context.cast(builder, addr_v, signature.args[0], types.int64), fnty.as_pointer())
        argv = cgutils.alloca_once(builder, i8p, size=2)
        builder.store(builder.bitcast(sp, i8p), argv)
        builder.store(builder.bitcast(dp, i8p), builder.gep(argv, [ir.Constant(i64, 1)]))
        dims = cgutils.alloca_once(builder, i64, size=1)
        builder.store(context.cast(builder, n_v, signature.args[3], types.int64), dims)
        steps = cgutils.alloca_once(builder, i64, size=2)
        builder.store(ir.Constant(i64, 8), steps)
        builder.store(ir.Constant(i64, 8), builder.gep(steps, [ir.Constant(i64, 1)]))
        builder.call(fn, [argv, dims, steps, ir.Constant(i8p, None)])
        return context.get_dummy_value()
    return types.void(addr, src, dst, n), codegen


@numba.njit(cache=True, nogil=True, _nrt=False)
def _apply(addr, src, dst):
    numpy_loop(addr, src, dst, len(src))


_LOOPS: list = []


def loops() -> Loops | None:
    """numpy's log, cos and sin loops, once they computed the same as the ufuncs on a sample
    (None when they cannot be found or differ: FastRun then goes back to numpy every pass)."""
    if not _LOOPS:
        f = Loops(*(_loop_address(u) for u in (np.log, np.cos, np.sin)))
        ok = all(f)
        if ok:
            u = (np.random.default_rng(0).random(257) + 1e-3) * 3.0
            for addr, ufunc in zip(f, (np.log, np.cos, np.sin)):
                out = np.empty_like(u)
                _apply(addr, u, out)
                ok &= bool(np.array_equal(out, ufunc(u)))
        _LOOPS.append(f if ok else None)
    return _LOOPS[0]


# the scratch of a pass's cuts and races: the cuts' uniforms and their normals, the races'
# uniforms, numpy's log of each and cos and sin of 2 pi times each seat's second
Chance = namedtuple("Chance", ("cut_u", "cut_a", "cut_b", "z", "race_u", "tie", "race_log", "angle", "race_cos",
                               "race_sin"))


def chance_scratch(n: int, P: int) -> Chance:
    R = kernels.RACE_SLOTS * P
    f = np.zeros
    return Chance(f((n, 2)), f(n), f(n), f(n), f((n, R)), f(n), f((n, R)), f((n, P)), f((n, P)), f((n, P)))


@numba.njit(cache=True, nogil=True, _nrt=False)
def cut_normals(s, x, f, rows):
    """FastRun.cut_normals into x.z: keyed_chance.normal_pair's first normal of each cut's uniforms."""
    nc = len(rows)
    kernels.cut_uniforms(s, rows, x.cut_u[:nc])
    for i in range(nc):
        x.cut_a[i] = x.cut_u[i, 0]
        x.z[i] = TWO_PI * x.cut_u[i, 1]
    numpy_loop(f.log, x.cut_a[:nc], x.cut_b[:nc], nc)
    numpy_loop(f.cos, x.z[:nc], x.z[:nc], nc)
    for i in range(nc):
        x.z[i] = np.sqrt(-2.0 * x.cut_b[i]) * x.z[i]


@numba.njit(cache=True, nogil=True, _nrt=False)
def settle_races(s, g, b, x, f):
    """FastRun.settle_races: the uniforms, numpy's log of each and cos and sin of 2 pi times each
    seat's second, then kernels.settle_races."""
    m = b.n_race[0]
    P = g.P
    RS = kernels.RACE_SLOTS
    U = x.race_u[:m]
    kernels.race_uniforms(s, g, b, U, x.tie[:m])
    for j in range(m):
        for i in range(P):
            x.angle[j, i] = TWO_PI * U[j, RS * i + 1]
    numpy_loop(f.log, U.reshape(-1), x.race_log[:m].reshape(-1), m * RS * P)
    numpy_loop(f.cos, x.angle[:m].reshape(-1), x.race_cos[:m].reshape(-1), m * P)
    numpy_loop(f.sin, x.angle[:m].reshape(-1), x.race_sin[:m].reshape(-1), m * P)
    kernels.settle_races(s, g, b, U, x.race_log[:m], x.race_cos[:m], x.race_sin[:m], x.tie[:m])


for _caller in (cut_normals, settle_races):
    depends_on(_caller, kernels.__name__)
