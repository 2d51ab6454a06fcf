// Prelude.cpp - the prelude's source: Philox-4x32 with 10 rounds and the conversions to
// uniform and normal floats, following the algorithm of Triton's language/random.py so that
// tl.rand / tl.randn / tl.randint give the same numbers as Triton's for the same seed and
// offsets (up to the last ulp of log/cos/sin/sqrt in randn).
#include "frontend/Prelude.h"

#include <cstdlib>
#include <iostream>

#include "frontend/PyParser.h"

namespace tilevm::frontend {

namespace {

const char* kPreludeSource = R"PY(
import triton
import triton.language as tl

# Philox-4x32 constants: the key schedule (Weyl sequence) and the round multipliers.
PHILOX_KEY_A = 0x9E3779B9
PHILOX_KEY_B = 0xBB67AE85
PHILOX_ROUND_A = 0xD2511F53
PHILOX_ROUND_B = 0xCD9E8D57
N_ROUNDS_DEFAULT = 10


@triton.jit
def philox_rounds(c0, c1, c2, c3, k0, k1, n_rounds: tl.constexpr):
    for _ in tl.static_range(n_rounds):
        a0 = c0
        a2 = c2
        c0 = tl.umulhi(PHILOX_ROUND_B, a2) ^ c1 ^ k0
        c2 = tl.umulhi(PHILOX_ROUND_A, a0) ^ c3 ^ k1
        c1 = PHILOX_ROUND_B * a2
        c3 = PHILOX_ROUND_A * a0
        k0 = k0 + PHILOX_KEY_A
        k1 = k1 + PHILOX_KEY_B
    return c0, c1, c2, c3


@triton.jit
def philox(seed, c0, c1, c2, c3, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    seed = tl.to_tensor(seed).to(tl.uint64)
    key_hi = ((seed >> 32) & 0xFFFFFFFF).to(tl.uint32)
    key_lo = (seed & 0xFFFFFFFF).to(tl.uint32)
    c0 = tl.to_tensor(c0).to(tl.uint32, bitcast=True)
    c1 = tl.to_tensor(c1).to(tl.uint32, bitcast=True)
    c2 = tl.to_tensor(c2).to(tl.uint32, bitcast=True)
    c3 = tl.to_tensor(c3).to(tl.uint32, bitcast=True)
    return philox_rounds(c0, c1, c2, c3, key_lo, key_hi, n_rounds)


@triton.jit
def randint4x(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    offset = tl.to_tensor(offset)
    zero = offset * 0
    return philox(seed, offset, zero, zero, zero, n_rounds)


@triton.jit
def randint(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    r0, r1, r2, r3 = randint4x(seed, offset, n_rounds)
    return r0


@triton.jit
def uint_to_uniform_float(x):
    # The largest scale with (2^31 - 1) * scale < 1 in fp32.
    x = x.to(tl.int32, bitcast=True)
    x = tl.where(x < 0, -x - 1, x)
    return x * 4.6566127342e-10


@triton.jit
def rand(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    return uint_to_uniform_float(randint(seed, offset, n_rounds))


@triton.jit
def pair_uniform_to_normal(u1, u2):
    # Box-Muller
    u1 = tl.maximum(1.0e-7, u1)
    th = 6.283185307179586 * u2
    r = tl.sqrt(-2.0 * tl.log(u1))
    return r * tl.cos(th), r * tl.sin(th)


@triton.jit
def randn(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    r0, r1, r2, r3 = randint4x(seed, offset, n_rounds)
    n0, n1 = pair_uniform_to_normal(uint_to_uniform_float(r0), uint_to_uniform_float(r1))
    return n0
)PY";

}  // namespace

const PyModule& prelude() {
  static const PyModule* module = [] {
    auto m = parsePython(kPreludeSource, "<tilevm prelude: triton.language.random>");
    if (!m) {
      std::cerr << "tilevm: internal error: the prelude does not parse: " << m.error().message << "\n";
      std::abort();
    }
    auto* p = new PyModule(std::move(*m));  // lives as long as the process
    p->adoptFunctions();
    return p;
  }();
  return *module;
}

}  // namespace tilevm::frontend
