// BLS12-381 point arithmetic over any coordinate field F with a = 0 (G1: y^2 = x^3 + 4 over Fp; G2: y^2 = x^3 +
// 4(1 + u) over Fp2): one implementation for both groups. F provides Field's static interface (zero, one, add, sub,
// neg, dbl, mul, mul_sub, sqr, reduce, is_zero, inverse).
//
// Affine points are blst's layout (x then y, Montgomery coordinates), with (0, 0), which is not on the curve,
// standing for the identity, as blst writes it. Accumulators use XYZZ coordinates (x = X/ZZ,
// y = Y/ZZZ; identity when ZZ = 0): a mixed addition costs 8M + 2S and needs no inversion
// (formulas madd-2008-s, add-2008-s, dbl-2008-s-1 and mdbl-2008-s-1 for a = 0, which use no b).
#pragma once
#include "field.cuh"

// Point operations are calls, not inlined copies: each inlines dozens of unrolled F products, and
// inlining them everywhere multiplies compile time (minutes) and register pressure for little gain.
#define HDN __host__ __device__ __noinline__

template <class F>
struct Affine {
  F x, y;

  HD bool is_identity() const { return x.is_zero() && y.is_zero(); }
};

template <class F>
struct Xyzz {
  typedef Affine<F> Aff;
  typedef F Field;
  F X, Y, ZZ, ZZZ;

  HD static Xyzz identity() {
    Xyzz p;
    p.X = F::zero();
    p.Y = F::zero();
    p.ZZ = F::zero();
    p.ZZZ = F::zero();
    return p;
  }

  HD bool is_identity() const { return ZZ.is_zero(); }

  HD static Xyzz of(const Aff& a) {
    if (a.is_identity()) return identity();
    Xyzz p;
    p.X = a.x;
    p.Y = a.y;
    p.ZZ = F::one();
    p.ZZZ = F::one();
    return p;
  }

  /** 2·a for an affine a (mdbl-2008-s-1). */
  HDN static Xyzz dbl_affine(const Aff& a) {
    F u = F::dbl(a.y);
    F v = F::sqr(u);
    F w = F::mul(u, v);
    F s = F::mul(a.x, v);
    F xx = F::sqr(a.x);
    F m = F::add(F::dbl(xx), xx);
    Xyzz r;
    r.X = F::sub(F::sqr(m), F::dbl(s));
    r.Y = F::mul_sub(m, F::sub(s, r.X), w, a.y);
    r.ZZ = v;
    r.ZZZ = w;
    return r;
  }

  /** this := 2·this (dbl-2008-s-1). */
  HDN void dbl() {
    if (is_identity()) return;
    F u = F::dbl(Y);
    F v = F::sqr(u);
    F w = F::mul(u, v);
    F s = F::mul(X, v);
    F xx = F::sqr(X);
    F m = F::add(F::dbl(xx), xx);
    F x3 = F::sub(F::sqr(m), F::dbl(s));
    Y = F::mul_sub(m, F::sub(s, x3), w, Y);
    X = x3;
    ZZ = F::mul(v, ZZ);
    ZZZ = F::mul(w, ZZZ);
  }

  /** this := this + a for an affine a (madd-2008-s). */
  HDN void add(const Aff& a) { add_inline(a); }

  /** a·a by Field::sqr_sym (SYM) or by the general product (Field::sqr), for timing one against the other. */
  template <bool SYM>
  HD static F square(const F& a) {
    if constexpr (SYM) return F::sqr_sym(a); else return F::sqr(a);
  }

  /**
   * The same addition inlined into the caller (the accumulation loop; -DMSM_CALL_MADD calls add instead); SYM squares
   * PP and R^2 with Field::sqr_sym (only Fp has it) instead of the general product.
   */
  template <bool SYM = false>
  HD void add_inline(const Aff& a) {
    if (a.is_identity()) return;
    if (is_identity()) {
      *this = of(a);
      return;
    }
    F p = F::sub(F::mul(a.x, ZZ), X);
    F r = F::sub(F::mul(a.y, ZZZ), Y);
    if (p.is_zero()) {
      if (r.is_zero()) {
        *this = dbl_affine(a);
      } else {
        *this = identity();
      }
      return;
    }
    F pp = square<SYM>(p);
    F ppp = F::mul(p, pp);
    F q = F::mul(X, pp);
    F x3 = F::sub(F::sub(square<SYM>(r), ppp), F::dbl(q));
    Y = F::mul_sub(r, F::sub(q, x3), Y, ppp);
    X = x3;
    ZZ = F::mul(ZZ, pp);
    ZZZ = F::mul(ZZZ, ppp);
  }

  /** this := this + o (add-2008-s). */
  HDN void add(const Xyzz& o) {
    if (o.is_identity()) return;
    if (is_identity()) {
      *this = o;
      return;
    }
    F u1 = F::mul(X, o.ZZ);
    F u2 = F::mul(o.X, ZZ);
    F s1 = F::mul(Y, o.ZZZ);
    F s2 = F::mul(o.Y, ZZZ);
    F p = F::sub(u2, u1);
    F r = F::sub(s2, s1);
    if (p.is_zero()) {
      if (r.is_zero()) {
        dbl();
      } else {
        *this = identity();
      }
      return;
    }
    F pp = F::sqr(p);
    F ppp = F::mul(p, pp);
    F q = F::mul(u1, pp);
    F x3 = F::sub(F::sub(F::sqr(r), ppp), F::dbl(q));
    Y = F::mul_sub(r, F::sub(q, x3), s1, ppp);
    X = x3;
    ZZ = F::mul(F::mul(ZZ, o.ZZ), pp);
    ZZZ = F::mul(F::mul(ZZZ, o.ZZZ), ppp);
  }

  /** k·this for a small non-negative k, by double and add from the top bit. */
  HDN Xyzz times(uint32_t k) const {
    Xyzz acc = identity();
    for (int bit = 31; bit >= 0; bit--) {
      acc.dbl();
      if ((k >> bit) & 1) acc.add(*this);
    }
    return acc;
  }

  /**
   * Jacobian coordinates (x = X/Z^2, y = Y/Z^3) as blst lays them out (blst_p1, blst_p2): Z = ZZ·ZZZ,
   * X = X·ZZ·ZZZ^2, Y = Y·ZZ^3·ZZZ^2; the identity comes out with Z = 0, as blst's does.
   */
  HDN void to_jacobian(F out[3]) const {
    if (is_identity()) {
      out[0] = F::zero();
      out[1] = F::zero();
      out[2] = F::zero();
      return;
    }
    F zzz2 = F::sqr(ZZZ);
    F zz_zzz2 = F::mul(ZZ, zzz2);
    out[0] = F::reduce(F::mul(X, zz_zzz2));
    out[1] = F::reduce(F::mul(Y, F::mul(F::sqr(ZZ), zz_zzz2)));
    out[2] = F::reduce(F::mul(ZZ, ZZZ));
  }
};
