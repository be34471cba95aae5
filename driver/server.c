/* server.c - not built yet: a placeholder so the verb table links. */
#include "util.h"
#include "verbs.h"

int server_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    die(EXIT_RUNTIME, "this verb is not built yet");
}
