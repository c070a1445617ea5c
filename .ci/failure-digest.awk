# Repeats the failures of a `pnpm test` log at its end: vitest's failure sections (from "Failed Tests"
# or "Failed Suites" to the file count, each under the nx task that printed it) and nx's list of failed
# tasks. A CI log is often read from its tail, where nx's summary names a failed task but not the test.
{ line = $0; gsub(/\x1b\[[0-9;]*m/, "", line) }
line ~ /^> nx run / { task = line }
line ~ /⎯ Failed (Tests|Suites) [0-9]+ ⎯/ { printing = 1; print ""; print task }
printing && line ~ /^ *Test Files / { print line; printing = 0; next }
line ~ /^ *Failed tasks:/ { listing = 1 }
printing || listing { print line; if (++printed > 600) { print "(the rest is above)"; exit } }
listing && line ~ /^ *- / { listed = 1 }
listing && listed && line ~ /^ *$/ { listing = 0 }
