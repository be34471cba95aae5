/* oltp.c - placeholder */
#include "util.h"
#include "verbs.h"

int oltp_main(const char *verb, int argc, char **argv)
{
    (void)verb;
    (void)argc;
    (void)argv;
    die(EXIT_RUNTIME, "this verb is not built yet");
}
