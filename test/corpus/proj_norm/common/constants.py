import triton.language as tl

EPS_DEFAULT = 1e-6
ROW_BLOCK: tl.constexpr = 256
ACC_DTYPE = tl.float32
