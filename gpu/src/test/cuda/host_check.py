"""Compiles host_check.cu for the CPU and checks its output against Python integers (no GPU needed)."""
import os, random, subprocess, sys, tempfile
P = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
GX = 0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb
GY = 0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1
RP, RR = 1 << 384, 1 << 256
seed = int(sys.argv[1]) if len(sys.argv) > 1 else random.randrange(1 << 30)
print("seed", seed)
rnd = random.Random(seed)
here = os.path.dirname(os.path.abspath(__file__))
exe = os.path.join(tempfile.mkdtemp(), "host_check")
subprocess.run(["nvcc", "-x", "cu", "-O2", "-o", exe, os.path.join(here, "host_check.cu")], check=True)
a, b, c, d = rnd.randrange(P), rnd.randrange(P), rnd.randrange(R), rnd.randrange(R)
hx = lambda v, bits: format(v, "0%dx" % (bits // 4))
e, f = P + rnd.randrange(P), 2 * P - 1  # lazily reduced Fp values (the device keeps Fp in [0, 2p))
args = [hx(a, 384), hx(b, 384), hx(c, 256), hx(d, 256), hx(GX * RP % P, 384), hx(GY * RP % P, 384), hx(e, 384), hx(f, 384)]
out = subprocess.run([exe] + args, check=True, capture_output=True, text=True).stdout.split("\n")
vals = {}
lines = iter(out)
got = [l.split() for l in out if l]
def mul(x, y, m, r): return x * y * pow(r, -1, m) % m
expect = [("fp_mul", mul(a, b, P, RP)), ("fp_add", (a + b) % P), ("fp_sub", (a - b) % P),
          ("fp_inv", pow(a * pow(RP, -1, P), -1, P) * RP % P),
          ("fp_mul_sub", (e * f - a * b) * pow(RP, -1, P) % P), ("fp_mul_sub_lazy", (a * b - f * e) * pow(RP, -1, P) % P),
          ("fp_mul_sub_zero", f * f * pow(RP, -1, P) % P),
          ("fr_mul", mul(c, d, R, RR)), ("fr_add", (c + d) % R), ("fr_sub", (c - d) % R),
          ("fr_pow", pow(c * pow(RR, -1, R), 123457, R) * RR % R), ("fr_from_mont", c * pow(RR, -1, R) % R)]
fails = 0
for (tag, want), line in zip(expect, got):
    ok = line[0] == tag and int(line[1], 16) == want
    fails += not ok
    print(("ok  " if ok else "BAD ") + tag)
def ec_add(p1, p2):
    if p1 is None: return p2
    if p2 is None: return p1
    (x1, y1), (x2, y2) = p1, p2
    if x1 == x2 and (y1 + y2) % P == 0: return None
    l = (3 * x1 * x1 * pow(2 * y1, -1, P)) if p1 == p2 else (y2 - y1) * pow(x2 - x1, -1, P)
    x3 = (l * l - x1 - x2) % P
    return (x3, (l * (x1 - x3) - y1) % P)
def ec_mul(k, p):
    r = None
    while k:
        if k & 1: r = ec_add(r, p)
        p = ec_add(p, p); k >>= 1
    return r
def jac_affine(xj, yj, zj):
    inv = pow(RP, -1, P)
    x, y, z = xj * inv % P, yj * inv % P, zj * inv % P
    zi = pow(z, -1, P)
    return (x * zi * zi % P, y * zi * zi * zi % P)
rest = got[len(expect):]
i = 0
while i < len(rest):
    head = rest[i]
    if head[0] == "identity":
        ok = head[1] == "1"; fails += not ok; print(("ok  " if ok else "BAD ") + "G - G"); i += 1; continue
    k = int(head[1]); xyz = [int(rest[i + t][1], 16) for t in (1, 2, 3)]
    ok = jac_affine(*xyz) == ec_mul(k, (GX, GY))
    fails += not ok
    print(("ok  " if ok else "BAD ") + " ".join(head))
    i += 4
sys.exit(1 if fails else 0)
