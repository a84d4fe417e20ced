/* placeholder until the pose module lands */
#include "test.h"
static void nothing_yet(void) { }
int main(int argc, char **argv)
{
    static const test_case cases[] = { TEST_ENTRY(nothing_yet) };
    return test_run(argc, argv, cases, TEST_COUNT(cases));
}
