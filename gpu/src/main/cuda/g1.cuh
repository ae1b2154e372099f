// BLS12-381 G1 (y^2 = x^3 + 4 over Fp): the curve code of curve.cuh over Fp.
#pragma once
#include "curve.cuh"

typedef Affine<Fp> G1Affine;
typedef Xyzz<Fp> G1Xyzz;
