/*
 * vmpin.c - planning which host CPUs a guest's vCPUs and qemu's own
 * threads run on, and the topology the guest is told.
 *
 * The one idea: think in whole cores. The allowed CPUs are grouped into
 * cores (SMT siblings) and cores into nodes; a guest gets whole cores, all
 * on one node when they fit (the node with the most cores, so the most are
 * left over), else spread evenly over the fewest nodes, one guest socket
 * and node per host node; qemu keeps every core no vCPU is on. When the
 * cores are uneven (some siblings not allowed) every CPU counts as its own
 * core and the guest is told one thread per core. vCPU i is qemu's index
 * order (threads innermost, then cores, then sockets), so guest thread
 * siblings are host thread siblings.
 *
 * Reads nothing but the topology files (vmpin_topology); never fails on a
 * machine without them (each CPU its own core, one node).
 */
#include "vm/vmpin.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void vmpin_topology(const char *root, struct vmpin_cpu *cpus, int n)
{
    if (!strcmp(root, "/"))
        root = "";
    for (int i = 0; i < n; i++) {
        char path[1200], buf[256] = "";
        int c = cpus[i].cpu;
        cpus[i].core = c;
        cpus[i].node = 0;
        snprintf(path, sizeof path, "%s/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list",
                 root, c);
        FILE *f = fopen(path, "r");
        if (f) {
            if (fgets(buf, sizeof buf, f)) /* "0,4" or "0-1": the first is the lowest */
                cpus[i].core = atoi(buf);
            fclose(f);
        }
        snprintf(path, sizeof path, "%s/sys/devices/system/cpu/cpu%d", root, c);
        DIR *d = opendir(path);
        struct dirent *e;
        while (d && (e = readdir(d)))
            if (!strncmp(e->d_name, "node", 4) && e->d_name[4] >= '0' && e->d_name[4] <= '9')
                cpus[i].node = atoi(e->d_name + 4);
        if (d)
            closedir(d);
    }
}

struct core {
    int node, n;
    int cpu[8]; /* its allowed CPUs, ascending */
};

/* The allowed CPUs as cores (in order of their lowest CPU); threads per
 * core into *t (1 when uneven: then each CPU is a core). */
static int cores_of(const struct vmpin_cpu *cpus, int n, struct core *cs, int *t)
{
    int nc = 0;
    int ids[VMPIN_MAX];
    for (int i = 0; i < n; i++) {
        int j;
        for (j = 0; j < nc; j++)
            if (ids[j] == cpus[i].core && cs[j].node == cpus[i].node && cs[j].n < 8)
                break;
        if (j == nc) {
            ids[nc] = cpus[i].core;
            cs[nc].node = cpus[i].node;
            cs[nc].n = 0;
            nc++;
        }
        cs[j].cpu[cs[j].n++] = cpus[i].cpu;
    }
    *t = nc ? cs[0].n : 1;
    for (int j = 1; j < nc; j++)
        if (cs[j].n != *t)
            *t = 1;
    if (*t == 1 && nc != n) { /* uneven: every CPU its own core */
        for (int i = 0; i < n; i++) {
            cs[i].node = cpus[i].node;
            cs[i].n = 1;
            cs[i].cpu[0] = cpus[i].cpu;
        }
        nc = n;
    }
    return nc;
}

/* The nodes' numbers (distinct, ascending) and how many cores each has. */
static int nodes_of(const struct core *cs, int nc, int *node, int *count)
{
    int nn = 0;
    for (int j = 0; j < nc; j++) {
        int k = 0;
        while (k < nn && node[k] != cs[j].node)
            k++;
        if (k == nn) {
            node[nn] = cs[j].node;
            count[nn++] = 0;
        }
        count[k]++;
    }
    for (int a = 1; a < nn; a++) /* ascending by number */
        for (int b = a; b > 0 && node[b - 1] > node[b]; b--) {
            int x = node[b], y = count[b];
            node[b] = node[b - 1], count[b] = count[b - 1];
            node[b - 1] = x, count[b - 1] = y;
        }
    return nn;
}

int vmpin_default_vcpus(const struct vmpin_cpu *cpus, int n)
{
    static struct core cs[VMPIN_MAX];
    int t, nc = cores_of(cpus, n, cs, &t);
    return nc >= 4 ? n - t : n;
}

int vmpin_plan(const struct vmpin_cpu *cpus, int n, int vcpus, struct vmpin *p)
{
    static struct core cs[VMPIN_MAX];
    memset(p, 0, sizeof *p);
    if (vcpus < 1 || vcpus > n || n > VMPIN_MAX) {
        snprintf(p->note, sizeof p->note, "%d vCPUs on %d host CPUs", vcpus, n);
        return -1;
    }
    int t, nc = cores_of(cpus, n, cs, &t);
    int threads = vcpus % t == 0 ? t : 1; /* what the guest is told */
    int need = (vcpus + t - 1) / t;       /* whole cores taken */
    int node[VMPIN_MAX], count[VMPIN_MAX] = {0}, nn = nodes_of(cs, nc, node, count);
    /* one node: the one with the most cores; else the fewest nodes k with
     * need/k cores each */
    int use[VMPIN_MAX] = {0}, k = 0;
    int best = 0;
    for (int i = 1; i < nn; i++)
        if (count[i] > count[best])
            best = i;
    if (count[best] >= need) {
        use[best] = need, k = 1;
    } else {
        for (int try = 2; try <= nn && try <= VMPIN_MAXNODES && !k; try++) {
            if (need % try || vcpus % try)
                continue;
            int have = 0;
            for (int i = 0; i < nn; i++)
                have += count[i] >= need / try;
            if (have < try)
                continue;
            for (int i = 0, got = 0; i < nn && got < try; i++)
                if (count[i] >= need / try)
                    use[i] = need / try, got++;
            k = try;
        }
        if (!k) { /* uneven: the cores in order, the guest told one node */
            snprintf(p->note, sizeof p->note,
                     "%d vCPUs do not split evenly over the host's NUMA nodes: pinned in CPU "
                     "order, the guest told one node",
                     vcpus);
            for (int i = 0, left = need; i < nn; i++) {
                use[i] = count[i] < left ? count[i] : left;
                left -= use[i];
            }
        }
    }
    int v = 0, taken[VMPIN_MAX] = {0};
    for (int i = 0; i < nn; i++)
        for (int j = 0, got = 0; j < nc && got < use[i]; j++)
            if (cs[j].node == node[i] && !taken[j]) {
                taken[j] = 1, got++;
                for (int s = 0; s < cs[j].n && v < vcpus; s++)
                    p->pin[v++] = cs[j].cpu[s];
            }
    for (int j = 0; j < nc; j++)
        for (int s = 0; !taken[j] && s < cs[j].n; s++)
            p->house[p->nhouse++] = cs[j].cpu[s];
    p->nodes = k > 1 ? k : 1;
    p->sockets = p->nodes;
    p->threads = threads;
    p->cores = vcpus / threads / p->sockets;
    if (p->cores * p->threads * p->sockets != vcpus) { /* an odd count over SMT: flat */
        p->sockets = 1, p->threads = 1, p->cores = vcpus;
    }
    if (t > 1 && threads == 1 && !p->note[0])
        snprintf(p->note, sizeof p->note,
                 "%d vCPUs are not whole %d-thread cores: the guest is told one thread per core",
                 vcpus, t);
    return 0;
}
