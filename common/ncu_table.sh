#!/bin/bash
# The counters that account for a kernel's distance to its roof, as a small CSV that a student
# without profiler access can read (the chapters' pages quote it), measured with Nsight Compute.
#
#   common/ncu_table.sh <out.csv> <kernel regex> <launches to skip> -- <program> [args...]
#   common/ncu_table.sh docs/results/02_heat1d/ncu_temporal.csv heat_temporal_kernel 2 -- \
#       build/02_heat1d/heat1d --variant temporal --points 16777216 --steps 96 --init random --reps 1
#
# One launch of the kernel is profiled (after skipping some, past the warm-up). Nsight Compute
# locks the clocks to their base values while it measures, so its duration is longer than the
# timed runs'; the ratios (percent of peak, bytes, wavefronts) are what carry over. Needs ncu
# (CUDA toolkit) and a GPU; exit 77 without them.
set -o pipefail
if [ $# -lt 5 ] || [ "$4" != "--" ]; then
    echo "usage: $0 <out.csv> <kernel regex> <launches to skip> -- <program> [args...]" >&2
    exit 2
fi
out=$1 kernel=$2 skip=$3
shift 4
ncu=$(command -v ncu || echo "${CUDA_HOME:-/usr/local/cuda}/bin/ncu")
if [ ! -x "$ncu" ] || ! nvidia-smi -L > /dev/null 2>&1; then
    echo "[tutorial-skip] ncu or a GPU is missing"
    exit 77
fi

# metric|what it says (the order of the table)
metrics="gpu__time_duration.sum|the kernel's time (clocks locked to base)
sm__cycles_elapsed.avg.per_second|SM clock while profiled
dram__bytes_read.sum|bytes read from DRAM
dram__bytes_write.sum|bytes written to DRAM
dram__throughput.avg.pct_of_peak_sustained_elapsed|DRAM bandwidth used (% of peak)
lts__t_sector_hit_rate.pct|L2 hit rate
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum|shared-memory wavefronts (128 bytes each)
l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed|shared-memory bandwidth used (% of peak)
l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum|extra wavefronts from bank conflicts
sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active|load and store instructions issued (% of peak)
sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active|FP64 pipe busy (% of peak)
sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active|FP32 FMA pipe busy (% of peak)
sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active|integer and logic (ALU) pipe busy (% of peak)
smsp__issue_active.avg.pct_of_peak_sustained_active|cycles a scheduler issued an instruction (%)
smsp__inst_executed.sum|warp instructions executed
sm__warps_active.avg.pct_of_peak_sustained_active|achieved occupancy (% of the warp slots)
smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio|warps waiting on global memory (per issue)
smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio|warps waiting on shared memory (per issue)
smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio|warps held back by a full shared-memory queue (per issue)
smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio|warps waiting at __syncthreads (per issue)
smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio|warps held back by a full global-memory queue (per issue)"
list=$(echo "$metrics" | cut -d'|' -f1 | paste -sd, -)

raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
"$ncu" --csv --print-units base --metrics "$list" -k "regex:$kernel" -s "$skip" -c 1 \
    --log-file "$raw" "$@" > /dev/null || { echo "ncu failed" >&2; exit 1; }
if ! grep -q '^"ID"' "$raw"; then
    echo "ncu profiled no kernel matching '$kernel' (after skipping $skip)" >&2
    exit 1
fi

mkdir -p "$(dirname "$out")"
{
    echo "# date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    repo=$(dirname "$0")
    commit=$(git -C "$repo" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
    [ -n "$(git -C "$repo" status --porcelain --untracked-files=no 2>/dev/null)" ] && commit="$commit-dirty"
    echo "# commit: $commit"
    echo "# toolkit: Nsight Compute $("$ncu" --version | tail -1 | sed 's/^Version //')"
    echo "# device: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
    echo "# kernel: $(awk -F'","' '/^"[0-9]/ {print $5; exit}' "$raw" | cut -d'(' -f1); command: $*"
    echo "metric,unit,value,what"
    echo "$metrics" | while IFS='|' read -r name what; do
        # The CSV columns of ncu: ..., "Metric Name", "Metric Unit", "Metric Value" (the last three).
        awk -F'","' -v m="$name" -v w="$what" '$0 ~ /^"[0-9]/ {
            gsub(/"$/, "", $NF); n = NF
            if ($(n - 2) == m) { v = $n; gsub(/,/, "", v); gsub(/,/, ";", w); printf "%s,%s,%s,%s\n", m, $(n - 1), v, w; exit }
        }' "$raw"
    done
} > "$out"
echo "wrote $out ($(grep -vc '^#' "$out") lines)"
