/* Outputs that are never half-written: temporary names, commit, abort; whole-file reads. */
#include <md5cine/fileio.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"

static bool exists(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0;
}

TEST(two_outputs_to_one_name_get_different_temporary_files)
{
    char path[512];
    mc_outfile a, b;
    mc_error err;

    test_tmp_path(path, sizeof path, "twice.bin");
    ASSERT_OK(mc_outfile_begin(&a, path, 1, &err), &err);
    ASSERT_OK(mc_outfile_begin(&b, path, 0, &err), &err);
    EXPECT(strcmp(a.tmp, b.tmp) != 0);
    EXPECT(exists(a.tmp));
    EXPECT(exists(b.tmp)); /* created empty for a writer that opens it by name */
    EXPECT(!exists(path)); /* nothing under the final name until commit */
    fputs("first", a.fp);
    ASSERT_OK(mc_outfile_commit(&a, &err), &err);
    EXPECT(exists(path));
    EXPECT(!exists(a.tmp));
    mc_outfile_abort(&b);
    EXPECT(!exists(b.tmp));
    unlink(path);
}

TEST(commit_renames_the_whole_file_into_place)
{
    char path[512], *buf;
    size_t len;
    mc_outfile o;
    mc_error err;

    test_tmp_path(path, sizeof path, "whole.txt");
    ASSERT_OK(mc_outfile_begin(&o, path, 1, &err), &err);
    fputs("line one\nline two\n", o.fp);
    ASSERT_OK(mc_outfile_commit(&o, &err), &err);
    ASSERT_OK(mc_read_file(path, &buf, &len, &err), &err);
    EXPECT_EQ_INT(len, 18);
    EXPECT_EQ_STR(buf, "line one\nline two\n");
    free(buf);
    unlink(path);
}

TEST(abort_leaves_nothing_and_may_be_called_twice)
{
    char path[512], tmp[sizeof ((mc_outfile *)0)->tmp];
    mc_outfile o;
    mc_error err;

    test_tmp_path(path, sizeof path, "aborted.txt");
    ASSERT_OK(mc_outfile_begin(&o, path, 1, &err), &err);
    fputs("half", o.fp);
    snprintf(tmp, sizeof tmp, "%s", o.tmp);
    mc_outfile_abort(&o);
    mc_outfile_abort(&o);
    EXPECT(!exists(tmp));
    EXPECT(!exists(path));
}

TEST(a_missing_folder_is_an_io_error_naming_the_output)
{
    char path[512];
    mc_outfile o;
    mc_error err;

    test_tmp_path(path, sizeof path, "no-such-folder/out.mp4");
    EXPECT_EQ_INT(mc_outfile_begin(&o, path, 0, &err), MC_ERR_IO);
    EXPECT_CONTAINS(err.msg, "out.mp4");
    EXPECT_EQ_STR(o.tmp, "");
}

TEST(a_new_output_gets_the_usual_permissions)
{
    char path[512];
    mc_outfile o;
    mc_error err;
    struct stat st;
    mode_t mask = umask(022);

    test_tmp_path(path, sizeof path, "mode.txt");
    ASSERT_OK(mc_outfile_begin(&o, path, 1, &err), &err);
    ASSERT_OK(mc_outfile_commit(&o, &err), &err);
    ASSERT(stat(path, &st) == 0);
    EXPECT_EQ_INT(st.st_mode & 0777, 0644); /* 0666 less the umask 022, not mkstemp's 0600 */
    umask(mask);
    unlink(path);
}

/* fileio.h: "<dir>/.<base>.<pid>.tmp". */
TEST(the_temporary_is_short_and_carries_the_process_id)
{
    char path[512], want[600];
    mc_outfile o;
    mc_error err;

    const char *base;

    test_tmp_path(path, sizeof path, "short.bin");
    base = strrchr(path, '/') + 1;
    ASSERT_OK(mc_outfile_begin(&o, path, MC_OUTFILE_STREAM, &err), &err);
    snprintf(want, sizeof want, "%.*s.%s.%ld.tmp", (int)(base - path), path, base,
             (long)getpid());
    EXPECT_EQ_STR(o.tmp, want);
    mc_outfile_abort(&o);
}

/* A name of 255 bytes (the longest a Linux file system takes) still has a temporary: the
 * name is cut to its first 236 bytes. */
TEST(a_255_byte_name_can_be_written)
{
    char path[1024];
    mc_outfile o;
    mc_error err;
    size_t n, len;

    test_tmp_path(path, sizeof path, "");
    len = strlen(path);
    n = strlen(strrchr(path, '/') + 1); /* the harness's own prefix */
    memset(path + len, 'x', 255 - n);
    path[len + 255 - n] = '\0';
    ASSERT_OK(mc_outfile_begin(&o, path, MC_OUTFILE_STREAM, &err), &err);
    EXPECT(strlen(strrchr(o.tmp, '/') + 1) <= 255);
    EXPECT(fputs("data", o.fp) >= 0);
    ASSERT_OK(mc_outfile_commit(&o, &err), &err);
    EXPECT(exists(path));
    unlink(path);
}

TEST(a_second_exclusive_writer_of_one_output_is_refused)
{
    char path[512];
    mc_outfile a, b;
    mc_error err;

    test_tmp_path(path, sizeof path, "locked.bin");
    ASSERT_OK(mc_outfile_begin(&a, path, MC_OUTFILE_EXCLUSIVE, &err), &err);
    EXPECT_EQ_INT(mc_outfile_begin(&b, path, MC_OUTFILE_EXCLUSIVE, &err), MC_ERR_IO);
    EXPECT_CONTAINS(err.msg, "is being written by another process");
    EXPECT_EQ_STR(b.tmp, "");
    EXPECT(exists(a.tmp));
    ASSERT_OK(mc_outfile_commit(&a, &err), &err);
    /* Once the first is done the name is free again. */
    ASSERT_OK(mc_outfile_begin(&b, path, MC_OUTFILE_EXCLUSIVE, &err), &err);
    mc_outfile_abort(&b);
    unlink(path);
}

/* A temporary left by a process that is gone (a child that has exited and been reaped) is
 * removed by the next exclusive writer of the same output, and only of that output. */
TEST(an_exclusive_writer_removes_a_dead_processes_temporary)
{
    char path[512], stale[600], other[600];
    const char *base;
    mc_outfile o;
    mc_error err;
    pid_t child = fork();
    FILE *f;

    if (child == 0)
        _exit(0);
    ASSERT(child > 0);
    ASSERT(waitpid(child, NULL, 0) == child);
    test_tmp_path(path, sizeof path, "stale.bin");
    base = strrchr(path, '/') + 1;
    snprintf(stale, sizeof stale, "%.*s.%s.%ld-3.tmp", (int)(base - path), path, base,
             (long)child);
    snprintf(other, sizeof other, "%.*s.%s2.%ld.tmp", (int)(base - path), path, base,
             (long)child);
    ASSERT((f = fopen(stale, "wb")) != NULL);
    fclose(f);
    ASSERT((f = fopen(other, "wb")) != NULL);
    fclose(f);
    ASSERT_OK(mc_outfile_begin(&o, path, MC_OUTFILE_EXCLUSIVE, &err), &err);
    EXPECT(!exists(stale));
    EXPECT(exists(other));
    mc_outfile_abort(&o);
    unlink(other);
}
