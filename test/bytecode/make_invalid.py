#!/usr/bin/env python3
# make_invalid.py - writes the hand-made broken bytecode files of invalid/ (each case is built
# byte by byte here; test/lit/bytecode/invalid.test holds the expected message of each).
import os

MAGIC = bytes([0x89]) + b"TILE\r\n\x1a"
VERSION = bytes([1, 0])


def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def svarint(v):
    return varint((v << 1) ^ (v >> 63) if v >= 0 else ((v << 1) ^ -1) & (2**64 - 1))


def section(sid, payload):
    return bytes([sid]) + varint(len(payload)) + payload


def strings(*ss):
    return section(1, varint(len(ss)) + b"".join(varint(len(s)) + s.encode() for s in ss))


I32, F32, PTR = 4, 8, 16


def types(*ts):
    return section(2, varint(len(ts)) + b"".join(ts))


def scalar(kind):
    return bytes([kind, 0])


def consts(*cs):
    return section(3, varint(len(cs)) + b"".join(cs))


def kernels(*ks):
    return section(4, varint(len(ks)) + b"".join(ks))


def kernel(name_idx, params, ops):
    # params: list of (name string index, type index); ops: encoded op bytes
    body = varint(len(ops)) + b"".join(ops)
    return varint(name_idx) + varint(len(params)) + b"".join(varint(n) + varint(t) for n, t in params) + body


RETURN = bytes([0x98, 0])  # opcode, no attributes
HEAD = MAGIC + VERSION

cases = {
    # header
    "bad_magic": bytes([0x89]) + b"TILX\r\n\x1a" + VERSION,
    "truncated_header": MAGIC,
    "future_major": MAGIC + bytes([2, 0]),
    "future_minor": MAGIC + bytes([1, 7]),
    # section framing
    "unknown_section": HEAD + section(9, b""),
    "section_overruns": HEAD + bytes([1]) + varint(100) + b"\x00\x00",
    "overlong_varint": HEAD + bytes([1]) + bytes([0x80] * 10 + [0x00]),
    "sections_out_of_order": HEAD + types() + strings("k"),
    "repeated_section": HEAD + strings("k") + strings("k"),
    "missing_kernels": HEAD + strings("k") + types(),
    "trailing_bytes": HEAD + section(1, varint(0) + b"\x07") + kernels(),
    # counts and tables
    "huge_string_count": HEAD + section(1, varint(2**40) + b"abc"),
    "bad_element_kind": HEAD + strings("k") + types(bytes([42, 0])) + kernels(),
    "rank_too_high": HEAD + strings("k") + types(bytes([I32, 13]) + b"\x01" * 13) + kernels(),
    "tile_too_large": HEAD + strings("k") + types(bytes([I32, 2]) + varint(4096) + varint(4096)) + kernels(),
    "zero_dim": HEAD + strings("k") + types(bytes([I32, 1, 0])) + kernels(),
    "unknown_constant_tag": HEAD + strings("k") + types() + consts(bytes([9, 0])) + kernels(),
    "string_index_out_of_range": HEAD + strings("k") + types() + consts() + kernels(kernel(5, [], [RETURN])),
    "kernel_name_not_identifier": HEAD + strings("1k") + types() + consts() + kernels(kernel(0, [], [RETURN])),
    # ops
    "unknown_opcode": HEAD + strings("k") + types() + consts() + kernels(kernel(0, [], [bytes([0xEE, 0])])),
    "operand_out_of_range": HEAD + strings("k", "a") + types(scalar(I32)) + consts()
    + kernels(kernel(0, [(1, 0)], [bytes([0x30, 0, 3, 0, 0]), RETURN])),  # addi %a, <value -4>
    "type_index_out_of_range": HEAD + strings("k", "a") + types(scalar(I32)) + consts()
    + kernels(kernel(0, [(1, 0)], [bytes([0x30, 0, 0, 7, 0]), RETURN])),
    "too_many_operands": HEAD + strings("k", "p") + types(bytes([PTR, F32, 0])) + consts()
    + kernels(kernel(0, [(1, 0)], [bytes([0x21, 4, 0, 0, 0, 0, 0]), RETURN])),  # store with 4 operands
    "nested_too_deep": HEAD + strings("k", "c") + types(bytes([1, 0])) + consts()
    + kernels(kernel(0, [(1, 0)], [
        # 70 nested `if` ops with no results: opcode, cond operand, 0 results, 0 attrs, regions
        (lambda depth: (lambda f: f(f, depth))(lambda f, d: bytes([0x94, 0, 0, 0]) + bytes([0]) + varint(1)
                                              + (f(f, d - 1) if d else bytes([0x96, 0, 0])) + bytes([0]) + varint(1) + bytes([0x96, 0, 0])))(70),
        RETURN])),
    "location_count_mismatch": HEAD + strings("k") + types() + consts() + kernels(kernel(0, [], [RETURN]))
    + section(5, varint(5) + b"\x00" * 5),
    # well-formed bytes, invalid IR: the verifier speaks, at the op's recorded location
    "verifier_rejects": HEAD + strings("k", "a", "bad.py") + types(scalar(I32), scalar(F32)) + consts()
    + kernels(kernel(0, [(1, 0)], [bytes([0x74, 0, 0, 0]), RETURN]))  # sqrt on an i32
    + section(5, varint(3) + varint(3) + svarint(10) + varint(1) + varint(3) + svarint(2) + varint(5) + varint(0)),
}

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "invalid")
os.makedirs(here, exist_ok=True)
for name, data in cases.items():
    with open(os.path.join(here, name + ".tbc"), "wb") as f:
        f.write(data)
print(f"wrote {len(cases)} files to {here}")
