# A Python mirror of kernels.cu's msm_accumulate and msm_combine (sums of integers instead of points): checks that
# chunked bucket accumulation plus combining rounds gives every bucket its full sum, for skewed keys too.
#   python3 gpu/src/test/cuda/chunks_model.py
import random
def accumulate(entries_vals, offs, keys, min_len, T, buckets, sk, sv):
    total = offs[keys]
    L = max(min_len, -(-total // T))  # the chunk length from the entries there are, over the T threads of a wave
    for t in range(T):
        start = t*L
        sv[2*t] = 0; sv[2*t+1] = 0
        if start >= total:
            sk[2*t] = keys; sk[2*t+1] = keys; continue
        end = min(start+L, total)
        lo, hi = 0, keys
        while hi-lo > 1:
            mid = (lo+hi)//2
            if offs[mid] <= start: lo = mid
            else: hi = mid
        k = lo; sk[2*t] = k
        def flush(k, acc, cb, ca):
            if not cb and not ca: buckets[k] = acc
            elif cb: sv[2*t] = acc
            else: sv[2*t+1] = acc
        run_end = offs[k+1]; acc = 0
        for e in range(start, end):
            if e == run_end:
                flush(k, acc, offs[k] < start, False); acc = 0
                k += 1
                while offs[k+1] <= e: k += 1
                run_end = offs[k+1]
            acc += entries_vals[e]
        flush(k, acc, offs[k] < start, offs[k+1] > end)
        sk[2*t+1] = k
def combine(ik, iv, count, L, keys, T, buckets, ok, ov):
    for t in range(T):
        start = t*L; end = min(start+L, count)
        if ok is not None:
            ov[2*t] = 0; ov[2*t+1] = 0
            ok[2*t] = ik[start] if start < count else keys
            ok[2*t+1] = ik[end-1] if start < count else keys
        e = start
        while e < end:
            k = ik[e]; acc = 0; rs = e
            while e < end and ik[e] == k: acc += iv[e]; e += 1
            if k >= keys: continue
            cb = rs == start and start > 0 and ik[start-1] == k
            ca = e == end and end < count and ik[end] == k
            if not cb and not ca: buckets[k] += acc
            elif cb: ov[2*t] = acc
            else: ov[2*t+1] = acc
def run(keys, keyof, nent_max, L, wave, C=32, seed=0):
    rnd = random.Random(seed)
    ents = sorted((keyof(rnd), rnd.randrange(1, 1000)) for _ in range(rnd.randrange(0, nent_max+1)))
    offs = [0]*(keys+1)
    for k,_ in ents: offs[k+1] += 1
    for i in range(keys): offs[i+1] += offs[i]
    vals = [v for _,v in ents]
    want = [0]*keys
    for k,v in ents: want[k] += v
    T = min(wave, (nent_max + L - 1)//L or 1)  # Kernels.accumulateThreads: a wave, at most the plan's chunk threads
    buckets = [0]*keys
    A = ([0]*(2*T), [0]*(2*T)); B = ([0]*(2*((2*T+C-1)//C)), [0]*(2*((2*T+C-1)//C)))
    accumulate(vals, offs, keys, L, T, buckets, A[0], A[1])
    bufs = [A, B]; i = 0; count = 2*T
    while count > C:
        th = (count + C - 1)//C
        combine(bufs[i][0], bufs[i][1], count, C, keys, th, buckets, bufs[1-i][0], bufs[1-i][1])
        count = 2*th; i = 1-i
    combine(bufs[i][0], bufs[i][1], count, count, keys, 1, buckets, None, None)
    assert buckets == want, (keys, L, seed)
for seed in range(300):
    r = random.Random(seed)
    keys = r.choice([1, 2, 8, 100, 4096])
    skew = r.random()
    keyof = (lambda rnd, keys=keys: 0 if rnd.random() < 0.9 else rnd.randrange(keys)) if skew < 0.3 else \
            (lambda rnd, keys=keys: rnd.randrange(keys)) if skew < 0.6 else (lambda rnd, keys=keys: min(keys-1, int(rnd.expovariate(0.5))))
    run(keys, keyof, r.choice([0, 1, 5, 100, 3000, 20000]), r.choice([1, 2, 3, 32, 64]), r.choice([1, 3, 64, 1 << 30]),
        seed=seed)
print("chunked accumulation + combine: 300 random cases agree")
