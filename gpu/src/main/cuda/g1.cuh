// BLS12-381 G1 point arithmetic (y^2 = x^3 + 4 over Fp).
//
// Affine points are blst's layout (x then y, Montgomery Fp), with (0, 0), which is not on the curve,
// standing for the identity, as blst writes it. Accumulators use XYZZ coordinates (x = X/ZZ,
// y = Y/ZZZ; identity when ZZ = 0): a mixed addition costs 8M + 2S and needs no inversion
// (formulas madd-2008-s, add-2008-s, dbl-2008-s-1 and mdbl-2008-s-1 for a = 0).
#pragma once
#include "field.cuh"

// Point operations are calls, not inlined copies: each inlines dozens of unrolled Fp products, and
// inlining them everywhere multiplies compile time (minutes) and register pressure for little gain.
#define HDN __host__ __device__ __noinline__

struct G1Affine {
  Fp x, y;

  HD bool is_identity() const { return x.is_zero() && y.is_zero(); }
};

struct G1Xyzz {
  Fp X, Y, ZZ, ZZZ;

  HD static G1Xyzz identity() {
    G1Xyzz p;
    p.X = Fp::zero();
    p.Y = Fp::zero();
    p.ZZ = Fp::zero();
    p.ZZZ = Fp::zero();
    return p;
  }

  HD bool is_identity() const { return ZZ.is_zero(); }

  HD static G1Xyzz of(const G1Affine& a) {
    if (a.is_identity()) return identity();
    G1Xyzz p;
    p.X = a.x;
    p.Y = a.y;
    p.ZZ = Fp::one();
    p.ZZZ = Fp::one();
    return p;
  }

  /** 2·a for an affine a (mdbl-2008-s-1). */
  HDN static G1Xyzz dbl_affine(const G1Affine& a) {
    Fp u = Fp::dbl(a.y);
    Fp v = Fp::sqr(u);
    Fp w = Fp::mul(u, v);
    Fp s = Fp::mul(a.x, v);
    Fp xx = Fp::sqr(a.x);
    Fp m = Fp::add(Fp::dbl(xx), xx);
    G1Xyzz r;
    r.X = Fp::sub(Fp::sqr(m), Fp::dbl(s));
    r.Y = Fp::sub(Fp::mul(m, Fp::sub(s, r.X)), Fp::mul(w, a.y));
    r.ZZ = v;
    r.ZZZ = w;
    return r;
  }

  /** this := 2·this (dbl-2008-s-1). */
  HDN void dbl() {
    if (is_identity()) return;
    Fp u = Fp::dbl(Y);
    Fp v = Fp::sqr(u);
    Fp w = Fp::mul(u, v);
    Fp s = Fp::mul(X, v);
    Fp xx = Fp::sqr(X);
    Fp m = Fp::add(Fp::dbl(xx), xx);
    Fp x3 = Fp::sub(Fp::sqr(m), Fp::dbl(s));
    Y = Fp::sub(Fp::mul(m, Fp::sub(s, x3)), Fp::mul(w, Y));
    X = x3;
    ZZ = Fp::mul(v, ZZ);
    ZZZ = Fp::mul(w, ZZZ);
  }

  /** this := this + a for an affine a (madd-2008-s). */
  HDN void add(const G1Affine& a) { add_inline(a); }

  /** The same addition inlined into the caller (the accumulation loop; -DMSM_CALL_MADD calls add instead). */
  HD void add_inline(const G1Affine& a) {
    if (a.is_identity()) return;
    if (is_identity()) {
      *this = of(a);
      return;
    }
    Fp p = Fp::sub(Fp::mul(a.x, ZZ), X);
    Fp r = Fp::sub(Fp::mul(a.y, ZZZ), Y);
    if (p.is_zero()) {
      if (r.is_zero()) {
        *this = dbl_affine(a);
      } else {
        *this = identity();
      }
      return;
    }
    Fp pp = Fp::sqr(p);
    Fp ppp = Fp::mul(p, pp);
    Fp q = Fp::mul(X, pp);
    Fp x3 = Fp::sub(Fp::sub(Fp::sqr(r), ppp), Fp::dbl(q));
    Y = Fp::sub(Fp::mul(r, Fp::sub(q, x3)), Fp::mul(Y, ppp));
    X = x3;
    ZZ = Fp::mul(ZZ, pp);
    ZZZ = Fp::mul(ZZZ, ppp);
  }

  /** this := this + o (add-2008-s). */
  HDN void add(const G1Xyzz& o) {
    if (o.is_identity()) return;
    if (is_identity()) {
      *this = o;
      return;
    }
    Fp u1 = Fp::mul(X, o.ZZ);
    Fp u2 = Fp::mul(o.X, ZZ);
    Fp s1 = Fp::mul(Y, o.ZZZ);
    Fp s2 = Fp::mul(o.Y, ZZZ);
    Fp p = Fp::sub(u2, u1);
    Fp r = Fp::sub(s2, s1);
    if (p.is_zero()) {
      if (r.is_zero()) {
        dbl();
      } else {
        *this = identity();
      }
      return;
    }
    Fp pp = Fp::sqr(p);
    Fp ppp = Fp::mul(p, pp);
    Fp q = Fp::mul(u1, pp);
    Fp x3 = Fp::sub(Fp::sub(Fp::sqr(r), ppp), Fp::dbl(q));
    Y = Fp::sub(Fp::mul(r, Fp::sub(q, x3)), Fp::mul(s1, ppp));
    X = x3;
    ZZ = Fp::mul(Fp::mul(ZZ, o.ZZ), pp);
    ZZZ = Fp::mul(Fp::mul(ZZZ, o.ZZZ), ppp);
  }

  /** k·this for a small non-negative k, by double and add from the top bit. */
  HDN G1Xyzz times(uint32_t k) const {
    G1Xyzz acc = identity();
    for (int bit = 31; bit >= 0; bit--) {
      acc.dbl();
      if ((k >> bit) & 1) acc.add(*this);
    }
    return acc;
  }

  /**
   * Jacobian coordinates (x = X/Z^2, y = Y/Z^3) as blst's blst_p1 lays them out: Z = ZZ·ZZZ,
   * X = X·ZZ·ZZZ^2, Y = Y·ZZ^3·ZZZ^2; the identity comes out with Z = 0, as blst's does.
   */
  HDN void to_jacobian(Fp out[3]) const {
    if (is_identity()) {
      out[0] = Fp::zero();
      out[1] = Fp::zero();
      out[2] = Fp::zero();
      return;
    }
    Fp zzz2 = Fp::sqr(ZZZ);
    Fp zz_zzz2 = Fp::mul(ZZ, zzz2);
    out[0] = Fp::reduce(Fp::mul(X, zz_zzz2));
    out[1] = Fp::reduce(Fp::mul(Y, Fp::mul(Fp::sqr(ZZ), zz_zzz2)));
    out[2] = Fp::reduce(Fp::mul(ZZ, ZZZ));
  }
};
