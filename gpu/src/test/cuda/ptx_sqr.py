"""Generates the PTX of FieldAsm<12>::sqr_wide (Field<P>::sqr_sym on the device) and checks it.

Run without arguments: checks that field.cuh holds exactly the generated text, then simulates the chains
(ptx_model.run) followed by the Montgomery reduction rows of field.cuh (both device forms: the shifted rows and the
split ones, FP_SPLIT) and the fold of the high half (add_n) on
random and edge inputs in [0, 2p) against Python integers: a^2·R^-1 = result (mod p) with the result below 2p. With --print it prints the C++ to paste.
"""
import os, random, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ptx_model
from ptx_gen import text, wrap

N = 12
M32 = 0xffffffff


def sqr_wide(N):
    """T = a^2 (2N limbs): operands T0..T(2N-1) = %0..%(2N-1) (zero on entry), a0..a(N-1) = %(2N)..%(3N-1)."""
    A = lambda j: 2 * N + j
    ins = []
    for i in range(N - 1):  # row i: T[2i+1 ..] += a_i·a[i+1..N-1]; its top limb T[i+N] is not yet written
        L, base = N - 1 - i, 2 * i + 1
        for par in (0, 1):
            js = list(range(par, L, 2))
            for k, j in enumerate(js):
                x, lo, hi = A(i + 1 + j), base + j, base + j + 1
                ins.append(("mad.lo.cc.u32" if k == 0 else "madc.lo.cc.u32", lo, x, A(i), lo))
                last = k == len(js) - 1
                if last and hi == base + L:  # the product's hi half lands in the row's top limb
                    ins.append(("madc.hi.u32", hi, x, A(i), "0" if par == 0 else hi))
                else:
                    ins.append(("madc.hi.cc.u32", hi, x, A(i), hi))
            if js and (js[-1] + 1) != L:  # the chain stopped below the top limb: its carry goes there
                ins.append(("addc.u32", base + L, "0" if par == 0 else base + L, "0"))
    ins.append(("add.cc.u32", 0, 0, 0))  # T := 2T (the cross products count twice)
    ins += [("addc.cc.u32", k, k, k) for k in range(1, 2 * N - 1)]
    ins.append(("addc.u32", 2 * N - 1, 2 * N - 1, 2 * N - 1))
    for j in range(N):  # T += a_j^2 at limb 2j
        ins.append(("mad.lo.cc.u32" if j == 0 else "madc.lo.cc.u32", 2 * j, A(j), A(j), 2 * j))
        ins.append(("madc.hi.u32" if j == N - 1 else "madc.hi.cc.u32", 2 * j + 1, A(j), A(j), 2 * j + 1))
    return ins


def cpp(N):
    I = "        "
    s = []
    s.append("  /** T[0..%d] = a·a: the cross products a_i·a_j (i < j) once, doubled, plus the squares a_i^2. */" % (2 * N - 1))
    s.append("  __device__ __forceinline__ static void sqr_wide(uint32_t* T, const uint32_t* a) {")
    s.append("    asm(" + ("\n" + I).join(text(sqr_wide(N))))
    s.append(wrap(I + ": ", ['"+r"(T[%d])' % j for j in range(2 * N)]))
    s.append(wrap(I + ": ", ['"r"(a[%d])' % j for j in range(N)]) + ");")
    s.append("  }")
    return "\n".join(s)


def lines(ins):
    fmt = lambda x: str(x) if isinstance(x, str) else "%" + str(x)
    return ["%s %s" % (i[0], ", ".join(fmt(x) for x in i[1:])) for i in ins]


def device_sqr_split(B, mod, inv, a):
    """sqr_sym with FP_SPLIT: the wide square, its low half reduced by redc_split, the high half added (add_n)."""
    T = ptx_model.run(lines(sqr_wide(N)), [0] * (2 * N) + ptx_model.limbs(a, N))[:2 * N]
    t = ptx_model.redc_split(B, N, mod, inv, ptx_model.value(T[:N]))
    return ptx_model.value(ptx_model.run(B["add_n"], [0] * N + ptx_model.limbs(t, N) + T[N:])[:N])


def device_sqr(B, mod, inv, a):
    al, pl = ptx_model.limbs(a, N), ptx_model.limbs(mod, N)
    T = ptx_model.run(lines(sqr_wide(N)), [0] * (2 * N) + al)[:2 * N]
    assert ptx_model.value(T) == a * a, "wide square"
    t = T[:N] + [0]
    for i in range(N):
        m = (t[0] * inv) & M32
        t = ptx_model.run(B["reduce_row"], t + [m] + pl)[:N + 1]
        assert t[0] == 0
        t = t[1:] + [0]
    assert t[N] == 0
    r = ptx_model.run(B["add_n"], [0] * N + t[:N] + T[N:])[:N]
    return ptx_model.value(r)


def main():
    if "--print" in sys.argv:
        print(cpp(N))
        return 0
    src = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../main/cuda/field.cuh")).read()
    if cpp(N) not in src:
        print("field.cuh does not hold the generated sqr_wide (python3 ptx_sqr.py --print)")
        return 1
    p = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
    B = ptx_model.blocks(N)
    inv = (-pow(p, -1, 1 << 32)) % (1 << 32)
    Rinv = pow(1 << (32 * N), -1, p)
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else random.randrange(1 << 30)
    print("ptx_sqr seed", seed)
    rnd = random.Random(seed)
    xs = [0, 1, 2, p - 1, p, p + 1, 2 * p - 1, 2 * p - 2, p // 2, (1 << 383) % (2 * p)]
    xs += [rnd.randrange(2 * p) for _ in range(3000)]
    xs += [ptx_model.value([rnd.choice([0, M32, rnd.getrandbits(32)]) for _ in range(N)]) % (2 * p) for _ in range(300)]
    bad = 0
    for form, f in (("shifted rows", device_sqr), ("split rows", device_sqr_split)):
        wrong = 0
        for x in xs:
            got = f(B, p, inv, x)
            if got % p != x * x * Rinv % p or got >= 2 * p:
                wrong += 1
                if wrong < 5:
                    print("MISMATCH (%s) a=%x got=%x" % (form, x, got))
        print("sqr_wide + reduce (%s) + add_n: %d inputs in [0, 2p), %d mismatches, %d instructions wide" % (
            form, len(xs), wrong, len(sqr_wide(N))))
        bad += wrong
    print("dropped carries: %d" % ptx_model.lost["count"])
    return 1 if bad or ptx_model.lost["count"] else 0


if __name__ == "__main__":
    sys.exit(main())
