// Prime-field arithmetic for BLS12-381 in Montgomery form, 32-bit limbs, little-endian.
//
// Fp (381-bit base field, 12 limbs, R = 2^384) and Fr (255-bit scalar field, 8 limbs, R = 2^256) use
// the same Montgomery radix as blst (Fp) and the Java Fr (4 x 64-bit limbs), so host vectors copy to
// the device byte for byte. Functions are __host__ __device__ so that host_check.cu can test them on
// the CPU against Python's big integers without a GPU.
#pragma once
#include <stdint.h>

#define HD __host__ __device__ __forceinline__

// Fp values may be held partly reduced, in [0, 2p): since 4p < R = 2^384, a Montgomery product of two such values is
// below 2p without the final subtraction (t < (4p^2 + R·p) / R < 2p), and sums and differences stay there with one
// conditional correction by 2p. That saves the product's final subtraction (about 6% of its instructions); values
// leave the device through Field::reduce. Fr (4r > 2^256) stays fully reduced. -DFP_LAZY=0 builds the fully reduced Fp.
#ifndef FP_LAZY
#define FP_LAZY 1
#endif
// Field::add and sub as PTX carry chains on the device (FieldAsm add_n, sub_n) instead of portable C with 64-bit
// intermediates; -DFP_ASM_ADDSUB=0 builds the C, for timing one against the other.
#ifndef FP_ASM_ADDSUB
#define FP_ASM_ADDSUB 1
#endif
// Y3 of the point formulas as one reduction of a sum of products (Field::mul_sub); -DFP_MUL_SUB=0 builds two products.
#ifndef FP_MUL_SUB
#define FP_MUL_SUB 1
#endif
// Products on the device in the split form (FieldAsm::split_row: even- and odd-limb products in two arrays whose
// register pairs stay aligned, so ptxas needs no moves to realign them after each row's shift); -DFP_SPLIT=0 builds
// the single array shifted down a limb a row (FieldAsm::mul_row, reduce_row), for timing one against the other.
#ifndef FP_SPLIT
#define FP_SPLIT 1
#endif

struct FpParams {
  static constexpr int N = 12;
  static constexpr bool LAZY = FP_LAZY;
  static constexpr uint32_t INV = 0xfffcfffdu;  // -p^-1 mod 2^32
  HD static uint32_t mod(int i) {
    constexpr uint32_t M[12] = {0xffffaaabu, 0xb9feffffu, 0xb153ffffu, 0x1eabfffeu, 0xf6b0f624u, 0x6730d2a0u,
                                0xf38512bfu, 0x64774b84u, 0x434bacd7u, 0x4b1ba7b6u, 0x397fe69au, 0x1a0111eau};
    return M[i];
  }
  HD static uint32_t mod2(int i) {  // 2p
    constexpr uint32_t M[12] = {0xffff5556u, 0x73fdffffu, 0x62a7ffffu, 0x3d57fffdu, 0xed61ec48u, 0xce61a541u,
                                0xe70a257eu, 0xc8ee9709u, 0x869759aeu, 0x96374f6cu, 0x72ffcd34u, 0x340223d4u};
    return M[i];
  }
  HD static uint32_t one(int i) {  // R mod p
    constexpr uint32_t O[12] = {0x0002fffdu, 0x76090000u, 0xc40c0002u, 0xebf4000bu, 0x53c758bau, 0x5f489857u,
                                0x70525745u, 0x77ce5853u, 0xa256ec6du, 0x5c071a97u, 0xfa80e493u, 0x15f65ec3u};
    return O[i];
  }
};

struct FrParams {
  static constexpr int N = 8;
  static constexpr bool LAZY = false;
  static constexpr uint32_t INV = 0xffffffffu;  // -r^-1 mod 2^32
  HD static uint32_t mod(int i) {
    constexpr uint32_t M[8] = {0x00000001u, 0xffffffffu, 0xfffe5bfeu, 0x53bda402u,
                               0x09a1d805u, 0x3339d808u, 0x299d7d48u, 0x73eda753u};
    return M[i];
  }
  HD static uint32_t mod2(int i) { return mod(i); }  // unused: Fr is never lazy
  HD static uint32_t one(int i) {
    constexpr uint32_t O[8] = {0xfffffffeu, 0x00000001u, 0x00034802u, 0x5884b7fau,
                               0xecbc4ff5u, 0x998c4fefu, 0xacc5056fu, 0x1824b159u};
    return O[i];
  }
};

#ifdef __CUDA_ARCH__
// Device-only PTX carry chains for Field<P>'s products, sums and differences (mul, mul_sub, sqr_sym, from_mont, add,
// sub), one asm block per chain so that no instruction the compiler
// places between blocks can clobber the carry flag. Written out for the two limb counts in use (8 and 12) by a
// small generator (gpu/src/test/cuda/ptx_gen.py; ptx_model.py simulates the chains against big integers); each row adds the even-limb products, then the odd-limb ones, so that the lo and hi halves of
// a product sit next to each other in a chain and ptxas fuses them into one wide multiply-add.
template <int N>
struct FieldAsm;

template <>
struct FieldAsm<8> {
  /** t[0..8] += a·b: even-limb then odd-limb products, lo and hi halves adjacent in each carry chain. */
  __device__ __forceinline__ static void mul_row(uint32_t* t, const uint32_t* a, uint32_t b) {
    asm("mad.lo.cc.u32 %0, %9, %17, %0; madc.hi.cc.u32 %1, %9, %17, %1; madc.lo.cc.u32 %2, %11, %17, %2;\n\t"
        "madc.hi.cc.u32 %3, %11, %17, %3; madc.lo.cc.u32 %4, %13, %17, %4; madc.hi.cc.u32 %5, %13, %17, %5;\n\t"
        "madc.lo.cc.u32 %6, %15, %17, %6; madc.hi.cc.u32 %7, %15, %17, %7; addc.u32 %8, 0, 0;\n\t"
        "mad.lo.cc.u32 %1, %10, %17, %1; madc.hi.cc.u32 %2, %10, %17, %2; madc.lo.cc.u32 %3, %12, %17, %3;\n\t"
        "madc.hi.cc.u32 %4, %12, %17, %4; madc.lo.cc.u32 %5, %14, %17, %5; madc.hi.cc.u32 %6, %14, %17, %6;\n\t"
        "madc.lo.cc.u32 %7, %16, %17, %7; madc.hi.u32 %8, %16, %17, %8;\n\t"
        : "+r"(t[0]), "+r"(t[1]), "+r"(t[2]), "+r"(t[3]), "+r"(t[4]), "+r"(t[5]), "+r"(t[6]), "+r"(t[7]),
          "+r"(t[8])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]), "r"(b));
  }
  /** t[0..8] += a·b where t[8] may hold a value: mul_row's second product in one row (Field::mul_sub). */
  __device__ __forceinline__ static void mul_row_acc(uint32_t* t, const uint32_t* a, uint32_t b) {
    asm("mad.lo.cc.u32 %0, %9, %17, %0; madc.hi.cc.u32 %1, %9, %17, %1; madc.lo.cc.u32 %2, %11, %17, %2;\n\t"
        "madc.hi.cc.u32 %3, %11, %17, %3; madc.lo.cc.u32 %4, %13, %17, %4; madc.hi.cc.u32 %5, %13, %17, %5;\n\t"
        "madc.lo.cc.u32 %6, %15, %17, %6; madc.hi.cc.u32 %7, %15, %17, %7; addc.u32 %8, %8, 0;\n\t"
        "mad.lo.cc.u32 %1, %10, %17, %1; madc.hi.cc.u32 %2, %10, %17, %2; madc.lo.cc.u32 %3, %12, %17, %3;\n\t"
        "madc.hi.cc.u32 %4, %12, %17, %4; madc.lo.cc.u32 %5, %14, %17, %5; madc.hi.cc.u32 %6, %14, %17, %6;\n\t"
        "madc.lo.cc.u32 %7, %16, %17, %7; madc.hi.u32 %8, %16, %17, %8;\n\t"
        : "+r"(t[0]), "+r"(t[1]), "+r"(t[2]), "+r"(t[3]), "+r"(t[4]), "+r"(t[5]), "+r"(t[6]), "+r"(t[7]),
          "+r"(t[8])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]), "r"(b));
  }
  /** t[0..8] += m·modulus (t[0] becomes 0; the caller shifts the limbs down). */
  template <class P>
  __device__ __forceinline__ static void reduce_row(uint32_t* t, uint32_t m) {
    asm("mad.lo.cc.u32 %0, %9, %10, %0; madc.hi.cc.u32 %1, %9, %10, %1; madc.lo.cc.u32 %2, %9, %12, %2;\n\t"
        "madc.hi.cc.u32 %3, %9, %12, %3; madc.lo.cc.u32 %4, %9, %14, %4; madc.hi.cc.u32 %5, %9, %14, %5;\n\t"
        "madc.lo.cc.u32 %6, %9, %16, %6; madc.hi.cc.u32 %7, %9, %16, %7; addc.u32 %8, %8, 0;\n\t"
        "mad.lo.cc.u32 %1, %9, %11, %1; madc.hi.cc.u32 %2, %9, %11, %2; madc.lo.cc.u32 %3, %9, %13, %3;\n\t"
        "madc.hi.cc.u32 %4, %9, %13, %4; madc.lo.cc.u32 %5, %9, %15, %5; madc.hi.cc.u32 %6, %9, %15, %6;\n\t"
        "madc.lo.cc.u32 %7, %9, %17, %7; madc.hi.u32 %8, %9, %17, %8;\n\t"
        : "+r"(t[0]), "+r"(t[1]), "+r"(t[2]), "+r"(t[3]), "+r"(t[4]), "+r"(t[5]), "+r"(t[6]), "+r"(t[7]),
          "+r"(t[8])
        : "r"(m), "r"(P::mod(0)), "r"(P::mod(1)), "r"(P::mod(2)), "r"(P::mod(3)), "r"(P::mod(4)),
          "r"(P::mod(5)), "r"(P::mod(6)), "r"(P::mod(7)));
  }
  /** One row of the split product: the total moved down a limb, then a·b added (see Field::mul). */
  __device__ __forceinline__ static void split_row(uint32_t* x, uint32_t* y, const uint32_t* a, uint32_t b) {
    asm("add.cc.u32 %8, %8, %1; madc.lo.cc.u32 %0, %17, %24, %2; madc.hi.cc.u32 %1, %17, %24, %3;\n\t"
        "madc.lo.cc.u32 %2, %19, %24, %4; madc.hi.cc.u32 %3, %19, %24, %5; madc.lo.cc.u32 %4, %21, %24, %6;\n\t"
        "madc.hi.cc.u32 %5, %21, %24, %7; madc.lo.cc.u32 %6, %23, %24, 0; madc.hi.u32 %7, %23, %24, 0;\n\t"
        "mad.lo.cc.u32 %8, %16, %24, %8; madc.hi.cc.u32 %9, %16, %24, %9; madc.lo.cc.u32 %10, %18, %24, %10;\n\t"
        "madc.hi.cc.u32 %11, %18, %24, %11; madc.lo.cc.u32 %12, %20, %24, %12; madc.hi.cc.u32 %13, %20, %24, %13;\n\t"
        "madc.lo.cc.u32 %14, %22, %24, %14; madc.hi.cc.u32 %15, %22, %24, %15; addc.u32 %7, %7, 0;\n\t"
        : "+r"(x[0]), "+r"(x[1]), "+r"(x[2]), "+r"(x[3]), "+r"(x[4]), "+r"(x[5]), "+r"(x[6]), "+r"(x[7]),
          "+r"(y[0]), "+r"(y[1]), "+r"(y[2]), "+r"(y[3]), "+r"(y[4]), "+r"(y[5]), "+r"(y[6]), "+r"(y[7])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]), "r"(b));
  }
  /** x, y += a·b in the split form, without moving down: mul_sub's second product in a row. */
  __device__ __forceinline__ static void split_acc(uint32_t* x, uint32_t* y, const uint32_t* a, uint32_t b) {
    asm("mad.lo.cc.u32 %0, %17, %24, %0; madc.hi.cc.u32 %1, %17, %24, %1; madc.lo.cc.u32 %2, %19, %24, %2;\n\t"
        "madc.hi.cc.u32 %3, %19, %24, %3; madc.lo.cc.u32 %4, %21, %24, %4; madc.hi.cc.u32 %5, %21, %24, %5;\n\t"
        "madc.lo.cc.u32 %6, %23, %24, %6; madc.hi.u32 %7, %23, %24, %7; mad.lo.cc.u32 %8, %16, %24, %8;\n\t"
        "madc.hi.cc.u32 %9, %16, %24, %9; madc.lo.cc.u32 %10, %18, %24, %10; madc.hi.cc.u32 %11, %18, %24, %11;\n\t"
        "madc.lo.cc.u32 %12, %20, %24, %12; madc.hi.cc.u32 %13, %20, %24, %13; madc.lo.cc.u32 %14, %22, %24, %14;\n\t"
        "madc.hi.cc.u32 %15, %22, %24, %15; addc.u32 %7, %7, 0;\n\t"
        : "+r"(x[0]), "+r"(x[1]), "+r"(x[2]), "+r"(x[3]), "+r"(x[4]), "+r"(x[5]), "+r"(x[6]), "+r"(x[7]),
          "+r"(y[0]), "+r"(y[1]), "+r"(y[2]), "+r"(y[3]), "+r"(y[4]), "+r"(y[5]), "+r"(y[6]), "+r"(y[7])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]), "r"(b));
  }
  /** x, y += m·modulus in the split form (y[0] becomes 0). */
  template <class P>
  __device__ __forceinline__ static void split_reduce(uint32_t* x, uint32_t* y, uint32_t m) {
    asm("mad.lo.cc.u32 %0, %16, %18, %0; madc.hi.cc.u32 %1, %16, %18, %1; madc.lo.cc.u32 %2, %16, %20, %2;\n\t"
        "madc.hi.cc.u32 %3, %16, %20, %3; madc.lo.cc.u32 %4, %16, %22, %4; madc.hi.cc.u32 %5, %16, %22, %5;\n\t"
        "madc.lo.cc.u32 %6, %16, %24, %6; madc.hi.u32 %7, %16, %24, %7; mad.lo.cc.u32 %8, %16, %17, %8;\n\t"
        "madc.hi.cc.u32 %9, %16, %17, %9; madc.lo.cc.u32 %10, %16, %19, %10; madc.hi.cc.u32 %11, %16, %19, %11;\n\t"
        "madc.lo.cc.u32 %12, %16, %21, %12; madc.hi.cc.u32 %13, %16, %21, %13; madc.lo.cc.u32 %14, %16, %23, %14;\n\t"
        "madc.hi.cc.u32 %15, %16, %23, %15; addc.u32 %7, %7, 0;\n\t"
        : "+r"(x[0]), "+r"(x[1]), "+r"(x[2]), "+r"(x[3]), "+r"(x[4]), "+r"(x[5]), "+r"(x[6]), "+r"(x[7]),
          "+r"(y[0]), "+r"(y[1]), "+r"(y[2]), "+r"(y[3]), "+r"(y[4]), "+r"(y[5]), "+r"(y[6]), "+r"(y[7])
        : "r"(m), "r"(P::mod(0)), "r"(P::mod(1)), "r"(P::mod(2)), "r"(P::mod(3)), "r"(P::mod(4)),
          "r"(P::mod(5)), "r"(P::mod(6)), "r"(P::mod(7)));
  }
  /** A reduction row alone in the split form: the total moved down a limb, then y[0]·inv·modulus added. */
  template <class P>
  __device__ __forceinline__ static void split_reduce_row(uint32_t* x, uint32_t* y) {
    uint32_t m;
    asm("add.cc.u32 %8, %8, %1; mul.lo.u32 %16, %8, %17; madc.lo.cc.u32 %0, %16, %19, %2;\n\t"
        "madc.hi.cc.u32 %1, %16, %19, %3; madc.lo.cc.u32 %2, %16, %21, %4; madc.hi.cc.u32 %3, %16, %21, %5;\n\t"
        "madc.lo.cc.u32 %4, %16, %23, %6; madc.hi.cc.u32 %5, %16, %23, %7; madc.lo.cc.u32 %6, %16, %25, 0;\n\t"
        "madc.hi.u32 %7, %16, %25, 0; mad.lo.cc.u32 %8, %16, %18, %8; madc.hi.cc.u32 %9, %16, %18, %9;\n\t"
        "madc.lo.cc.u32 %10, %16, %20, %10; madc.hi.cc.u32 %11, %16, %20, %11; madc.lo.cc.u32 %12, %16, %22, %12;\n\t"
        "madc.hi.cc.u32 %13, %16, %22, %13; madc.lo.cc.u32 %14, %16, %24, %14; madc.hi.cc.u32 %15, %16, %24, %15;\n\t"
        "addc.u32 %7, %7, 0;\n\t"
        : "+r"(x[0]), "+r"(x[1]), "+r"(x[2]), "+r"(x[3]), "+r"(x[4]), "+r"(x[5]), "+r"(x[6]), "+r"(x[7]),
          "+r"(y[0]), "+r"(y[1]), "+r"(y[2]), "+r"(y[3]), "+r"(y[4]), "+r"(y[5]), "+r"(y[6]), "+r"(y[7]),
          "=r"(m)
        : "r"(P::INV), "r"(P::mod(0)), "r"(P::mod(1)), "r"(P::mod(2)), "r"(P::mod(3)), "r"(P::mod(4)),
          "r"(P::mod(5)), "r"(P::mod(6)), "r"(P::mod(7)));
  }
  /** r = x + y / 2^32: the split total after its last row, in N limbs. */
  __device__ __forceinline__ static void split_merge(uint32_t* r, const uint32_t* x, const uint32_t* y) {
    asm("add.cc.u32 %0, %8, %17; addc.cc.u32 %1, %9, %18; addc.cc.u32 %2, %10, %19;\n\t"
        "addc.cc.u32 %3, %11, %20; addc.cc.u32 %4, %12, %21; addc.cc.u32 %5, %13, %22;\n\t"
        "addc.cc.u32 %6, %14, %23; addc.u32 %7, %15, 0;\n\t"
        : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7])
        : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(x[4]), "r"(x[5]), "r"(x[6]), "r"(x[7]), "r"(y[0]),
          "r"(y[1]), "r"(y[2]), "r"(y[3]), "r"(y[4]), "r"(y[5]), "r"(y[6]), "r"(y[7]));
  }
  /** d - modulus into d, one borrow chain; returns all ones when d was below the modulus, else 0. */
  template <class P>
  __device__ __forceinline__ static uint32_t sub_mod(uint32_t* d) {
    uint32_t mask;
    asm("sub.cc.u32 %0, %0, %9; subc.cc.u32 %1, %1, %10; subc.cc.u32 %2, %2, %11;\n\t"
        "subc.cc.u32 %3, %3, %12; subc.cc.u32 %4, %4, %13; subc.cc.u32 %5, %5, %14;\n\t"
        "subc.cc.u32 %6, %6, %15; subc.cc.u32 %7, %7, %16; subc.u32 %8, 0, 0;\n\t"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]),
          "=r"(mask)
        : "r"(P::mod(0)), "r"(P::mod(1)), "r"(P::mod(2)), "r"(P::mod(3)), "r"(P::mod(4)), "r"(P::mod(5)),
          "r"(P::mod(6)), "r"(P::mod(7)));
    return mask;
  }
  /** r = a + b, one carry chain (the caller knows the sum fits in N limbs). */
  __device__ __forceinline__ static void add_n(uint32_t* r, const uint32_t* a, const uint32_t* b) {
    asm("add.cc.u32 %0, %8, %16; addc.cc.u32 %1, %9, %17; addc.cc.u32 %2, %10, %18;\n\t"
        "addc.cc.u32 %3, %11, %19; addc.cc.u32 %4, %12, %20; addc.cc.u32 %5, %13, %21;\n\t"
        "addc.cc.u32 %6, %14, %22; addc.u32 %7, %15, %23;\n\t"
        : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]), "r"(b[0]),
          "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(b[4]), "r"(b[5]), "r"(b[6]), "r"(b[7]));
  }
  /** r = a - b, one borrow chain; returns all ones when a was below b (the difference wrapped), else 0. */
  __device__ __forceinline__ static uint32_t sub_n(uint32_t* r, const uint32_t* a, const uint32_t* b) {
    uint32_t mask;
    asm("sub.cc.u32 %0, %9, %17; subc.cc.u32 %1, %10, %18; subc.cc.u32 %2, %11, %19;\n\t"
        "subc.cc.u32 %3, %12, %20; subc.cc.u32 %4, %13, %21; subc.cc.u32 %5, %14, %22;\n\t"
        "subc.cc.u32 %6, %15, %23; subc.cc.u32 %7, %16, %24; subc.u32 %8, 0, 0;\n\t"
        : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7]),
          "=r"(mask)
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]), "r"(b[0]),
          "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(b[4]), "r"(b[5]), "r"(b[6]), "r"(b[7]));
    return mask;
  }
};

template <>
struct FieldAsm<12> {
  /** t[0..12] += a·b: even-limb then odd-limb products, lo and hi halves adjacent in each carry chain. */
  __device__ __forceinline__ static void mul_row(uint32_t* t, const uint32_t* a, uint32_t b) {
    asm("mad.lo.cc.u32 %0, %13, %25, %0; madc.hi.cc.u32 %1, %13, %25, %1; madc.lo.cc.u32 %2, %15, %25, %2;\n\t"
        "madc.hi.cc.u32 %3, %15, %25, %3; madc.lo.cc.u32 %4, %17, %25, %4; madc.hi.cc.u32 %5, %17, %25, %5;\n\t"
        "madc.lo.cc.u32 %6, %19, %25, %6; madc.hi.cc.u32 %7, %19, %25, %7; madc.lo.cc.u32 %8, %21, %25, %8;\n\t"
        "madc.hi.cc.u32 %9, %21, %25, %9; madc.lo.cc.u32 %10, %23, %25, %10; madc.hi.cc.u32 %11, %23, %25, %11;\n\t"
        "addc.u32 %12, 0, 0; mad.lo.cc.u32 %1, %14, %25, %1; madc.hi.cc.u32 %2, %14, %25, %2;\n\t"
        "madc.lo.cc.u32 %3, %16, %25, %3; madc.hi.cc.u32 %4, %16, %25, %4; madc.lo.cc.u32 %5, %18, %25, %5;\n\t"
        "madc.hi.cc.u32 %6, %18, %25, %6; madc.lo.cc.u32 %7, %20, %25, %7; madc.hi.cc.u32 %8, %20, %25, %8;\n\t"
        "madc.lo.cc.u32 %9, %22, %25, %9; madc.hi.cc.u32 %10, %22, %25, %10; madc.lo.cc.u32 %11, %24, %25, %11;\n\t"
        "madc.hi.u32 %12, %24, %25, %12;\n\t"
        : "+r"(t[0]), "+r"(t[1]), "+r"(t[2]), "+r"(t[3]), "+r"(t[4]), "+r"(t[5]), "+r"(t[6]), "+r"(t[7]),
          "+r"(t[8]), "+r"(t[9]), "+r"(t[10]), "+r"(t[11]), "+r"(t[12])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]), "r"(a[8]),
          "r"(a[9]), "r"(a[10]), "r"(a[11]), "r"(b));
  }
  /** t[0..12] += a·b where t[12] may hold a value: mul_row's second product in one row (Field::mul_sub). */
  __device__ __forceinline__ static void mul_row_acc(uint32_t* t, const uint32_t* a, uint32_t b) {
    asm("mad.lo.cc.u32 %0, %13, %25, %0; madc.hi.cc.u32 %1, %13, %25, %1; madc.lo.cc.u32 %2, %15, %25, %2;\n\t"
        "madc.hi.cc.u32 %3, %15, %25, %3; madc.lo.cc.u32 %4, %17, %25, %4; madc.hi.cc.u32 %5, %17, %25, %5;\n\t"
        "madc.lo.cc.u32 %6, %19, %25, %6; madc.hi.cc.u32 %7, %19, %25, %7; madc.lo.cc.u32 %8, %21, %25, %8;\n\t"
        "madc.hi.cc.u32 %9, %21, %25, %9; madc.lo.cc.u32 %10, %23, %25, %10; madc.hi.cc.u32 %11, %23, %25, %11;\n\t"
        "addc.u32 %12, %12, 0; mad.lo.cc.u32 %1, %14, %25, %1; madc.hi.cc.u32 %2, %14, %25, %2;\n\t"
        "madc.lo.cc.u32 %3, %16, %25, %3; madc.hi.cc.u32 %4, %16, %25, %4; madc.lo.cc.u32 %5, %18, %25, %5;\n\t"
        "madc.hi.cc.u32 %6, %18, %25, %6; madc.lo.cc.u32 %7, %20, %25, %7; madc.hi.cc.u32 %8, %20, %25, %8;\n\t"
        "madc.lo.cc.u32 %9, %22, %25, %9; madc.hi.cc.u32 %10, %22, %25, %10; madc.lo.cc.u32 %11, %24, %25, %11;\n\t"
        "madc.hi.u32 %12, %24, %25, %12;\n\t"
        : "+r"(t[0]), "+r"(t[1]), "+r"(t[2]), "+r"(t[3]), "+r"(t[4]), "+r"(t[5]), "+r"(t[6]), "+r"(t[7]),
          "+r"(t[8]), "+r"(t[9]), "+r"(t[10]), "+r"(t[11]), "+r"(t[12])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]), "r"(a[8]),
          "r"(a[9]), "r"(a[10]), "r"(a[11]), "r"(b));
  }
  /** t[0..12] += m·modulus (t[0] becomes 0; the caller shifts the limbs down). */
  template <class P>
  __device__ __forceinline__ static void reduce_row(uint32_t* t, uint32_t m) {
    asm("mad.lo.cc.u32 %0, %13, %14, %0; madc.hi.cc.u32 %1, %13, %14, %1; madc.lo.cc.u32 %2, %13, %16, %2;\n\t"
        "madc.hi.cc.u32 %3, %13, %16, %3; madc.lo.cc.u32 %4, %13, %18, %4; madc.hi.cc.u32 %5, %13, %18, %5;\n\t"
        "madc.lo.cc.u32 %6, %13, %20, %6; madc.hi.cc.u32 %7, %13, %20, %7; madc.lo.cc.u32 %8, %13, %22, %8;\n\t"
        "madc.hi.cc.u32 %9, %13, %22, %9; madc.lo.cc.u32 %10, %13, %24, %10; madc.hi.cc.u32 %11, %13, %24, %11;\n\t"
        "addc.u32 %12, %12, 0; mad.lo.cc.u32 %1, %13, %15, %1; madc.hi.cc.u32 %2, %13, %15, %2;\n\t"
        "madc.lo.cc.u32 %3, %13, %17, %3; madc.hi.cc.u32 %4, %13, %17, %4; madc.lo.cc.u32 %5, %13, %19, %5;\n\t"
        "madc.hi.cc.u32 %6, %13, %19, %6; madc.lo.cc.u32 %7, %13, %21, %7; madc.hi.cc.u32 %8, %13, %21, %8;\n\t"
        "madc.lo.cc.u32 %9, %13, %23, %9; madc.hi.cc.u32 %10, %13, %23, %10; madc.lo.cc.u32 %11, %13, %25, %11;\n\t"
        "madc.hi.u32 %12, %13, %25, %12;\n\t"
        : "+r"(t[0]), "+r"(t[1]), "+r"(t[2]), "+r"(t[3]), "+r"(t[4]), "+r"(t[5]), "+r"(t[6]), "+r"(t[7]),
          "+r"(t[8]), "+r"(t[9]), "+r"(t[10]), "+r"(t[11]), "+r"(t[12])
        : "r"(m), "r"(P::mod(0)), "r"(P::mod(1)), "r"(P::mod(2)), "r"(P::mod(3)), "r"(P::mod(4)),
          "r"(P::mod(5)), "r"(P::mod(6)), "r"(P::mod(7)), "r"(P::mod(8)), "r"(P::mod(9)), "r"(P::mod(10)),
          "r"(P::mod(11)));
  }
  /** One row of the split product: the total moved down a limb, then a·b added (see Field::mul). */
  __device__ __forceinline__ static void split_row(uint32_t* x, uint32_t* y, const uint32_t* a, uint32_t b) {
    asm("add.cc.u32 %12, %12, %1; madc.lo.cc.u32 %0, %25, %36, %2; madc.hi.cc.u32 %1, %25, %36, %3;\n\t"
        "madc.lo.cc.u32 %2, %27, %36, %4; madc.hi.cc.u32 %3, %27, %36, %5; madc.lo.cc.u32 %4, %29, %36, %6;\n\t"
        "madc.hi.cc.u32 %5, %29, %36, %7; madc.lo.cc.u32 %6, %31, %36, %8; madc.hi.cc.u32 %7, %31, %36, %9;\n\t"
        "madc.lo.cc.u32 %8, %33, %36, %10; madc.hi.cc.u32 %9, %33, %36, %11; madc.lo.cc.u32 %10, %35, %36, 0;\n\t"
        "madc.hi.u32 %11, %35, %36, 0; mad.lo.cc.u32 %12, %24, %36, %12; madc.hi.cc.u32 %13, %24, %36, %13;\n\t"
        "madc.lo.cc.u32 %14, %26, %36, %14; madc.hi.cc.u32 %15, %26, %36, %15; madc.lo.cc.u32 %16, %28, %36, %16;\n\t"
        "madc.hi.cc.u32 %17, %28, %36, %17; madc.lo.cc.u32 %18, %30, %36, %18; madc.hi.cc.u32 %19, %30, %36, %19;\n\t"
        "madc.lo.cc.u32 %20, %32, %36, %20; madc.hi.cc.u32 %21, %32, %36, %21; madc.lo.cc.u32 %22, %34, %36, %22;\n\t"
        "madc.hi.cc.u32 %23, %34, %36, %23; addc.u32 %11, %11, 0;\n\t"
        : "+r"(x[0]), "+r"(x[1]), "+r"(x[2]), "+r"(x[3]), "+r"(x[4]), "+r"(x[5]), "+r"(x[6]), "+r"(x[7]),
          "+r"(x[8]), "+r"(x[9]), "+r"(x[10]), "+r"(x[11]), "+r"(y[0]), "+r"(y[1]), "+r"(y[2]), "+r"(y[3]),
          "+r"(y[4]), "+r"(y[5]), "+r"(y[6]), "+r"(y[7]), "+r"(y[8]), "+r"(y[9]), "+r"(y[10]), "+r"(y[11])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]), "r"(a[8]),
          "r"(a[9]), "r"(a[10]), "r"(a[11]), "r"(b));
  }
  /** x, y += a·b in the split form, without moving down: mul_sub's second product in a row. */
  __device__ __forceinline__ static void split_acc(uint32_t* x, uint32_t* y, const uint32_t* a, uint32_t b) {
    asm("mad.lo.cc.u32 %0, %25, %36, %0; madc.hi.cc.u32 %1, %25, %36, %1; madc.lo.cc.u32 %2, %27, %36, %2;\n\t"
        "madc.hi.cc.u32 %3, %27, %36, %3; madc.lo.cc.u32 %4, %29, %36, %4; madc.hi.cc.u32 %5, %29, %36, %5;\n\t"
        "madc.lo.cc.u32 %6, %31, %36, %6; madc.hi.cc.u32 %7, %31, %36, %7; madc.lo.cc.u32 %8, %33, %36, %8;\n\t"
        "madc.hi.cc.u32 %9, %33, %36, %9; madc.lo.cc.u32 %10, %35, %36, %10; madc.hi.u32 %11, %35, %36, %11;\n\t"
        "mad.lo.cc.u32 %12, %24, %36, %12; madc.hi.cc.u32 %13, %24, %36, %13; madc.lo.cc.u32 %14, %26, %36, %14;\n\t"
        "madc.hi.cc.u32 %15, %26, %36, %15; madc.lo.cc.u32 %16, %28, %36, %16; madc.hi.cc.u32 %17, %28, %36, %17;\n\t"
        "madc.lo.cc.u32 %18, %30, %36, %18; madc.hi.cc.u32 %19, %30, %36, %19; madc.lo.cc.u32 %20, %32, %36, %20;\n\t"
        "madc.hi.cc.u32 %21, %32, %36, %21; madc.lo.cc.u32 %22, %34, %36, %22; madc.hi.cc.u32 %23, %34, %36, %23;\n\t"
        "addc.u32 %11, %11, 0;\n\t"
        : "+r"(x[0]), "+r"(x[1]), "+r"(x[2]), "+r"(x[3]), "+r"(x[4]), "+r"(x[5]), "+r"(x[6]), "+r"(x[7]),
          "+r"(x[8]), "+r"(x[9]), "+r"(x[10]), "+r"(x[11]), "+r"(y[0]), "+r"(y[1]), "+r"(y[2]), "+r"(y[3]),
          "+r"(y[4]), "+r"(y[5]), "+r"(y[6]), "+r"(y[7]), "+r"(y[8]), "+r"(y[9]), "+r"(y[10]), "+r"(y[11])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]), "r"(a[8]),
          "r"(a[9]), "r"(a[10]), "r"(a[11]), "r"(b));
  }
  /** x, y += m·modulus in the split form (y[0] becomes 0). */
  template <class P>
  __device__ __forceinline__ static void split_reduce(uint32_t* x, uint32_t* y, uint32_t m) {
    asm("mad.lo.cc.u32 %0, %24, %26, %0; madc.hi.cc.u32 %1, %24, %26, %1; madc.lo.cc.u32 %2, %24, %28, %2;\n\t"
        "madc.hi.cc.u32 %3, %24, %28, %3; madc.lo.cc.u32 %4, %24, %30, %4; madc.hi.cc.u32 %5, %24, %30, %5;\n\t"
        "madc.lo.cc.u32 %6, %24, %32, %6; madc.hi.cc.u32 %7, %24, %32, %7; madc.lo.cc.u32 %8, %24, %34, %8;\n\t"
        "madc.hi.cc.u32 %9, %24, %34, %9; madc.lo.cc.u32 %10, %24, %36, %10; madc.hi.u32 %11, %24, %36, %11;\n\t"
        "mad.lo.cc.u32 %12, %24, %25, %12; madc.hi.cc.u32 %13, %24, %25, %13; madc.lo.cc.u32 %14, %24, %27, %14;\n\t"
        "madc.hi.cc.u32 %15, %24, %27, %15; madc.lo.cc.u32 %16, %24, %29, %16; madc.hi.cc.u32 %17, %24, %29, %17;\n\t"
        "madc.lo.cc.u32 %18, %24, %31, %18; madc.hi.cc.u32 %19, %24, %31, %19; madc.lo.cc.u32 %20, %24, %33, %20;\n\t"
        "madc.hi.cc.u32 %21, %24, %33, %21; madc.lo.cc.u32 %22, %24, %35, %22; madc.hi.cc.u32 %23, %24, %35, %23;\n\t"
        "addc.u32 %11, %11, 0;\n\t"
        : "+r"(x[0]), "+r"(x[1]), "+r"(x[2]), "+r"(x[3]), "+r"(x[4]), "+r"(x[5]), "+r"(x[6]), "+r"(x[7]),
          "+r"(x[8]), "+r"(x[9]), "+r"(x[10]), "+r"(x[11]), "+r"(y[0]), "+r"(y[1]), "+r"(y[2]), "+r"(y[3]),
          "+r"(y[4]), "+r"(y[5]), "+r"(y[6]), "+r"(y[7]), "+r"(y[8]), "+r"(y[9]), "+r"(y[10]), "+r"(y[11])
        : "r"(m), "r"(P::mod(0)), "r"(P::mod(1)), "r"(P::mod(2)), "r"(P::mod(3)), "r"(P::mod(4)),
          "r"(P::mod(5)), "r"(P::mod(6)), "r"(P::mod(7)), "r"(P::mod(8)), "r"(P::mod(9)), "r"(P::mod(10)),
          "r"(P::mod(11)));
  }
  /** A reduction row alone in the split form: the total moved down a limb, then y[0]·inv·modulus added. */
  template <class P>
  __device__ __forceinline__ static void split_reduce_row(uint32_t* x, uint32_t* y) {
    uint32_t m;
    asm("add.cc.u32 %12, %12, %1; mul.lo.u32 %24, %12, %25; madc.lo.cc.u32 %0, %24, %27, %2;\n\t"
        "madc.hi.cc.u32 %1, %24, %27, %3; madc.lo.cc.u32 %2, %24, %29, %4; madc.hi.cc.u32 %3, %24, %29, %5;\n\t"
        "madc.lo.cc.u32 %4, %24, %31, %6; madc.hi.cc.u32 %5, %24, %31, %7; madc.lo.cc.u32 %6, %24, %33, %8;\n\t"
        "madc.hi.cc.u32 %7, %24, %33, %9; madc.lo.cc.u32 %8, %24, %35, %10; madc.hi.cc.u32 %9, %24, %35, %11;\n\t"
        "madc.lo.cc.u32 %10, %24, %37, 0; madc.hi.u32 %11, %24, %37, 0; mad.lo.cc.u32 %12, %24, %26, %12;\n\t"
        "madc.hi.cc.u32 %13, %24, %26, %13; madc.lo.cc.u32 %14, %24, %28, %14; madc.hi.cc.u32 %15, %24, %28, %15;\n\t"
        "madc.lo.cc.u32 %16, %24, %30, %16; madc.hi.cc.u32 %17, %24, %30, %17; madc.lo.cc.u32 %18, %24, %32, %18;\n\t"
        "madc.hi.cc.u32 %19, %24, %32, %19; madc.lo.cc.u32 %20, %24, %34, %20; madc.hi.cc.u32 %21, %24, %34, %21;\n\t"
        "madc.lo.cc.u32 %22, %24, %36, %22; madc.hi.cc.u32 %23, %24, %36, %23; addc.u32 %11, %11, 0;\n\t"
        : "+r"(x[0]), "+r"(x[1]), "+r"(x[2]), "+r"(x[3]), "+r"(x[4]), "+r"(x[5]), "+r"(x[6]), "+r"(x[7]),
          "+r"(x[8]), "+r"(x[9]), "+r"(x[10]), "+r"(x[11]), "+r"(y[0]), "+r"(y[1]), "+r"(y[2]), "+r"(y[3]),
          "+r"(y[4]), "+r"(y[5]), "+r"(y[6]), "+r"(y[7]), "+r"(y[8]), "+r"(y[9]), "+r"(y[10]), "+r"(y[11]),
          "=r"(m)
        : "r"(P::INV), "r"(P::mod(0)), "r"(P::mod(1)), "r"(P::mod(2)), "r"(P::mod(3)), "r"(P::mod(4)),
          "r"(P::mod(5)), "r"(P::mod(6)), "r"(P::mod(7)), "r"(P::mod(8)), "r"(P::mod(9)), "r"(P::mod(10)),
          "r"(P::mod(11)));
  }
  /** r = x + y / 2^32: the split total after its last row, in N limbs. */
  __device__ __forceinline__ static void split_merge(uint32_t* r, const uint32_t* x, const uint32_t* y) {
    asm("add.cc.u32 %0, %12, %25; addc.cc.u32 %1, %13, %26; addc.cc.u32 %2, %14, %27;\n\t"
        "addc.cc.u32 %3, %15, %28; addc.cc.u32 %4, %16, %29; addc.cc.u32 %5, %17, %30;\n\t"
        "addc.cc.u32 %6, %18, %31; addc.cc.u32 %7, %19, %32; addc.cc.u32 %8, %20, %33;\n\t"
        "addc.cc.u32 %9, %21, %34; addc.cc.u32 %10, %22, %35; addc.u32 %11, %23, 0;\n\t"
        : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7]),
          "=r"(r[8]), "=r"(r[9]), "=r"(r[10]), "=r"(r[11])
        : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(x[4]), "r"(x[5]), "r"(x[6]), "r"(x[7]), "r"(x[8]),
          "r"(x[9]), "r"(x[10]), "r"(x[11]), "r"(y[0]), "r"(y[1]), "r"(y[2]), "r"(y[3]), "r"(y[4]),
          "r"(y[5]), "r"(y[6]), "r"(y[7]), "r"(y[8]), "r"(y[9]), "r"(y[10]), "r"(y[11]));
  }
  /** d - modulus into d, one borrow chain; returns all ones when d was below the modulus, else 0. */
  template <class P>
  __device__ __forceinline__ static uint32_t sub_mod(uint32_t* d) {
    uint32_t mask;
    asm("sub.cc.u32 %0, %0, %13; subc.cc.u32 %1, %1, %14; subc.cc.u32 %2, %2, %15;\n\t"
        "subc.cc.u32 %3, %3, %16; subc.cc.u32 %4, %4, %17; subc.cc.u32 %5, %5, %18;\n\t"
        "subc.cc.u32 %6, %6, %19; subc.cc.u32 %7, %7, %20; subc.cc.u32 %8, %8, %21;\n\t"
        "subc.cc.u32 %9, %9, %22; subc.cc.u32 %10, %10, %23; subc.cc.u32 %11, %11, %24;\n\t"
        "subc.u32 %12, 0, 0;\n\t"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]),
          "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "=r"(mask)
        : "r"(P::mod(0)), "r"(P::mod(1)), "r"(P::mod(2)), "r"(P::mod(3)), "r"(P::mod(4)), "r"(P::mod(5)),
          "r"(P::mod(6)), "r"(P::mod(7)), "r"(P::mod(8)), "r"(P::mod(9)), "r"(P::mod(10)), "r"(P::mod(11)));
    return mask;
  }
  /** r = a + b, one carry chain (the caller knows the sum fits in N limbs). */
  __device__ __forceinline__ static void add_n(uint32_t* r, const uint32_t* a, const uint32_t* b) {
    asm("add.cc.u32 %0, %12, %24; addc.cc.u32 %1, %13, %25; addc.cc.u32 %2, %14, %26;\n\t"
        "addc.cc.u32 %3, %15, %27; addc.cc.u32 %4, %16, %28; addc.cc.u32 %5, %17, %29;\n\t"
        "addc.cc.u32 %6, %18, %30; addc.cc.u32 %7, %19, %31; addc.cc.u32 %8, %20, %32;\n\t"
        "addc.cc.u32 %9, %21, %33; addc.cc.u32 %10, %22, %34; addc.u32 %11, %23, %35;\n\t"
        : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7]),
          "=r"(r[8]), "=r"(r[9]), "=r"(r[10]), "=r"(r[11])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]), "r"(a[8]),
          "r"(a[9]), "r"(a[10]), "r"(a[11]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(b[4]),
          "r"(b[5]), "r"(b[6]), "r"(b[7]), "r"(b[8]), "r"(b[9]), "r"(b[10]), "r"(b[11]));
  }
  /** r = a - b, one borrow chain; returns all ones when a was below b (the difference wrapped), else 0. */
  __device__ __forceinline__ static uint32_t sub_n(uint32_t* r, const uint32_t* a, const uint32_t* b) {
    uint32_t mask;
    asm("sub.cc.u32 %0, %13, %25; subc.cc.u32 %1, %14, %26; subc.cc.u32 %2, %15, %27;\n\t"
        "subc.cc.u32 %3, %16, %28; subc.cc.u32 %4, %17, %29; subc.cc.u32 %5, %18, %30;\n\t"
        "subc.cc.u32 %6, %19, %31; subc.cc.u32 %7, %20, %32; subc.cc.u32 %8, %21, %33;\n\t"
        "subc.cc.u32 %9, %22, %34; subc.cc.u32 %10, %23, %35; subc.cc.u32 %11, %24, %36;\n\t"
        "subc.u32 %12, 0, 0;\n\t"
        : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7]),
          "=r"(r[8]), "=r"(r[9]), "=r"(r[10]), "=r"(r[11]), "=r"(mask)
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]), "r"(a[8]),
          "r"(a[9]), "r"(a[10]), "r"(a[11]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(b[4]),
          "r"(b[5]), "r"(b[6]), "r"(b[7]), "r"(b[8]), "r"(b[9]), "r"(b[10]), "r"(b[11]));
    return mask;
  }
  /** T[0..23] = a·a: the cross products a_i·a_j (i < j) once, doubled, plus the squares a_i^2. */
  __device__ __forceinline__ static void sqr_wide(uint32_t* T, const uint32_t* a) {
    asm("mad.lo.cc.u32 %1, %25, %24, %1; madc.hi.cc.u32 %2, %25, %24, %2; madc.lo.cc.u32 %3, %27, %24, %3;\n\t"
        "madc.hi.cc.u32 %4, %27, %24, %4; madc.lo.cc.u32 %5, %29, %24, %5; madc.hi.cc.u32 %6, %29, %24, %6;\n\t"
        "madc.lo.cc.u32 %7, %31, %24, %7; madc.hi.cc.u32 %8, %31, %24, %8; madc.lo.cc.u32 %9, %33, %24, %9;\n\t"
        "madc.hi.cc.u32 %10, %33, %24, %10; madc.lo.cc.u32 %11, %35, %24, %11; madc.hi.u32 %12, %35, %24, 0;\n\t"
        "mad.lo.cc.u32 %2, %26, %24, %2; madc.hi.cc.u32 %3, %26, %24, %3; madc.lo.cc.u32 %4, %28, %24, %4;\n\t"
        "madc.hi.cc.u32 %5, %28, %24, %5; madc.lo.cc.u32 %6, %30, %24, %6; madc.hi.cc.u32 %7, %30, %24, %7;\n\t"
        "madc.lo.cc.u32 %8, %32, %24, %8; madc.hi.cc.u32 %9, %32, %24, %9; madc.lo.cc.u32 %10, %34, %24, %10;\n\t"
        "madc.hi.cc.u32 %11, %34, %24, %11; addc.u32 %12, %12, 0; mad.lo.cc.u32 %3, %26, %25, %3;\n\t"
        "madc.hi.cc.u32 %4, %26, %25, %4; madc.lo.cc.u32 %5, %28, %25, %5; madc.hi.cc.u32 %6, %28, %25, %6;\n\t"
        "madc.lo.cc.u32 %7, %30, %25, %7; madc.hi.cc.u32 %8, %30, %25, %8; madc.lo.cc.u32 %9, %32, %25, %9;\n\t"
        "madc.hi.cc.u32 %10, %32, %25, %10; madc.lo.cc.u32 %11, %34, %25, %11; madc.hi.cc.u32 %12, %34, %25, %12;\n\t"
        "addc.u32 %13, 0, 0; mad.lo.cc.u32 %4, %27, %25, %4; madc.hi.cc.u32 %5, %27, %25, %5;\n\t"
        "madc.lo.cc.u32 %6, %29, %25, %6; madc.hi.cc.u32 %7, %29, %25, %7; madc.lo.cc.u32 %8, %31, %25, %8;\n\t"
        "madc.hi.cc.u32 %9, %31, %25, %9; madc.lo.cc.u32 %10, %33, %25, %10; madc.hi.cc.u32 %11, %33, %25, %11;\n\t"
        "madc.lo.cc.u32 %12, %35, %25, %12; madc.hi.u32 %13, %35, %25, %13; mad.lo.cc.u32 %5, %27, %26, %5;\n\t"
        "madc.hi.cc.u32 %6, %27, %26, %6; madc.lo.cc.u32 %7, %29, %26, %7; madc.hi.cc.u32 %8, %29, %26, %8;\n\t"
        "madc.lo.cc.u32 %9, %31, %26, %9; madc.hi.cc.u32 %10, %31, %26, %10; madc.lo.cc.u32 %11, %33, %26, %11;\n\t"
        "madc.hi.cc.u32 %12, %33, %26, %12; madc.lo.cc.u32 %13, %35, %26, %13; madc.hi.u32 %14, %35, %26, 0;\n\t"
        "mad.lo.cc.u32 %6, %28, %26, %6; madc.hi.cc.u32 %7, %28, %26, %7; madc.lo.cc.u32 %8, %30, %26, %8;\n\t"
        "madc.hi.cc.u32 %9, %30, %26, %9; madc.lo.cc.u32 %10, %32, %26, %10; madc.hi.cc.u32 %11, %32, %26, %11;\n\t"
        "madc.lo.cc.u32 %12, %34, %26, %12; madc.hi.cc.u32 %13, %34, %26, %13; addc.u32 %14, %14, 0;\n\t"
        "mad.lo.cc.u32 %7, %28, %27, %7; madc.hi.cc.u32 %8, %28, %27, %8; madc.lo.cc.u32 %9, %30, %27, %9;\n\t"
        "madc.hi.cc.u32 %10, %30, %27, %10; madc.lo.cc.u32 %11, %32, %27, %11; madc.hi.cc.u32 %12, %32, %27, %12;\n\t"
        "madc.lo.cc.u32 %13, %34, %27, %13; madc.hi.cc.u32 %14, %34, %27, %14; addc.u32 %15, 0, 0;\n\t"
        "mad.lo.cc.u32 %8, %29, %27, %8; madc.hi.cc.u32 %9, %29, %27, %9; madc.lo.cc.u32 %10, %31, %27, %10;\n\t"
        "madc.hi.cc.u32 %11, %31, %27, %11; madc.lo.cc.u32 %12, %33, %27, %12; madc.hi.cc.u32 %13, %33, %27, %13;\n\t"
        "madc.lo.cc.u32 %14, %35, %27, %14; madc.hi.u32 %15, %35, %27, %15; mad.lo.cc.u32 %9, %29, %28, %9;\n\t"
        "madc.hi.cc.u32 %10, %29, %28, %10; madc.lo.cc.u32 %11, %31, %28, %11; madc.hi.cc.u32 %12, %31, %28, %12;\n\t"
        "madc.lo.cc.u32 %13, %33, %28, %13; madc.hi.cc.u32 %14, %33, %28, %14; madc.lo.cc.u32 %15, %35, %28, %15;\n\t"
        "madc.hi.u32 %16, %35, %28, 0; mad.lo.cc.u32 %10, %30, %28, %10; madc.hi.cc.u32 %11, %30, %28, %11;\n\t"
        "madc.lo.cc.u32 %12, %32, %28, %12; madc.hi.cc.u32 %13, %32, %28, %13; madc.lo.cc.u32 %14, %34, %28, %14;\n\t"
        "madc.hi.cc.u32 %15, %34, %28, %15; addc.u32 %16, %16, 0; mad.lo.cc.u32 %11, %30, %29, %11;\n\t"
        "madc.hi.cc.u32 %12, %30, %29, %12; madc.lo.cc.u32 %13, %32, %29, %13; madc.hi.cc.u32 %14, %32, %29, %14;\n\t"
        "madc.lo.cc.u32 %15, %34, %29, %15; madc.hi.cc.u32 %16, %34, %29, %16; addc.u32 %17, 0, 0;\n\t"
        "mad.lo.cc.u32 %12, %31, %29, %12; madc.hi.cc.u32 %13, %31, %29, %13; madc.lo.cc.u32 %14, %33, %29, %14;\n\t"
        "madc.hi.cc.u32 %15, %33, %29, %15; madc.lo.cc.u32 %16, %35, %29, %16; madc.hi.u32 %17, %35, %29, %17;\n\t"
        "mad.lo.cc.u32 %13, %31, %30, %13; madc.hi.cc.u32 %14, %31, %30, %14; madc.lo.cc.u32 %15, %33, %30, %15;\n\t"
        "madc.hi.cc.u32 %16, %33, %30, %16; madc.lo.cc.u32 %17, %35, %30, %17; madc.hi.u32 %18, %35, %30, 0;\n\t"
        "mad.lo.cc.u32 %14, %32, %30, %14; madc.hi.cc.u32 %15, %32, %30, %15; madc.lo.cc.u32 %16, %34, %30, %16;\n\t"
        "madc.hi.cc.u32 %17, %34, %30, %17; addc.u32 %18, %18, 0; mad.lo.cc.u32 %15, %32, %31, %15;\n\t"
        "madc.hi.cc.u32 %16, %32, %31, %16; madc.lo.cc.u32 %17, %34, %31, %17; madc.hi.cc.u32 %18, %34, %31, %18;\n\t"
        "addc.u32 %19, 0, 0; mad.lo.cc.u32 %16, %33, %31, %16; madc.hi.cc.u32 %17, %33, %31, %17;\n\t"
        "madc.lo.cc.u32 %18, %35, %31, %18; madc.hi.u32 %19, %35, %31, %19; mad.lo.cc.u32 %17, %33, %32, %17;\n\t"
        "madc.hi.cc.u32 %18, %33, %32, %18; madc.lo.cc.u32 %19, %35, %32, %19; madc.hi.u32 %20, %35, %32, 0;\n\t"
        "mad.lo.cc.u32 %18, %34, %32, %18; madc.hi.cc.u32 %19, %34, %32, %19; addc.u32 %20, %20, 0;\n\t"
        "mad.lo.cc.u32 %19, %34, %33, %19; madc.hi.cc.u32 %20, %34, %33, %20; addc.u32 %21, 0, 0;\n\t"
        "mad.lo.cc.u32 %20, %35, %33, %20; madc.hi.u32 %21, %35, %33, %21; mad.lo.cc.u32 %21, %35, %34, %21;\n\t"
        "madc.hi.u32 %22, %35, %34, 0; add.cc.u32 %0, %0, %0; addc.cc.u32 %1, %1, %1;\n\t"
        "addc.cc.u32 %2, %2, %2; addc.cc.u32 %3, %3, %3; addc.cc.u32 %4, %4, %4;\n\t"
        "addc.cc.u32 %5, %5, %5; addc.cc.u32 %6, %6, %6; addc.cc.u32 %7, %7, %7;\n\t"
        "addc.cc.u32 %8, %8, %8; addc.cc.u32 %9, %9, %9; addc.cc.u32 %10, %10, %10;\n\t"
        "addc.cc.u32 %11, %11, %11; addc.cc.u32 %12, %12, %12; addc.cc.u32 %13, %13, %13;\n\t"
        "addc.cc.u32 %14, %14, %14; addc.cc.u32 %15, %15, %15; addc.cc.u32 %16, %16, %16;\n\t"
        "addc.cc.u32 %17, %17, %17; addc.cc.u32 %18, %18, %18; addc.cc.u32 %19, %19, %19;\n\t"
        "addc.cc.u32 %20, %20, %20; addc.cc.u32 %21, %21, %21; addc.cc.u32 %22, %22, %22;\n\t"
        "addc.u32 %23, %23, %23; mad.lo.cc.u32 %0, %24, %24, %0; madc.hi.cc.u32 %1, %24, %24, %1;\n\t"
        "madc.lo.cc.u32 %2, %25, %25, %2; madc.hi.cc.u32 %3, %25, %25, %3; madc.lo.cc.u32 %4, %26, %26, %4;\n\t"
        "madc.hi.cc.u32 %5, %26, %26, %5; madc.lo.cc.u32 %6, %27, %27, %6; madc.hi.cc.u32 %7, %27, %27, %7;\n\t"
        "madc.lo.cc.u32 %8, %28, %28, %8; madc.hi.cc.u32 %9, %28, %28, %9; madc.lo.cc.u32 %10, %29, %29, %10;\n\t"
        "madc.hi.cc.u32 %11, %29, %29, %11; madc.lo.cc.u32 %12, %30, %30, %12; madc.hi.cc.u32 %13, %30, %30, %13;\n\t"
        "madc.lo.cc.u32 %14, %31, %31, %14; madc.hi.cc.u32 %15, %31, %31, %15; madc.lo.cc.u32 %16, %32, %32, %16;\n\t"
        "madc.hi.cc.u32 %17, %32, %32, %17; madc.lo.cc.u32 %18, %33, %33, %18; madc.hi.cc.u32 %19, %33, %33, %19;\n\t"
        "madc.lo.cc.u32 %20, %34, %34, %20; madc.hi.cc.u32 %21, %34, %34, %21; madc.lo.cc.u32 %22, %35, %35, %22;\n\t"
        "madc.hi.u32 %23, %35, %35, %23;\n\t"
        : "+r"(T[0]), "+r"(T[1]), "+r"(T[2]), "+r"(T[3]), "+r"(T[4]), "+r"(T[5]), "+r"(T[6]), "+r"(T[7]),
          "+r"(T[8]), "+r"(T[9]), "+r"(T[10]), "+r"(T[11]), "+r"(T[12]), "+r"(T[13]), "+r"(T[14]),
          "+r"(T[15]), "+r"(T[16]), "+r"(T[17]), "+r"(T[18]), "+r"(T[19]), "+r"(T[20]), "+r"(T[21]),
          "+r"(T[22]), "+r"(T[23])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]), "r"(a[8]),
          "r"(a[9]), "r"(a[10]), "r"(a[11]));
  }
};
#endif

/**
 * An element of the prime field P describes, in Montgomery form: fully reduced, or for a P with LAZY in [0, 2·modulus)
 * (see FpParams), where is_zero means "congruent to 0" and reduce gives the canonical value.
 */
template <class P>
struct Field {
  static constexpr int N = P::N;
  static_assert(N % 2 == 0, "the split form's rows go in pairs, and its chains in limb pairs: N must be even");
  uint32_t v[N];

  HD static Field zero() {
    Field r;
#pragma unroll
    for (int i = 0; i < N; i++) r.v[i] = 0;
    return r;
  }

  HD static Field one() {
    Field r;
#pragma unroll
    for (int i = 0; i < N; i++) r.v[i] = P::one(i);
    return r;
  }

  /** The top of the range values are kept in: the modulus, or twice it for a lazy field. */
  HD static uint32_t bound(int i) { return P::LAZY ? P::mod2(i) : P::mod(i); }

  HD bool is_zero() const {
    uint32_t x = 0, m = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
      x |= v[i];
      m |= v[i] ^ P::mod(i);
    }
    return x == 0 || (P::LAZY && m == 0);
  }

  /** t - modulus into d; returns the borrow (1 when t < modulus). */
  HD static uint32_t sub_mod(const uint32_t* t, uint32_t* d) {
    uint32_t borrow = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
      uint64_t s = (uint64_t)t[i] - P::mod(i) - borrow;
      d[i] = (uint32_t)s;
      borrow = (uint32_t)(s >> 63);
    }
    return borrow;
  }

  /** t - bound into d; returns the borrow (1 when t < bound). */
  HD static uint32_t sub_bound(const uint32_t* t, uint32_t* d) {
    uint32_t borrow = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
      uint64_t s = (uint64_t)t[i] - bound(i) - borrow;
      d[i] = (uint32_t)s;
      borrow = (uint32_t)(s >> 63);
    }
    return borrow;
  }

  /** The canonical value (below the modulus) of a. */
  HD static Field reduce(const Field& a) {
    if (!P::LAZY) return a;
    Field r;
    uint32_t borrow = sub_mod(a.v, r.v);
#pragma unroll
    for (int i = 0; i < N; i++) r.v[i] = borrow ? a.v[i] : r.v[i];
    return r;
  }

  HD static Field add(const Field& a, const Field& b) {
    // a + b < 2·bound < 2^(32N) for both fields (4p < 2^383), so no carry leaves the top limb
    uint32_t t[N];
#if defined(__CUDA_ARCH__) && FP_ASM_ADDSUB
    FieldAsm<N>::add_n(t, a.v, b.v);
    uint32_t bl[N];
#pragma unroll
    for (int i = 0; i < N; i++) bl[i] = bound(i);
    Field d;
    uint32_t below = FieldAsm<N>::sub_n(d.v, t, bl);
#pragma unroll
    for (int i = 0; i < N; i++) d.v[i] = below ? t[i] : d.v[i];
    return d;
#else
    uint32_t carry = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
      uint64_t s = (uint64_t)a.v[i] + b.v[i] + carry;
      t[i] = (uint32_t)s;
      carry = (uint32_t)(s >> 32);
    }
    Field r;
    uint32_t borrow = sub_bound(t, r.v);
#pragma unroll
    for (int i = 0; i < N; i++) r.v[i] = borrow ? t[i] : r.v[i];
    return r;
#endif
  }

  HD static Field sub(const Field& a, const Field& b) {
    Field r;
#if defined(__CUDA_ARCH__) && FP_ASM_ADDSUB
    uint32_t wrapped = FieldAsm<N>::sub_n(r.v, a.v, b.v);
    uint32_t bl[N];  // the bound where a < b (the difference wrapped), else 0; its carry out cancels the wrap
#pragma unroll
    for (int i = 0; i < N; i++) bl[i] = bound(i) & wrapped;
    Field d;
    FieldAsm<N>::add_n(d.v, r.v, bl);
    return d;
#else
    uint32_t borrow = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
      uint64_t s = (uint64_t)a.v[i] - b.v[i] - borrow;
      r.v[i] = (uint32_t)s;
      borrow = (uint32_t)(s >> 63);
    }
    uint32_t mask = 0u - borrow;  // add the bound back when a < b
    uint32_t carry = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
      uint64_t s = (uint64_t)r.v[i] + (bound(i) & mask) + carry;
      r.v[i] = (uint32_t)s;
      carry = (uint32_t)(s >> 32);
    }
    return r;
#endif
  }

  HD static Field neg(const Field& a) { return sub(zero(), a); }

  HD static Field dbl(const Field& a) { return add(a, a); }

  /** Montgomery product a·b·R^-1 (CIOS); on the device with PTX carry chains, on the host in portable C. */
  HD static Field mul(const Field& a, const Field& b) {
#ifdef __CUDA_ARCH__
    // t < 3·modulus after every row (a, b < 2·modulus), so t + a·b[i] + m·modulus fits in N + 1 limbs and the
    // shifted t in N; the one conditional subtraction at the end leaves it fully reduced, and a lazy field skips it
    // (t < 2·modulus already)
#if FP_SPLIT
    Field r = mul_split<false>(a, b, a, b);
#else
    uint32_t t[N + 1];
#pragma unroll
    for (int i = 0; i < N + 1; i++) t[i] = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
      FieldAsm<N>::mul_row(t, a.v, b.v[i]);
      reduce_shift(t);
    }
    Field r;
#pragma unroll
    for (int i = 0; i < N; i++) r.v[i] = t[i];
#endif
    return P::LAZY ? r : subtract_once(r);
#else
    uint32_t t[N + 2];
#pragma unroll
    for (int i = 0; i < N + 2; i++) t[i] = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
      add_row(t, a.v, b.v[i]);
      host_reduce_shift(t);
    }
    Field r;
    if (P::LAZY) {  // t < 2·modulus < 2^(32N): t[N] is 0
#pragma unroll
      for (int i = 0; i < N; i++) r.v[i] = t[i];
      return r;
    }
    uint32_t borrow = sub_mod(t, r.v);
    bool keep = borrow && t[N] == 0;
#pragma unroll
    for (int i = 0; i < N; i++) r.v[i] = keep ? t[i] : r.v[i];
    return r;
#endif
  }

  HD static Field sqr(const Field& a) { return mul(a, a); }

  /**
   * a·b - c·d with one Montgomery reduction instead of two: the CIOS rows add a·b_i and c·e_i for e = -d (2p - d), then
   * reduce once, which saves one product's 12 reduction rows (about 300 of its 588 instructions); the point formulas' Y3 = R·(Q - X3) - Y·PPP
   * takes this form. For a lazy 12-limb field only (Fp): with a, b, c, e below 2p the sum is below 8p^2, every row fits
   * in N + 1 limbs (below 2^416), and the result is below 8p^2/R + p < 2p since 8p < R = 2^384; other fields, and
   * -DFP_MUL_SUB=0 (for timing), subtract two products.
   */
  HD static Field mul_sub(const Field& a, const Field& b, const Field& c, const Field& d) {
    if constexpr (!(FP_MUL_SUB && P::LAZY && N == 12)) {
      return sub(mul(a, b), mul(c, d));
    } else {
      Field e = neg(d);
#ifdef __CUDA_ARCH__
#if FP_SPLIT
      Field r = mul_split<true>(a, b, c, e);
#else
      uint32_t t[N + 1];
#pragma unroll
      for (int i = 0; i < N + 1; i++) t[i] = 0;
#pragma unroll
      for (int i = 0; i < N; i++) {
        FieldAsm<N>::mul_row(t, a.v, b.v[i]);
        FieldAsm<N>::mul_row_acc(t, c.v, e.v[i]);
        reduce_shift(t);
      }
      Field r;
#pragma unroll
      for (int i = 0; i < N; i++) r.v[i] = t[i];
#endif
      return r;
#else
      uint32_t t[N + 2];
      for (int i = 0; i < N + 2; i++) t[i] = 0;
      for (int i = 0; i < N; i++) {
        add_row(t, a.v, b.v[i]);
        add_row(t, c.v, e.v[i]);
        host_reduce_shift(t);
      }
      Field r;  // below 2p < 2^(32N): t[N] is 0
      for (int i = 0; i < N; i++) r.v[i] = t[i];
      return r;
#endif
    }
  }

#ifdef __CUDA_ARCH__
  /** One CIOS reduction row on the device: t[0..N] += m·modulus for m = t[0]·INV (t[0] becomes 0), t shifted down a limb. */
  __device__ __forceinline__ static void reduce_shift(uint32_t* t) {
    uint32_t m = t[0] * P::INV;
    FieldAsm<N>::template reduce_row<P>(t, m);
#pragma unroll
    for (int j = 0; j < N; j++) t[j] = t[j + 1];
    t[N] = 0;
  }

  /**
   * (a·b + c·e)·R^-1 on the device in the split form, or a·b·R^-1 without SECOND (c and e unused): each row adds a·b_i
   * (FieldAsm::split_row), then c·e_i (split_acc), then one reduction (split_reduce), and the two arrays trade places
   * for the next row; split_merge gives the N limbs. The total is mul's or mul_sub's at every row, so their bounds hold.
   */
  template <bool SECOND>
  __device__ __forceinline__ static Field mul_split(const Field& a, const Field& b, const Field& c, const Field& e) {
    uint32_t x[N], y[N];
#pragma unroll
    for (int i = 0; i < N; i++) x[i] = y[i] = 0;
#pragma unroll
    for (int i = 0; i < N; i += 2) {
      FieldAsm<N>::split_row(x, y, a.v, b.v[i]);
      if constexpr (SECOND) FieldAsm<N>::split_acc(x, y, c.v, e.v[i]);
      FieldAsm<N>::template split_reduce<P>(x, y, y[0] * P::INV);
      FieldAsm<N>::split_row(y, x, a.v, b.v[i + 1]);
      if constexpr (SECOND) FieldAsm<N>::split_acc(y, x, c.v, e.v[i + 1]);
      FieldAsm<N>::template split_reduce<P>(y, x, x[0] * P::INV);
    }
    Field r;
    FieldAsm<N>::split_merge(r.v, y, x);
    return r;
  }

  /**
   * t·R^-1 for t (N limbs) on the device: N reduction rows in the split form (FieldAsm::split_reduce_row), merged;
   * below modulus + 1, since (t + m·modulus) / R < 1 + modulus.
   */
  __device__ __forceinline__ static Field redc_split(const uint32_t* t) {
    uint32_t x[N], y[N];  // the total: y, plus x a limb down (as in mul)
#pragma unroll
    for (int i = 0; i < N; i++) {
      x[i] = 0;
      y[i] = t[i];
    }
#pragma unroll
    for (int i = 0; i < N; i += 2) {
      FieldAsm<N>::template split_reduce_row<P>(x, y);
      FieldAsm<N>::template split_reduce_row<P>(y, x);
    }
    Field r;
    FieldAsm<N>::split_merge(r.v, y, x);
    return r;
  }

  /** r less the modulus where that leaves it non-negative (r below 2·modulus), on the device: one borrow chain. */
  __device__ __forceinline__ static Field subtract_once(const Field& r) {
    Field d = r;
    uint32_t keep = FieldAsm<N>::template sub_mod<P>(d.v);
#pragma unroll
    for (int i = 0; i < N; i++) d.v[i] = keep ? r.v[i] : d.v[i];
    return d;
  }
#endif

  /** reduce_shift on the host: t[0..N+1] += m·modulus for m = t[0]·INV, shifted down a limb (t[N+1] becomes 0). */
  HD static void host_reduce_shift(uint32_t* t) {
    uint32_t m = t[0] * P::INV;
    uint64_t s = (uint64_t)m * P::mod(0) + t[0];
    uint32_t carry = (uint32_t)(s >> 32);
#pragma unroll
    for (int j = 1; j < N; j++) {
      s = (uint64_t)m * P::mod(j) + t[j] + carry;
      t[j - 1] = (uint32_t)s;
      carry = (uint32_t)(s >> 32);
    }
    s = (uint64_t)t[N] + carry;
    t[N - 1] = (uint32_t)s;
    t[N] = t[N + 1] + (uint32_t)(s >> 32);
    t[N + 1] = 0;
  }

  /** t[0..N+1] += a·b for one limb b (the host's CIOS row). */
  HD static void add_row(uint32_t* t, const uint32_t* a, uint32_t b) {
    uint32_t carry = 0;
#pragma unroll
    for (int j = 0; j < N; j++) {
      uint64_t s = (uint64_t)a[j] * b + t[j] + carry;
      t[j] = (uint32_t)s;
      carry = (uint32_t)(s >> 32);
    }
    uint64_t s = (uint64_t)t[N] + carry;
    t[N] = (uint32_t)s;
    t[N + 1] += (uint32_t)(s >> 32);
  }

  /**
   * a·a·R^-1 by a dedicated squaring (SOS): the N(N-1)/2 cross products a_i·a_j (i < j) once, doubled, plus the N
   * squares, then N Montgomery reduction rows over the low half and the high half added: about N^2 + N products where
   * mul takes 2N^2 for the product part (the reduction is the same). For a lazy 12-limb field only (Fp): the result is
   * below 2p (the reduced low half is at most p, the high half below a^2/R < p), so no subtraction; other fields use mul.
   * Kept apart from sqr, which every other formula uses, so that a benchmark can time one against the other.
   */
  HD static Field sqr_sym(const Field& a) {
    if constexpr (!(P::LAZY && N == 12)) {
      return mul(a, a);
    } else {
      uint32_t T[2 * N];
#ifdef __CUDA_ARCH__
#pragma unroll
      for (int i = 0; i < 2 * N; i++) T[i] = 0;
      FieldAsm<N>::sqr_wide(T, a.v);
#if FP_SPLIT
      Field t = redc_split(T);
      Field r;
      FieldAsm<N>::add_n(r.v, t.v, T + N);
#else
      uint32_t t[N + 1];
#pragma unroll
      for (int i = 0; i < N; i++) t[i] = T[i];
      t[N] = 0;
#pragma unroll
      for (int i = 0; i < N; i++) {
        reduce_shift(t);
      }
      Field r;
      FieldAsm<N>::add_n(r.v, t, T + N);
#endif
      return r;
#else
      for (int i = 0; i < 2 * N; i++) T[i] = 0;
      for (int i = 0; i < N - 1; i++) {  // cross products, row by row
        uint32_t carry = 0;
        for (int j = i + 1; j < N; j++) {
          uint64_t s = (uint64_t)a.v[i] * a.v[j] + T[i + j] + carry;
          T[i + j] = (uint32_t)s;
          carry = (uint32_t)(s >> 32);
        }
        T[i + N] = carry;
      }
      uint32_t top = 0;  // doubled, plus the squares
      for (int k = 0; k < 2 * N; k++) {
        uint32_t next = T[k] >> 31;
        T[k] = (T[k] << 1) | top;
        top = next;
      }
      uint32_t carry = 0;
      for (int j = 0; j < N; j++) {
        uint64_t sq = (uint64_t)a.v[j] * a.v[j];
        uint64_t s = (uint64_t)T[2 * j] + (uint32_t)sq + carry;
        T[2 * j] = (uint32_t)s;
        s = (uint64_t)T[2 * j + 1] + (uint32_t)(sq >> 32) + (uint32_t)(s >> 32);
        T[2 * j + 1] = (uint32_t)s;
        carry = (uint32_t)(s >> 32);
      }
      for (int i = 0; i < N; i++) {  // reduce the low half: T[i] := 0 by adding m·p at limb i, carrying into T[i + N]
        uint32_t m = T[i] * P::INV;
        uint32_t c = 0;
        for (int j = 0; j < N; j++) {
          uint64_t s = (uint64_t)m * P::mod(j) + T[i + j] + c;
          T[i + j] = (uint32_t)s;
          c = (uint32_t)(s >> 32);
        }
        for (int k = i + N; c != 0 && k < 2 * N; k++) {
          uint64_t s = (uint64_t)T[k] + c;
          T[k] = (uint32_t)s;
          c = (uint32_t)(s >> 32);
        }
      }
      Field r;
      for (int i = 0; i < N; i++) r.v[i] = T[i + N];
      return r;
#endif
    }
  }

  /**
   * From Montgomery form to the canonical integer's limbs: a·R^-1, on the device by the N reduction rows alone (the
   * product by 1 adds a in its first row and nothing after, so t starts as a), half of mul's multiply-adds; the MSM's
   * digit kernels run it once per scalar and sort pass.
   */
  HD static Field from_mont(const Field& a) {
#ifdef __CUDA_ARCH__
#if FP_SPLIT
    return subtract_once(redc_split(a.v));  // (a + m·modulus) / R < 2·modulus: one conditional subtraction
#else
    uint32_t t[N + 1];
#pragma unroll
    for (int i = 0; i < N; i++) t[i] = a.v[i];
    t[N] = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
      reduce_shift(t);
    }
    Field r;  // t = (a + m·modulus) / R < 2·modulus: one conditional subtraction leaves it canonical
#pragma unroll
    for (int i = 0; i < N; i++) r.v[i] = t[i];
    return subtract_once(r);
#endif
#else
    Field u = zero();
    u.v[0] = 1;
    return mul(a, u);
#endif
  }

  /** a^(modulus - 2) = a^-1 by Fermat (0 for 0); about N·32 squarings, for the rare conversions to affine. */
  HD static Field inverse(const Field& a) {
    Field r = one();
    for (int i = N - 1; i >= 0; i--) {
      uint32_t e = P::mod(i) - (i == 0 ? 2u : 0u);
      for (int bit = 31; bit >= 0; bit--) {
        r = sqr(r);
        if ((e >> bit) & 1) r = mul(r, a);
      }
    }
    return r;
  }

  /** a^e for a small exponent, by square and multiply. */
  HD static Field pow(const Field& a, uint64_t e) {
    Field r = one();
    Field b = a;
    while (e) {
      if (e & 1) r = mul(r, b);
      e >>= 1;
      if (e) b = sqr(b);
    }
    return r;
  }
};

typedef Field<FpParams> Fp;
typedef Field<FrParams> Fr;
