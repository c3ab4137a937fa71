/* A driver may call gpucc from an atexit handler (Mesa's drm-shim prints the simulated GPU's
 * report there). By then the main thread's thread-local storage is torn down, so gpucc can no
 * longer keep the per-thread error text; the calls must still return their status instead of
 * aborting the process from inside the C ABI. */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

static void
at_exit(void)
{
   gpucc_compiler *compiler = NULL;
   /* A failing call (it would record the error text) and a succeeding one (it would clear it). */
   if (gpucc_compiler_create("no-such-target", &compiler) != GPUCC_STATUS_INVALID_ARGUMENT)
      _exit(3);
   if (gpucc_compiler_create("ivb", &compiler) != GPUCC_STATUS_OK)
      _exit(4);
   gpucc_compiler_destroy(compiler);
   printf("atexit: ok\n");
   fflush(stdout);
   _exit(0);
}

int
main(void)
{
   gpucc_compiler *compiler = NULL;
   /* Touch the per-thread error text so that exit tears it down. */
   CHECK_STATUS(gpucc_compiler_create("no-such-target", &compiler), GPUCC_STATUS_INVALID_ARGUMENT,
                "no-such-target");
   atexit(at_exit);
   if (check_report("atexit (main)"))
      return 1;
   /* Returning from main runs the handler, which decides the exit status. */
   return 2;
}
