#!/usr/bin/env bash
# CI under load: runs `CI=true bash .ci/run` in the clone given (default: this one) while a
# CPU burner keeps every core busy, the way a shared CI machine is loaded by other jobs.
# The burners run at normal priority (one busy loop per core) and are stopped at exit,
# however the run ends. Passes through .ci/run's exit code, and ends with its final
# "N passed, N failed" line ("0 passed, 1 failed" when .ci/run printed none).
#   scripts/ci-under-load.sh [clone]   (CLICKWIRE_BURNERS=N sets the number of burners)
set -uo pipefail
clone=$(cd "${1:-$(dirname "$0")/..}" && pwd)
count=${CLICKWIRE_BURNERS:-$(nproc 2>/dev/null || echo 2)}

burners=()
stop_burners() {
  for pid in ${burners[@]+"${burners[@]}"}; do kill "$pid" 2>/dev/null; done
  for pid in ${burners[@]+"${burners[@]}"}; do wait "$pid" 2>/dev/null; done
  burners=()
}
trap stop_burners EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

for _ in $(seq "$count"); do
  node -e 'for (;;) {}' &
  burners+=($!)
done
echo "ci-under-load: $count CPU burners (pids ${burners[*]}) on $(nproc) cores; running .ci/run in $clone"

log=$(mktemp)
(cd "$clone" && CI=true bash .ci/run) 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
stop_burners
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
rm -f "$log"
echo "ci-under-load: .ci/run exited $status with the burners running"
echo "${summary:-0 passed, 1 failed}"
exit "$status"
