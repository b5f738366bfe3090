#!/bin/bash
# Stops the cluster slurm-up.sh DIR started: its jobs cancelled first (scontrol shutdown leaves
# running jobs alive), then the daemons, then munge. Only touches processes of that cluster.
T=$(realpath -m "${1:?dir}"); export SLURM_CONF="$T/slurm.conf"
# alive = pid file names a live, non-zombie process
alive(){ [ -f "$1" ] || return 1; local p; p=$(cat "$1"); [ -r /proc/$p/stat ] && [ "$(awk '{print $3}' /proc/$p/stat)" != Z ]; }
if alive "$T/slurmctld.pid"; then
  # 1. cancel every job first: 'scontrol shutdown' does NOT kill running jobs (slurmstepd survives)
  ids=$(squeue -h -o %A 2>/dev/null); [ -n "$ids" ] && scancel $ids 2>/dev/null
  for i in $(seq 1 150); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.1; done   # KillWait + epilog
  # 2. stop slurmctld and every slurmd
  scontrol shutdown 2>/dev/null
  for i in $(seq 1 100); do alive "$T/slurmctld.pid" || alive "$T/slurmd.pid" || break; sleep 0.1; done
fi
for p in slurmd slurmctld; do alive "$T/$p.pid" && { kill -TERM "$(cat "$T/$p.pid")"; sleep 1; }; done
for p in slurmd slurmctld; do alive "$T/$p.pid" && kill -KILL "$(cat "$T/$p.pid")"; done
# 3. leftovers of this cluster only: slurmstepd and job processes carry SLURM_CONF=$T/slurm.conf
#    (a job process also has SLURM_JOB_ID; the caller's own shell has neither condition)
for d in /proc/[0-9]*; do
  p=${d#/proc/}; [ "$p" = $$ ] && continue
  env=$( { tr '\0' '\n' < $d/environ; } 2>/dev/null ) || continue
  grep -qx "SLURM_CONF=$T/slurm.conf" <<<"$env" || continue
  if [[ "$(readlink $d/exe 2>/dev/null)" == */slurmstepd* ]] || grep -q '^SLURM_JOB_ID=' <<<"$env"; then
    kill -KILL "$p" 2>/dev/null                  # slurmstepd ignores SIGTERM
  fi
done
# 4. munge
if [ -S "$T/munge/munge.socket" ]; then
  munged --stop --socket="$T/munge/munge.socket" 2>/dev/null || { alive "$T/munge/munged.pid" && kill "$(cat "$T/munge/munged.pid")"; }
fi
true
