#!/usr/bin/env bash
# Interlock's own GPU engine (JCuda) under the capture library (gpu/NOTES.md run 31): run on a GPU machine from the
# repository root with carry ["capture/target"] after bash capture/jbundle.sh and mvn package -pl capture -am; prints
# the record counts and writes OUT/D-engine.json (the engine's events) and OUT/D-cuda.capture (the CUDA records).
set -u
L=$PWD/capture/target/native/libinterlock_capture.so
B=capture/target/jbundle
CP="$(ls $B/lib/*.jar | tr '\n' ':')"
for d in single-lock two-lock; do
  $B/interlock capture -o /tmp/$d.capture --lib $L -- $B/jre/bin/java -Xmx8g -cp "$CP" dev.interlock.cli.Main run designs/$d.design --device gpu --timeline-json $OUT/$d-engine.json > $OUT/$d-run.log 2>&1
  echo "$d capture rc=$? lines=$(wc -l < /tmp/$d.capture) files=$(ls /tmp/$d.capture* | wc -l)"
  tail -4 $OUT/$d-run.log
  awk '$1 ~ /^#/ || $3 ~ /^(alloc|free|launch|kernel|sync|sync_stream|trim|pool_threshold|meminfo|thread_name)$/' /tmp/$d.capture > $OUT/$d-cuda.capture
  awk '$1 !~ /^#/ {print $3}' /tmp/$d.capture | sort | uniq -c | sort -rn | head -12
done
