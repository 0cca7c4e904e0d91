#!/usr/bin/env bash
# tests/cluster/slurm.sh — `make test-cluster`: proves the Slurm recipe on a real
# scheduler. Installs Debian's slurm-wlm and munge, starts a single-node Slurm on
# this machine (as root), submits the default XiangqiBench as a 4-task job array
# with cluster/slurm/submit.sh, waits for the merge job, and checks that the
# merged records and report equal a single-process run's. Not part of CI.
set -euo pipefail
trap 'echo "test-cluster: failed at line $LINENO (see /var/log/slurm/)"' ERR
cd "$(dirname "$0")/../.."
root=$PWD
[ "$(id -u)" = 0 ] || { echo "test-cluster: run as root (it installs and starts Slurm)"; exit 2; }
[ -x ./tabula ] || { echo "test-cluster: build first (make)"; exit 2; }

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
fi

host=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/MemTotal/ { print int($2 / 1024) - 512 }' /proc/meminfo)
conf=/etc/slurm/slurm.conf
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/munge
if [ -f "$conf" ] && [ ! -f "$conf.before-tabula" ]; then cp "$conf" "$conf.before-tabula"; fi
cat > "$conf" <<CONF
# written by tabula's tests/cluster/slurm.sh: a single-node cluster
ClusterName=tabula
SlurmctldHost=$host
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF

# munge: a key, then the daemon
if [ ! -s /etc/munge/munge.key ]; then
  mkdir -p /etc/munge
  dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key status=none
fi
chown -R munge:munge /etc/munge /run/munge /var/lib/munge /var/log/munge 2>/dev/null || true
chmod 0400 /etc/munge/munge.key
pgrep -x munged >/dev/null || su -s /bin/sh munge -c "munged" || munged --force
# Slurm daemons (restarted, so they read this configuration)
pkill -x slurmctld 2>/dev/null || true; pkill -x slurmd 2>/dev/null || true; sleep 1
slurmctld
slurmd
for _ in $(seq 60); do
  sinfo -h -o '%T' 2>/dev/null | grep -qE 'idle|mixed' && break
  scontrol update nodename="$host" state=resume >/dev/null 2>&1 || true
  sleep 1
done
sinfo -h -o '%T' | grep -qE 'idle|mixed' || { echo "test-cluster: the Slurm node did not come up"; sinfo; tail -20 /var/log/slurm/slurmd.log; exit 1; }
echo "test-cluster: single-node Slurm is up ($host, $cpus CPUs)"

work=$(mktemp -d /tmp/tabula-cluster.XXXXXX)
read -r array merge < <(TABULA=$root/tabula cluster/slurm/submit.sh "$work/run" 4 scenarios/xiangqibench.lua --quiet)
echo "test-cluster: submitted array job $array (4 tasks) and merge job $merge"
for _ in $(seq 900); do
  squeue -h -j "$array,$merge" 2>/dev/null | grep -q . || break
  sleep 1
done
[ -f "$work/run/merged/trials.jsonl" ] || { echo "test-cluster: no merged run; logs:"; tail -5 "$work"/run/slurm-*.out; exit 1; }

echo "test-cluster: the same run in one process"
./tabula run scenarios/xiangqibench.lua --quiet --out "$work/single" > /dev/null
./tabula report "$work/single" > /dev/null

python3 - "$work/run/merged" "$work/single" <<'PY'
import json, sys
TIMING = {"seconds", "elapsed", "started", "finished"}
def strip(v):
    if isinstance(v, dict): return {k: strip(x) for k, x in v.items() if k not in TIMING}
    if isinstance(v, list): return [strip(x) for x in v]
    return v
def load(d):
    return {r["trial_id"]: strip(r) for r in map(json.loads, open(d + "/trials.jsonl"))}
a, b = load(sys.argv[1]), load(sys.argv[2])
assert len(a) == len(b) == 390, (len(a), len(b))
diff = [k for k in a if a[k] != b.get(k)]
assert not diff, "records differ: %s" % diff[:5]
sa, sb = (json.load(open(d + "/summary.json")) for d in sys.argv[1:3])
assert sa == sb, "reports differ"
print("test-cluster: %d merged records equal the single-process run's, and so do the reports" % len(a))
PY
echo "1 passed, 0 failed"
