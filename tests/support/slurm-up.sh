#!/bin/bash
# Starts a throw-away one-node Slurm 22.05 cluster (munge + slurmctld + slurmd) in $1, for the
# tests of bench --executor slurm (tests/e2e/test_slurm.cpp): everything (configuration, state,
# logs, munge's key and socket) under DIR, root as the Slurm user, no cgroups, bound to
# 127.0.0.1 on CTLD_PORT and SLURMD_PORT (default 16817, 16818). Stop it with slurm-down.sh DIR.
# Usage: slurm-up.sh DIR [munge|none]      then: export SLURM_CONF=DIR/slurm.conf
set -euo pipefail
T=$(realpath -m "${1:?dir}"); AUTH=${2:-munge}
CTLD_PORT=${CTLD_PORT:-16817}; SLURMD_PORT=${SLURMD_PORT:-16818}
H=$(hostname -s)
mkdir -p "$T"/{state,spool,log,out}
chmod 755 "$T"                          # mktemp -d gives 0700; munged needs o+x on every dir above its socket
: > "$T/plugstack.conf"                 # keep /etc/slurm/plugstack.conf out of the way
if [ "$AUTH" = munge ]; then
  mkdir -p "$T/munge"; chmod 711 "$T/munge"   # munged: socket dir needs o+x, must not be o+w
  [ -f "$T/munge/munge.key" ] || { dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 status=none; chmod 400 "$T/munge/munge.key"; }
  munged --socket="$T/munge/munge.socket" --key-file="$T/munge/munge.key" \
         --log-file="$T/munge/munged.log" --pid-file="$T/munge/munged.pid" \
         --seed-file="$T/munge/munged.seed"
  AUTHLINES="AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/munge.socket,cred_expire=10"
else
  AUTHLINES="AuthType=auth/none
CredType=cred/none
AuthInfo=cred_expire=10"
fi
cat > "$T/slurm.conf" <<CONF
ClusterName=e2e
SlurmctldHost=$H(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
CommunicationParameters=NoCtldInAddrAny,NoInAddrAny
SlurmUser=root
SlurmdUser=root
$AUTHLINES
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$T/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$T/log/jobcomp.txt
SwitchType=switch/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
ReturnToService=2
KillWait=5
MinJobAge=600
MailProg=/bin/true
NodeName=$H NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=$H Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$T/slurm.conf"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for i in $(seq 1 300); do
  [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && { echo "slurm up: export SLURM_CONF=$SLURM_CONF"; exit 0; }
  sleep 0.1
done
echo "slurm did not become idle in 30s" >&2; tail -20 "$T/log/slurmctld.log" "$T/log/slurmd.log" >&2; exit 1
