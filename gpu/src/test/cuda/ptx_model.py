"""Simulates the PTX carry chains exactly as written in field.cuh (parsed from the file) and checks Field<P>::mul."""
import re, random, sys
import os
SRC = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../main/cuda/field.cuh")).read()
M32 = 0xffffffff
lost = {"count": 0}

def blocks(N):
    body = SRC[SRC.index("struct FieldAsm<%d>" % N):]
    body = body[:body.index("\n};")]
    out = {}
    for name in ("mul_row", "reduce_row", "sub_mod"):
        seg = body[body.index(" " + name + "("):]
        seg = seg[seg.index("asm("):]
        seg = seg[:seg.index(":")]  # string literals end before the operand lists
        text = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', seg)).replace("\\n", " ").replace("\\t", " ")
        out[name] = [s.strip() for s in text.split(";") if s.strip()]
    return out

def run(ins, ops):
    """ins: PTX lines with %k operands; ops: list of operand values (mutated). Carry flag starts undefined."""
    cf = None
    for line in ins:
        op, args = line.split(None, 1)
        args = [a.strip() for a in args.split(",")]
        val = lambda a: ops[int(a[1:])] if a.startswith("%") else int(a, 0)
        d = int(args[0][1:])
        parts = op.split(".")
        base = parts[0]
        cc_out = "cc" in parts
        uses_c = base in ("madc", "addc", "subc")
        if uses_c:
            assert cf is not None, "carry read before it is set in this asm block: " + line
        cin = cf if uses_c else 0
        if base in ("mad", "madc"):
            prod = val(args[1]) * val(args[2])
            half = prod & M32 if "lo" in parts else prod >> 32
            s = half + val(args[3]) + cin
            ops[d] = s & M32
            if cc_out: cf = s >> 32
            elif s >> 32: lost["count"] += 1
        elif base in ("add", "addc"):
            s = val(args[1]) + val(args[2]) + cin
            ops[d] = s & M32
            if cc_out: cf = s >> 32
            elif s >> 32: lost["count"] += 1
        elif base in ("sub", "subc"):
            s = val(args[1]) - val(args[2]) - cin
            ops[d] = s & M32
            if cc_out: cf = 1 if s < 0 else 0
        else:
            raise ValueError(line)
        if not cc_out:
            cf = None if base not in ("sub", "subc", "add", "addc", "mad", "madc") else cf  # non-.cc leaves CF as is
    return ops

def limbs(x, n): return [(x >> (32 * i)) & M32 for i in range(n)]
def value(l): return sum(v << (32 * i) for i, v in enumerate(l))

def device_mul(B, N, mod, inv, a, b):
    al, bl, pl = limbs(a, N), limbs(b, N), limbs(mod, N)
    t = [0] * (N + 1)
    for i in range(N):
        ops = t + al + [bl[i]]
        t = run(B["mul_row"], ops)[:N + 1]
        m = (t[0] * inv) & M32
        ops = t + [m] + pl
        t = run(B["reduce_row"], ops)[:N + 1]
        assert t[0] == 0
        t = t[1:] + [0]
    r = t[:N]
    ops = list(r) + [0] + pl
    ops = run(B["sub_mod"], ops)
    d, keep = ops[:N], ops[N]
    assert keep in (0, M32)
    return value(t[:N] if keep else d)

def check(N, mod, trials):
    B = blocks(N)
    R = 1 << (32 * N)
    inv = (-pow(mod, -1, 1 << 32)) % (1 << 32)
    Rinv = pow(R, -1, mod)
    edge = [0, 1, 2, mod - 1, mod - 2, R % mod, (R * R) % mod, mod // 2, (mod + 1) // 2, R % mod - 1 if R % mod else 3]
    pairs = [(x, y) for x in edge for y in edge]
    rnd = random.Random(12345 + N)
    pairs += [(rnd.randrange(mod), rnd.randrange(mod)) for _ in range(trials)]
    # values with extreme limb patterns (all-ones / all-zero limbs) below the modulus
    for _ in range(200):
        x = value([rnd.choice([0, M32, rnd.getrandbits(32)]) for _ in range(N)]) % mod
        y = value([rnd.choice([0, M32, rnd.getrandbits(32)]) for _ in range(N)]) % mod
        pairs.append((x, y))
    bad = 0
    for x, y in pairs:
        want = x * y * Rinv % mod
        got = device_mul(B, N, mod, inv, x, y)
        if got != want:
            bad += 1
            if bad < 5: print("MISMATCH N=%d a=%x b=%x got=%x want=%x" % (N, x, y, got, want))
    print("N=%d: %d products, %d mismatches, INV=%#x, instrs/row mul=%d reduce=%d, sub=%d" % (
        N, len(pairs), bad, inv, len(B["mul_row"]), len(B["reduce_row"]), len(B["sub_mod"])))
    return bad

if __name__ == "__main__":
    r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
    p = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    bad = check(8, r, n) + check(12, p, n)
    print("carries dropped by non-.cc instructions:", lost["count"])
    sys.exit(1 if bad or lost["count"] else 0)
