/* A small test harness: EXPECT_* record a failure and go on, ASSERT_* return from the case.
 * Each failure prints file:line, the expression and both values. test_run() runs every case
 * (or the ones named on the command line) and ends with "N passed, N failed". */
#ifndef MC_TEST_H
#define MC_TEST_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <md5cine/error.h>

typedef struct test_case {
    const char *name;
    void (*fn)(void);
} test_case;

#define TEST_ENTRY(fn) { #fn, fn }
#define TEST_COUNT(a) (sizeof(a) / sizeof((a)[0]))

int test_run(int argc, char **argv, const test_case *cases, size_t n);

/* One error a parser must report: its input (a text or a path), status, position and a part of
 * its message. */
typedef struct test_error_case {
    const char *input;
    mc_status code;
    int line, col;
    const char *msg;
} test_error_case;

/* EXPECT_ERROR_IS(c, st, err, row): st and *err are c's status, line and column, and err's message
 * holds c's; a failure names the row and its input. */
bool test_error_is(const char *file, int line, const test_error_case *c, mc_status st,
                   const mc_error *err, size_t row);
#define EXPECT_ERROR_IS(c, st, err, row) test_error_is(__FILE__, __LINE__, c, st, err, row)

/* EXPECT_AT(e, line, col, msg): the error or warning *e is at line:col and its message holds
 * msg. */
bool test_error_at(const char *file, int line, const mc_error *e, int at_line, int at_col,
                   const char *msg);
#define EXPECT_AT(e, line, col, msg) test_error_at(__FILE__, __LINE__, e, line, col, msg)

/* TEST(name) { ... } defines a case, registered before main runs; test_main runs the registered
 * cases as test_run does, in the order the file defines them. The harness's main is test_main's
 * call: a test file has none unless it prepares something first, and then ends in test_main. */
#define TEST_MAX_CASES 64
void test_register(const char *name, void (*fn)(void), int line);
int test_main(int argc, char **argv);
#define TEST(fn)                                                                                 \
    static void fn(void);                                                                        \
    __attribute__((constructor)) static void fn##_register(void)                                 \
    {                                                                                            \
        test_register(#fn, fn, __LINE__);                                                        \
    }                                                                                            \
    static void fn(void)

/* Internal: record a failure. Returns false so ASSERT_* can return. */
bool test_fail(const char *file, int line, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));

/* An mc_warn_fn target: test_record_warning(user = test_warnings *) counts every warning and
 * keeps the first TEST_WARN_KEEP and the last. */
#define TEST_WARN_KEEP 4
typedef struct test_warnings {
    int count;
    mc_error first[TEST_WARN_KEEP];
    mc_error last;
} test_warnings;

void test_record_warning(void *user, const mc_error *w);

/* Writes into out the path of a scratch file or folder under MC_TEST_TMP (or /tmp), unique
 * per process and leaf; returns out. */
char *test_tmp_path(char *out, size_t cap, const char *leaf);

/* The entries of the folder dir whose names hold part ("" for every one), "." and ".." left
 * out, and the hidden ones (a leading '.') too unless hidden; -1 when dir cannot be read. */
int test_count_entries(const char *dir, const char *part, bool hidden);

/* Makes path an empty file; false on failure. */
bool test_touch(const char *path);

/* Writes dir/name with text; false on failure. */
bool test_write_file(const char *dir, const char *name, const char *text);

/* A scene fixture of a texture that does not decode: writes MC_TEST_TMP's leaf folder with
 * not_an_image.png (a line of text) and scene.md5scene, whose actor names tests/data/render's
 * cuts.md5camera and box.md5mesh (run from tests/) and, on line 4 column 20 (the path's opening
 * quote), that image as material "box"; the scene's path in out. false on failure. */
bool test_bad_texture_scene(const char *leaf, char *out, size_t cap);

/* A scene fixture: a 50 x 50 quad (one joint, shader "quad", texture s along -y, t along -z) in
 * the plane x = 0, and a one-frame camera at (-100, 0, 0) looking down +X, fov 90, 24 fps. */
extern const char test_quad_mesh[];
extern const char test_front_camera[];

#define EXPECT(c) ((c) ? true : test_fail(__FILE__, __LINE__, "expected %s", #c))
#define EXPECT_EQ_INT(a, b)                                                                   \
    do {                                                                                      \
        long long a_ = (long long)(a), b_ = (long long)(b);                                   \
        if (a_ != b_)                                                                         \
            test_fail(__FILE__, __LINE__, "expected %s == %s (got %lld vs %lld)", #a, #b, a_, \
                      b_);                                                                    \
    } while (0)
#define EXPECT_EQ_STR(a, b)                                                                  \
    do {                                                                                     \
        const char *a_ = (a), *b_ = (b);                                                     \
        if (!a_ || !b_ || strcmp(a_, b_) != 0)                                               \
            test_fail(__FILE__, __LINE__, "expected %s == %s (got \"%s\" vs \"%s\")", #a, #b, \
                      a_ ? a_ : "(null)", b_ ? b_ : "(null)");                               \
    } while (0)
#define EXPECT_CONTAINS(hay, needle)                                                           \
    do {                                                                                       \
        const char *h_ = (hay), *n_ = (needle);                                                \
        if (!h_ || !strstr(h_, n_))                                                            \
            test_fail(__FILE__, __LINE__, "expected %s to contain \"%s\" (got \"%s\")", #hay, \
                      n_, h_ ? h_ : "(null)");                                                 \
    } while (0)
#define EXPECT_NEAR(a, b, eps)                                                              \
    do {                                                                                    \
        double a_ = (double)(a), b_ = (double)(b);                                          \
        if (!(fabs(a_ - b_) <= (double)(eps)))                                              \
            test_fail(__FILE__, __LINE__, "expected %s ~= %s within %g (got %.9g vs %.9g)", \
                      #a, #b, (double)(eps), a_, b_);                                       \
    } while (0)
#define EXPECT_EQ_VEC3(a, b, eps)                                                             \
    do {                                                                                      \
        mc_vec3 a_ = (a), b_ = (b);                                                           \
        if (!(fabsf(a_.x - b_.x) <= (eps) && fabsf(a_.y - b_.y) <= (eps) &&                   \
              fabsf(a_.z - b_.z) <= (eps)))                                                   \
            test_fail(__FILE__, __LINE__,                                                     \
                      "expected %s ~= %s within %g (got (%g %g %g) vs (%g %g %g))", #a, #b,   \
                      (double)(eps), (double)a_.x, (double)a_.y, (double)a_.z, (double)b_.x, \
                      (double)b_.y, (double)b_.z);                                            \
    } while (0)
/* Expect MC_OK, printing the error record otherwise. */
#define EXPECT_OK(status, err)                                                                \
    do {                                                                                      \
        mc_status s_ = (status);                                                              \
        if (s_ != MC_OK)                                                                      \
            test_fail(__FILE__, __LINE__, "expected %s to succeed: %s:%d:%d: %s", #status,    \
                      (err)->file, (err)->line, (err)->col, (err)->msg);                      \
    } while (0)
#define ASSERT(c)                                                   \
    do {                                                            \
        if (!(c)) {                                                 \
            test_fail(__FILE__, __LINE__, "assertion %s failed", #c); \
            return;                                                 \
        }                                                           \
    } while (0)
#define ASSERT_OK(status, err)                                                                \
    do {                                                                                      \
        mc_status s_ = (status);                                                              \
        if (s_ != MC_OK) {                                                                    \
            test_fail(__FILE__, __LINE__, "expected %s to succeed: %s:%d:%d: %s", #status,    \
                      (err)->file, (err)->line, (err)->col, (err)->msg);                      \
            return;                                                                           \
        }                                                                                     \
    } while (0)

#endif
