"""Generates the PTX carry chains of FieldAsm<N> (N = 8, 12) for Field<P>'s products, sums and differences."""
# Writes the FieldAsm<N> members of gpu/src/main/cuda/field.cuh (paste each struct's members there; FieldAsm<12> also
# holds sqr_wide, which ptx_sqr.py generates and checks); ptx_model.py simulates the chains as the file holds them.
# mul_row_acc is emitted for both limb counts, though only the 12-limb Fp's mul_sub uses it.
import sys

def chains(N, X, Y, top_even):
    # t += x·y as two carry chains, products of even limbs then of odd limbs; the lo and hi halves of one
    # product are adjacent in a chain, so ptxas can fuse each pair into one wide multiply-add
    ins = []
    for par in (0, 1):
        js = list(range(par, N, 2))
        for k, j in enumerate(js):
            first, last = k == 0, k == len(js) - 1
            ins.append(("mad.lo.cc.u32" if first else "madc.lo.cc.u32", j, X(j), Y(j), j))
            ins.append(("madc.hi.u32" if (last and par == 1) else "madc.hi.cc.u32", j + 1, X(j), Y(j), j + 1))
        if par == 0:
            ins.append(top_even)
    return ins

def mul_row(N):
    # operands: t0..tN = %0..%N (tN = 0 on entry), a0..a(N-1) = %(N+1)..%(2N), b = %(2N+1)
    return chains(N, lambda j: N + 1 + j, lambda j: 2 * N + 1, ("addc.u32", N, "0", "0"))

def mul_row_acc(N):
    # mul_row's operands, but tN is added to, not assumed 0 (a second product into the same row: Field::mul_sub)
    return chains(N, lambda j: N + 1 + j, lambda j: 2 * N + 1, ("addc.u32", N, N, "0"))

def reduce_row(N):
    # operands: t0..tN = %0..%N, m = %(N+1), p0..p(N-1) = %(N+2)..%(2N+1)
    return chains(N, lambda j: N + 1, lambda j: N + 2 + j, ("addc.u32", N, N, "0"))

def sub_mod(N):
    # operands: d0..d(N-1) = %0..%(N-1) (in: t, out: t - p), mask = %N, p = %(N+1)..%(2N)
    Pm = lambda j: N + 1 + j
    ins = [("sub.cc.u32", 0, 0, Pm(0))]
    ins += [("subc.cc.u32", j, j, Pm(j)) for j in range(1, N)]
    ins += [("subc.u32", N, "0", "0")]
    return ins

def add_n(N):
    # operands: r0..r(N-1) = %0..%(N-1) (out), a = %N..%(2N-1), b = %(2N)..%(3N-1); no carry leaves the top limb
    ins = [("add.cc.u32", 0, N, 2 * N)]
    ins += [("addc.cc.u32" if j < N - 1 else "addc.u32", j, N + j, 2 * N + j) for j in range(1, N)]
    return ins

def sub_n(N):
    # operands: r0..r(N-1) = %0..%(N-1) (out), mask = %N (out), a = %(N+1)..%(2N), b = %(2N+1)..%(3N)
    ins = [("sub.cc.u32", 0, N + 1, 2 * N + 1)]
    ins += [("subc.cc.u32", j, N + 1 + j, 2 * N + 1 + j) for j in range(1, N)]
    ins += [("subc.u32", N, "0", "0")]
    return ins

def text(ins, per_line=3):
    fmt = lambda x: str(x) if isinstance(x, str) else "%" + str(x)
    lines = ["%s %s;" % (i[0], ", ".join(fmt(x) for x in i[1:])) for i in ins]
    out = []
    for k in range(0, len(lines), per_line):
        out.append('"' + " ".join(lines[k:k + per_line]) + '\\n\\t"')
    return out

def wrap(head, items, width=110):
    lines, cur = [], head
    for k, it in enumerate(items):
        piece = it + ("," if k < len(items) - 1 else "")
        if len(cur) + len(piece) + 1 > width and cur.strip() not in (":", ""):
            lines.append(cur.rstrip()); cur = " " * len(head)
        cur += piece + " "
    lines.append(cur.rstrip())
    return "\n".join(lines)

def method(doc, signature, ins, outs, inputs, template=False, mask=False):
    """One FieldAsm member: its Javadoc line, signature, the asm chain and its operand lists."""
    I = "        "
    s = ["  /** %s */" % doc]
    if template:
        s.append("  template <class P>")
    s.append("  __device__ __forceinline__ static %s {" % signature)
    if mask:
        s.append("    uint32_t mask;")
    s.append("    asm(" + ("\n" + I).join(text(ins)))
    s.append(wrap(I + ": ", outs))
    s.append(wrap(I + ": ", inputs) + ");")
    if mask:
        s.append("    return mask;")
    s.append("  }")
    return s

def cpp(N):
    t_rw = ['"+r"(t[%d])' % j for j in range(N + 1)]
    a_in = ['"r"(a[%d])' % j for j in range(N)]
    b_in = ['"r"(b[%d])' % j for j in range(N)]
    r_out = ['"=r"(r[%d])' % j for j in range(N)]
    mods = ['"r"(P::mod(%d))' % j for j in range(N)]
    s = ["template <>\nstruct FieldAsm<%d> {" % N]
    s += method("t[0..%d] += a·b: even-limb then odd-limb products, lo and hi halves adjacent in each carry chain." % N,
                "void mul_row(uint32_t* t, const uint32_t* a, uint32_t b)", mul_row(N), t_rw, a_in + ['"r"(b)'])
    s += method("t[0..%d] += a·b where t[%d] may hold a value: mul_row's second product in one row (Field::mul_sub)." % (N, N),
                "void mul_row_acc(uint32_t* t, const uint32_t* a, uint32_t b)", mul_row_acc(N), t_rw, a_in + ['"r"(b)'])
    s += method("t[0..%d] += m·modulus (t[0] becomes 0; the caller shifts the limbs down)." % N,
                "void reduce_row(uint32_t* t, uint32_t m)", reduce_row(N), t_rw, ['"r"(m)'] + mods, template=True)
    s += method("d - modulus into d, one borrow chain; returns all ones when d was below the modulus, else 0.",
                "uint32_t sub_mod(uint32_t* d)", sub_mod(N), ['"+r"(d[%d])' % j for j in range(N)] + ['"=r"(mask)'], mods,
                template=True, mask=True)
    s += method("r = a + b, one carry chain (the caller knows the sum fits in N limbs).",
                "void add_n(uint32_t* r, const uint32_t* a, const uint32_t* b)", add_n(N), r_out, a_in + b_in)
    s += method("r = a - b, one borrow chain; returns all ones when a was below b (the difference wrapped), else 0.",
                "uint32_t sub_n(uint32_t* r, const uint32_t* a, const uint32_t* b)", sub_n(N), r_out + ['"=r"(mask)'],
                a_in + b_in, mask=True)
    s.append("};")
    return "\n".join(s)

if __name__ == "__main__":
    print(cpp(8)); print(); print(cpp(12))
