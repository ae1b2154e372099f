#!/usr/bin/env bash
# Builds gpu-bundle/ (git-ignored): a jlink'ed Java 17 runtime, the jars of the GPU tests and
# run-gpu-tests.sh, so the GPU tests run on a machine that has a GPU but no JDK or Maven.
#   gpu/bundle.sh                       # here, with a JDK 17 and Maven
#   bash gpu-bundle/run-gpu-tests.sh    # there (the device tool: carry ["gpu-bundle"])
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="$root/gpu-bundle"
cd "$root"
mvn -q -B -Dstyle.color=never -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true install -pl gpu,cli -am
# one file per module (with -pl gpu,cli the last module's file would replace the first's: gpu's test scope holds Lincheck)
for m in gpu cli; do
  mvn -q -B -Dstyle.color=never dependency:build-classpath -pl $m -Dmdep.includeScope=test -Dmdep.outputFile="$dest.$m.cp"
done
cat "$dest.gpu.cp" <(echo -n ':') "$dest.cli.cp" > "$dest.cp" && rm -f "$dest.gpu.cp" "$dest.cli.cp"
console=org.junit.platform:junit-platform-console-standalone:1.14.3
mvn -q -B -Dstyle.color=never dependency:get -Dartifact=$console >/dev/null
rm -rf "$dest/lib" && mkdir -p "$dest/lib"
# the GPU tests' jars, and Lincheck's with what it needs at run time (Kotlin, ASM, ByteBuddy for its agent, its trace)
lincheck='lincheck[a-z-]*|kotlin[a-z-]*|kotlinx-[a-z-]+|annotations|asm(-[a-z]+)?|byte-buddy(-agent)?|atomicfu-jvm|Java-WebSocket|slf4j-api'
# one version of each artifact, the gpu module's (Lincheck's ByteBuddy, not AssertJ's newer one: 9 MB of the 64 MiB carry)
tr ':' '\n' < "$dest.cp" | grep -E "/(jcuda|jna|jblst|assertj-core|picocli|jackson-[a-z]+|interlock-[a-z]+|$lincheck)-[^/]*\.jar\$" \
  | awk -F/ '{ a = $(NF-2) ($NF ~ /-tests[.]jar$/ ? "/tests" : "") } !seen[a]++' | while read -r jar; do
  case "$jar" in
    *jcuda-natives*)  # only the driver binding is used: leave out NVRTC, the runtime API and the PTX compiler (24 MB)
      tmp=$(mktemp -d); (cd "$tmp" && unzip -q "$jar" 'lib/libJCudaDriver-*' 'META-INF/*' && zip -qr "$dest/lib/$(basename "$jar")" .); rm -rf "$tmp" ;;
    */jna-[0-9]*)  # the device is linux-x86-64: leave out JNA's natives for other platforms (1.7 MB of the 64 MiB carry)
      tmp=$(mktemp -d); (cd "$tmp" && unzip -q "$jar" -x 'com/sun/jna/*/*jnidispatch*' && unzip -q "$jar" 'com/sun/jna/linux-x86-64/*' \
        && zip -qr "$dest/lib/$(basename "$jar")" .); rm -rf "$tmp" ;;
    *) cp "$jar" "$dest/lib/" ;;
  esac
done
rm -f "$dest.cp"
# the module jar and its test jar, not its sources jar (2 MB of the 64 MiB carry)
cp gpu/target/interlock-gpu-0.1.0-SNAPSHOT.jar gpu/target/interlock-gpu-0.1.0-SNAPSHOT-tests.jar "$dest/lib/"
cp cli/target/interlock-cli-0.1.0-SNAPSHOT.jar "$dest/lib/"
cp ~/.m2/repository/org/junit/platform/junit-platform-console-standalone/1.14.3/junit-platform-console-standalone-1.14.3.jar "$dest/lib/"
# Lincheck attaches its agent to the running JVM (java.instrument, jdk.attach; ByteBuddy reaches jdk.attach by
# reflection, which jdeps does not see), uses sun.misc.Unsafe (jdk.unsupported), and impl's Lincheck runner reads the
# process CPU time (jdk.management). No java.xml (3.8 MB of the 64 MiB carry): JUnit's XML reports are left out, the
# console's tree is the record. A runtime built with other modules is rebuilt.
modules=java.base,jdk.unsupported,jdk.zipfs,java.logging,java.management,java.instrument,jdk.attach,jdk.management
if [ ! -x "$dest/jre/bin/java" ] || [ "$(cat "$dest/jre/interlock-modules" 2>/dev/null)" != "$modules" ]; then
  rm -rf "$dest/jre"
  "${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}/bin/jlink" --add-modules "$modules" \
    --strip-debug --no-header-files --no-man-pages --compress=2 --output "$dest/jre"
  # the JVM's symbol table is not needed to run (4 MB of the 64 MiB the device tool carries)
  if command -v strip >/dev/null; then strip --strip-unneeded "$dest/jre/lib/server/libjvm.so"; fi
  echo "$modules" > "$dest/jre/interlock-modules"
fi
# The JVM's library travels xz-compressed (20 MB, about 5 compressed, of the 64 MiB the device tool carries with the
# tree); every script of the bundle sources jre-ready.sh, which unpacks it where the bundle first runs.
if [ -f "$dest/jre/lib/server/libjvm.so" ]; then
  xz -9 -f "$dest/jre/lib/server/libjvm.so"
fi
cat > "$dest/jre-ready.sh" <<'RUN'
# Sourced with $here set to the bundle: unpacks the JVM's library once (xz, or python3's lzma where xz is missing).
jvm="$here/jre/lib/server/libjvm.so"
if [ ! -f "$jvm" ]; then
  if command -v xz >/dev/null; then
    xz -dc "$jvm.xz" > "$jvm.$$"
  else
    python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$jvm.xz" "$jvm.$$"
  fi && mv -f "$jvm.$$" "$jvm" || { rm -f "$jvm.$$"; echo "cannot unpack $jvm.xz" >&2; exit 1; }
fi
RUN
cat > "$dest/run-gpu-tests.sh" <<'RUN'
#!/usr/bin/env bash
# Runs the *GpuIT tests from the repository root (they read designs/ and traces/); the console tree is the report.
# GPU_TESTS (a regular expression over class names) picks the classes. Two JVMs: the Lincheck tests (*LincheckGpuIT)
# run in a second one with Lincheck's agent options, as impl's Lincheck tests do under Maven; its budget is set with
# -Dinterlock.lincheck.{iterations,invocations,threads,actors,actorsBefore,actorsAfter} in LINCHECK_JAVA_OPTS.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/jre-ready.sh"
cd "$here/.."
classes="${GPU_TESTS:-.*(GpuIT|Test)\$}"
# every jar on the JVM's own class path, not the launcher's --class-path: Lincheck loads generated classes through a
# class loader whose parent is the JVM's, which must see Lincheck
run() { # run JVM_OPTIONS REPORTS_SUBDIR CONSOLE_ARGS...
  local opts="$1" dir="$2"; shift 2
  "$here/jre/bin/java" $opts -cp "$(ls "$here"/lib/*.jar | tr '\n' ':')" org.junit.platform.console.ConsoleLauncher execute \
    --scan-class-path "$here/lib/interlock-gpu-0.1.0-SNAPSHOT-tests.jar" --include-classname "$classes" \
    --details tree "$@"
}
status=0
run "" main --exclude-classname '.*LincheckGpuIT$' "$@" || status=$?
run "-Djdk.attach.allowAttachSelf=true -Xshare:off --add-opens java.base/java.util.regex=ALL-UNNAMED ${LINCHECK_JAVA_OPTS:-}" \
  lincheck --exclude-classname '^(?!.*LincheckGpuIT$).*$' "$@" || status=$?
exit $status
RUN
cat > "$dest/run-gpu-bench.sh" <<'RUN'
#!/usr/bin/env bash
# Runs the GPU kernel benchmark (NTT and G1 MSM, device events, medians); arguments go to GpuBench (--from --to --reps --seed).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/jre-ready.sh"
cd "$here/.."
exec "$here/jre/bin/java" -Xmx48g ${BENCH_JAVA_OPTS:-} -cp "$(ls "$here"/lib/*.jar | grep -v console-standalone | tr '\n' ':')" dev.interlock.gpu.cuda.GpuBench "$@"
RUN
cat > "$dest/run-g2-bench.sh" <<'RUN'
#!/usr/bin/env bash
# Runs the G2 MSM benchmark, GPU against blst's CPU Pippenger on the host's cores; arguments go to G2Bench
# (--from --to --cpu-to --reps --cpu-reps --seed).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/jre-ready.sh"
cd "$here/.."
exec "$here/jre/bin/java" -Xmx48g ${BENCH_JAVA_OPTS:-} -cp "$(ls "$here"/lib/*.jar | grep -v console-standalone | tr '\n' ':')" dev.interlock.gpu.cuda.G2Bench "$@"
RUN
cat > "$dest/run-affine-bench.sh" <<'RUN'
#!/usr/bin/env bash
# Issue 17's accumulation levers on the GPU (gpu/NOTES.md): KernelsGpuIT (every accumulation variant against the CPU,
# Fp::sqr_sym against BigInteger) and MsmPlanTest, then GpuBench timing the XYZZ, XYZZ + sqr_sym and batch-affine
# accumulations side by side at 2^20, 2^22 and 2^24, without a table and with one, and on 0/1 scalars at 2^24, each
# checked against the CPU first. About 3 minutes on an H200. Extra arguments go to GpuBench.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
status=0
GPU_TESTS='.*(KernelsGpuIT|MsmPlanTest)$' bash "$here/run-gpu-tests.sh" || status=$?
bash "$here/run-gpu-bench.sh" --from 20 --to 24 --reps 5 --seed 31 --no-ntt --no-copies --no-msm-sizes \
  --accumulations xyzz,xyzz_sqr,affine --accumulation-sizes 20,22,24 "$@" || status=$?
exit $status
RUN
cat > "$dest/interlock" <<'RUN'
#!/usr/bin/env bash
# The interlock command line (as ./interlock), e.g. interlock prove --device gpu ...; JVM options in INTERLOCK_JAVA_OPTS
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/jre-ready.sh"
exec "$here/jre/bin/java" -Xmx48g ${INTERLOCK_JAVA_OPTS:-} -cp "$(ls "$here"/lib/*.jar | grep -v -e console-standalone -e '\-tests.jar' | tr '\n' ':')" dev.interlock.cli.Main "$@"
RUN
chmod +x "$dest/run-gpu-tests.sh" "$dest/run-gpu-bench.sh" "$dest/run-g2-bench.sh" "$dest/run-affine-bench.sh" "$dest/interlock"
du -sh "$dest" "$dest/lib" "$dest/jre"
