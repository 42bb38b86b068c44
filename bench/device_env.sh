# device_env.sh - the set-up the MPI device benches share, sourced from the
# repository root (bench/dist_floor_device.sh, bench/pcie_floor_device.sh):
# the lent machine has NVIDIA's OpenCL driver but no ICD loader, so the
# loader and headers come as .debs (DEBS=DIR, default .dev/debs; nothing is
# installed when there are none, as on a dry run elsewhere), unpacked with
# dpkg -x, and the driver registered with the loader; mpirun may run as
# root there; MPIRUN and MPICC name Open MPI's (by their Debian names when
# dpkg -x left no alternatives links).
if ls "${DEBS:-.dev/debs}"/*.deb >/dev/null 2>&1; then
    for f in "${DEBS:-.dev/debs}"/*.deb; do dpkg -x "$f" /; done
    ldconfig
    mkdir -p /etc/OpenCL/vendors
    echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPIRUN=$(command -v mpirun || echo /usr/bin/mpirun.openmpi)
MPICC=$(command -v mpicc || echo /usr/bin/mpicc.openmpi)
