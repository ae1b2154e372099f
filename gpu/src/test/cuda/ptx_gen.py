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

def pairs(N, par, dst, X, Y, add, first_op, last_hi):
    # one carry chain of the products X(j)·Y(j) for the limbs j of parity par, product j's lo and hi halves into
    # dst(k), dst(k + 1) (k = 0, 2, ...) plus add(k), add(k + 1); first_op opens it, last_hi closes it
    ins = []
    js = list(range(par, N, 2))
    for k, j in enumerate(js):
        lo, hi = 2 * k, 2 * k + 1
        ins.append((first_op if k == 0 else "madc.lo.cc.u32", dst(lo), X(j), Y(j), add(lo)))
        ins.append((last_hi if k == len(js) - 1 else "madc.hi.cc.u32", dst(hi), X(j), Y(j), add(hi)))
    return ins

def split_products(N, X, Y):
    # operands: x0..x(N-1) = %0..%(N-1), y0..y(N-1) = %N..%(2N-1); x += odd-limb products, y += even-limb products,
    # y's carry out into x(N-1)
    x = lambda k: k
    y = lambda k: N + k
    ins = pairs(N, 1, x, X, Y, x, "mad.lo.cc.u32", "madc.hi.u32")
    ins += pairs(N, 0, y, X, Y, y, "mad.lo.cc.u32", "madc.hi.cc.u32")
    ins.append(("addc.u32", x(N - 1), x(N - 1), "0"))
    return ins

def split_row(N):
    # operands: x = %0..%(N-1), y = %N..%(2N-1), a = %(2N)..%(3N-1), b = %3N. On entry the total is y (limb j at j)
    # plus x a limb down (x0 was reduced to 0, limb j at j - 1); on exit it is y (limb j at j) plus x (limb j at j + 1)
    # plus a·b: y0 += x1 (its carry opens the odd chain), x moves down two limbs as the odd-limb products go into it
    # (the destination differs from the source, so no register moves), y takes the even ones
    x = lambda k: k
    y = lambda k: N + k
    A = lambda j: 2 * N + j
    B = lambda j: 3 * N
    ins = [("add.cc.u32", y(0), y(0), x(1))]
    ins += pairs(N, 1, x, A, B, lambda k: x(k + 2) if k + 2 < N else "0", "madc.lo.cc.u32", "madc.hi.u32")
    ins += pairs(N, 0, y, A, B, y, "mad.lo.cc.u32", "madc.hi.cc.u32")
    ins.append(("addc.u32", x(N - 1), x(N - 1), "0"))
    return ins

def split_acc(N):
    # operands: x, y as split_row, a = %(2N)..%(3N-1), b = %3N: a second product into the same row (Field::mul_sub)
    return split_products(N, lambda j: 2 * N + j, lambda j: 3 * N)

def split_reduce(N):
    # operands: x, y as split_row, m = %2N, p = %(2N+1)..%(3N): y0 becomes 0
    return split_products(N, lambda j: 2 * N, lambda j: 2 * N + 1 + j)

def split_reduce_row(N):
    # operands: x, y as split_row, m = %2N (scratch out), inv = %(2N+1), p = %(2N+2)..%(3N+1): a reduction row alone
    # (sqr_sym, from_mont): the total moved down a limb as in split_row, m = y0·inv in the same block (mul.lo leaves
    # the carry flag as it is, which the odd chain then takes), x += m·(odd limbs of p) while it moves down, y += the
    # even ones. m is written before inv and p are read: GCC's rules would ask for an early-clobber "=&r", but nvcc
    # gives every operand of an asm statement its own PTX virtual register (the committed PTX shows m's), so "=r" is
    # safe here
    x = lambda k: k
    y = lambda k: N + k
    M = lambda j: 2 * N
    Pm = lambda j: 2 * N + 2 + j
    ins = [("add.cc.u32", y(0), y(0), x(1)), ("mul.lo.u32", M(0), y(0), 2 * N + 1)]
    ins += pairs(N, 1, x, M, Pm, lambda k: x(k + 2) if k + 2 < N else "0", "madc.lo.cc.u32", "madc.hi.u32")
    ins += pairs(N, 0, y, M, Pm, y, "mad.lo.cc.u32", "madc.hi.cc.u32")
    ins.append(("addc.u32", x(N - 1), x(N - 1), "0"))
    return ins

def split_merge(N):
    # operands: r = %0..%(N-1) (out), x = %N..%(2N-1), y = %(2N)..%(3N-1): r = x + (y shifted down a limb), the
    # total after the last row (y0 is 0)
    x = lambda k: N + k
    y = lambda k: 2 * N + k
    ins = [("add.cc.u32", 0, x(0), y(1))]
    ins += [("addc.cc.u32", j, x(j), y(j + 1)) for j in range(1, N - 1)]
    ins.append(("addc.u32", N - 1, x(N - 1), "0"))
    return ins

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

def method(doc, signature, ins, outs, inputs, template=False, mask=False, scratch=False):
    """One FieldAsm member: its Javadoc line, signature, the asm chain and its operand lists."""
    I = "        "
    s = ["  /** %s */" % doc]
    if template:
        s.append("  template <class P>")
    s.append("  __device__ __forceinline__ static %s {" % signature)
    if mask:
        s.append("    uint32_t mask;")
    if scratch:
        s.append("    uint32_t m;")
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
    x_rw = ['"+r"(x[%d])' % j for j in range(N)]
    y_rw = ['"+r"(y[%d])' % j for j in range(N)]
    s += method("One row of the split product: the total moved down a limb, then a·b added (see Field::mul).",
                "void split_row(uint32_t* x, uint32_t* y, const uint32_t* a, uint32_t b)", split_row(N), x_rw + y_rw,
                a_in + ['"r"(b)'])
    s += method("x, y += a·b in the split form, without moving down: mul_sub's second product in a row.",
                "void split_acc(uint32_t* x, uint32_t* y, const uint32_t* a, uint32_t b)", split_acc(N), x_rw + y_rw,
                a_in + ['"r"(b)'])
    s += method("x, y += m·modulus in the split form (y[0] becomes 0).",
                "void split_reduce(uint32_t* x, uint32_t* y, uint32_t m)", split_reduce(N), x_rw + y_rw,
                ['"r"(m)'] + mods, template=True)
    s += method("A reduction row alone in the split form: the total moved down a limb, then y[0]·inv·modulus added.",
                "void split_reduce_row(uint32_t* x, uint32_t* y)", split_reduce_row(N), x_rw + y_rw + ['"=r"(m)'],
                ['"r"(P::INV)'] + mods, template=True, scratch=True)
    s += method("r = x + y / 2^32: the split total after its last row, in N limbs.",
                "void split_merge(uint32_t* r, const uint32_t* x, const uint32_t* y)", split_merge(N), r_out,
                ['"r"(x[%d])' % j for j in range(N)] + ['"r"(y[%d])' % j for j in range(N)])
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
