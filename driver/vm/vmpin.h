/*
 * vmpin.h - where a guest's vCPUs run on the host: whole cores of one NUMA
 * node where they fit, the host CPUs left over kept for qemu's own threads
 * (its main loop, 9p I/O), and the guest given the same topology (sockets,
 * cores, threads, nodes), so a vCPU holding a lock is neither preempted by
 * qemu's housekeeping nor sharing a core with a vCPU the guest thinks is on
 * another. The plan is pure (unit-tested on made-up topologies); only
 * vmpin_topology reads the machine, below a root as kernelinfo does.
 */
#ifndef DBSCALE_VMPIN_H
#define DBSCALE_VMPIN_H

#include <stddef.h>

#define VMPIN_MAX      1024
#define VMPIN_MAXNODES 16 /* guest NUMA nodes at most (more: pinned in order, one node told) */

struct vmpin_cpu {
    int cpu;  /* host CPU number */
    int core; /* its physical core: the lowest CPU among its SMT siblings */
    int node; /* its NUMA node (0 without NUMA) */
};

struct vmpin {
    int pin[VMPIN_MAX];          /* host CPU of each vCPU */
    int house[VMPIN_MAX];        /* host CPUs for qemu's own threads: whole cores no vCPU is on */
    int nhouse;                  /* 0: none left (qemu's threads share the vCPUs' CPUs) */
    int sockets, cores, threads; /* the guest's -smp: sockets x cores x threads = vCPUs */
    int nodes;                   /* host nodes the vCPUs span, one guest node (socket) each */
    char note[256];              /* how the plan fell short of whole cores on one node, or "" */
};

/* The topology of the host CPUs in cpus[].cpu (ascending, n of them), from
 * ROOT/sys/devices/system/cpu/cpuN/{topology/thread_siblings_list,nodeM}:
 * fills core and node ("/" for the machine). */
void vmpin_topology(const char *root, struct vmpin_cpu *cpus, int n);

/* vcpus pinned on the n host CPUs: whole cores (all of a core's SMT
 * siblings, the guest given as many threads per core), on the node with the
 * most cores when they fit in one, else spread evenly over the fewest nodes
 * that hold them (a guest node each); every CPU of a core no vCPU is on is
 * a housekeeping CPU. 0, or -1 with note when vcpus is more than n. */
int vmpin_plan(const struct vmpin_cpu *cpus, int n, int vcpus, struct vmpin *p);

/* The vCPUs a guest gets by default: the n CPUs but one core, kept for
 * qemu's own threads, when there are 4 cores or more; all n on a smaller
 * host, where a core less would leave a guest too few to be SMP. */
int vmpin_default_vcpus(const struct vmpin_cpu *cpus, int n);

#endif
