#!/usr/bin/env bash
# Builds cuzk's real GPU code (supraseal-c2 from filecoin-project/curio, with sppark and blst) at given curio
# commits, each into engines/cuzk/target/COMMIT/cuzk-harness: the engine's groth16_cuda.cu, unmodified, compiled
# with Interlock's harness (harness.cu) for sm_90 with the static cudart, as capture/testengine is built.
#
#   engines/cuzk/build.sh --curio DIR --sppark DIR --blst DIR COMMIT...
#
# DIR is a git repository (a work tree or a bare one, such as the mirror `fetch` gives) or, for sppark and blst,
# a plain source tree. The sources are read with `git archive` at COMMIT (curio), SPPARK_REF (default v0.1.14, the
# version extern/cuzk/Cargo.lock pins) and BLST_REF (default v0.3.16, likewise); nothing is copied into this
# repository. Environment variables CURIO, SPPARK and BLST stand for the options.
#
# Without the checkouts it prints `[interlock] SKIP: ...` with the reason and exits 0 (exit 3 with --require).
# Other failures exit 1; bad arguments exit 2. docs/real-engines.md lists the build glue.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
NVCC="${NVCC:-$(command -v nvcc || echo /usr/local/cuda-13.0/bin/nvcc)}"
SPPARK_REF="${SPPARK_REF:-v0.1.14}"
BLST_REF="${BLST_REF:-v0.3.16}"
curio="${CURIO:-}" sppark="${SPPARK:-}" blst="${BLST:-}" require=0
commits=()
usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --curio) curio="${2:?--curio needs a directory}"; shift 2 ;;
    --sppark) sppark="${2:?--sppark needs a directory}"; shift 2 ;;
    --blst) blst="${2:?--blst needs a directory}"; shift 2 ;;
    --require) require=1; shift ;;
    -h|--help) usage ;;
    -*) echo "build.sh: unknown option $1" >&2; usage ;;
    *) commits+=("$1"); shift ;;
  esac
done
[ ${#commits[@]} -gt 0 ] || { echo "build.sh: no curio commit given" >&2; usage; }
skip() {
  echo "[interlock] SKIP: engines/cuzk is not built: $1" >&2
  exit $((require ? 3 : 0))
}
[ -n "$curio" ] || skip "no curio checkout (--curio DIR or CURIO=DIR; git clone https://github.com/filecoin-project/curio)"
[ -n "$sppark" ] || skip "no sppark checkout (--sppark DIR or SPPARK=DIR; git clone https://github.com/supranational/sppark)"
[ -n "$blst" ] || skip "no blst checkout (--blst DIR or BLST=DIR; git clone https://github.com/supranational/blst)"
for d in "$curio" "$sppark" "$blst"; do [ -d "$d" ] || skip "$d is not a directory"; done
[ -x "$NVCC" ] || skip "no nvcc (set NVCC or put the CUDA 13 toolkit's nvcc on PATH)"

is_git() { git -C "$1" rev-parse --git-dir >/dev/null 2>&1; }
# export DIR at REF (or, for a plain source tree, copy it) into DEST
export_tree() {
  local dir="$1" ref="$2" dest="$3"; shift 3
  rm -rf "$dest" && mkdir -p "$dest"
  if is_git "$dir"; then
    git -C "$dir" rev-parse --verify -q "$ref^{commit}" >/dev/null || { echo "build.sh: $dir has no $ref" >&2; exit 1; }
    git -C "$dir" archive --format=tar "$ref" "$@" | tar -x -C "$dest"
  else
    cp -r "$dir"/. "$dest"/
  fi
}

work="$here/target/src"
mkdir -p "$work"
# sppark: headers, plus util/all_gpus.cpp, which its crate compiles into libsppark
export_tree "$sppark" "$SPPARK_REF" "$work/sppark"
# blst: its own build script makes libblst.a; portable (CPU features found at run time), as the crate's `portable`
# feature, so that the binary runs on whichever x86-64 the GPU machine has
if [ ! -f "$work/blst/libblst.a" ] || [ "$(cat "$work/blst/.ref" 2>/dev/null)" != "$BLST_REF:$blst" ]; then
  export_tree "$blst" "$BLST_REF" "$work/blst"
  (cd "$work/blst" && ./build.sh -D__BLST_PORTABLE__ >/dev/null 2>&1)
  echo "$BLST_REF:$blst" > "$work/blst/.ref"
fi

# sppark's util/all_gpus.cpp (the crate compiles it with nvcc into libsppark)
"$NVCC" -O2 -std=c++17 -arch=sm_90 -x cu -c -I "$work/sppark" -o "$work/all_gpus.o" "$work/sppark/util/all_gpus.cpp"

for commit in "${commits[@]}"; do
  is_git "$curio" || { echo "build.sh: $curio is not a git repository (curio is read at a commit)" >&2; exit 1; }
  full=$(git -C "$curio" rev-parse --verify -q "$commit^{commit}") || { echo "build.sh: $curio has no commit $commit" >&2; exit 1; }
  short=${full:0:8}
  out="$here/target/$short"
  src="$out/cuda"
  rm -rf "$out" && mkdir -p "$src"
  # The GPU code is extern/supraseal-c2/cuda at the commit. Up to about 3c53695c that directory held only the files
  # cuzk had changed, and the rest of the crate (supraseal-c2 0.1.2) came from the registry; extern/supraseal/c2/cuda
  # at the same commit is that crate's source, so files missing from the first directory are taken from it.
  for dir in extern/supraseal/c2/cuda extern/supraseal-c2/cuda; do
    git -C "$curio" cat-file -e "$full:$dir" 2>/dev/null || continue
    for f in $(git -C "$curio" ls-tree --name-only "$full" "$dir/"); do
      git -C "$curio" show "$full:$f" > "$src/$(basename "$f")"
    done
  done
  [ -f "$src/groth16_cuda.cu" ] || { echo "build.sh: $short has no groth16_cuda.cu in extern/supraseal-c2/cuda" >&2; exit 1; }
  (cd "$src" && sha256sum * > "$out/SOURCES.sha256")
  defs=(-DFEATURE_BLS12_381 -D__BLST_PORTABLE__ -DTAKE_RESPONSIBILITY_FOR_ERROR_MESSAGE "-DCUZK_COMMIT=\"$short\"")
  # The split API (phase 12 on) and the throttle hook (phase 11 on; cuzk defines it in Rust, the harness here)
  grep -q 'generate_groth16_proofs_start_c' "$src/groth16_cuda.cu" && defs+=(-DCUZK_SPLIT_API)
  # bf804060 on: the entry points take the GPU's index
  grep -A8 '^RustError::by_value generate_groth16_proofs_c' "$src/groth16_cuda.cu" | grep -q 'int gpu_index' && defs+=(-DCUZK_GPU_INDEX)
  echo "building cuzk $short ($(ls "$src" | tr '\n' ' '))"
  "$NVCC" -O2 -std=c++17 -arch=sm_90 "${defs[@]}" -Xcompiler -Wno-unused-function,-pthread \
    -I "$src" -I "$work/sppark" -I "$work/blst/src" -I "$work/blst/bindings" \
    -o "$out/cuzk-harness" "$here/harness.cu" "$work/all_gpus.o" \
    "$work/blst/libblst.a" -ldl -lpthread
  echo "built $out/cuzk-harness"
done
