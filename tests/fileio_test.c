/* Outputs that are never half-written: temporary names, commit, abort; whole-file reads. */
#include <md5cine/fileio.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"

static bool exists(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0;
}

static void two_outputs_to_one_name_get_different_temporary_files(void)
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

static void commit_renames_the_whole_file_into_place(void)
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

static void abort_leaves_nothing_and_may_be_called_twice(void)
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

static void a_missing_folder_is_an_io_error_naming_the_output(void)
{
    char path[512];
    mc_outfile o;
    mc_error err;

    test_tmp_path(path, sizeof path, "no-such-folder/out.mp4");
    EXPECT_EQ_INT(mc_outfile_begin(&o, path, 0, &err), MC_ERR_IO);
    EXPECT_CONTAINS(err.msg, "out.mp4");
    EXPECT_EQ_STR(o.tmp, "");
}

static void a_new_output_gets_the_usual_permissions(void)
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

int main(int argc, char **argv)
{
    static const test_case cases[] = {
        TEST_ENTRY(two_outputs_to_one_name_get_different_temporary_files),
        TEST_ENTRY(commit_renames_the_whole_file_into_place),
        TEST_ENTRY(abort_leaves_nothing_and_may_be_called_twice),
        TEST_ENTRY(a_missing_folder_is_an_io_error_naming_the_output),
        TEST_ENTRY(a_new_output_gets_the_usual_permissions),
    };

    return test_run(argc, argv, cases, TEST_COUNT(cases));
}
