#!/usr/bin/env bash
# One wrong (or right) launch of nccl_allreduce, one process per GPU, started as srun would
# start it (SLURM_* set by hand): every process must end within the deadline with the expected
# exit code and message.
#
#   launch_failure.sh <nccl_allreduce> <case>
#
# Cases (each rank runs with --timeout 10 and a fresh --id-file):
#   pass            2 ranks, one GPU each (2 GPUs) or both on one (1 GPU: shared, skipped)
#   count_mismatch  rank 0 told 2 ranks, rank 1 told 3: rank 1 refuses at once, rank 0 at 10 s
#   two_rank0       two processes given rank 0: one refused at once, the other at 10 s
#   no_rank1        rank 0 alone of 2: at 10 s "did not form"
#   no_rank0        rank 1 alone of 2: at 10 s "no NCCL id in <path>"
#   rank_exits      rank 1 sees no GPU and exits 77 at once: rank 0 at 10 s
#   too_many_ranks  3 ranks on a node that shows 2 GPUs: each refuses before touching a GPU
#   shared_gpu      2 ranks, each shown the same single GPU: NCCL refuses, both exit 2
#   other_launch    an earlier launch's id file and no rank 0: rank 1 at 10 s names it
#   stale_replaced  an earlier launch's id file: this launch's rank 0 replaces it, both pass
#   rank_dies       rank 1 killed (as a crash would end it) during the all-reduce sweep: rank 0
#                   ends within its deadline, NCCL aborted (2 GPUs)
# Exit 0 as expected, 1 not, 77 skipped (no GPU, or fewer GPUs than the case needs).
set -u
program=$1
case=$2
deadline=10
slack=20 # seconds past the deadline a rank may take to say so and exit

gpus=0
if command -v nvidia-smi >/dev/null 2>&1; then
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
fi
if [[ -n ${CUDA_VISIBLE_DEVICES+set} ]]; then # the ctest pass on one GPU sets it
  listed=$(tr ',' '\n' <<<"$CUDA_VISIBLE_DEVICES" | grep -c .)
  [[ $listed -lt $gpus ]] && gpus=$listed
fi
need=1
case $case in pass | too_many_ranks | stale_replaced | rank_dies) need=2 ;; esac
if [[ $gpus -lt $need ]]; then
  echo "[tutorial-skip] $case needs $need GPU(s); this machine shows $gpus"
  exit 77
fi
first_gpu=$(cut -d, -f1 <<<"${CUDA_VISIBLE_DEVICES:-0}")
two_gpus=$(cut -d, -f1,2 <<<"${CUDA_VISIBLE_DEVICES:-0,1}") # exactly two, on a larger machine too

dir=$(mktemp -d "${TMPDIR:-/tmp}/tut-launch.XXXXXX")
trap 'rm -rf "$dir"' EXIT
idfile=$dir/nccl-id
job=$$ # this test's launch: SLURM_JOB_ID.SLURM_STEP_ID
export NCCL_NVLS_ENABLE=0

pids=()
logs=()
# start <log name> <rank> <ranks> <local rank> <tasks on the node> [VAR=value ...]
start() {
  local name=$1 rank=$2 ranks=$3 local_rank=$4 per_node=$5
  shift 5
  env -u OMPI_COMM_WORLD_RANK -u PMI_RANK SLURM_JOB_ID=$job SLURM_STEP_ID=0 SLURM_PROCID=$rank \
    SLURM_STEP_NUM_TASKS=$ranks SLURM_NTASKS=$ranks SLURM_LOCALID=$local_rank SLURM_NODEID=0 \
    SLURM_STEP_TASKS_PER_NODE=$per_node CUDA_VISIBLE_DEVICES=$two_gpus "$@" \
    stdbuf -oL -eL "$program" --id-file "$idfile" --timeout $deadline --n 1000 ${extra:-} >"$dir/$name.log" 2>&1 &
  pids+=($!)
  logs+=("$name")
}

failures=0
# expect <log name> <exit code> <regex of its output>
declare -A code
expect() {
  local name=$1 want=$2 pattern=$3
  if [[ ${code[$name]} != "$want" ]]; then
    echo "FAIL: $name exited ${code[$name]}, expected $want"
    failures=$((failures + 1))
  fi
  if ! grep -Eq -- "$pattern" "$dir/$name.log"; then
    echo "FAIL: $name did not print /$pattern/"
    failures=$((failures + 1))
  fi
}

t0=$SECONDS
case $case in
pass)
  start rank0 0 2 0 2
  start rank1 1 2 1 2
  ;;
count_mismatch)
  start rank0 0 2 0 2
  sleep 1 # rank 0's file first: rank 1 then reads the count it disagrees with
  start rank1 1 3 1 2
  ;;
two_rank0)
  start first 0 2 0 2
  sleep 1
  start second 0 2 0 2
  ;;
no_rank1) start rank0 0 2 0 2 ;;
no_rank0) start rank1 1 2 1 2 ;;
rank_exits)
  start rank0 0 2 0 2 CUDA_VISIBLE_DEVICES=$first_gpu
  start rank1 1 2 1 2 CUDA_VISIBLE_DEVICES=
  ;;
too_many_ranks)
  for r in 0 1 2; do start rank$r $r 3 $r 3; done
  ;;
shared_gpu)
  start rank0 0 2 0 2 CUDA_VISIBLE_DEVICES=$first_gpu
  start rank1 1 2 1 2 CUDA_VISIBLE_DEVICES=$first_gpu
  ;;
other_launch | stale_replaced)
  { printf 'nccl-id ranks=2 launch=%s.0 host=elsewhere pid=1\n' $((job + 1)); head -c 128 /dev/zero; } >"$idfile"
  [[ $case == stale_replaced ]] && start rank0 0 2 0 2
  start rank1 1 2 1 2
  ;;
rank_dies)
  extra="--bench --max-bytes 1G"
  start rank0 0 2 0 2
  start rank1 1 2 1 2
  for _ in $(seq 600); do # until the sweep has begun (at most 30 s)
    grep -q "bus bandwidth" "$dir/rank0.log" && break
    sleep 0.05
  done
  sleep 0.1
  t0=$SECONDS # the deadline counts from the crash
  kill -KILL "${pids[1]}" # the test plays the crash; the program itself never signals
  ;;
*)
  echo "unknown case $case"
  exit 2
  ;;
esac

for k in "${!pids[@]}"; do
  wait "${pids[$k]}"
  code[${logs[$k]}]=$?
done
took=$((SECONDS - t0))
for name in "${logs[@]}"; do
  echo "----- $name (exit ${code[$name]}):"
  cat "$dir/$name.log"
done
echo "----- every rank ended after ${took} s (deadline ${deadline} s)"
if [[ $took -gt $((deadline + slack)) ]]; then
  echo "FAIL: took ${took} s, past the deadline ${deadline} s + ${slack} s"
  failures=$((failures + 1))
fi

late="did not form within $deadline s"
case $case in
pass | stale_replaced)
  expect rank0 0 "PASS"
  expect rank1 0 "rank 1 of 2"
  ;;
count_mismatch)
  expect rank1 2 "for 2 ranks .* but this rank was started as one of 3"
  expect rank0 2 "$late"
  ;;
two_rank0)
  # whichever wrote the file first waits for rank 1; the other is refused at once
  if grep -q "two processes were given rank 0" "$dir/first.log"; then
    expect first 2 "two processes were given rank 0"
    expect second 2 "$late"
  else
    expect second 2 "two processes were given rank 0"
    expect first 2 "$late"
  fi
  ;;
no_rank1) expect rank0 2 "$late" ;;
no_rank0) expect rank1 2 "no NCCL id in .*after $deadline s.*node-local /tmp" ;;
rank_exits)
  expect rank1 77 "SKIPPED"
  expect rank0 2 "$late"
  ;;
too_many_ranks)
  for r in 0 1 2; do
    expect rank$r 2 "runs 3 ranks .* sees 2 GPUs .*--ntasks-per-node=2"
  done
  if [[ $took -gt 8 ]]; then
    echo "FAIL: the refusal took ${took} s; it must come before any wait"
    failures=$((failures + 1))
  fi
  ;;
shared_gpu)
  # NCCL checks for a duplicate GPU after its first exchange of every rank's GPU, so each rank
  # finds the mistake itself (ncclInvalidUsage): neither can see the other's abort first.
  expect rank0 2 "rank 0: NCCL refused to form the communicator .*two ranks on one GPU"
  expect rank1 2 "rank 1: NCCL refused to form the communicator .*two ranks on one GPU"
  ;;
other_launch) expect rank1 2 "still holds another launch's NCCL id .*launch $((job + 1)).0" ;;
rank_dies)
  expect rank1 137 "rank 1 of 2"
  expect rank0 2 "rank 0: .*NCCL aborted the communicator"
  # the crash came during the sweep, not before the communicator formed (where the same words
  # end the "did not form" message)
  if ! grep -q "bus bandwidth" "$dir/rank0.log" ||
    grep -Eq "did not form|failed to form" "$dir/rank0.log"; then
    echo "FAIL: rank 1 was not killed during the sweep"
    failures=$((failures + 1))
  fi
  ;;
esac
if [[ $failures -gt 0 ]]; then
  echo "launch_failure $case: $failures check(s) failed"
  exit 1
fi
echo "launch_failure $case: as expected"
exit 0
