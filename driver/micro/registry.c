/*
 * micro/registry.c - the one table of syscall tests, in the reference
 * table's order, with will-it-scale's Linux-only tests in their alphabetical
 * places (tests/NAME.c each define micro_test_NAME).
 *
 * Adding a test is a new file in tests/ and one line here; nothing else
 * knows the list. It must never hold anything but the list.
 */
#include <string.h>

#include "micro/harness.h"

#define MICRO_TESTS(X)                                                                             \
    X(access1)                                                                                     \
    X(access2)                                                                                     \
    X(context_switch1)                                                                             \
    X(brk1)                                                                                        \
    X(brk2)                                                                                        \
    X(dup1)                                                                                        \
    X(eventfd1)                                                                                    \
    X(fallocate1)                                                                                  \
    X(fallocate2)                                                                                  \
    X(fstat1)                                                                                      \
    X(fstat2)                                                                                      \
    X(futex1)                                                                                      \
    X(futex2)                                                                                      \
    X(futex3)                                                                                      \
    X(futex4)                                                                                      \
    X(getppid1)                                                                                    \
    X(lock1)                                                                                       \
    X(lock2)                                                                                       \
    X(lseek1)                                                                                      \
    X(lseek2)                                                                                      \
    X(malloc1)                                                                                     \
    X(malloc2)                                                                                     \
    X(mmap1)                                                                                       \
    X(mmap2)                                                                                       \
    X(open1)                                                                                       \
    X(open2)                                                                                       \
    X(open3)                                                                                       \
    X(openro3)                                                                                     \
    X(page_fault1)                                                                                 \
    X(page_fault2)                                                                                 \
    X(page_fault3)                                                                                 \
    X(page_fault4)                                                                                 \
    X(pipe1)                                                                                       \
    X(poll1)                                                                                       \
    X(poll2)                                                                                       \
    X(select1)                                                                                     \
    X(select2)                                                                                     \
    X(select3)                                                                                     \
    X(posix_semaphore1)                                                                            \
    X(pread1)                                                                                      \
    X(pread2)                                                                                      \
    X(pread3)                                                                                      \
    X(pthread_mutex1)                                                                              \
    X(pthread_mutex2)                                                                              \
    X(pthread_mutex3)                                                                              \
    X(pthread_mutex4)                                                                              \
    X(pthread_mutex5)                                                                              \
    X(pwrite1)                                                                                     \
    X(pwrite2)                                                                                     \
    X(pwrite3)                                                                                     \
    X(read1)                                                                                       \
    X(read2)                                                                                       \
    X(read3)                                                                                       \
    X(read4)                                                                                       \
    X(readseek1)                                                                                   \
    X(readseek2)                                                                                   \
    X(readseek3)                                                                                   \
    X(sched_yield)                                                                                 \
    X(signal1)                                                                                     \
    X(stat1)                                                                                       \
    X(stat2)                                                                                       \
    X(stat4)                                                                                       \
    X(threadspawn1)                                                                                \
    X(tlb_flush1)                                                                                  \
    X(tlb_flush2)                                                                                  \
    X(tlb_flush3)                                                                                  \
    X(unix1)                                                                                       \
    X(unlink1)                                                                                     \
    X(unlink2)                                                                                     \
    X(vfsmix)                                                                                      \
    X(write1)                                                                                      \
    X(writeseek1)                                                                                  \
    X(writeseek2)                                                                                  \
    X(writeseek3)                                                                                  \
    X(spin)                                                                                        \
    X(sleep)

#define DECLARE(n) extern const struct micro_test micro_test_##n;
MICRO_TESTS(DECLARE)

#define ENTRY(n) &micro_test_##n,
const struct micro_test *const micro_tests[] = {MICRO_TESTS(ENTRY) NULL};

const struct micro_test *micro_find(const char *name)
{
    for (int i = 0; micro_tests[i]; i++)
        if (strcmp(micro_tests[i]->name, name) == 0)
            return micro_tests[i];
    return NULL;
}
