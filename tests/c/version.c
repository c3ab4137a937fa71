/* The header's version macros and gpucc_version() agree; status names, in range or not. */
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
   CHECK(strcmp(gpucc_status_name(GPUCC_STATUS_INTERNAL), "INTERNAL") == 0);
   /* Any int may reach the function from C; past the enum it names no status. */
   CHECK(strcmp(gpucc_status_name(7), "UNKNOWN") == 0);
   CHECK(strcmp(gpucc_status_name(-1), "UNKNOWN") == 0);
   CHECK(strcmp(gpucc_status_name(1000000), "UNKNOWN") == 0);
   return check_report("version");
}
