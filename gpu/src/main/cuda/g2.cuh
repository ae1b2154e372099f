// BLS12-381 G2 (y^2 = x^3 + 4(1 + u) over Fp2 = Fp[u]/(u^2 + 1)): Fp2 arithmetic, then the curve code of curve.cuh
// over Fp2. An Fp2 element is blst's blst_fp2, c0 + c1·u with c0 first, so points copy byte for byte (affine 192
// bytes, Jacobian 288).
#pragma once
#include "curve.cuh"

/** c0 + c1·u in Fp2, each coordinate an Fp held as Fp holds it (lazily reduced, see field.cuh). */
struct Fp2 {
  Fp c0, c1;

  HD static Fp2 of(const Fp& c0, const Fp& c1) {
    Fp2 r;
    r.c0 = c0;
    r.c1 = c1;
    return r;
  }

  HD static Fp2 zero() { return of(Fp::zero(), Fp::zero()); }

  HD static Fp2 one() { return of(Fp::one(), Fp::zero()); }

  HD bool is_zero() const { return c0.is_zero() && c1.is_zero(); }

  HD static Fp2 reduce(const Fp2& a) { return of(Fp::reduce(a.c0), Fp::reduce(a.c1)); }

  HD static Fp2 add(const Fp2& a, const Fp2& b) { return of(Fp::add(a.c0, b.c0), Fp::add(a.c1, b.c1)); }

  HD static Fp2 sub(const Fp2& a, const Fp2& b) { return of(Fp::sub(a.c0, b.c0), Fp::sub(a.c1, b.c1)); }

  HD static Fp2 neg(const Fp2& a) { return of(Fp::neg(a.c0), Fp::neg(a.c1)); }

  HD static Fp2 dbl(const Fp2& a) { return add(a, a); }

  /** (a0 + a1·u)(b0 + b1·u) = a0·b0 - a1·b1 + ((a0 + a1)(b0 + b1) - a0·b0 - a1·b1)·u: three Fp products (Karatsuba). */
  HD static Fp2 mul(const Fp2& a, const Fp2& b) {
    Fp t0 = Fp::mul(a.c0, b.c0);
    Fp t1 = Fp::mul(a.c1, b.c1);
    Fp t2 = Fp::mul(Fp::add(a.c0, a.c1), Fp::add(b.c0, b.c1));
    return of(Fp::sub(t0, t1), Fp::sub(Fp::sub(t2, t0), t1));
  }

  /** a·b - c·d: Fp2 products are three Fp products each, so nothing is shared; Fp's mul_sub is for Fp. */
  HD static Fp2 mul_sub(const Fp2& a, const Fp2& b, const Fp2& c, const Fp2& d) { return sub(mul(a, b), mul(c, d)); }

  /** (a0 + a1·u)^2 = (a0 + a1)(a0 - a1) + 2·a0·a1·u: two Fp products. */
  HD static Fp2 sqr(const Fp2& a) {
    Fp t = Fp::mul(a.c0, a.c1);
    return of(Fp::mul(Fp::add(a.c0, a.c1), Fp::sub(a.c0, a.c1)), Fp::dbl(t));
  }

  /** sqr under Field's name for the dedicated squaring: Fp2's square is already two products, none of them a square. */
  HD static Fp2 sqr_sym(const Fp2& a) { return sqr(a); }

  /** 1/a = (a0 - a1·u) / (a0^2 + a1^2), since u^2 = -1 (0 for 0). */
  HD static Fp2 inverse(const Fp2& a) {
    Fp d = Fp::inverse(Fp::add(Fp::sqr(a.c0), Fp::sqr(a.c1)));
    return of(Fp::mul(a.c0, d), Fp::neg(Fp::mul(a.c1, d)));
  }
};

typedef Affine<Fp2> G2Affine;
typedef Xyzz<Fp2> G2Xyzz;
