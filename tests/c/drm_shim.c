/* LD_PRELOAD shim: a pretend i915 render node at /gpucc-shim/renderD128, so the C ABI's real
 * path (open, ioctl, mmap) runs end to end without a GPU.
 *
 * Opening the node opens /dev/zero instead (so mmap of a buffer's offset works); ioctls on
 * that descriptor are answered here like an Ivy Bridge (PCI id 0x0166) would, and every other
 * call goes to libc. GPUCC_SHIM_DRIVER names another driver for the wrong-driver path. The
 * first GEM_CREATE fails with EINTR to show that interrupted calls are retried. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/types.h>

#ifndef __user
#define __user
#endif
#include "drm.h"
#include "i915_drm.h"

#define SHIM_PATH "/gpucc-shim/renderD128"

static int shim_fd = -1;
static unsigned next_handle = 1;
static int create_attempts;
static int executed;

typedef int (*open_fn)(const char *, int, ...);
typedef int (*ioctl_fn)(int, unsigned long, ...);

static int
open_node(const char *name, int flags, mode_t mode)
{
   open_fn real = (open_fn)dlsym(RTLD_NEXT, name);
   if (!real) {
      errno = ENOSYS;
      return -1;
   }
   return real("/dev/zero", flags, mode);
}

#define OPEN_WRAPPER(fn)                                                                   \
   int fn(const char *path, int flags, ...)                                                \
   {                                                                                       \
      mode_t mode = 0;                                                                     \
      if (flags & O_CREAT) {                                                               \
         va_list ap;                                                                       \
         va_start(ap, flags);                                                              \
         mode = va_arg(ap, mode_t);                                                        \
         va_end(ap);                                                                       \
      }                                                                                    \
      if (strcmp(path, SHIM_PATH) == 0) {                                                  \
         shim_fd = open_node(#fn, flags, mode);                                            \
         return shim_fd;                                                                   \
      }                                                                                    \
      open_fn real = (open_fn)dlsym(RTLD_NEXT, #fn);                                       \
      return real(path, flags, mode);                                                      \
   }

OPEN_WRAPPER(open)
OPEN_WRAPPER(open64)

static void
copy_string(char *dst, __kernel_size_t *len, const char *src)
{
   size_t n = strlen(src);
   if (dst && *len)
      memcpy(dst, src, n < *len ? n : *len);
   *len = n;
}

static int
fail(int e)
{
   errno = e;
   return -1;
}

static int
answer(unsigned long request, void *arg)
{
   switch (request) {
   case DRM_IOCTL_VERSION: {
      struct drm_version *v = arg;
      const char *driver = getenv("GPUCC_SHIM_DRIVER");
      v->version_major = 1;
      v->version_minor = 6;
      v->version_patchlevel = 0;
      copy_string(v->name, &v->name_len, driver ? driver : "i915");
      copy_string(v->date, &v->date_len, "20201103");
      copy_string(v->desc, &v->desc_len, "gpucc test shim");
      return 0;
   }
   case DRM_IOCTL_I915_GETPARAM: {
      drm_i915_getparam_t *p = arg;
      switch (p->param) {
      case I915_PARAM_CHIPSET_ID: *p->value = 0x0166; return 0;
      case I915_PARAM_REVISION: *p->value = 9; return 0;
      case I915_PARAM_HAS_EXEC_NO_RELOC: *p->value = 1; return 0;
      default: return fail(EINVAL);
      }
   }
   case DRM_IOCTL_I915_GEM_CONTEXT_CREATE:
      ((struct drm_i915_gem_context_create *)arg)->ctx_id = 1;
      return 0;
   case DRM_IOCTL_I915_GEM_CREATE:
      if (create_attempts++ == 0)
         return fail(EINTR);
      ((struct drm_i915_gem_create *)arg)->handle = next_handle++;
      return 0;
   case DRM_IOCTL_I915_GEM_MMAP_OFFSET:
      ((struct drm_i915_gem_mmap_offset *)arg)->offset = 0;
      return 0;
   case DRM_IOCTL_I915_GEM_EXECBUFFER2: {
      /* Check what a Gen7 kernel would: the batch is the last object, it carries the
       * relocations, its length is qword aligned and ends in MI_BATCH_BUFFER_END. */
      struct drm_i915_gem_execbuffer2 *eb = arg;
      struct drm_i915_gem_exec_object2 *objs =
         (struct drm_i915_gem_exec_object2 *)(uintptr_t)eb->buffers_ptr;
      if (eb->buffer_count < 2 || eb->batch_len == 0 || eb->batch_len % 8 != 0 || eb->rsvd1 != 1)
         return fail(EINVAL);
      if (objs[eb->buffer_count - 1].relocation_count == 0)
         return fail(EINVAL);
      executed++;
      return 0;
   }
   case DRM_IOCTL_I915_GEM_WAIT:
      return executed ? 0 : fail(EINVAL);
   case DRM_IOCTL_I915_GEM_SET_DOMAIN:
   case DRM_IOCTL_GEM_CLOSE:
   case DRM_IOCTL_I915_GEM_CONTEXT_DESTROY:
      return 0;
   default:
      return fail(ENOTTY);
   }
}

int
ioctl(int fd, unsigned long request, ...)
{
   va_list ap;
   va_start(ap, request);
   void *arg = va_arg(ap, void *);
   va_end(ap);
   if (fd >= 0 && fd == shim_fd)
      return answer(request, arg);
   ioctl_fn real = (ioctl_fn)dlsym(RTLD_NEXT, "ioctl");
   return real(fd, request, arg);
}
