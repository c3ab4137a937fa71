/* The header's version macros and gpucc_version() agree. */
#include "check.h"

int
main(void)
{
   char expected[64];
   snprintf(expected, sizeof(expected), "%d.%d.%d", GPUCC_VERSION_MAJOR, GPUCC_VERSION_MINOR,
            GPUCC_VERSION_PATCH);
   CHECK(gpucc_version() != NULL);
   CHECK(strcmp(gpucc_version(), expected) == 0);
   CHECK(strcmp(GPUCC_VERSION_STRING, expected) == 0);
   CHECK(strcmp(gpucc_status_name(GPUCC_STATUS_PARSE_ERROR), "PARSE_ERROR") == 0);
   return check_report("version");
}
