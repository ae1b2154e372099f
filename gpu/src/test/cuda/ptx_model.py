"""Simulates the PTX carry chains exactly as written in field.cuh (parsed from the file) and checks Field<P>::mul and
Fp's mul_sub (two products, one reduction) in both device forms (the split rows, FP_SPLIT=1, and the single shifted
array, FP_SPLIT=0), from_mont (the reduction rows alone) and add / sub (add_n, sub_n)."""
import re, random, sys
import os
SRC = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../main/cuda/field.cuh")).read()
M32 = 0xffffffff
lost = {"count": 0}

def blocks(N):
    body = SRC[SRC.index("struct FieldAsm<%d>" % N):]
    body = body[:body.index("\n};")]
    out = {}
    for name in ("mul_row", "mul_row_acc", "reduce_row", "split_row", "split_acc", "split_reduce", "split_reduce_row",
                 "split_merge", "sub_mod", "add_n", "sub_n"):
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
        elif base == "mul":  # mul.lo: no carry in or out, the flag left as it is
            assert parts[1] == "lo" and not cc_out, line
            ops[d] = (val(args[1]) * val(args[2])) & M32
            continue
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

# The split form's call sequences in field.cuh that split_rows and redc_split mirror (the chains are parsed from the
# file; the order of the calls is not, so it is compared here as text: a change there must be made here too)
SPLIT_CALLS = {
    # mul_split's split_acc calls run only with SECOND, which mul_sub passes and mul does not (MUL_SPLIT_USE)
    "mul_split": ["split_row(x, y, a.v, b.v[i])", "split_acc(x, y, c.v, e.v[i])", "split_reduce<P>(x, y, y[0] * P::INV)",
                  "split_row(y, x, a.v, b.v[i + 1])", "split_acc(y, x, c.v, e.v[i + 1])",
                  "split_reduce<P>(y, x, x[0] * P::INV)", "split_merge(r.v, y, x)"],
    "redc_split": ["split_reduce_row<P>(x, y)", "split_reduce_row<P>(y, x)", "split_merge(r.v, y, x)"],
}
MUL_SPLIT_USE = {"mul": "mul_split<false>(a, b, a, b)", "mul_sub": "mul_split<true>(a, b, c, e)"}

def split_calls(function):
    """The FieldAsm split_* calls of a Field member in field.cuh, in order, as written (template keyword dropped)."""
    body = function_body(function)
    return [c.replace("template ", "") for c in re.findall(r"FieldAsm<N>::((?:template )?split_\w+(?:<P>)?\([^;]*\));", body)]

def function_body(function):
    body = SRC[SRC.index(" " + function + "(const "):]
    return body[:body.index("\n  }\n")]

def check_split_calls():
    bad = 0
    for function, want in SPLIT_CALLS.items():
        got = split_calls(function)
        if got != want:
            bad += 1
            print("field.cuh's %s calls %s, which this model does not mirror (it expects %s)" % (function, got, want))
    for function, call in MUL_SPLIT_USE.items():
        if call not in function_body(function):
            bad += 1
            print("field.cuh's %s does not call %s, as this model expects" % (function, call))
    print("split call sequences of mul_split (from mul, mul_sub) and redc_split: %s" % ("as mirrored" if not bad else "CHANGED"))
    return bad

def split_rows(B, N, mod, inv, products):
    """The split form's rows (Field::mul and mul_sub with FP_SPLIT): products(i) lists the (a, b_i) of row i, the
    first by split_row, any further by split_acc, then split_reduce; the arrays trade places each row."""
    pl = limbs(mod, N)
    x, y = [0] * N, [0] * N
    for i in range(N):
        prods = products(i)
        a, b = prods[0]
        ops = run(B["split_row"], x + y + limbs(a, N) + [b])
        x, y = ops[:N], ops[N:2 * N]
        for a, b in prods[1:]:
            ops = run(B["split_acc"], x + y + limbs(a, N) + [b])
            x, y = ops[:N], ops[N:2 * N]
        m = (y[0] * inv) & M32
        ops = run(B["split_reduce"], x + y + [m] + pl)
        x, y = ops[:N], ops[N:2 * N]
        assert y[0] == 0
        x, y = y, x  # the next row: this row's even array, reduced, is the one it moves down
    return value(run(B["split_merge"], [0] * N + y + x)[:N])

def redc_split(B, N, mod, inv, t):
    """Field::redc_split: N split_reduce_row rows on t (N limbs), merged: t·R^-1, below the modulus + 1."""
    pl = limbs(mod, N)
    x, y = [0] * N, limbs(t, N)
    for i in range(N):
        ops = run(B["split_reduce_row"], x + y + [0, inv] + pl)
        x, y = ops[:N], ops[N:2 * N]
        assert y[0] == 0
        x, y = y, x
    return value(run(B["split_merge"], [0] * N + y + x)[:N])

def device_mul_split(B, N, mod, inv, a, b):
    """Field::mul with FP_SPLIT: the split rows, then (a field that is not lazy) one conditional subtraction."""
    bl = limbs(b, N)
    t = split_rows(B, N, mod, inv, lambda i: [(a, bl[i])])
    if N == 12: return t  # the lazy Fp keeps it below 2p
    ops = run(B["sub_mod"], limbs(t, N) + [0] + limbs(mod, N))
    return t if ops[N] else value(ops[:N])

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

def device_from_mont_split(B, N, mod, inv, a):
    """Field::from_mont with FP_SPLIT: redc_split, then one conditional subtraction."""
    t = redc_split(B, N, mod, inv, a)
    assert t <= mod
    ops = run(B["sub_mod"], limbs(t, N) + [0] + limbs(mod, N))
    return t if ops[N] else value(ops[:N])

def check_from_mont(N, mod, trials):
    """from_mont (both device forms) on inputs below the modulus (and, for a lazy Fp, below 2p): a·R^-1, canonical;
    the split reduction also on any N-limb input (sqr_sym reduces a square's low half), below the modulus + 1."""
    B = blocks(N)
    inv = (-pow(mod, -1, 1 << 32)) % (1 << 32)
    Rinv = pow(1 << (32 * N), -1, mod)
    top = 2 * mod if N == 12 else mod
    rnd = random.Random(777 + N)
    xs = [0, 1, 2, mod - 1, mod - 2, top - 1] + [rnd.randrange(top) for _ in range(trials)]
    bad = 0
    for form, f in (("shifted", device_from_mont), ("split", device_from_mont_split)):
        wrong = sum(1 for x in xs if f(B, N, mod, inv, x) != x * Rinv % mod)
        print("from_mont N=%d (%s): %d inputs, %d wrong" % (N, form, len(xs), wrong))
        bad += wrong
    ts = [0, 1, (1 << (32 * N)) - 1] + [rnd.getrandbits(32 * N) for _ in range(trials)]
    wrong = 0
    for t in ts:
        r = redc_split(B, N, mod, inv, t)
        if r % mod != t * Rinv % mod or r > mod:
            wrong += 1
    print("redc_split N=%d: %d inputs below 2^%d, %d wrong or above the modulus" % (N, len(ts), 32 * N, wrong))
    return bad + wrong

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

def lazy_neg(mod, d):
    """Field::neg of a lazy value d in [0, 2p): 2p - d, 0 where d is 0, p where d is p (sub(0, p) adds 2p back)."""
    e = (2 * mod - d) if d % mod else 0
    return mod if d == mod else e

def device_mul_sub_split(B, N, mod, inv, a, b, c, d):
    """Field::mul_sub with FP_SPLIT: rows of a·b_i and c·e_i for e = neg(d), one reduction each, no subtraction."""
    bl, el = limbs(b, N), limbs(lazy_neg(mod, d), N)
    return split_rows(B, N, mod, inv, lambda i: [(a, bl[i]), (c, el[i])])

def device_mul_sub(B, N, mod, inv, a, b, c, d):
    """Field::mul_sub's device rows: a·b + c·(2p - d) (d's lazy negation), one reduction row per limb, no subtraction."""
    e = lazy_neg(mod, d)
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
    for form, f in (("shifted", device_mul_sub), ("split", device_mul_sub_split)):
        wrong = 0
        for a, b, c, d in quads:
            got = f(B, N, mod, inv, a, b, c, d)
            if got % mod != (a * b - c * d) * Rinv % mod or got >= 2 * mod:
                wrong += 1
                if wrong < 5: print("MISMATCH mul_sub (%s) a=%x b=%x c=%x d=%x got=%x" % (form, a, b, c, d, got))
        rows = ("mul_row", "mul_row_acc", "reduce_row") if form == "shifted" else ("split_row", "split_acc", "split_reduce")
        print("mul_sub N=12 (%s): %d inputs in [0, 2p), %d wrong or not below 2p, instrs/row %d" % (
            form, len(quads), wrong, sum(len(B[k]) for k in rows)))
        bad += wrong
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
    print("N=%d (shifted): %d products, %d mismatches, INV=%#x, instrs/row mul=%d reduce=%d, sub=%d" % (
        N, len(pairs), bad, inv, len(B["mul_row"]), len(B["reduce_row"]), len(B["sub_mod"])))
    # the split form; the lazy Fp also on operands up to 2p, where its result must stay below 2p unsubtracted
    top = 2 * mod if N == 12 else mod
    if N == 12:
        pairs += [(x, y) for x in (mod, mod + 1, 2 * mod - 1, 2 * mod - 2) for y in edge + [mod, 2 * mod - 1]]
        pairs += [(rnd.randrange(top), rnd.randrange(top)) for _ in range(trials)]
    wrong = 0
    for x, y in pairs:
        got = device_mul_split(B, N, mod, inv, x, y)
        if got % mod != x * y * Rinv % mod or got >= top or (N != 12 and got >= mod):
            wrong += 1
            if wrong < 5: print("MISMATCH split N=%d a=%x b=%x got=%x" % (N, x, y, got))
    print("N=%d (split): %d products (operands below %s), %d wrong or not below it, instrs/row %d + %d, merge %d" % (
        N, len(pairs), "2p" if N == 12 else "the modulus", wrong, len(B["split_row"]), len(B["split_reduce"]),
        len(B["split_merge"])))
    return bad + wrong

if __name__ == "__main__":
    r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
    p = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    bad = check_split_calls()
    bad += check(8, r, n) + check(12, p, n) + check_mul_sub(p, n) + check_from_mont(8, r, n) + check_from_mont(12, p, n)
    bad += check_add_sub(8, r, r, n) + check_add_sub(12, p, 2 * p, n)
    print("carries dropped by non-.cc instructions:", lost["count"])
    sys.exit(1 if bad or lost["count"] else 0)
