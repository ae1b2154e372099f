#!/usr/bin/env bash
# Interlock's own GPU engine (JCuda) under the capture library, compared call for call with the engine's own log of its
# device calls (gpu/NOTES.md run 31; docs/capture.md, "The engine's own device calls"). Run on a GPU machine from the
# repository root with carry ["capture/target"] after bash capture/jbundle.sh and mvn package -pl capture -am (the
# machine has no JDK: the jbundle's JRE runs the CLI). For single-lock and two-lock: `interlock capture -- java ... run
# designs/D.design --device gpu --device-calls OUT/D.calls`, then `compare-capture OUT/D.calls /tmp/D.capture`, which
# prints MATCHES or the first MISMATCH with both positions (its capture lines are those of /tmp/D.capture, which is
# OUT/D.capture.gz: the JVM's own mutexes make it tens of MB). Writes OUT/D.calls, OUT/D.capture.gz, OUT/D-cuda.capture
# (the capture's device records only, to read), OUT/D-run.log and OUT/D-compare.log; exit 1 unless all match. The
# third run is single-lock again under --ignore-lib libjvm.so (the JVM's own mutexes left out), as
# D = single-lock-ignore-libjvm.so.
set -u
L=$PWD/capture/target/native/libinterlock_capture.so
B=capture/target/jbundle
CP="$(ls $B/lib/*.jar | tr '\n' ':')"
cli() { $B/jre/bin/java -Xmx8g -cp "$CP" dev.interlock.cli.Main "$@"; }
status=0
for run in single-lock two-lock single-lock:libjvm.so; do
  d=${run%%:*}
  design=designs/$d.design
  ignore=()
  if [ "$run" != "$d" ]; then # the same run with the JVM's own locks left out: --ignore-lib
    ignore=(--ignore-lib "${run#*:}")
    d=$d-ignore-${run#*:}
  fi
  rm -f $OUT/$d.calls /tmp/$d.capture
  $B/interlock capture -o /tmp/$d.capture --lib $L "${ignore[@]}" -- $B/jre/bin/java -Xmx8g -cp "$CP" dev.interlock.cli.Main \
    run $design --device gpu --device-calls $OUT/$d.calls > $OUT/$d-run.log 2>&1
  echo "$d run rc=$? capture lines=$(wc -l < /tmp/$d.capture) engine calls=$(grep -vc '^#' $OUT/$d.calls)"
  tail -3 $OUT/$d-run.log
  gzip -c /tmp/$d.capture > $OUT/$d.capture.gz
  awk '$1 ~ /^#/ || $3 ~ /^(alloc|free|launch|kernel|sync|sync_stream|trim|pool_threshold|meminfo|thread_name)$/' /tmp/$d.capture > $OUT/$d-cuda.capture
  cli compare-capture $OUT/$d.calls /tmp/$d.capture > $OUT/$d-compare.log 2>&1
  rc=$?
  echo "$d compare-capture rc=$rc"
  cat $OUT/$d-compare.log
  [ $rc -eq 0 ] || status=1
done
exit $status
