"""Simulates the PTX carry chains exactly as written in field.cuh (parsed from the file) and checks Field<P>::mul,
Fp's mul_sub (two products, one reduction), from_mont (the reduction rows alone) and add / sub (add_n, sub_n)."""
import re, random, sys
import os
SRC = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../main/cuda/field.cuh")).read()
M32 = 0xffffffff
lost = {"count": 0}

def blocks(N):
    body = SRC[SRC.index("struct FieldAsm<%d>" % N):]
    body = body[:body.index("\n};")]
    out = {}
    for name in ("mul_row", "mul_row_acc", "reduce_row", "sub_mod", "add_n", "sub_n"):
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

def device_from_mont(B, N, mod, inv, a):
    """Field::from_mont's device rows: t starts as a, N reduction rows, one conditional subtraction."""
    pl = limbs(mod, N)
    t = limbs(a, N) + [0]
    for i in range(N):
        m = (t[0] * inv) & M32
        t = run(B["reduce_row"], t + [m] + pl)[:N + 1]
        assert t[0] == 0
        t = t[1:] + [0]
    ops = run(B["sub_mod"], t[:N] + [0] + pl)
    d, keep = ops[:N], ops[N]
    return value(t[:N] if keep else d)

def check_from_mont(N, mod, trials):
    """from_mont on inputs below the modulus (and, for a lazy Fp, below 2p): a·R^-1, canonical."""
    B = blocks(N)
    inv = (-pow(mod, -1, 1 << 32)) % (1 << 32)
    Rinv = pow(1 << (32 * N), -1, mod)
    top = 2 * mod if N == 12 else mod
    rnd = random.Random(777 + N)
    xs = [0, 1, 2, mod - 1, mod - 2, top - 1] + [rnd.randrange(top) for _ in range(trials)]
    bad = sum(1 for x in xs if device_from_mont(B, N, mod, inv, x) != x * Rinv % mod)
    print("from_mont N=%d: %d inputs, %d wrong" % (N, len(xs), bad))
    return bad

def device_add(B, N, bound, a, b):
    """Field::add on the device: t = a + b (add_n), then t - bound (sub_n) unless that wraps."""
    t = run(B["add_n"], [0] * N + limbs(a, N) + limbs(b, N))[:N]
    ops = run(B["sub_n"], [0] * (N + 1) + t + limbs(bound, N))
    return value(t if ops[N] else ops[:N])

def device_sub(B, N, bound, a, b):
    """Field::sub on the device: a - b (sub_n), plus the bound where it wrapped (add_n)."""
    ops = run(B["sub_n"], [0] * (N + 1) + limbs(a, N) + limbs(b, N))
    masked = [x & ops[N] for x in limbs(bound, N)]
    before = lost["count"]
    r = value(run(B["add_n"], [0] * N + ops[:N] + masked)[:N])
    lost["count"] = before  # where a - b wrapped, the add-back's carry out is the wrap undone: meant to drop
    return r

def check_add_sub(N, mod, bound, trials):
    """add and sub on inputs below the bound (the modulus, or 2p for the lazy Fp): congruent, and below the bound."""
    B = blocks(N)
    rnd = random.Random(999 + N)
    edge = [0, 1, mod - 1, bound - 1, bound // 2, (bound + 1) // 2] + ([mod, mod + 1] if bound > mod else [])
    pairs = [(x, y) for x in edge for y in edge] + [(rnd.randrange(bound), rnd.randrange(bound)) for _ in range(trials)]
    bad = 0
    for a, b in pairs:
        s, d = device_add(B, N, bound, a, b), device_sub(B, N, bound, a, b)
        if s % mod != (a + b) % mod or s >= bound or d % mod != (a - b) % mod or d >= bound:
            bad += 1
            if bad < 5: print("MISMATCH add/sub N=%d a=%x b=%x add=%x sub=%x" % (N, a, b, s, d))
    print("add/sub N=%d: %d pairs below %s, %d wrong or not below it" % (N, len(pairs), "2p" if bound > mod else "the modulus", bad))
    return bad

def device_mul_sub(B, N, mod, inv, a, b, c, d):
    """Field::mul_sub's device rows: a·b + c·(2p - d) (d's lazy negation), one reduction row per limb, no subtraction."""
    e = (2 * mod - d) if d % mod else 0  # Field::neg of a value in [0, 2p): 2p - d, or 0 where d is 0 or p
    if d == mod: e = mod  # sub(0, p) borrows and adds 2p back: p
    al, bl, cl, el, pl = limbs(a, N), limbs(b, N), limbs(c, N), limbs(e, N), limbs(mod, N)
    t = [0] * (N + 1)
    for i in range(N):
        t = run(B["mul_row"], t + al + [bl[i]])[:N + 1]
        t = run(B["mul_row_acc"], t + cl + [el[i]])[:N + 1]
        m = (t[0] * inv) & M32
        t = run(B["reduce_row"], t + [m] + pl)[:N + 1]
        assert t[0] == 0
        t = t[1:] + [0]
    assert t[N] == 0
    return value(t[:N])

def check_mul_sub(mod, trials):
    """mul_sub on lazy inputs in [0, 2p) (edges p - 1, p, p + 1, 2p - 1): equal mod p, and below 2p."""
    N = 12
    B = blocks(N)
    R = 1 << (32 * N)
    inv = (-pow(mod, -1, 1 << 32)) % (1 << 32)
    Rinv = pow(R, -1, mod)
    edge = [0, 1, mod - 1, mod, mod + 1, 2 * mod - 1, 2 * mod - 2, R % mod]
    rnd = random.Random(424242)
    quads = [(x, y, z, w) for x in edge for y in edge for z in (0, mod - 1, 2 * mod - 1) for w in edge]
    quads += [tuple(rnd.randrange(2 * mod) for _ in range(4)) for _ in range(trials)]
    quads += [tuple(rnd.choice([2 * mod - 1, mod, rnd.randrange(2 * mod)]) for _ in range(4)) for _ in range(trials // 10)]
    bad = 0
    for a, b, c, d in quads:
        got = device_mul_sub(B, N, mod, inv, a, b, c, d)
        if got % mod != (a * b - c * d) * Rinv % mod or got >= 2 * mod:
            bad += 1
            if bad < 5: print("MISMATCH mul_sub a=%x b=%x c=%x d=%x got=%x" % (a, b, c, d, got))
    print("mul_sub N=12: %d inputs in [0, 2p), %d wrong or not below 2p, instrs/row %d" % (
        len(quads), bad, len(B["mul_row"]) + len(B["mul_row_acc"]) + len(B["reduce_row"])))
    return bad

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
    bad = check(8, r, n) + check(12, p, n) + check_mul_sub(p, n) + check_from_mont(8, r, n) + check_from_mont(12, p, n)
    bad += check_add_sub(8, r, r, n) + check_add_sub(12, p, 2 * p, n)
    print("carries dropped by non-.cc instructions:", lost["count"])
    sys.exit(1 if bad or lost["count"] else 0)
