# Runs the kernels of test/unit/TritonSemanticsTest.cpp's rules on real Triton (the GPU machine
# has it) and prints what Triton computes, so tilevm's rules are checked against Triton itself:
# unsigned pointer offsets, >> by the tensor's dtype, uint meeting a Python int, range keywords,
# compile-time ==, one-element tuples. Needs triton and a CUDA torch; run with plain python3.
import torch
import triton
import triton.language as tl


@triton.jit
def table(codes, lut, out, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(out + offs, tl.load(lut + tl.load(codes + offs)))


@triton.jit
def shr(a, b, out, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(out + offs, tl.load(a + offs) >> tl.load(b + offs))


@triton.jit
def umod(a, out, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(a + offs)
    tl.store(out + offs, x % 7 + x // 3)


@triton.jit
def u32_big(x):
    v = tl.load(x)
    tl.store(x, v + 4294967296)


@triton.jit
def ranges(out):
    acc = 0
    for i in tl.static_range(0, 100, step=7):
        acc += i
    tl.store(out, acc)


@triton.jit
def shape_eq(out):
    x = tl.zeros([4, 8], tl.float32)
    r = 0
    if x.shape == (4, 8):
        r += 1
    tl.store(out, r)


@triton.jit
def add_fn(a, b):
    return a + b


@triton.jit
def one_tuple(a, s, N: tl.constexpr):
    offs = tl.arange(0, N)
    r, = tl.associative_scan((tl.load(a + offs),), 0, add_fn)
    tl.store(s + offs, r)


d = "cuda"
codes = torch.tensor([200, 1, 255, 128], dtype=torch.uint8, device=d)
lut = torch.arange(256, dtype=torch.float32, device=d) * 0.5
out = torch.zeros(4, device=d)
table[(1,)](codes, lut, out, N=4)
print("table (uint8 offsets)", out.tolist(), "expect [100.0, 0.5, 127.5, 64.0]")
a = torch.tensor([-128, -4, -1, 100], dtype=torch.int8, device=d)
b = torch.ones(4, dtype=torch.uint8, device=d)
o = torch.zeros(4, dtype=torch.int8, device=d)
shr[(1,)](a, b, o, N=4)
print("int8 >> uint8", o.tolist(), "expect [-64, -2, -1, 50]")
u = torch.tensor([250, 13, 7, 255], dtype=torch.uint8, device=d)
uo = torch.zeros(4, dtype=torch.uint8, device=d)
umod[(1,)](u, uo, N=4)
print("uint8 % 7 + uint8 // 3", uo.tolist(), "expect", [(x % 7 + x // 3) & 255 for x in [250, 13, 7, 255]])
try:
    x32 = torch.zeros(1, dtype=torch.int32, device=d)  # triton has no uint32 torch dtype: through a wrapper
    u32_big[(1,)](triton.reinterpret(x32, tl.uint32))
    print("uint32 + 2**32: compiled (tilevm says: Scalar 4294967296 is out of range for type uint32)")
except Exception as e:
    print("uint32 + 2**32:", type(e).__name__, str(e).splitlines()[-1][:200])
r = torch.zeros(1, dtype=torch.int32, device=d)
ranges[(1,)](r)
print("static_range(0, 100, step=7)", r.item(), "expect", sum(range(0, 100, 7)))
shape_eq[(1,)](r)
print("x.shape == (4, 8)", r.item(), "expect 1")
f = torch.arange(1, 9, dtype=torch.float32, device=d)
s = torch.zeros(8, device=d)
one_tuple[(1,)](f, s, N=8)
print("r, = associative_scan((x,))", s.tolist())
