// Host-side check of the field and G1 formulas (no GPU needed): prints values that host_check.py
// recomputes with Python integers. Run: python3 gpu/src/test/cuda/host_check.py
#include <stdio.h>
#include <stdlib.h>
#include "../../main/cuda/g1.cuh"

template <class F>
static void print(const char* tag, const F& a) {
  printf("%s ", tag);
  for (int i = F::N - 1; i >= 0; i--) printf("%08x", a.v[i]);
  printf("\n");
}

template <class F>
static F parse(const char* hex) {  // big-endian hex of N*8 digits
  F r;
  for (int i = 0; i < F::N; i++) {
    char buf[9];
    for (int k = 0; k < 8; k++) buf[k] = hex[(F::N - 1 - i) * 8 + k];
    buf[8] = 0;
    r.v[i] = (uint32_t)strtoul(buf, nullptr, 16);
  }
  return r;
}

int main(int argc, char** argv) {
  // argv: fp_a fp_b fr_a fr_b gx gy fp_e fp_f (Montgomery, big-endian hex; e and f lazily reduced, in [p, 2p))
  Fp a = parse<Fp>(argv[1]), b = parse<Fp>(argv[2]);
  print("fp_mul", Fp::reduce(Fp::mul(a, b)));
  print("fp_add", Fp::reduce(Fp::add(a, b)));
  print("fp_sub", Fp::reduce(Fp::sub(a, b)));
  print("fp_inv", Fp::reduce(Fp::inverse(a)));
  Fp e = parse<Fp>(argv[7]), f = parse<Fp>(argv[8]);
  print("fp_mul_sub", Fp::reduce(Fp::mul_sub(e, f, a, b)));        // one reduction for e·f - a·b
  print("fp_mul_sub_lazy", Fp::reduce(Fp::mul_sub(a, b, f, e)));   // the subtracted product from lazy operands
  print("fp_mul_sub_zero", Fp::reduce(Fp::mul_sub(f, f, e, Fp::zero())));
  Fr c = parse<Fr>(argv[3]), d = parse<Fr>(argv[4]);
  print("fr_mul", Fr::mul(c, d));
  print("fr_add", Fr::add(c, d));
  print("fr_sub", Fr::sub(c, d));
  print("fr_pow", Fr::pow(c, 123457));
  print("fr_from_mont", Fr::from_mont(c));
  G1Affine g;
  g.x = parse<Fp>(argv[5]);
  g.y = parse<Fp>(argv[6]);
  Fp j[3];
  G1Xyzz acc = G1Xyzz::identity();
  for (int k = 1; k <= 5; k++) {  // k·G by mixed additions (k = 2 exercises the doubling case)
    acc.add(g);
    acc.to_jacobian(j);
    printf("madd %d\n", k);
    print("x", j[0]); print("y", j[1]); print("z", j[2]);
  }
  G1Xyzz five = acc;
  G1Xyzz t = G1Xyzz::of(g).times(1000003);
  t.to_jacobian(j);
  printf("times 1000003\n");
  print("x", j[0]); print("y", j[1]); print("z", j[2]);
  G1Xyzz s = five;
  s.add(t);  // 5G + 1000003G
  s.add(five);  // + 5G, general addition
  G1Xyzz dd = five;
  dd.add(five);  // doubling through add
  s.add(dd);
  s.to_jacobian(j);
  printf("sum 1000023\n");
  print("x", j[0]); print("y", j[1]); print("z", j[2]);
  G1Affine ng = g;
  ng.y = Fp::neg(g.y);
  G1Xyzz m = G1Xyzz::of(ng);
  m.add(g);  // -G + G = identity
  printf("identity %d\n", m.is_identity() ? 1 : 0);
  return 0;
}
