"""Prints the SASS instruction mix of kernels in a cubin: the whole function and its largest loop.

Usage: python3 gpu/src/test/cuda/sass_mix.py KERNELS.cubin KERNEL [KERNEL ...]
(the committed image: gunzip -c gpu/src/main/resources/dev/interlock/gpu/cuda/kernels.cubin.gz > /tmp/k.cubin)

It needs an nvdisasm that reads sm_90. The CUDA 13 toolkit here has none; Debian bookworm's non-free
nvidia-cuda-toolkit (CUDA 11.8) does, without installing it:
    apt-get download nvidia-cuda-toolkit   (with 'contrib non-free' in a sources entry for bookworm)
    dpkg -x nvidia-cuda-toolkit_*.deb /tmp/nvt/x   and set NVDISASM (default /tmp/nvt/x/usr/bin/nvdisasm)
CUDA 13 writes a newer ELF header (OS/ABI 0x41, ABI version 8, another e_flags layout) that 11.8 refuses, so the
script rewrites those three fields as CUDA 11.8 writes them for sm_90 in a copy; the machine code is untouched.
"""
import collections, os, re, subprocess, sys, tempfile

NVDISASM = os.environ.get("NVDISASM", "/tmp/nvt/x/usr/bin/nvdisasm")


def disassemble(cubin):
    b = bytearray(open(cubin, "rb").read())
    b[7], b[8] = 0x33, 7                                  # EI_OSABI (CUDA), EI_ABIVERSION
    b[48:52] = (0x5a055a).to_bytes(4, "little")           # e_flags: sm_90, virtual sm_90, 64-bit addresses
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(b)
        f.flush()
        out = subprocess.run([NVDISASM, f.name], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("nvdisasm failed: " + out.stderr.strip())
    return out.stdout


def function(sass, name):
    i = sass.find(".text.%s:" % name)
    if i < 0:
        sys.exit("no kernel %s in the cubin" % name)
    j = sass.find("//--------------------- .text.", i)
    return sass[i:j if j > 0 else None].split("\n")


def largest_loop(lines):
    """The longest stretch from a label to a later branch back to it."""
    labels, best = {}, (0, len(lines) - 1)
    found = False
    for k, line in enumerate(lines):
        m = re.match(r"^(\.L_x_\d+):", line)
        if m:
            labels[m.group(1)] = k
        m = re.search(r"BRA\s+`\((\.L_x_\d+)\)", line)
        if m and m.group(1) in labels:
            s = labels[m.group(1)]
            if not found or k - s > best[1] - best[0]:
                best, found = (s, k), True
    return lines[best[0]:best[1] + 1] if found else []


def mix(lines):
    c = collections.Counter()
    for line in lines:
        m = re.match(r"^\s+/\*[0-9a-f]+\*/\s+(?:@!?U?P\w+\s+)?([A-Z0-9_.]+)", line)
        if m:
            c[m.group(1)] += 1
    return c


def summary(c):
    total = sum(c.values())
    wide = c["IMAD.WIDE.U32"] + c["IMAD.WIDE.U32.X"]
    imad = sum(v for k, v in c.items() if k.startswith("IMAD") and "MOV" not in k)
    moves = c["MOV"] + c["IMAD.MOV.U32"] + c["IMAD.MOV"]
    iadd = sum(v for k, v in c.items() if k.startswith("IADD3"))
    local = sum(v for k, v in c.items() if k.startswith(("STL", "LDL")))
    return "%6d instructions: IMAD %5d (wide %5d), moves %5d, IADD3 %4d, LOP3 %4d, SEL %4d, local memory %d" % (
        total, imad, wide, moves, iadd, c["LOP3.LUT"], c["SEL"], local)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sass = disassemble(sys.argv[1])
    for name in sys.argv[2:]:
        f = function(sass, name)
        print("%-22s function %s" % (name, summary(mix(f))))
        print("%-22s loop     %s" % ("", summary(mix(largest_loop(f)))))
