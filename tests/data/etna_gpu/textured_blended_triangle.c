/* One textured, blended triangle on a 32x32 RGBA8 framebuffer, through EGL (surfaceless) and
 * OpenGL ES 2. It is how the recordings in tests/data/etna_gpu/ were made: run against a Mesa build
 * with the executing etnaviv drm-shim and GPUCC_ETNA_GPU_CAPTURE=DIR (mesa/README-style
 * environment in tests/etna_gpu.rs), and it also checks the pixels it reads back itself, so it
 * is a GL test of the simulated GPU in its own right.
 *
 * The expected image, derived by hand (tests/etna_gpu.rs holds the same rule):
 *  - the triangle (-1,-1), (1,-1), (-1,1) covers the pixels whose centre has x + y < 31 (the
 *    hypotenuse is a right edge, so centres on it, x + y = 31, are not drawn);
 *  - its texture coordinate is the window position / 32, sampling the 2x2 texture (rows from
 *    the bottom: red, green / blue, white; NEAREST) as red for x < 16, y < 16, green for
 *    x >= 16, blue for y >= 16;
 *  - the fragment colour is (texel.rgb, 0.5), blended over the clear colour (0, 1, 0, 1) with
 *    SRC_ALPHA, ONE_MINUS_SRC_ALPHA on all four channels: red gives (0.5, 0.5, 0, 0.75),
 *    green (0, 1, 0, 0.75), blue (0, 0.5, 0.5, 0.75), and uncovered pixels stay (0, 1, 0, 1).
 *
 * Build: cc -o textured_blended_triangle textured_blended_triangle.c -lEGL -lGLESv2
 */
#include <stdio.h>
#include <stdlib.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>

#define SIZE 32

static const char *vs_text =
   "attribute vec4 position;\n"
   "attribute vec2 texcoord_in;\n"
   "varying vec2 texcoord;\n"
   "void main() { gl_Position = position; texcoord = texcoord_in; }\n";

static const char *fs_text =
   "precision mediump float;\n"
   "uniform sampler2D tex;\n"
   "varying vec2 texcoord;\n"
   "void main() { gl_FragColor = vec4(texture2D(tex, texcoord).rgb, 0.5); }\n";

static GLuint
shader(GLenum stage, const char *text)
{
   GLuint s = glCreateShader(stage);
   glShaderSource(s, 1, &text, NULL);
   glCompileShader(s);
   GLint ok = 0;
   glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
   if (!ok) {
      char log[1024];
      glGetShaderInfoLog(s, sizeof(log), NULL, log);
      fprintf(stderr, "shader: %s\n", log);
      exit(1);
   }
   return s;
}

/* The hand-derived colour of pixel (x, y), y counted from the bottom, in 8-bit units. */
static void
expected(int x, int y, int rgba[4])
{
   static const int clear[4] = {0, 255, 0, 255};
   if (x + y >= 31) {
      for (int c = 0; c < 4; c++)
         rgba[c] = clear[c];
      return;
   }
   int texel[3] = {0, 0, 0};
   if (y >= 16)
      texel[2] = 255; /* blue */
   else if (x >= 16)
      texel[1] = 255; /* green */
   else
      texel[0] = 255; /* red */
   for (int c = 0; c < 3; c++)
      rgba[c] = (texel[c] + clear[c]) / 2;
   rgba[3] = (128 + 255) / 2;
}

int
main(void)
{
   PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
      (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
   EGLDisplay dpy = get_display ? get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL)
                                : EGL_NO_DISPLAY;
   if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL)) {
      fprintf(stderr, "no surfaceless EGL display\n");
      return 2;
   }
   eglBindAPI(EGL_OPENGL_ES_API);
   static const EGLint ctx_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
   EGLContext ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, ctx_attribs);
   if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
      fprintf(stderr, "no GLES2 context\n");
      return 2;
   }

   GLuint rb, fbo;
   glGenRenderbuffers(1, &rb);
   glBindRenderbuffer(GL_RENDERBUFFER, rb);
   glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8_OES, SIZE, SIZE);
   glGenFramebuffers(1, &fbo);
   glBindFramebuffer(GL_FRAMEBUFFER, fbo);
   glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
   if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
      fprintf(stderr, "framebuffer incomplete\n");
      return 2;
   }
   glViewport(0, 0, SIZE, SIZE);

   /* The 2x2 texture, rows from the bottom. */
   static const GLubyte texels[] = {
      255, 0, 0, 255,     0, 255, 0, 255,
      0, 0, 255, 255,     255, 255, 255, 255,
   };
   GLuint tex;
   glGenTextures(1, &tex);
   glBindTexture(GL_TEXTURE_2D, tex);
   glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);

   GLuint prog = glCreateProgram();
   glAttachShader(prog, shader(GL_VERTEX_SHADER, vs_text));
   glAttachShader(prog, shader(GL_FRAGMENT_SHADER, fs_text));
   glBindAttribLocation(prog, 0, "position");
   glBindAttribLocation(prog, 1, "texcoord_in");
   glLinkProgram(prog);
   glUseProgram(prog);
   glUniform1i(glGetUniformLocation(prog, "tex"), 0);

   static const GLfloat vertices[] = {
      -1, -1, 0, 0,
      1, -1, 1, 0,
      -1, 1, 0, 1,
   };
   GLuint vbo;
   glGenBuffers(1, &vbo);
   glBindBuffer(GL_ARRAY_BUFFER, vbo);
   glBufferData(GL_ARRAY_BUFFER, sizeof(vertices), vertices, GL_STATIC_DRAW);
   glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 16, (void *)0);
   glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 16, (void *)8);
   glEnableVertexAttribArray(0);
   glEnableVertexAttribArray(1);

   glClearColor(0, 1, 0, 1);
   glClear(GL_COLOR_BUFFER_BIT);
   glEnable(GL_BLEND);
   glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
   glDrawArrays(GL_TRIANGLES, 0, 3);

   GLubyte pixels[SIZE * SIZE * 4];
   glReadPixels(0, 0, SIZE, SIZE, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
   if (glGetError() != GL_NO_ERROR) {
      fprintf(stderr, "GL error\n");
      return 2;
   }

   int wrong = 0;
   for (int y = 0; y < SIZE; y++) {
      for (int x = 0; x < SIZE; x++) {
         int want[4];
         expected(x, y, want);
         const GLubyte *got = &pixels[(y * SIZE + x) * 4];
         for (int c = 0; c < 4; c++) {
            if (abs(got[c] - want[c]) > 1) {
               if (wrong < 8)
                  fprintf(stderr, "pixel (%d, %d): got %d %d %d %d, want %d %d %d %d\n", x, y,
                          got[0], got[1], got[2], got[3], want[0], want[1], want[2], want[3]);
               wrong++;
               break;
            }
         }
      }
   }
   printf("textured_blended_triangle: %d of %d pixels wrong\n", wrong, SIZE * SIZE);
   return wrong ? 1 : 0;
}
