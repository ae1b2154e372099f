#!/usr/bin/env bash
# cuzk's documented throughput against `interlock simulate` on the corpus designs (issue 37).
#
# Each row is a throughput that cuzk's own documents give (curio's cuzk-project.md, the c2-optimization proposals and
# the phase commits' messages; the source of each figure is in the row), for one phase and GPU-worker count (gw). The
# prediction is made from the stage timings those same documents give, per partition:
#   phase 8  (PROJ:1127-1133, "Phase 8" column): ntt_msm_h 2430 ms, batch_add 640, tail_msm 125, prep_msm 1700,
#            b_g2_msm 380; epilogue 5 (P10:32)
#   phase 9  (PROJ:1127-1133 "Phase 9" column, P10:18-33; 599522de, gw=1 c=15 j=15): ntt_msm_h 690, pre-stage setup 18
#            and cleanup 2 (both under the lock), batch_add 650, tail_msm 83, prep_msm 1909, b_g2_msm 484,
#            cudaHostRegister 5, cudaHostUnregister 3, epilogue 5
#   phase 11/12 with gpu_threads=32: phase 9's, with b_g2_msm 1700 (PROJ:1216, 39387fbe)
#   synthesis: 36.5 s per partition with partition_workers (pw) = 10 (PROJ:1743, the phase 8 pw=10 TIMELINE run)
# mapped onto the designs' steps: both `kernel ntt_msm` steps (the NTTs, the H MSM) take ntt_msm_h/2 (setup and cleanup
# folded in), each of the four `kernel batch_add` batch_add/4, each of the three `kernel tail_msm` tail_msm/3,
# `cpu preprocess` prep_msm, `cpu b_g2_msm`, `cpu host_register`, `cpu host_unregister`, `cpu epilogue` as named. One
# design job is one partition; a proof is 10 partitions, so s/proof = 600 / (jobs per minute).
# Machine: --cores 96 (the Threadripper PRO 7995WX of P11:78), the GPU one kernel at a time (every phase runs its
# kernels under one mutex). Phases 9, 11 and 12 run with --vram 20GiB: on 16 GiB their H MSM's allocation fails and
# is swallowed (SWALLOWED_OOM, docs/cuzk-corpus.md), which stops a simulated run; the times are those measured on the
# 16 GiB card, where the H MSM did not run, so the extra memory changes no time.
#
# Columns: `design` is the corpus design alone, at steady state (100 jobs per worker): its GPU workers always find a
# partition ready. `+synth` adds the synthesis the designs leave out, by hand (the simulator has no producer/consumer
# step yet, see docs/simulate-cuzk.md): pw=10 partitions are synthesized at once in T = 36.5 s, so proof k's partitions
# are ready at k*T, and the bench's c proofs finish at F_c, F_k = max(k*T + D, F_{k-1} + 10*g), with g the design's
# steady s/partition and D its simulated makespan for 10 partitions from idle; s/proof = F_c / c (cuzk-bench's
# total_time / count). j=1 runs proofs one after another: T + D each. A steady-state row is max(10*g, 10*T/pw).
# `T fit` is the synthesis time that would make `+synth` equal the documented figure (- where the GPU side binds).
# `sim` is the same synthesis simulated, not added by hand: bench/cuzk-history/phaseN-synth.design runs 10 partition
# threads (pw=10), each `cpu synthesize` (36.5 s) and then the corpus design's GPU-worker body as a task behind a
# semaphore of gw permits (the designs' headers give the construction, cuzk's lines and the departures); c proofs are
# `--jobs partition=c`, s/proof = the simulated makespan / c; a steady-state row is the slope from 10 to 30 proofs, a
# j=1 row one proof (one after another, every proof takes the first's time). -j is not modelled; the script lists
# the rows where it could bind (none).
#
# Then phase 10's gain had it been safe (the seed's question): `check` on 32 and 36 GiB, and phase 10, phase 9 and
# phase 9 with the lock held through b_g2_msm (late release, made from phase9.design here) simulated from the same
# durations; and three what-ifs.
#
# Sources (filecoin-project/curio): PROJ = cuzk-project.md at 3c53695c (byte-identical to
# extern/cuzk/cuzk-project.md at 3f74a5cd); P8..P11 = c2-optimization-proposal-N.md at a737c729. docs/simulate-cuzk.md
# has every figure with its line.
# Usage: bash bench/cuzk-history.sh        (8 minutes of CPU on 2 cores; 17 minutes wall on a shared machine)
# Environment: RUNS (simulated runs per point, default 5), JOBS (jobs per worker at steady state, default 100).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
./interlock check designs/single-lock.design >/dev/null # builds the CLI once
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "# cuzk's documented throughput against interlock simulate; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%F)"
RUNS="${RUNS:-5}" JOBS="${JOBS:-100}" TMP="$tmp" python3 - <<'PY'
import json, math, os, subprocess

RUNS, JOBS, TMP = int(os.environ["RUNS"]), int(os.environ["JOBS"]), os.environ["TMP"]
CORES = 96
T_SYNTH, PW = 36.5, 10  # PROJ:1743 (pw=10)

# Per-partition stage timings, seconds, as the design's step names take them.
P8 = dict(preprocess=1.700, ntt_msm=2.430 / 2, batch_add=0.640 / 4, tail_msm=0.125 / 3, b_g2_msm=0.380, epilogue=0.005)
P9 = dict(preprocess=1.909, ntt_msm=(0.690 + 0.018 + 0.002) / 2, batch_add=0.650 / 4, tail_msm=0.083 / 3,
          b_g2_msm=0.484, host_register=0.005, host_unregister=0.003, epilogue=0.005)
P11 = dict(P9, b_g2_msm=1.700)

# The late-release variant of phase 9: join prep_msm (b_g2_msm) before unlock gpu_mtx.
src = open("designs/cuzk/phase9.design").read().split("\n")
i = src.index("  unlock gpu_mtx")
assert src[i + 1] == "  cpu host_unregister" and src[i + 2] == "  join prep_msm", "phase9.design's tail changed"
src[i:i + 3] = ["  join prep_msm", "  unlock gpu_mtx", "  cpu host_unregister"]
src = [l.replace("design cuzk-phase9", "design cuzk-phase9-late-release") for l in src if not l.startswith("# expect:")]
LATE = os.path.join(TMP, "phase9-late-release.design")
open(LATE, "w").write("\n".join(src))

def times(t):
    return [a for k, v in sorted(t.items()) for a in ("--time", f"{k}={v * 1e6:.0f}us")]

cache, cis = {}, {}
def sim(design, t, vram, workers, jobs):
    """jobs per minute per worker count (None where the run stopped: the stop's kind instead)."""
    key = (design, tuple(sorted(t.items())), vram, workers, jobs)
    if key not in cache:
        w = f"{min(workers)}..{max(workers)}" if len(workers) > 1 else str(workers[0])
        out = subprocess.run(["./interlock", "simulate", design, "--workers", w, "--cores", str(CORES), "--vram", vram,
                              "--jobs", f"gpu_worker={jobs}", "--runs", str(RUNS), "--json", *times(t)],
                             capture_output=True, text=True)
        j = json.loads(out.stdout)
        if "error" in j:
            raise SystemExit(f"{design}: {j['error']}")
        cache[key] = {p["workers"]: (p["jobs_per_minute"] or p["stop"]["kind"]) for p in j["points"]}
        cis[key] = {p["workers"]: p["jobs_per_minute_ci95"] for p in j["points"]}
    return cache[key]

def steady(design, t, vram, gw):
    """s/partition at steady state."""
    r = sim(design, t, vram, tuple(range(1, 5)), JOBS)[gw]
    return 60 / r if isinstance(r, float) else r

def drain10(design, t, vram, gw):
    """Makespan of 10 partitions from idle."""
    jobs = math.ceil(10 / gw)
    r = sim(design, t, vram, (gw,), jobs)[gw]
    return gw * jobs * 60 / r - (gw * jobs - 10) * steady(design, t, vram, gw)

def with_synth(design, t, vram, gw, c, j, T=T_SYNTH):
    g, d = steady(design, t, vram, gw), drain10(design, t, vram, gw)
    if c is None:
        return max(10 * g, 10 * T / PW)
    if j == 1:
        return T + d
    f = 0.0
    for k in range(1, c + 1):
        f = max(k * T + d, f + 10 * g)
    return f / c

def fit(design, t, vram, gw, c, j, doc):
    g, d = steady(design, t, vram, gw), drain10(design, t, vram, gw)
    if c is None:
        return doc * PW / 10 if doc > 10 * g else None
    if j == 1:
        return doc - d
    T = (c * doc - d) / c
    return T if T > 10 * g else None

# Synthesis simulated: bench/cuzk-history/phaseN-synth.design, a role of PW partition threads, each running
# `cpu synthesize` and spawning the corpus design's GPU-worker body as a task that holds one of gw permits
# (the designs' headers state the construction and where it departs from cuzk). One thread's job is one partition,
# so c proofs are --jobs partition=c on PW = 10 threads, and s/proof = 600 / (jobs per minute).
SYNTH = {"designs/cuzk/phase8.design": "bench/cuzk-history/phase8-synth.design",
         "designs/cuzk/phase9.design": "bench/cuzk-history/phase9-synth.design",
         "designs/cuzk/phase11.design": "bench/cuzk-history/phase11-synth.design",
         "designs/cuzk/phase12.design": "bench/cuzk-history/phase12-synth.design"}
scache = {}
def synth_sim(design, t, vram, gw, c, step_cores=(), T=T_SYNTH):
    """s/proof of c proofs from idle, synthesis simulated: the makespan over c."""
    key = (design, tuple(sorted(t.items())), vram, gw, c, step_cores, T)
    if key not in scache:
        src = open(SYNTH[design]).read().split("\n")
        i = next(i for i, l in enumerate(src) if l.startswith("semaphore gw "))
        src[i] = f"semaphore gw {gw}"
        path = os.path.join(TMP, f"{os.path.basename(SYNTH[design])[:-7]}-gw{gw}.design")
        open(path, "w").write("\n".join(src))
        cores = [a for k, v in step_cores for a in ("--step-cores", f"{k}={v}")]
        out = subprocess.run(["./interlock", "simulate", path, "--workers", str(PW), "--cores", str(CORES), "--vram", vram,
                              "--jobs", f"partition={c}", "--runs", str(RUNS), "--json", *times(dict(t, synthesize=T)),
                              *cores], capture_output=True, text=True)
        j = json.loads(out.stdout)
        if "error" in j:
            raise SystemExit(f"{path}: {j['error']}")
        r = j["points"][0]["jobs_per_minute"]
        if r is None:
            raise SystemExit(f"{path}: gw={gw} c={c} stopped: {j['points'][0]['stop']}")
        scache[key] = 600 / r
    return scache[key]

def simulated(design, t, vram, gw, c, j, **kw):
    """The bench's s/proof with synthesis simulated: c proofs (steady state: the slope from 10 to 30 proofs; j = 1:
    one proof, since one after another every proof takes the first's time)."""
    if c is None:
        return (30 * synth_sim(design, t, vram, gw, 30, **kw) - 10 * synth_sim(design, t, vram, gw, 10, **kw)) / 20
    if j == 1:
        return synth_sim(design, t, vram, gw, 1, **kw)
    return synth_sim(design, t, vram, gw, c, **kw)

def j_binds(design, t, vram, gw, j):
    """Whether cuzk-bench's -j could bind: a proof's GPU side (one proof's makespan less its synthesis) longer than
    j - 1 syntheses (the model queues every proof at the start)."""
    return j is not None and j > 1 and synth_sim(design, t, vram, gw, 1) - T_SYNTH > (j - 1) * T_SYNTH

D8 = ("designs/cuzk/phase8.design", P8, "16GiB")
D9 = ("designs/cuzk/phase9.design", P9, "20GiB")
D11a = ("designs/cuzk/phase11.design", P9, "20GiB")
D11 = ("designs/cuzk/phase11.design", P11, "20GiB")
D12 = ("designs/cuzk/phase12.design", P11, "20GiB")
# phase, design, gw, documented s/proof, c, j (None: a steady-state figure), the run, the source
ROWS = [
    ("8", D8, 2, 37.4, None, None, "pw=10, steady state", "PROJ:1716-1724"),
    ("8", D8, 2, 43.5, 5, 3, "pw=10 c=5 j=3", "PROJ:1683-1687"),
    ("9", D9, 1, 32.1, 3, 1, "c=3 j=1 (isolation)", "PROJ:1139; c4effc85"),
    ("9", D9, 1, 42.9, 15, 10, "c=15 j=10", "PROJ:1140"),
    ("9", D9, 1, 41.3, 15, 15, "c=15 j=15", "PROJ:1141; 599522de"),
    ("9", D9, 1, 41.6, 20, 15, "c=20 j=15", "PROJ:1142"),
    ("9", D9, 2, 41.0, 5, 3, "c=5 j=3", "PROJ:1143; c4effc85"),
    ("9", D9, 2, 41.4, 5, 5, "c=5 j=5", "P11:329; PROJ:1412"),
    ("9", D9, 2, 38.7, 10, 10, "c=10 j=10", "P11:330; PROJ:1412"),
    ("9", D9, 2, 38.2, 15, 15, "c=15 j=15", "P11:331; PROJ:1412"),
    ("9", D9, 2, 38.0, 20, 15, "c=20 j=15", "P11:332; PROJ:1207"),
    ("11", D11a, 2, 37.9, 20, 15, "Int1 only (gt=192)", "PROJ:1208"),
    ("11", D11, 2, 36.7, 20, 15, "Int1+2 (gt=32)", "PROJ:1209; 39387fbe"),
    ("11", D11, 2, 36.8, 20, 15, "Int1+2+3 (gt=32)", "PROJ:1210"),
    ("11", D11, 3, 37.2, 20, 15, "Int1+2+3 (gt=32)", "PROJ:1211; 39387fbe"),
    ("11", D11, 4, 37.4, 20, 15, "Int1+2+3 (gt=32)", "PROJ:1212; 39387fbe"),
    ("12", D12, 2, 37.1, 20, 15, "pw=10 c=20 j=15", "99c31c2c"),
    ("12", D12, 2, 38.5, 20, 20, "pw=10 c=20 j=20", "PROJ:1335, 1777; 98a52b33"),
    ("12", D12, 1, 45.4, 5, 5, "pw=10 c=5 j=5", "PROJ:1810"),
    ("12", D12, 2, 42.5, 5, 5, "pw=10 c=5 j=5", "PROJ:1811"),
]

def rel(x, y):
    try:
        return pct(float(x), float(y))
    except ValueError:
        return "-"

def pct(p, d):
    return f"{(p - d) / d * 100:+.1f}%"

print("\n## Documented against predicted, s/proof (one proof = 10 partitions = 10 design jobs)")
print(f"{'phase':5s} {'gw':>2s} {'run':22s} {'documented':>10s} {'source':28s} {'design':>7s} {'err':>7s} "
      f"{'+synth':>7s} {'err':>7s} {'sim':>7s} {'err':>7s} {'T fit':>6s}")
worst, worst_sim, within, binds = (0, None), (0, None), 0, []
for phase, (design, t, vram), gw, doc, c, j, run, source in ROWS:
    a = 10 * steady(design, t, vram, gw)
    b = with_synth(design, t, vram, gw, c, j)
    m = simulated(design, t, vram, gw, c, j)
    tf = fit(design, t, vram, gw, c, j, doc)
    print(f"{phase:5s} {gw:2d} {run:22s} {doc:10.1f} {source:28s} {a:7.2f} {pct(a, doc):>7s} {b:7.2f} {pct(b, doc):>7s} "
          f"{m:7.2f} {pct(m, doc):>7s} {(f'{tf:.1f}' if tf is not None else '-'):>6s}")
    e = abs(b - doc) / doc
    if e > worst[0]:
        worst = (e, f"phase {phase} gw={gw} {run}: {b:.2f} against {doc}")
    e = abs(m - doc) / doc
    within += e <= 0.15
    if e > worst_sim[0]:
        worst_sim = (e, f"phase {phase} gw={gw} {run}: {m:.2f} against {doc}")
    if j_binds(design, t, vram, gw, j):
        binds.append(f"phase {phase} gw={gw} {run}")
print(f"worst +synth cell (hand formula): {worst[1]} ({worst[0] * 100:.1f}%)")
print(f"worst sim cell (synthesis simulated, bench/cuzk-history/*-synth.design): {worst_sim[1]} "
      f"({worst_sim[0] * 100:.1f}%); within 15%: {within} of {len(ROWS)}")
print("rows where cuzk-bench's -j could bind (not modelled): " + (", ".join(binds) if binds else "none"))

print("\n## Phase 10 had it been safe: check, then the same durations (phase 9's) on each design, s/proof")
for vram, ns in (("16GiB", (1, 2, 3)), ("32GiB", (1, 2, 3, 4)), ("36GiB", (3, 4)), ("40GiB", (3, 4))):
    verdicts = []
    for n in ns:
        out = subprocess.run(["./interlock", "check", "designs/cuzk/phase10.design", "--vram", vram, "--threads",
                              f"gpu_worker={n}"], capture_output=True, text=True).stdout.split("\n")
        verdicts.append(f"{n}: {out[2].split()[1]}")
    print(f"check phase10 --vram {vram:6s} " + ", ".join(verdicts))
P10 = dict(P9, ntt_msm=0.690 / 2)  # phase 10 does the pre-stage setup under mem_mtx, outside compute_mtx
SAFE10 = {"32GiB": (1, 2), "36GiB": (1, 2, 3, 4)}
for label, extra in (("measured (gw=1 c=15 j=15)", {}), ("b_g2_msm 1.7 s (gt=32)", dict(b_g2_msm=1.7)),
                     ("prep_msm 2.7 s (P11:336)", dict(preprocess=2.7)),
                     ("both", dict(b_g2_msm=1.7, preprocess=2.7))):
    print(f"durations: {label}")
    print(f"  {'design':30s} {'vram':6s} " + " ".join(f"{'gw=' + str(n):>8s}" for n in range(1, 5)))
    base = None
    for name, design, t, vram in (("phase9", "designs/cuzk/phase9.design", P9, "32GiB"),
                                  ("phase9 late release", LATE, P9, "32GiB"),
                                  ("phase10", "designs/cuzk/phase10.design", P10, "32GiB"),
                                  ("phase10", "designs/cuzk/phase10.design", P10, "36GiB")):
        r = sim(design, dict(t, **extra), vram, (1, 2, 3, 4), JOBS)
        ci = cis[(design, tuple(sorted(dict(t, **extra).items())), vram, (1, 2, 3, 4), JOBS)]
        cells, spread = [], []
        for n in range(1, 5):
            if name == "phase10" and n not in SAFE10[vram]:
                cells.append("OOM")
            elif isinstance(r[n], str):
                cells.append(r[n])
            else:
                cells.append(f"{600 / r[n]:.2f}")
                spread.append(600 * ci[n] / r[n] ** 2)
        if base is None:
            base = cells
        print(f"  {name:30s} {vram:6s} " + " ".join(f"{x:>8s}" for x in cells) +
              ("" if cells is base else "   vs phase9: " + " ".join(rel(x, y) for x, y in zip(cells, base))) +
              f"   (95% CI up to +-{max(spread):.2f})")
print("  with synthesis (pw=10, 36.5 s per partition) every cell under 36.5 s/proof becomes 36.5 at steady state: they tie")

print("\n## What-ifs (design alone, s/proof at gw=1 / gw=2)")
def both(d, t, vram):
    return " / ".join(f"{10 * steady(d, t, vram, n):.2f}" for n in (1, 2))
print(f"phase 8, the lock held for gpu_total 3746 ms (PROJ:1130, 1722): "
      f"{both(D8[0], dict(P8, batch_add=(0.640 + 0.551) / 4), '16GiB')} (the 551 ms barrier wait put on batch_add)")
print(f"phase 9 with its H MSM run (P9:260 forecast 2200-2300 ms ntt_msm_h; 3 tails, 125 ms): "
      f"{both(D9[0], dict(P9, ntt_msm=(2.250 + 0.020) / 2, tail_msm=0.125 / 3), '20GiB')}")
# P10:38-40: at gw=1 c=15 j=15 the worker's gpu_prove call took 3760 ms per partition (TIMELINE gpu_ms); the design's
# steps give 2650 ms. The rest is host work in the call that no step of the design has (before prep_msm is spawned:
# the split vectors' setup, the Rust side); at gw=1 it is serial wherever it sits, so it goes on epilogue here.
P9W = dict(P9, epilogue=0.005 + 3.760 - 10 * steady(D9[0], P9, "20GiB", 1) / 10)
print(f"phase 9 with the worker's documented 3760 ms per partition (P10:38-40; {P9W['epilogue'] * 1000:.0f} ms on "
      f"epilogue): {both(D9[0], P9W, '20GiB')}; with synthesis, gw=1: " + ", ".join(
          f"{run} {with_synth(D9[0], P9W, '20GiB', 1, c, j):.2f} ({pct(with_synth(D9[0], P9W, '20GiB', 1, c, j), doc)} "
          f"of {doc})" for run, c, j, doc in (("c=15 j=10", 15, 10, 42.9), ("c=15 j=15", 15, 15, 41.3),
                                                ("c=20 j=15", 20, 15, 41.6))))

print("\n## What-if: core widths (synthesis simulated, --step-cores; the measured times already carry their load, so these"
      "\n## count it a second time), s/proof at gw=2 c=20 j=15")
for label, w9, w11 in (("none (the table)", (), ()),
                       ("b_g2_msm at its pool's width: 96 (gt=192) / 32 (gt=32)", (("b_g2_msm", 96),), (("b_g2_msm", 32),)),
                       ("and synthesize=9.6 (10 syntheses fill the 96 cores)", (("b_g2_msm", 96), ("synthesize", 9.6)),
                        (("b_g2_msm", 32), ("synthesize", 9.6)))):
    print(f"  {label:56s} phase 9: {simulated(D9[0], P9, '20GiB', 2, 20, 15, step_cores=w9):.2f}   "
          f"phase 11 (gt=32): {simulated(D11[0], P11, '20GiB', 2, 20, 15, step_cores=w11):.2f}")
PY
