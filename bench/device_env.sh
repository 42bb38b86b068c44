# device_env.sh - the set-up the MPI device benches share, sourced from the
# repository root (bench/dist_floor_device.sh, bench/pcie_floor_device.sh):
# the lent machine has NVIDIA's OpenCL driver but no ICD loader, so the
# loader and headers come as .debs (DEBS=DIR, default .dev/debs; nothing is
# installed when there are none, as on a dry run elsewhere), unpacked with
# dpkg -x, and the driver registered with the loader; mpirun may run as
# root there; MPIRUN and MPICC name Open MPI's (by their Debian names when
# dpkg -x left no alternatives links). floor_finish ends a run.
if ls "${DEBS:-.dev/debs}"/*.deb >/dev/null 2>&1; then
    for f in "${DEBS:-.dev/debs}"/*.deb; do dpkg -x "$f" /; done
    ldconfig
    mkdir -p /etc/OpenCL/vendors
    echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPIRUN=$(command -v mpirun || echo /usr/bin/mpirun.openmpi)
MPICC=$(command -v mpicc || echo /usr/bin/mpicc.openmpi)

# floor_finish DIR RUN SENDRECV ALL: the exchange's floor (SENDRECV, the
# built bench/sendrecv_floor.c, over 2 ranks with the busiest rank's bytes
# of the dist run whose output is DIR/RUN.txt), the table of every run in
# DIR (bench/pcie_floor_table.py, into DIR/table.md), then every file of
# DIR in one, ALL (what the device tool brings back)
floor_finish() {
    local dir=$1 run=$2 sendrecv=$3 all=$4 bytes f
    bytes=$(awk '/^bytes sent per rank:/ { m = 0; for (i = 5; i <= NF; i++) if ($i > m) m = $i; print m }' \
        "$dir/$run.txt" 2>/dev/null)
    if [ -x "$sendrecv" ] && [ -n "$bytes" ] && [ "$bytes" != 0 ]; then
        timeout 60 "$MPIRUN" --bind-to none -np 2 "$sendrecv" "$bytes" 2>&1 | tee "$dir/sendrecv.txt"
    fi
    python3 bench/pcie_floor_table.py "$dir" | tee "$dir/table.md"
    for f in "$dir"/*; do
        echo "==> $(basename "$f") <=="
        cat "$f"
    done >"$all"
    echo "results: $all"
}
